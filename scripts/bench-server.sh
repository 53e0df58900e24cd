#!/usr/bin/env bash
# The server benchmark: builds Release, then for each scenario starts a fresh duelhall on a free
# loopback port and runs duelhall-loadgen against it (same machine), printing every run and the
# medians. Usage: scripts/bench-server.sh [runs (default 3)] [scenario ...]
# Scenarios: fast (1,000 matches as fast as possible: the most actions per second, with latency
# set by queueing, since every match always has an action in flight), fast100 (the same with 100
# matches: a working set that stays in the caches, where the server spends the least per action), rate30 (1,000 matches at
# 30 actions per match per second: the 30,000 actions/s goal offered as open load, for its p99), paced (200 matches, one action per match
# per second), half (1,000 matches offered, as open load, half the actions per second that the
# fast runs just measured: p50/p99/p99.9 of action to opponent's update; needs fast first),
# half-normal (the same open load with the store's --sync normal: the commit is not waited on the
# disk's fsync, so the two show what the sync costs the latency; needs fast first), hold (9,900
# two-player matches, paced), light (1,000 matches offered 5 actions per match per second: 5,000
# actions/s, the light load where most servers spend most hours, for the CPU it costs per action),
# idle (9,900 matches nobody acts in, so all stay live at once: the memory baseline), conns
# (20,000 connections that say Hello and wait: the server's bytes per waiting connection, fewer
# when the open-files limit cannot hold 20,000 in each process), bots (500 human matches at 5
# actions per match per second, alone and then beside 500 matches against the expert bot: the
# humans' p99 with the bots must stay within 2x of their p99 without; then, if the build has the
# benchmarks, bot_arena's expert moves per CPU second on one core per ruleset), bots-nice0 (the
# same load with the bot threads at the I/O threads' priority, --bot-nice 0, to show what the
# nice buys), bots-unpaced (the same with bot pacing off, --bot-pace-lag-ms 0, to show what
# the pacing buys). Default: all of them but bots-nice0 and bots-unpaced; idle runs once. The end prints the performance
# table: each figure's median beside its goal. It also measures the disk's
# fsync in the data folder: with the default store every update waits for its group commit's sync.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
shift || true
scenarios=${*:-fast fast100 half half-normal light rate30 paced hold idle conns bots}
build=${BUILD_DIR:-build/bench-server}
# An existing build tree (BUILD_DIR) is used as it is configured; a new one is Release.
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_TESTS=OFF \
    -DDUELHALL_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$build" --target duelhall duelhall-loadgen --parallel 2 >/dev/null
server_bin=$build/server/app/duelhall
loadgen_bin=$build/clients/loadgen/duelhall-loadgen

# Every connection is a file descriptor in both processes: 9,900 matches need 19,800 of them, and
# 20,000 waiting connections 20,000 plus the server's own files. The hard limit is raised where
# that is allowed (root with CAP_SYS_RESOURCE); otherwise the conns scenario opens fewer.
want_files=45000
ulimit -Hn "$want_files" 2>/dev/null || true
ulimit -n "$(ulimit -Hn | awk -v w="$want_files" '{ print ($1 == "unlimited" || $1 > w) ? w : $1 }')"
echo "open files per process: $(ulimit -n); $(nproc) cores; $(uptime | sed 's/.*load/load/')"
# The conns scenario's connections: 20,000, less 100 files for each process's own when the limit
# is lower.
conns=$(awk -v n="$(ulimit -n)" 'BEGIN { print (n - 100 < 20000) ? n - 100 : 20000 }')

work=$(mktemp -d)
server_pid=
stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  fi
}
trap 'stop_server; rm -rf "$work"' EXIT

# The disk's sync time where the store writes: 100 syncs of a 4 KiB write, p50 and p99 in ms.
fsync_ms=$(python3 - "$work" <<'PY'
import os, sys, time
path = os.path.join(sys.argv[1], "fsync-probe")
fd = os.open(path, os.O_CREAT | os.O_WRONLY)
times = []
for i in range(100):
    os.pwrite(fd, b"x" * 4096, (i % 16) * 4096)
    start = time.perf_counter()
    os.fsync(fd)
    times.append((time.perf_counter() - start) * 1000)
os.close(fd)
os.unlink(path)
times.sort()
print(f"p50 {times[49]:.2f} ms, p99 {times[98]:.2f} ms")
PY
)
echo "the disk's fsync in the data folder: $fsync_ms"

