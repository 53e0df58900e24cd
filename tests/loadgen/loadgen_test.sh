#!/usr/bin/env bash
# Starts the real duelhall server on a free loopback port and runs duelhall-loadgen against it.
# Usage: loadgen_test.sh DUELHALL DUELHALL_LOADGEN
set -uo pipefail
server_bin=$1
loadgen_bin=$2
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
check() {
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}
# value FILE KEY: KEY's value on the RESULT line.
value() { grep '^RESULT' "$1" | grep -o " $2=[^ ]*" | cut -d= -f2; }
# holds EXPRESSION: a numeric comparison done by awk (the figures are decimals).
holds() { awk "BEGIN { exit !($1) }"; }

# A fast match takes thousands of actions per second on one connection: lift the per-connection
# rate limit, which protects a public server, not a benchmark.
"$server_bin" --bind 127.0.0.1 --port 0 --data "$work/data" --messages-per-second 1000000 \
  >"$work/server.log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 50); do
  port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | cut -d: -f2)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start"; cat "$work/server.log"; exit 1; }

"$loadgen_bin" --port "$port" --server-pid "$server_pid" --matches 20 --warmup 0.5 \
  --duration 2 >"$work/fast.txt" 2>&1
check "fast: exit status 0" test $? -eq 0
cat "$work/fast.txt"
check "fast: every match opened" test "$(value "$work/fast.txt" opened)" = 20
check "fast: no slot failed" test "$(value "$work/fast.txt" failed)" = 0
check "fast: every patch applied" test "$(value "$work/fast.txt" bad_patches)" = 0
check "fast: actions were played" holds "$(value "$work/fast.txt" actions_per_s) > 0"
check "fast: latency was measured" holds "$(value "$work/fast.txt" p99_ms) > 0"
check "fast: the p99 is not below the p50" \
  holds "$(value "$work/fast.txt" p99_ms) >= $(value "$work/fast.txt" p50_ms)"
check "fast: diffs are smaller than views" \
  holds "$(value "$work/fast.txt" diff_bytes) < $(value "$work/fast.txt" view_bytes)"
check "fast: the server's memory was read" \
  holds "$(value "$work/fast.txt" rss_per_match_kib) > 0"

"$loadgen_bin" --port "$port" --matches 5 --paced --warmup 1 --duration 4 >"$work/paced.txt" 2>&1
check "paced: exit status 0" test $? -eq 0
cat "$work/paced.txt"
# Five matches at one action per second each: 5 actions/s, give or take the window's edges.
check "paced: about one action per match per second" \
  holds "$(value "$work/paced.txt" actions_per_s) >= 3.5 && $(value "$work/paced.txt" actions_per_s) <= 6.5"

# A fraction of an action per match per second (the cluster benchmark holds many matches at one
# action every 10 s): 16 matches at 0.5 are 8 actions/s.
"$loadgen_bin" --port "$port" --matches 16 --rate 0.5 --warmup 2 --duration 4 \
  >"$work/fraction.txt" 2>&1
check "a fractional rate: exit status 0" test $? -eq 0
cat "$work/fraction.txt"
check "a fractional rate: about half an action per match per second" \
  holds "$(value "$work/fraction.txt" actions_per_s) >= 5 && $(value "$work/fraction.txt" actions_per_s) <= 11"

# Bot matches beside the human ones: the bot's moves are counted apart, and the latency stays
# the human matches' (one connection per bot match, so no sample can come from one).
"$loadgen_bin" --port "$port" --matches 4 --bot-matches 4 --rate 5 --warmup 0.5 --duration 3 \
  >"$work/bots.txt" 2>&1
check "bots: exit status 0" test $? -eq 0
cat "$work/bots.txt"
check "bots: every match opened" test "$(value "$work/bots.txt" opened)" = 8
check "bots: the bot matches are reported" test "$(value "$work/bots.txt" bot_matches)" = 4
check "bots: the expert bot moved" holds "$(value "$work/bots.txt" bot_moves_per_s) > 0"
check "bots: the human matches still act about 5 times per match per second" \
  holds "$(value "$work/bots.txt" actions_per_s) >= 14 && $(value "$work/bots.txt" actions_per_s) <= 26"
check "bots: every patch applied" test "$(value "$work/bots.txt" bad_patches)" = 0
check "bots: latency was measured" holds "$(value "$work/bots.txt" p99_ms) > 0"

# --start-file: opened, then nothing measured until the file appears.
"$loadgen_bin" --port "$port" --matches 2 --paced --warmup 0.2 --duration 0.5 \
  --start-file "$work/go" >"$work/barrier.txt" 2>&1 &
barrier_pid=$!
for _ in $(seq 100); do
  grep -q '^opened 2 of 2' "$work/barrier.txt" && break
  sleep 0.1
done
check "a start file: the matches open before it exists" grep -q '^opened 2 of 2' "$work/barrier.txt"
sleep 3
check "a start file: nothing is measured before it exists" \
  test -z "$(grep '^RESULT' "$work/barrier.txt")"
check "a start file: the load generator waits for it" kill -0 "$barrier_pid"
touch "$work/go"
wait "$barrier_pid"
check "a start file: measured once it exists, exit status 0" test $? -eq 0
check "a start file: the result comes out" grep -q '^RESULT.* opened=2 ' "$work/barrier.txt"

"$loadgen_bin" --port "$port" --ruleset no_such_game >"$work/nogame.txt" 2>&1
check "an unknown ruleset is refused" test $? -eq 1
check "the server is still running" kill -0 "$server_pid"
exit $((failures != 0))
