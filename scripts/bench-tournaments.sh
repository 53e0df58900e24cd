#!/usr/bin/env bash
# Issue 35's tournament benchmark (docs/tournaments.md): a 256-player Swiss of 8 rounds and a
# 256-player arena of 30 simulated minutes, random results biased by rating, in-process (the
# rules alone: no server, no store). Prints pairing CPU per round, repeats, lost or doubled
# matches and the recount check.
# Usage: scripts/bench-tournaments.sh [tournaments of each kind, default 5] [seed, default 35].
# BUILD_DIR picks the build (default build/test).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/test}
nice -n 5 cmake --build "$build" --target tournaments_bench --parallel 2 >/dev/null
echo "$(nproc) cores; $(uptime | sed 's/.*load/load/')"
exec "$build/bench/tournaments_bench" "$@"
