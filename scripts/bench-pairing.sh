#!/usr/bin/env bash
# The pairing rule's benchmark (bench/pairing/pairing_bench.cpp, docs/pairing.md): 10,000 seekers
# with spread ratings in one pool, a wave every second; prints the wave's CPU time, the waits, the
# rating gaps, and the seekers paired twice or lost (exits non-zero unless both are 0).
# Usage: scripts/bench-pairing.sh [seekers]. BUILD_DIR picks the build (default build/test).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/test}
if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
nice -n 5 cmake --build "$build" --target bench_pairing --parallel 2 >/dev/null
echo "$(nproc) cores; $(uptime | sed 's/.*load/load/')"
exec "$build/bench/bench_pairing" "$@"
