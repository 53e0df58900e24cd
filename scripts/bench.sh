#!/usr/bin/env bash
# Builds the engine benchmark in Release and prints its figures (medians of 7 runs by default).
# Arguments go to the benchmark: [runs] [games per run], or --lengths <games>.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build/bench}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_BUILD_SERVER=OFF \
  -DDUELHALL_BUILD_TESTS=OFF -DDUELHALL_BUILD_BENCH=ON >/dev/null
cmake --build "$build" --target engine_bench --parallel 2 >/dev/null
exec "$build/bench/engine_bench" "$@"