# Starts a fresh server (so each run's memory figure starts from an idle process) and sets $port.
# All load comes from 127.0.0.1, so the per-address connection cap is lifted to the total cap.
# $server_args: more options for the scenario's servers.
server_args=()
start_server() {
  # Removed first, so the previous server's log (and port) cannot be read by mistake.
  rm -rf "$work/data" "$work/server.log"
  "$server_bin" --bind 127.0.0.1 --port 0 --data "$work/data" --log-level info \
    --max-connections 25000 --max-connections-per-ip 25000 ${server_args[@]+"${server_args[@]}"} \
    >"$work/server.log" 2>&1 &
  server_pid=$!
  port=
  for _ in $(seq 100); do
    port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | cut -d: -f2 || true)
    [ -n "$port" ] && return 0
    sleep 0.1
  done
  echo "the server did not start:"
  cat "$work/server.log"
  exit 1
}

# run_scenario NAME RUNS LOADGEN-ARGS...: prints each run's summary and keeps its RESULT line.
run_scenario() {
  local name=$1 count=$2
  shift 2
  echo
  echo "== $name: duelhall-loadgen $*"
  : >"$work/$name.results"
  for run in $(seq "$count"); do
    start_server
    sleep 0.5
    "$loadgen_bin" --port "$port" --server-pid "$server_pid" "$@" >"$work/run.txt" 2>&1 || true
    # The server's count of searching-bot moves (over its whole life: opening, warm-up, window):
    # searched, or the heuristic's because the bot pool was full or the server busy (paced).
    # Added to the RESULT line.
    local bot_counts
    bot_counts=$(curl -s --max-time 5 "http://127.0.0.1:$port/metrics" 2>/dev/null |
      awk '/^duelhall_bot_moves_total\{how="searched"\}/ { s = $2 }
           /^duelhall_bot_moves_total\{how="pool_full"\}/ { f = $2 }
           /^duelhall_bot_moves_total\{how="paced"\}/ { p = $2 }
           END { if (s + f + p > 0)
                   printf " bot_searched=%d bot_pool_full=%d bot_paced=%d bot_searched_pct=%.1f",
                   s, f, p, 100 * s / (s + f + p) }' || true)
    stop_server
    echo "run $run:"
    sed 's/^/  /' "$work/run.txt" | grep -v '^  RESULT'
    [ -n "$bot_counts" ] && echo "  server's searching-bot moves:$bot_counts"
    grep '^RESULT' "$work/run.txt" | sed "s/\$/$bot_counts/" >>"$work/$name.results" ||
      echo "  (run $run gave no result)"
  done
}

# median NAME KEY: the median of KEY over the scenario's runs.
median() {
  { grep -so " $2=[^ ]*" "$work/$1.results" || true; } | cut -d= -f2 | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) print "n/a"; else if (NR % 2) print v[(NR + 1) / 2];
                               else printf "%g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Half the saturation the fast runs measured, spread over 1,000 matches, per match per second.
half_rate() {
  awk -v s="$(median fast actions_per_s)" 'BEGIN { printf "%.3f", s / 2 / 1000 }'
}

# The expert bot's moves per CPU second (one core, any load) per ruleset, at the server's default
# budget (400 iterations or 50 ms), expert against the heuristic: bot_arena, $runs runs each.
bot_speed() {
  echo
  if ! cmake --build "$build" --target bot_arena --parallel 2 >/dev/null 2>&1; then
    echo "== bot speed: this build has no bot_arena; configure it with -DDUELHALL_BUILD_BENCH=ON and"
    echo "   run bench/bot_arena --ruleset R --a expert --b heuristic --games 4 (its a_moves_per_cpu_s)"
    return
  fi
  for ruleset in jedi_duel young_jedi force_battles; do
    echo "== bot speed, $ruleset: bot_arena --ruleset $ruleset --a expert --b heuristic --games 4"
    : >"$work/arena-$ruleset.results"
    for run in $(seq "$runs"); do
      "$build/bench/bot_arena" --ruleset "$ruleset" --a expert --b heuristic --games 4 \
        --seed "$run" >"$work/arena.txt" 2>&1 || true
      echo "run $run: $(grep 'moves per CPU second' "$work/arena.txt" | head -1)"
      grep '^RESULT' "$work/arena.txt" >>"$work/arena-$ruleset.results" ||
        echo "  (run $run gave no result)"
    done
  done
}

for scenario in $scenarios; do
  case $scenario in
    fast) run_scenario fast "$runs" --matches 1000 --warmup 2 --duration 10 ;;
    fast100) run_scenario fast100 "$runs" --matches 100 --warmup 2 --duration 10 ;;
    half) run_scenario half "$runs" --matches 1000 --rate "$(half_rate)" --warmup 2 --duration 10 ;;
    half-normal)
      server_args=(--sync normal)
      run_scenario half-normal "$runs" --matches 1000 --rate "$(half_rate)" --warmup 2 --duration 10
      server_args=() ;;
    rate30) run_scenario rate30 "$runs" --matches 1000 --rate 30 --warmup 2 --duration 10 ;;
    paced) run_scenario paced "$runs" --matches 200 --paced --warmup 2 --duration 15 ;;
    light) run_scenario light "$runs" --matches 1000 --rate 5 --warmup 2 --duration 10 ;;
    hold) run_scenario hold "$runs" --matches 9900 --paced --warmup 2 --duration 10 --max-opening 400 ;;
    idle) run_scenario idle 1 --matches 9900 --idle --warmup 2 --duration 2 --max-opening 400 ;;
    bots)
      run_scenario humans500 "$runs" --matches 500 --rate 5 --warmup 2 --duration 10
      run_scenario bots500 "$runs" --matches 500 --rate 5 --bot-matches 500 --bot-level expert \
        --warmup 2 --duration 10
      bot_speed ;;
    bots-nice0)
      server_args=(--bot-nice 0)
      run_scenario bots500-nice0 "$runs" --matches 500 --rate 5 --bot-matches 500 \
        --bot-level expert --warmup 2 --duration 10
      server_args=() ;;
    bots-unpaced)
      server_args=(--bot-pace-lag-ms 0)
      run_scenario bots500-unpaced "$runs" --matches 500 --rate 5 --bot-matches 500 \
        --bot-level expert --warmup 2 --duration 10
      server_args=() ;;
    conns) run_scenario conns "$runs" --connections "$conns" --warmup 2 --duration 3 --max-opening 400 ;;
    *) echo "unknown scenario $scenario" && exit 2 ;;
  esac
