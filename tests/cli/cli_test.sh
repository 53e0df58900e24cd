#!/usr/bin/env bash
# Starts the real duelhall server on a free loopback port and drives duelhall-cli against it.
# Usage: cli_test.sh DUELHALL DUELHALL_CLI
set -uo pipefail
server_bin=$1
cli_bin=$2
work=$(mktemp -d)
server_pid=
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
failures=0
check() {  # check DESCRIPTION CONDITION...
  local what=$1
  shift
  if "$@"; then echo "ok: $what"; else echo "FAILED: $what"; failures=$((failures + 1)); fi
}

"$server_bin" --bind 127.0.0.1 --port 0 --data "$work/data" --log-level info >"$work/server.log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 50); do
  port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | cut -d: -f2)
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { echo "the server did not start"; cat "$work/server.log"; exit 1; }
cli() { timeout 60 "$cli_bin" --url "ws://127.0.0.1:$port/ws" "$@"; }

# Every ruleset the server lists, against the engine's bot, choosing random offered actions.
cli rulesets >"$work/rulesets.txt"
check "rulesets lists at least one ruleset" grep -q '^[a-z_]*: ' "$work/rulesets.txt"
for ruleset in $(grep -o '^[a-z_]*: ' "$work/rulesets.txt" | tr -d ': '); do
  cli --name solo --bots 1 --auto random --seed 3 create "$ruleset" >"$work/$ruleset.txt"
  check "$ruleset: random play against the bot ends with exit status 0" test $? -eq 0
  check "$ruleset: the match ran to FINISHED" grep -q '^match over (FINISHED)' "$work/$ruleset.txt"
  check "$ruleset: the view was decoded as text" grep -q -- '-- view at seq 1 --' "$work/$ruleset.txt"
  check "$ruleset: no resync was needed (every patch applied)" \
    bash -c "! grep -q '(resync' '$work/$ruleset.txt'"
  check "$ruleset: phases are printed by name, not number" \
    bash -c "grep -q 'phase [a-z]' '$work/$ruleset.txt' && ! grep -q 'phase [0-9]' '$work/$ruleset.txt'"
done
# Cards by name: Jedi Duel's "hand [7♥ K♣ ...]", Young Jedi's card titles in quotes.
if [ -f "$work/jedi_duel.txt" ]; then
  check "jedi_duel: the hand is printed as card names" \
    bash -c "grep -q 'hand \\[[A2-9JQK]' '$work/jedi_duel.txt' && ! grep -q 'hand \\[[0-9][0-9]* [0-9]' '$work/jedi_duel.txt'"
fi
if [ -f "$work/young_jedi.txt" ]; then
  check "young_jedi: the hand is printed as card titles" grep -q 'hand \["' "$work/young_jedi.txt"
fi
ruleset=$(grep -o '^[a-z_]*: ' "$work/rulesets.txt" | head -1 | tr -d ': ')

# Two terminal clients play each other while a third watches.
cli --name ann --auto random --seed 1 --quiet create "$ruleset" >"$work/ann.txt" &
ann=$!
match=
for _ in $(seq 50); do
  match=$(grep -o '^created match [0-9]*' "$work/ann.txt" | cut -d' ' -f3)
  [ -n "$match" ] && break
  sleep 0.1
done
check "the host printed its match id" test -n "$match"
cli list >"$work/list.txt"
check "list shows the waiting match with its free seat" \
  grep -q "^$match  $ruleset  WAITING  seats: \[ann\] \[free\]" "$work/list.txt"
cli --quiet spectate "$match" >"$work/watcher.txt" &
watcher=$!
sleep 0.3
cli --name bob --auto random --seed 2 --quiet join "$match" >"$work/bob.txt"
check "the joining client finished its match" test $? -eq 0
wait "$ann"
check "the host finished its match" test $? -eq 0
wait "$watcher"
check "the spectator followed the match to its end" test $? -eq 0
result() { grep '^match over' "$1"; }
check "both players saw the same result" test "$(result "$work/ann.txt")" = "$(result "$work/bob.txt")"
check "the spectator saw the same result" \
  test "$(result "$work/ann.txt")" = "$(result "$work/watcher.txt")"
check "the spectator was offered no action" grep -q '^actions played: 0' "$work/watcher.txt"
check "events name the players" grep -q 'bob (@1)' "$work/watcher.txt"
# A seat's events come as phrases rendered with the listed book (protocol 5, a ruleset with a
# phrase book) or as words told once per connection, a spectator's as texts; "?" would be a word
# never told or a phrase that did not fit the book.
check "a seat's events, sent as phrases or words, read as text naming the players" \
  grep -q 'bob (@1)' "$work/bob.txt"
check "no event word or phrase was missing" bash -c "! grep -qE '(^| )[?]( |\$)' '$work/bob.txt'"

# Interactive: numbered choices read from standard input (always the first one here).
yes 1 | cli --name typist --bots 1 create "$ruleset" >"$work/typist.txt"
check "interactive play ends the match" grep -q '^match over (FINISHED)' "$work/typist.txt"
check "interactive play lists numbered choices" grep -q '^  1) ' "$work/typist.txt"
printf 'x\nq\n' | cli --name quitter --bots 1 create "$ruleset" >"$work/quitter.txt"
check "a choice that is not a number is refused and q quits" \
  grep -q 'not a choice: x' "$work/quitter.txt"

# Refusals come back as the server's result codes.
cli join 999999 >"$work/unknown.txt" 2>&1
check "joining an unknown match exits with status 1" test $? -eq 1
check "joining an unknown match shows UNKNOWN_MATCH" grep -q 'UNKNOWN_MATCH' "$work/unknown.txt"
cli --bots 1 create no_such_game >"$work/nogame.txt" 2>&1
check "an unknown ruleset is reported" grep -q 'no ruleset no_such_game' "$work/nogame.txt"
cli --bogus list >/dev/null 2>&1
check "an unknown option exits with status 2" test $? -eq 2

check "the server is still running" kill -0 "$server_pid"
if [ "$failures" -ne 0 ]; then
  echo "$failures check(s) failed; server log:"
  tail -20 "$work/server.log"
  exit 1
fi
