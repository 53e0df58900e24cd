#!/usr/bin/env bash
# Duelhall beside its peers, back to back on the same machine (docs/performance.md): Duelhall
# (1,000 Jedi Duel matches, duelhall-loadgen as fast as possible), then a bare Boost.Beast
# WebSocket echo carrying the same frame sizes (bench/peers/echo_bench.cpp: one frame in, one
# frame of the measured update size out to each of a pair). Prints, for each, actions/s, CPU per
# action (server and load generator apart) and memory per live match, with the ratios.
# Usage: scripts/bench-peers.sh [runs (default 3)]. BUILD_DIR: a configured build tree with the
# benchmarks (default build/bench-peers).
# Not measured yet: the Colyseus 0.16 room (issue 14, step 4); see docs/performance.md.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
build=${BUILD_DIR:-build/bench-peers}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF >/dev/null
fi
cmake --build "$build" --target duelhall duelhall-loadgen duelhall-echo-bench --parallel 2 >/dev/null
server_bin=$build/server/app/duelhall
loadgen_bin=$build/clients/loadgen/duelhall-loadgen
echo_bin=$build/bench/duelhall-echo-bench
ulimit -n "$(ulimit -Hn | awk '{ print ($1 == "unlimited" || $1 > 20000) ? 20000 : $1 }')"
echo "$(nproc) cores; $(uptime | sed 's/.*load/load/')"

work=$(mktemp -d)
pid=
stop() { [ -n "$pid" ] && { kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; pid=; }; }
trap 'stop; rm -rf "$work"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
value() { grep -o " $2=[^ ]*" "$1" | cut -d= -f2 | sort -g |
  awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2];
                             else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

: >"$work/duelhall.results"
: >"$work/echo.results"
for run in $(seq "$runs"); do
  rm -rf "$work/data"
  port=$(free_port)
  "$server_bin" --bind 127.0.0.1 --port "$port" --data "$work/data" --log-level warn \
    --max-connections 20000 --max-connections-per-ip 20000 >"$work/server.log" 2>&1 &
  pid=$!
  sleep 1
  "$loadgen_bin" --port "$port" --server-pid "$pid" --matches 1000 --warmup 2 --duration 10 \
    | grep '^RESULT' >>"$work/duelhall.results" || true
  stop
  update=$(tail -1 "$work/duelhall.results" | grep -o ' update_bytes=[^ ]*' | cut -d= -f2)
  update=${update%.*}
  port=$(free_port)
  "$echo_bin" serve "$port" --threads 2 &
  pid=$!
  sleep 0.5
  "$echo_bin" drive "$port" --pairs 1000 --action 20 --update "${update:-64}" --seconds 10 \
    --server-pid "$pid" >>"$work/echo.results" || true
  stop
  echo "run $run: duelhall $(tail -1 "$work/duelhall.results" | cut -c1-200)"
  echo "run $run: echo $(tail -1 "$work/echo.results")"
done

echo
echo "== medians of $runs runs (load average at the end $(uptime | sed 's/.*average: //'))"
for peer in duelhall echo; do
  f="$work/$peer.results"
  echo "$peer: $(value "$f" actions_per_s) actions/s; CPU per action server" \
    "$(value "$f" server_cpu_us_per_action) us, load generator" \
    "$(value "$f" loadgen_cpu_us_per_action) us; memory $(value "$f" rss_per_match_kib) KiB per live match"
done
dh=$(value "$work/duelhall.results" server_cpu_us_per_action)
ec=$(value "$work/echo.results" server_cpu_us_per_action)
awk -v d="$dh" -v e="$ec" 'BEGIN { if (e > 0) printf "server CPU per action, Duelhall / echo: %.2f [<= 2]\n", d / e }'
echo "colyseus: not measured (bench/peers has no Colyseus room yet)"