done

echo
echo "== medians (goal in brackets)"
if [ -s "$work/fast.results" ] 2>/dev/null; then
  echo "1,000 matches, as fast as possible ($(wc -l <"$work/fast.results") runs):"
  echo "  actions/s $(median fast actions_per_s) [>= 30000], p50 $(median fast p50_ms) ms," \
    "p99 $(median fast p99_ms) ms [< 5]; update frame $(median fast update_bytes) bytes" \
    "[<= 2x the diff]"
  echo "  mean diff $(median fast diff_bytes) bytes [<= 24], full view $(median fast view_bytes)" \
    "bytes, diff/view $(median fast diff_pct) % [<= 3]"
  echo "  server memory $(median fast rss_per_match_kib) KiB per live match [<= 16]"
  echo "  CPU per action: server $(median fast server_cpu_us_per_action) us," \
    "load generator $(median fast loadgen_cpu_us_per_action) us; load average" \
    "$(median fast load_avg)"
fi
if [ -s "$work/fast100.results" ] 2>/dev/null; then
  echo "100 matches, as fast as possible ($(wc -l <"$work/fast100.results") runs):"
  echo "  actions/s $(median fast100 actions_per_s) [>= 30000], p50 $(median fast100 p50_ms) ms," \
    "p99 $(median fast100 p99_ms) ms; update frame $(median fast100 update_bytes) bytes;" \
    "CPU per action: server $(median fast100 server_cpu_us_per_action) us [<= 35], load generator" \
    "$(median fast100 loadgen_cpu_us_per_action) us; load average $(median fast100 load_avg)"
fi
if [ -s "$work/half.results" ] 2>/dev/null; then
  echo "1,000 matches offered half the fast saturation as open load ($(wc -l <"$work/half.results") runs):"
  echo "  actions/s $(median half actions_per_s), p50 $(median half p50_ms) ms, p99" \
    "$(median half p99_ms) ms [<= 2], p99.9 $(median half p999_ms) ms; CPU per action: server" \
    "$(median half server_cpu_us_per_action) us; load average $(median half load_avg)"
