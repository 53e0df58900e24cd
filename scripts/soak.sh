#!/usr/bin/env bash
# The soak: the server under a steady half load for a long time, with misbehaving peers beside
# the honest ones, watched for anything that grows without bound.
#   - saturation is measured first (duelhall-loadgen, 1,000 matches as fast as possible, 10 s)
#     unless --rate gives the load; then duelhall-loadgen plays 200 matches paced at half of it;
#   - reconnect churn: short load-generator runs (20 matches, 5 s) one after another, each
#     opening and closing its connections;
#   - scripts/soak-peers.py: slow consumers that never read, and a flood of bad frames;
#   - every 10 s the server's RSS, open files and threads are read from /proc into a CSV.
# Criterion, after a warm-up (the first fifth of the run, at least 60 s; the server runs with a
# 20 s grace period and a 10 s linger so that it reaches its steady state within it): for each of RSS, open
# files and threads, the median of the last third of the samples must not exceed the median of
# the first third by more than 10 % plus a small allowance (RSS 8 MiB, 16 files, 0 threads), and
# the last third must not grow monotonically (every sample above the one before it; judged when
# the last third holds 10 samples or more, that is in runs of 7 minutes or longer).
# Usage: scripts/soak.sh [minutes (default 30)] [--rate ACTIONS_PER_SECOND]
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:-30}
shift || true
rate=
if [ "${1:-}" = --rate ]; then rate=$2; fi
build=${BUILD_DIR:-build/release}
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF \
    -DDUELHALL_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" --target duelhall duelhall-loadgen --parallel "${DUELHALL_JOBS:-$(nproc)}" >/dev/null
server_bin=$build/server/app/duelhall
loadgen_bin=$build/clients/loadgen/duelhall-loadgen
out=${SOAK_OUT:-$build/soak}
mkdir -p "$out"
csv=$out/samples.csv
work=$(mktemp -d)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

if [ -z "$rate" ]; then
  "$server_bin" --bind 127.0.0.1 --port 0 --data "$work/sat" --sync normal --log-level info \
    --max-connections 20000 --max-connections-per-ip 20000 >"$work/sat.log" 2>&1 &
  sat_pid=$!
  for _ in $(seq 100); do
    sat_port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/sat.log" | cut -d: -f2 || true)
    [ -n "$sat_port" ] && break
    sleep 0.1
  done
  sat=$("$loadgen_bin" --port "$sat_port" --matches 1000 --warmup 2 --duration 10 |
    grep -o 'actions_per_s=[0-9.]*' | cut -d= -f2)
  kill "$sat_pid" && wait "$sat_pid" 2>/dev/null || true
  rate=$(awk -v s="$sat" 'BEGIN { printf "%d", s / 2 }')
  echo "saturation: $sat actions/s; soaking at half: $rate actions/s"
fi
matches=200
per_match=$(awk -v r="$rate" -v m="$matches" 'BEGIN { v = r / m; if (v > 1000) v = 1000; printf "%g", v }')

rm -rf "$work/data"
# Dropped players are kept for --grace and ended matches listed for --finished-linger: short
# values let the server reach its steady state (as many kept as forgotten) early in the run.
"$server_bin" --bind 127.0.0.1 --port 0 --data "$work/data" --sync normal --log-level info \
  --max-connections 20000 --max-connections-per-ip 20000 --idle-timeout 60 --read-timeout 5 \
  --write-queue 256 --grace 20 --finished-linger 10 >"$work/server.log" 2>&1 &
server_pid=$!
pids+=("$server_pid")
port=
for _ in $(seq 100); do
  port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | cut -d: -f2 || true)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start:" && cat "$work/server.log" && exit 1; }
seconds=$((minutes * 60))
# The loaders run past the last sample, so that their ending (every connection closing) is not
# sampled as part of the steady state.
load_seconds=$((seconds + 30))
echo "soak: ${minutes} min on port $port, $matches matches at $per_match actions/s each, churn," \
  "slow consumers and bad frames; samples in $csv"

# --server-pid: the load generator reads the server's CPU time over its window. The server's CPU
# per action it prints counts all the server did (the churn and the misbehaving peers too) per
# action of the steady load.
"$loadgen_bin" --port "$port" --matches "$matches" --rate "$per_match" --warmup 0 \
  --duration "$load_seconds" --server-pid "$server_pid" >"$out/load.txt" 2>&1 &
pids+=($!)
(
  end=$((SECONDS + load_seconds))
  runs=0
  while [ $SECONDS -lt $end ]; do
    "$loadgen_bin" --port "$port" --matches 20 --warmup 0 --duration 5 --seed $runs >/dev/null 2>&1 || true
    runs=$((runs + 1))
  done
  echo "churn: $runs load-generator runs of 20 matches" >"$out/churn.txt"
) &
pids+=($!)
python3 scripts/soak-peers.py "$port" "$load_seconds" >"$out/peers.txt" 2>&1 &
pids+=($!)

echo "t_s,rss_kib,open_files,threads" >"$csv"
start=$SECONDS
while [ $((SECONDS - start)) -lt "$seconds" ]; do
  sleep 10
  kill -0 "$server_pid" 2>/dev/null || { echo "the server died:" && tail -20 "$work/server.log" && exit 1; }
  rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$server_pid/status")
  threads=$(awk '/^Threads:/ { print $2 }' "/proc/$server_pid/status")
  files=$(find "/proc/$server_pid/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
  echo "$((SECONDS - start)),$rss,$files,$threads" | tee -a "$csv" | sed 's/^/sample /'
done
wait "${pids[@]:1}" 2>/dev/null || true  # the loaders end and print their figures
cat "$out/churn.txt" "$out/peers.txt" 2>/dev/null || true
grep -v '^RESULT' "$out/load.txt" | tail -5 || true
kill -0 "$server_pid" 2>/dev/null || { echo "the server died" && exit 1; }

# The verdict (see the criterion at the top).
awk -F, -v total="$seconds" '
  NR == 1 { next }
  { t[n] = $1; v[1, n] = $2; v[2, n] = $3; v[3, n] = $4; n++ }
  function median(k, from, to,   m, i, j, a, tmp) {
    m = 0
    for (i = from; i < to; i++) a[m++] = v[k, i]
    for (i = 1; i < m; i++) for (j = i; j > 0 && a[j - 1] > a[j]; j--) { tmp = a[j]; a[j] = a[j - 1]; a[j - 1] = tmp }
    return m % 2 ? a[(m - 1) / 2] : (a[m / 2 - 1] + a[m / 2]) / 2
  }
  END {
    warm = total / 5; if (warm < 60) warm = 60
    first = 0; while (first < n && t[first] < warm) first++
    m = n - first
    if (m < 6) { print "too few samples after the warm-up: run longer"; exit 1 }
    split("rss_kib open_files threads", name, " ")
    allow[1] = 8192; allow[2] = 16; allow[3] = 0
    bad = 0
    for (k = 1; k <= 3; k++) {
      a = median(k, first, first + int(m / 3)); b = median(k, n - int(m / 3), n)
      # Judged over 10 samples or more only: a few samples in a row may rise by chance.
      rising = int(m / 3) >= 10
      for (i = n - int(m / 3) + 1; i < n; i++) if (v[k, i] <= v[k, i - 1]) rising = 0
      ok = b <= a * 1.10 + allow[k] && !rising
      printf "%-10s first third median %10.0f, last third median %10.0f%s: %s\n", name[k], a, b,
             rising ? ", rising at every sample" : "", ok ? "flat" : "GROWS"
      if (!ok) bad = 1
    }
    exit bad
  }' "$csv"
