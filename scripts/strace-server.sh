#!/usr/bin/env bash
# System calls per action of the server (docs/performance.md): starts duelhall, plays MATCHES
# fast Jedi Duel matches with duelhall-loadgen, attaches `strace -c -f` to the server for 5 s in
# the middle of the window and divides each call's count by the growth of duelhall_actions_total
# over the same 5 s. strace slows the server; the counts per action are what to compare.
# Usage: scripts/strace-server.sh [matches (100)]. BUILD_DIR: a configured build (build/test).
set -euo pipefail
cd "$(dirname "$0")/.."
b=${BUILD_DIR:-build/test}
m=${1:-100}
cmake --build "$b" --target duelhall duelhall-loadgen --parallel 2 >/dev/null
d=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
$b/server/app/duelhall --bind 127.0.0.1 --port $port --data $d/data --log-level warn --max-connections 20000 --max-connections-per-ip 20000 > $d/log 2>&1 &
spid=$!; sleep 1
$b/clients/loadgen/duelhall-loadgen --port $port --server-pid $spid --matches $m --warmup 3 --duration 8 > $d/lg.out &
lpid=$!
sleep 4
actions() { curl -s localhost:$port/metrics | awk '/^duelhall_actions_total/ { s += $2 } END { print s }'; }
a0=$(actions)
timeout -s INT 5 strace -c -f -p $spid -o $d/strace.out 2>/dev/null || true
a1=$(actions)
wait $lpid || true
kill $spid; wait $spid 2>/dev/null || true
n=$((a1 - a0))
echo "actions in the window: $n"
awk -v a="$n" '/^ *[0-9]/ && $NF!="total" { calls=$4; printf "%-14s %8d calls %6.2f per action\n", $NF, calls, calls/a }' $d/strace.out | sort -k4 -nr | head -10
rm -rf $d
