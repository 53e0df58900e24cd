#!/usr/bin/env bash
# What a player and a host see during each fault of a cluster (docs/cluster.md, Faults), measured:
# a throw-away Redis and PostgreSQL (as scripts/bench-cluster.sh starts them) and two nodes on
# loopback; for each fault a duelhall-cli player plays a match against a bot on node-a (it
# reconnects by itself, as a player's client does; for a node's death it came in through node-b),
# the fault is made, and the script prints the
# seconds from the fault to play resuming (resumed_at below says how each fault's is read), beside
# the usual gap between two of its actions, what the client printed meanwhile, and what /readyz
# said.
#
#   node death     node-a killed with SIGKILL (then started again for the next fault)
#   node pause     node-a stopped with SIGSTOP for PAUSE seconds (default 8, past the 5 s lease)
#   Redis outage   redis-server killed, started again OUTAGE seconds later (default 10)
#   PostgreSQL     PostgreSQL stopped (fast shutdown), started again OUTAGE seconds later
#
# Each fault is made RUNS times (default 3); the last lines print, per fault, the median time from
# the fault to play resuming and the times of every run.
#
# Usage: scripts/faults.sh [fault ...]   (node-death node-pause redis postgres; default all)
# Environment: RUNS, BUILD_DIR (default build/test; relative to the repository or absolute: its duelhall
# and duelhall-cli are used as they are, built only when missing), PAUSE, OUTAGE, RULESET
# (default force_battles). Everything listens on 127.0.0.1; every wait is bounded (STEP_LIMIT,
# default 60 s, per fault), and everything the script started is stopped when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."
faults=("$@")
[ ${#faults[@]} -gt 0 ] || faults=(node-death node-pause redis postgres)
pause=${PAUSE:-8}
outage=${OUTAGE:-10}
ruleset=${RULESET:-force_battles}
step_limit=${STEP_LIMIT:-60}
runs=${RUNS:-3}
build=${BUILD_DIR:-build/test}
case $build in /*) ;; *) build=$(pwd)/$build ;; esac
server_bin=$build/server/app/duelhall
cli_bin=$build/clients/cli/duelhall-cli
if [ ! -x "$server_bin" ] || [ ! -x "$cli_bin" ]; then
  [ -f "$build/build.ninja" ] || cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$build" --target duelhall duelhall-cli --parallel 2 >/dev/null
fi

work=$(mktemp -d /tmp/duelhall-faults-XXXXXX)
chmod 755 "$work"
declare -A pid_of=()
pg_dir=
cleanup() {
  local pid
  for pid in "${pid_of[@]}"; do kill -CONT "$pid" 2>/dev/null || true; kill "$pid" 2>/dev/null || true; done
  for pid in "${pid_of[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [ -n "$pg_dir" ]; then as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m immediate stop \
    >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
as_postgres() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
now() { echo "$EPOCHREALTIME"; }
since() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
ready() { curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$1/readyz" || true; }

redis_port=$(free_port)
start_redis() {
  redis-server --port "$redis_port" --bind 127.0.0.1 --save '' --appendonly yes --dir "$work" \
    --loglevel warning >>"$work/redis.log" 2>&1 &
  pid_of[redis]=$!
  for _ in $(seq 100); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "redis-server did not start"; exit 1
}
start_redis
pg_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
pg_dir=$work/pg
mkdir -p "$pg_dir"
[ "$(id -u)" = 0 ] && chown postgres: "$pg_dir"
as_postgres "$pg_bin/initdb" -D "$pg_dir/data" -U duelhall -A trust -E UTF8 --no-sync \
  --no-instructions >"$work/initdb.log" 2>&1 || { cat "$work/initdb.log"; exit 1; }
pg_port=$(free_port)
pg_start() {
  as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/log" -w -o "-p $pg_port -k $pg_dir \
    -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off" start >/dev/null
}
pg_start
# The role (duelhall, made by initdb -U) and the database must exist before a node starts.
"$pg_bin/psql" -q -h 127.0.0.1 -p "$pg_port" -U duelhall -d postgres -c "CREATE DATABASE faults"

declare -A port_of=()
# start_node NAME: a node of the cluster; it keeps the matches created through it.
start_node() {
  local name=$1
  [ -n "${port_of[$name]:-}" ] || port_of[$name]=$(free_port)
  "$server_bin" --bind 127.0.0.1 --port "${port_of[$name]}" --data "$work/$name" \
    --cluster "redis://127.0.0.1:$redis_port" --node-name "$name" --placement local \
    --cluster-secret "the faults cluster's shared secret" --grace 60 \
    --database "postgresql://duelhall@127.0.0.1:$pg_port/faults" --log-level info \
    --drain-seconds 1 >>"$work/$name.log" 2>&1 &
  pid_of[$name]=$!
  for _ in $(seq 300); do [ "$(ready "${port_of[$name]}")" = 200 ] && return 0; sleep 0.1; done
  echo "node $name did not become ready:"; tail -20 "$work/$name.log"; exit 1
}
start_node node-a
start_node node-b
sleep 1.5

# start_player FAULT: a duelhall-cli player against a bot on node-a, its lines timestamped. For a
# node's death the player comes in through node-b (the address it comes back to, as through a
# balancer) and joins a match a host made on node-a: through node-a itself it could not come back.
start_player() {
  local out=$work/$1.player via=node-a command=(--bots 1 --bot-delay-ms 300 create "$ruleset") match
  if [ "$1" = node-death ]; then
    match=$("$cli_bin" --url "ws://127.0.0.1:${port_of[node-a]}/ws" --name Host --seats 2 --bots 1 \
      --bot-delay-ms 300 --host-only create "$ruleset" | grep -o 'created match [0-9]*' | grep -o '[0-9]*$')
    via=node-b
    command=(join "$match")
  fi
  stdbuf -oL "$cli_bin" --url "ws://127.0.0.1:${port_of[$via]}/ws" --name "Player" --auto first \
    --quiet "${command[@]}" \
    > >(while IFS= read -r line; do echo "$EPOCHREALTIME $line"; done >"$out") 2>&1 &
  pid_of[player]=$!
}
actions_in() { grep -c ' > ' "$1" 2>/dev/null || true; }
# first_action_after FILE T: the time of the first action the player sent after T (empty: none).
first_action_after() { awk -v t="$2" '$1 > t && $2 == ">" { print $1; exit }' "$1"; }
# resumed_at FILE FAULT T_FAULT T_BACK: when play resumed after the fault (empty: not yet). A node's
# death or pause: the client's "resumed match" (it reconnected and resumed there); PostgreSQL:
# the first event of the match after PostgreSQL's return (a move; refusals and snapshots are not
# play); Redis (play is not interrupted): the player's first action after the fault.
resumed_at() {
  case $2 in
    node-death | node-pause) awk -v t="$3" '$1 > t && $2 == "resumed" { print $1; exit }' "$1" ;;
    postgres) awk -v t="$4" '$1 > t && $2 != ">" && $2 != "refused:" && $2 != "==" &&
      $2 != "connection" { print $1; exit }' "$1" ;;
    *) first_action_after "$1" "$3" ;;
  esac
}
# usual_gap FILE T: the median gap between two of the player's actions before T.
usual_gap() {
  awk -v t="$2" '$1 < t && $2 == ">" { if (p) print $1 - p; p = $1 }' "$1" | sort -g |
    awk '{ a[NR] = $1 } END { if (NR) printf "%.1f", a[int((NR + 1) / 2)]; else print "?" }'
}
# The node hosting the player's match now, by its lease (docs/cluster.md, Redis keys).
holder() {
  local match
  match=$(grep -o 'match [0-9]*' "$1" | head -1 | cut -d' ' -f2)
  redis-cli -p "$redis_port" get "duelhall:lease:$match" 2>/dev/null || true
}

run_fault() {
  local fault=$1 out=$work/$1.player t_fault t_back="" resumed="" deadline
  start_player "$fault"
  deadline=$((SECONDS + step_limit))
  while [ "$(actions_in "$out")" -lt 4 ] && [ $SECONDS -lt $deadline ]; do sleep 0.2; done
  if [ "$(actions_in "$out")" -lt 4 ]; then echo "$fault: the player did not start playing"; return; fi
  local readyz_during=""
  t_fault=$(now)
  case $fault in
    node-death) kill -9 "${pid_of[node-a]}"; wait "${pid_of[node-a]}" 2>/dev/null || true ;;
    node-pause) kill -STOP "${pid_of[node-a]}" ;;
    redis) kill -9 "${pid_of[redis]}"; wait "${pid_of[redis]}" 2>/dev/null || true ;;
    postgres) as_postgres "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast stop >/dev/null ;;
  esac
  case $fault in
    node-pause | redis | postgres)
      sleep "$([ "$fault" = node-pause ] && echo "$pause" || echo "$outage")"
      readyz_during="node-a $(ready "${port_of[node-a]}"), node-b $(ready "${port_of[node-b]}")"
      t_back=$(now)
      case $fault in
        node-pause) kill -CONT "${pid_of[node-a]}" ;;
        redis) start_redis ;;
        postgres) pg_start ;;
      esac
      ;;
    node-death) sleep 2; readyz_during="node-b $(ready "${port_of[node-b]}")" ;;
  esac
  deadline=$((SECONDS + step_limit))
  while [ -z "$(resumed_at "$out" "$fault" "$t_fault" "${t_back:-$t_fault}")" ] &&
    [ $SECONDS -lt $deadline ] && kill -0 "${pid_of[player]}" 2>/dev/null; do sleep 0.2; done
  resumed=$(resumed_at "$out" "$fault" "$t_fault" "${t_back:-$t_fault}")
  local ready_again="" t
  if [ -n "$t_back" ]; then
    for _ in $(seq 300); do
      [ "$(ready "${port_of[node-b]}")" = 200 ] && break
      sleep 0.1
    done
    t=$(now)
    ready_again="; node-b ready $(since "$t_back" "$t") s after the return"
  fi
  echo "== $fault"
  if [ -n "$resumed" ]; then
    resumed_after[$fault]+=" $(since "$t_fault" "$resumed")"
    echo "play resumed $(since "$t_fault" "$resumed") s after the fault" \
      "(usual gap between the player's actions: $(usual_gap "$out" "$t_fault") s); the match is on $(holder "$out")"
  else
    resumed_after[$fault]+=" never"
    echo "play did not resume within $step_limit s"
  fi
  echo "/readyz during the fault: $readyz_during$ready_again"
  echo "the player saw:"
  awk -v t="$t_fault" '$1 > t && $2 != ">" { $1 = sprintf("  +%.1f s", $1 - t); print }' "$out" | head -8
  kill "${pid_of[player]}" 2>/dev/null || true
  wait "${pid_of[player]}" 2>/dev/null || true
  unset 'pid_of[player]'
  if [ "$fault" = node-death ]; then start_node node-a; sleep 1.5; fi
}

echo "faults on loopback: two nodes, Redis $(redis-server --version | grep -o 'v=[0-9.]*'), PostgreSQL" \
  "$(basename "$(dirname "$pg_bin")"), ruleset $ruleset; $(nproc) cores, $(uptime | sed 's/.*load/load/')"
declare -A resumed_after=()
for run in $(seq "$runs"); do
  for fault in "${faults[@]}"; do echo "-- run $run"; run_fault "$fault"; done
done
# median LIST: the median of the numbers in LIST ("never" counts as the longest).
median() {
  tr ' ' '\n' <<<"$1" | grep -v '^$' | sed 's/never/inf/' | sort -g |
    awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)]; else print "?" }'
}
echo "== medians over $runs runs: seconds from the fault to play resuming (every run's in brackets)"
for fault in "${faults[@]}"; do
  printf '%-11s %5s s  [%s ]\n' "$fault" "$(median "${resumed_after[$fault]}")" "${resumed_after[$fault]}"
done