fi
if [ -s "$work/half-normal.results" ] 2>/dev/null; then
  echo "The same with --sync normal (no fsync waited on; $(wc -l <"$work/half-normal.results") runs):"
  echo "  actions/s $(median half-normal actions_per_s), p50 $(median half-normal p50_ms) ms," \
    "p99 $(median half-normal p99_ms) ms, p99.9 $(median half-normal p999_ms) ms; CPU per" \
    "action: server $(median half-normal server_cpu_us_per_action) us; load average" \
    "$(median half-normal load_avg)"
fi
echo "The disk's fsync (every update of the default store waits for one): $fsync_ms"
if [ -s "$work/light.results" ] 2>/dev/null; then
  echo "1,000 matches offered 5 actions per match per second ($(wc -l <"$work/light.results") runs):"
  echo "  actions/s $(median light actions_per_s), p50 $(median light p50_ms) ms, p99" \
    "$(median light p99_ms) ms; CPU per action: server $(median light server_cpu_us_per_action) us" \
    "[<= 60], load generator $(median light loadgen_cpu_us_per_action) us; load average" \
    "$(median light load_avg)"
fi
if [ -s "$work/rate30.results" ] 2>/dev/null; then
  echo "1,000 matches offered 30 actions per match per second ($(wc -l <"$work/rate30.results") runs):"
  echo "  actions/s $(median rate30 actions_per_s) [>= 30000], p50 $(median rate30 p50_ms) ms," \
    "p99 $(median rate30 p99_ms) ms [< 5]; CPU per action: server" \
    "$(median rate30 server_cpu_us_per_action) us, load generator" \
    "$(median rate30 loadgen_cpu_us_per_action) us; load average $(median rate30 load_avg)"
fi
if [ -s "$work/paced.results" ] 2>/dev/null; then
  echo "200 matches, one action per match per second ($(wc -l <"$work/paced.results") runs):"
  echo "  actions/s $(median paced actions_per_s), p50 $(median paced p50_ms) ms," \
    "p99 $(median paced p99_ms) ms [< 1]"
fi
if [ -s "$work/hold.results" ] 2>/dev/null; then
  echo "9,900 matches held, paced:"
  echo "  opened $(median hold opened) in $(median hold open_s) s, live at the end" \
    "$(median hold live_end) [9900], failed $(median hold failed)"
  echo "  server memory $(median hold rss_per_match_kib) KiB per live match [<= 16] on opening," \
    "$(median hold rss_end_per_match_kib) KiB after the window; $(median hold actions_per_s)" \
    "actions/s, p99 $(median hold p99_ms) ms; load average $(median hold load_avg)"
fi
if [ -s "$work/humans500.results" ] 2>/dev/null; then
  echo "500 human matches at 5 actions per match per second ($(wc -l <"$work/humans500.results") runs):"
  echo "  actions/s $(median humans500 actions_per_s), p50 $(median humans500 p50_ms) ms, p99" \
    "$(median humans500 p99_ms) ms, p99.9 $(median humans500 p999_ms) ms; server CPU" \
    "$(median humans500 server_cpu_pct)% of a core; load average $(median humans500 load_avg)"
fi
for bots in bots500 bots500-nice0 bots500-unpaced; do
  [ -s "$work/$bots.results" ] || continue
  nice_note="bot threads niced (--bot-nice 10) and paced (--bot-pace-lag-ms 1), the defaults"
  [ "$bots" = bots500-nice0 ] && nice_note="bot threads at the I/O threads' priority (--bot-nice 0)"
  [ "$bots" = bots500-unpaced ] && nice_note="bots never paced (--bot-pace-lag-ms 0)"
  echo "The same beside 500 matches against the expert bot, $nice_note ($(wc -l <"$work/$bots.results") runs):"
  echo "  humans: actions/s $(median "$bots" actions_per_s), p50 $(median "$bots" p50_ms) ms," \
    "p99 $(median "$bots" p99_ms) ms, p99.9 $(median "$bots" p999_ms) ms"
  if [ -s "$work/humans500.results" ]; then
    echo "  humans' p99 with bots / without: $(median "$bots" p99_ms) / $(median humans500 p99_ms)" \
      "= $(awk -v a="$(median "$bots" p99_ms)" -v b="$(median humans500 p99_ms)" \
        'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')x [<= 2]"
  fi
  echo "  bots: the bot's moves $(median "$bots" bot_moves_per_s)/s, the load generator's seat" \
    "$(median "$bots" bot_actions_per_s) actions/s, $(median "$bots" bot_matches_ended) matches" \
    "ended; server CPU $(median "$bots" server_cpu_pct)% of a core; load average" \
    "$(median "$bots" load_avg)"
  echo "  expert moves searched $(median "$bots" bot_searched_pct) % (the rest the heuristic's, the" \
    "bot pool being full or the server busy; over each server's life)"
