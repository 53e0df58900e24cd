// A stand-in for the browser's WebSocket (vi.stubGlobal("WebSocket", FakeSocket)): it records
// every socket made and the ClientMessages sent on it, and plays the server's side.
import { afterEach, beforeEach, vi } from "vitest";
import { create, fromBinary, toBinary, type MessageInitShape } from "@bufbuild/protobuf";
import { ClientMessageSchema, ServerMessageSchema, type ClientMessage } from "../src/gen/envelope_pb";

export class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static made: FakeSocket[] = [];
  readyState = FakeSocket.CONNECTING;
  binaryType = "";
  sent: ClientMessage[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((e: { data: ArrayBuffer }) => void) | null = null;
  onclose: ((e: { code: number; reason: string }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  send(bytes: Uint8Array): void {
    this.sent.push(fromBinary(ClientMessageSchema, bytes));
  }
  close(): void {
    if (this.readyState === FakeSocket.CLOSED) return;
    this.readyState = FakeSocket.CLOSED;
    setTimeout(() => this.onclose?.({ code: 1005, reason: "" }), 0);
  }
  // The server's side.
  accept(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  refuse(): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code: 1006, reason: "" });
  }
  // Closes an open socket with a code and reason, as a node does.
  shut(code: number, reason: string): void {
    this.readyState = FakeSocket.CLOSED;
    this.onclose?.({ code, reason });
  }
  answer(to: ClientMessage, m: MessageInitShape<typeof ServerMessageSchema>): void {
    const bytes = toBinary(ServerMessageSchema, create(ServerMessageSchema, { ...m, requestId: to.requestId }));
    this.onmessage?.({ data: bytes.slice().buffer });
  }
  // A message the server sends on its own (request id 0: lobby updates, chat, presence).
  push(m: MessageInitShape<typeof ServerMessageSchema>): void {
    const bytes = toBinary(ServerMessageSchema, create(ServerMessageSchema, { ...m, requestId: 0n }));
    this.onmessage?.({ data: bytes.slice().buffer });
  }
  last(): ClientMessage {
    return this.sent[this.sent.length - 1];
  }
}

// Each test of the calling describe block runs on fake timers with FakeSocket as the WebSocket
// (and no socket left from the test before); `also` stubs more globals before each test.
export function useFakeSockets(also: () => void = () => {}): void {
  beforeEach(() => {
    vi.useFakeTimers();
    FakeSocket.made = [];
    vi.stubGlobal("WebSocket", FakeSocket);
    also();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });
}

// A localStorage kept in memory, empty at first (the session keeps its identity there).
export function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (k: string) => items.get(k) ?? null,
    key: (i: number) => [...items.keys()][i] ?? null,
    removeItem: (k: string) => void items.delete(k),
    setItem: (k: string, v: string) => void items.set(k, v),
  };
}
