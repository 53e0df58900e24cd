#!/usr/bin/env python3
"""Misbehaving peers for scripts/soak.sh, alongside the load generator's honest players:
slow consumers (subscribe to the lobby and spectate, then never read, reconnecting every
minute) and a flood of bad frames (garbage binary frames, text frames, frames over the size
limit, handshakes cut short), reconnecting whenever the server closes them.
Usage: soak-peers.py PORT SECONDS [SLOW_CONSUMERS] [FLOODERS]"""
import os
import random
import socket
import sys
import threading
import time

PORT, SECONDS = int(sys.argv[1]), float(sys.argv[2])
SLOW = int(sys.argv[3]) if len(sys.argv) > 3 else 20
FLOOD = int(sys.argv[4]) if len(sys.argv) > 4 else 4
END = time.time() + SECONDS
counts = {"slow_connections": 0, "flood_connections": 0, "bad_frames": 0, "cut_handshakes": 0}
lock = threading.Lock()


def count(key):
    with lock:
        counts[key] += 1


def varint(n):
    out = b""
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])


def field(number, payload):  # a length-delimited protobuf field
    return varint(number << 3 | 2) + varint(len(payload)) + payload


def frame(payload, opcode=0x2):  # one masked client frame (zero mask: payload as is)
    n = len(payload)
    if n < 126:
        head = bytes([0x80 | opcode, 0x80 | n])
    elif n < 65536:
        head = bytes([0x80 | opcode, 0x80 | 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x80 | opcode, 0x80 | 127]) + n.to_bytes(8, "big")
    return head + b"\0\0\0\0" + payload


def connect(handshake=True):
    s = socket.create_connection(("127.0.0.1", PORT), timeout=10)
    if handshake:
        s.sendall(b"GET /ws HTTP/1.1\r\nHost: soak\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        reply = b""
        while b"\r\n\r\n" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                raise ConnectionError("closed during the handshake")
            reply += chunk
    return s


def hello(name):
    body = field(10, varint(1 << 3) + b"\x01" + field(2, name.encode()))
    return frame(b"\x08\x01" + body)  # request_id 1


def slow_consumer(i):
    while time.time() < END:
        try:
            s = connect()
            count("slow_connections")
            s.sendall(hello("slow%d" % i))
            s.sendall(frame(field(13, b"\x08\x01")))  # subscribe to the lobby
            for match in random.sample(range(1, 2000), 5):
                s.sendall(frame(field(17, b"\x08" + varint(match))))  # spectate
            # Never read: the server must drop this connection (write queue, idle timeout).
            time.sleep(min(60, max(0, END - time.time())))
            s.close()
        except OSError:
            time.sleep(1)


def flooder(i):
    rng = random.Random(i)
    while time.time() < END:
        try:
            kind = rng.randrange(4)
            if kind == 3:  # a handshake cut short: half a request, then gone
                s = connect(handshake=False)
                s.sendall(b"GET /ws HTTP/1.1\r\nHost: soak\r\nUpg")
                time.sleep(0.5)
                s.close()
                count("cut_handshakes")
                continue
            s = connect()
            count("flood_connections")
            s.sendall(hello("flood%d" % i))
            for _ in range(200):
                if kind == 0:
                    payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300)))
                    s.sendall(frame(payload))
                elif kind == 1:
                    s.sendall(frame(b'{"hello":1}', opcode=0x1))
                else:
                    s.sendall(frame(os.urandom(70000)))
                count("bad_frames")
                s.settimeout(0.01)
                try:
                    if s.recv(65536) == b"":
                        break
                except socket.timeout:
                    pass
                time.sleep(0.01)
            s.close()
        except OSError:
            time.sleep(0.2)


threads = [threading.Thread(target=slow_consumer, args=(i,), daemon=True) for i in range(SLOW)]
threads += [threading.Thread(target=flooder, args=(i,), daemon=True) for i in range(FLOOD)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("peers: " + ", ".join("%s=%d" % kv for kv in sorted(counts.items())))
