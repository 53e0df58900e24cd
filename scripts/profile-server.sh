#!/usr/bin/env bash
# Instructions and heap allocations per action of the server, under callgrind: repeatable on a
# shared machine where wall-clock figures are not (docs/performance.md). Starts duelhall with one
# I/O thread under valgrind --tool=callgrind, plays MATCHES fast Jedi Duel matches with
# duelhall-loadgen for SECONDS, stops the server and divides the whole run's instructions and
# malloc calls by the actions it answered (from /metrics). Keeps the profile in OUT for
# callgrind_annotate.
# Usage: scripts/profile-server.sh [matches (50)] [seconds (20)] [out (callgrind.out.server)]
# BUILD_DIR: a configured Release build tree (default build/test).
set -euo pipefail
cd "$(dirname "$0")/.."
matches=${1:-50}
seconds=${2:-20}
out=${3:-callgrind.out.server}
build=${BUILD_DIR:-build/test}
cmake --build "$build" --target duelhall duelhall-loadgen --parallel 2 >/dev/null
work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --callgrind-out-file="$out" "$build/server/app/duelhall" \
  --bind 127.0.0.1 --port "$port" --data "$work/data" --log-level warn --threads 1 \
  >"$work/server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 60); do curl -sf "localhost:$port/metrics" >/dev/null && break; sleep 1; done
"$build/clients/loadgen/duelhall-loadgen" --port "$port" --matches "$matches" --warmup 1 \
  --duration "$seconds" | grep '^RESULT' | cut -c1-160
actions=$(curl -s "localhost:$port/metrics" | awk '/^duelhall_actions_total/ { s += $2 } END { print s }')
kill -INT "$pid"
wait "$pid" || true
python3 - "$out" "$actions" <<'PY'
import re, sys
path, actions = sys.argv[1], int(sys.argv[2])
names, total, mallocs, target = {}, 0, 0, None
for line in open(path, errors="replace"):
    if line.startswith("summary:") or line.startswith("totals:"):
        total = int(line.split()[1])
    m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:  # names are compressed: "(id) name" the first time, "(id)" after, for fn and cfn alike
        if m.group(3):
            names[m.group(2)] = m.group(3).strip()
        if m.group(1) == "cfn":
            target = names.get(m.group(2))
        continue
    if line.startswith("calls=") and target == "malloc":
        mallocs += int(line[6:].split()[0])
print(f"actions {actions}; per action: {total / actions:,.0f} instructions, "
      f"{mallocs / actions:.1f} malloc calls (whole run, {path})")
PY
