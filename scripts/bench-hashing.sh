#!/usr/bin/env bash
# Issue 29's password-hashing flood (docs/accounts.md, "Password hashing"): starts a fresh
# duelhall on a free loopback port and runs bench/accounts/hashing_flood.cpp against it, printing
# another client's ping p50/p99/max before and during the flood.
#   same:  32 connections x 4 pipelined ChangePassword{old = P, new = P}, default limits;
#   wrong: the same with a wrong old password and limits raised so that every command reaches
#          the hashing threads (each then costs one Argon2id hash): the pool under full load.
# Usage: scripts/bench-hashing.sh [same|wrong ...] (default: both). BUILD_DIR picks the build
# (default build/test); SERVER_FLAGS adds server flags.
set -euo pipefail
cd "$(dirname "$0")/.."
modes=${*:-same wrong}
build=${BUILD_DIR:-build/test}
cmake --build "$build" --target duelhall duelhall-hashing-flood --parallel 2 >/dev/null
server_bin=$build/server/app/duelhall
flood_bin=$build/bench/duelhall-hashing-flood
echo "$(nproc) cores; $(uptime | sed 's/.*load/load/')"

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

for mode in $modes; do
  flags=()
  if [ "$mode" = wrong ]; then
    flags=(--sign-in-failures 100000 --address-failures 100000 --account-failures 100000
           --password-checks 100000)
  fi
  rm -rf "$work/data" "$work/server.log"
  # shellcheck disable=SC2086
  "$server_bin" --bind 127.0.0.1 --port 0 --data "$work/data" --log-level info "${flags[@]}" \
    ${SERVER_FLAGS:-} >"$work/server.log" 2>&1 &
  server_pid=$!
  port=
  for _ in $(seq 100); do
    port=$(grep -o 'listening on 127.0.0.1:[0-9]*' "$work/server.log" | cut -d: -f2 || true)
    [ -n "$port" ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { cat "$work/server.log"; exit 1; }
  echo "== $mode ${flags[*]} ${SERVER_FLAGS:-}"
  "$flood_bin" "$port" 32 4 "$mode"
  stop_server
done