done
for ruleset in jedi_duel young_jedi force_battles; do
  [ -s "$work/arena-$ruleset.results" ] || continue
  echo "Expert bot, $ruleset: $(median "arena-$ruleset" a_moves_per_cpu_s) moves per CPU second on" \
    "one core (budget 400 iterations / 50 ms; $(wc -l <"$work/arena-$ruleset.results") runs)"
done
if [ -s "$work/idle.results" ] 2>/dev/null; then
  echo "9,900 matches held, nobody acting:"
  echo "  opened $(median idle opened) in $(median idle open_s) s, live at the end" \
    "$(median idle live_end) [9900], failed $(median idle failed)"
  echo "  server memory $(median idle rss_per_match_kib) KiB per live match [<= 16]"
fi
if [ -s "$work/conns.results" ] 2>/dev/null; then
  echo "$conns connections that said Hello and wait ($(wc -l <"$work/conns.results") runs):"
  echo "  opened $(median conns opened) in $(median conns open_s) s, still open at the end" \
    "$(median conns live_end), failed $(median conns failed)"
  echo "  server memory $(median conns rss_per_connection_bytes) bytes per waiting connection" \
    "($(median conns rss_end_per_connection_bytes) after the wait); load average" \
    "$(median conns load_avg)"
fi

# The performance table: one line a figure, its median over the runs, the goal, and the load average
# of those runs (a figure taken on a busy machine says so). n/a: the scenario did not run.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "n/a" || b == "n/a" || b == 0) print "n/a";
                                            else printf "%.2f", a / b }'; }
row() { printf "  %-52s %-34s %-12s load %s\n" "$1" "$2" "$3" "$4"; }
echo
echo "== the performance table (medians; goal; load average of the runs)"
row "1,000 fast matches: actions/s" "$(median fast actions_per_s)" ">= 40000" "$(median fast load_avg)"
row "server CPU per action there" "$(median fast server_cpu_us_per_action) us" "<= 30 us" \
  "$(median fast load_avg)"
row "p99, open load at half that rate" "$(median half p99_ms) ms" "<= 2 ms" "$(median half load_avg)"
row "memory per live match, 1,000 fast" "$(median fast rss_per_match_kib) KiB" "<= 16 KiB" \
  "$(median fast load_avg)"
row "9,900 paced matches: memory" "$(median hold rss_per_match_kib) KiB" "<= 12 KiB" \
  "$(median hold load_avg)"
row "waiting connection: memory ($conns of them)" \
  "$(median conns rss_per_connection_bytes) B" "-" "$(median conns load_avg)"
row "9,900 paced matches: p99" "$(median hold p99_ms) ms" "<= 10 ms" "$(median hold load_avg)"
frame=$(median fast update_bytes)
labels=$(median fast label_bytes)
diff=$(median fast diff_bytes)
row "update frame against the diff (fast)" "$frame B for $diff B: $(ratio "$frame" "$diff")x" "<= 2x" \
  "$(median fast load_avg)"
# A label is told once per connection: a long-lived connection's updates carry none.
steady=$(awk -v f="$frame" -v l="$labels" 'BEGIN { print (f == "n/a" || l == "n/a") ? "n/a" : f - l }')
row "  the same, labels told once left out" "$steady B: $(ratio "$steady" "$diff")x" "<= 2x" \
  "$(median fast load_avg)"
row "server CPU per action, light load (5,000/s)" "$(median light server_cpu_us_per_action) us" \
  "<= 60 us" "$(median light load_avg)"
alone=$(median humans500 p99_ms)
beside=$(median bots500 p99_ms)
row "humans' p99 beside 500 expert-bot matches / alone" \
  "$beside / $alone ms: $(ratio "$beside" "$alone")x" "<= 2x" "$(median bots500 load_avg)"
row "  the bots' moves/s there (share searched)" \
  "$(median bots500 bot_moves_per_s) ($(median bots500 bot_searched_pct) %)" "" \
  "$(median bots500 load_avg)"
