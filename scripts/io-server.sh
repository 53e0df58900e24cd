#!/usr/bin/env bash
# Bytes the server writes per action (docs/performance.md): starts duelhall (the default SQLite
# store, synchronous=FULL), plays MATCHES fast Jedi Duel matches with duelhall-loadgen and, over
# SECONDS in the middle of the window, divides the growth of the server's /proc/<pid>/io counters
# (wchar: bytes handed to write system calls, sockets included; write_bytes: bytes sent to the
# block layer: the WAL's frames and the checkpoints' copies of them) by the actions answered.
# Unlike rates these do not depend on the machine's load.
# Usage: scripts/io-server.sh [matches (100)] [seconds (5)]. BUILD_DIR: a configured build.
set -euo pipefail
cd "$(dirname "$0")/.."
b=${BUILD_DIR:-build/test}
m=${1:-100}
s=${2:-5}
[ -n "${NO_BUILD:-}" ] || cmake --build "$b" --target duelhall duelhall-loadgen --parallel 2 >/dev/null
d=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$b/server/app/duelhall --bind 127.0.0.1 --port $port --data $d/data --log-level warn \
  --max-connections 20000 --max-connections-per-ip 20000 >$d/log 2>&1 &
spid=$!
trap 'kill $spid 2>/dev/null || true; rm -rf $d' EXIT
for _ in $(seq 60); do curl -sf "localhost:$port/metrics" >/dev/null && break; sleep 0.5; done
$b/clients/loadgen/duelhall-loadgen --port $port --matches $m --warmup 2 --duration $((s + 4)) \
  >$d/lg.out &
lpid=$!
sleep 3
actions() { curl -s localhost:$port/metrics | awk '/^duelhall_actions_total/ { t += $2 } END { print t }'; }
io() { awk -v k="$1" '$1 == k ":" { print $2 }' /proc/$spid/io; }
db=$(ls $d/data/*.db | head -1)
page=$(python3 -c "import sys; h=open(sys.argv[1],'rb').read(18); p=h[16]<<8|h[17]; print(65536 if p==1 else p)" "$db")
a0=$(actions); w0=$(io wchar); b0=$(io write_bytes)
sleep "$s"
a1=$(actions); w1=$(io wchar); b1=$(io write_bytes)
wait $lpid || true
n=$((a1 - a0))
echo "page size $page; actions in the window: $n"
awk -v n="$n" -v w=$((w1 - w0)) -v b=$((b1 - b0)) \
  'BEGIN { printf "per action: wchar %.0f bytes, write_bytes %.0f bytes\n", w / n, b / n }'
