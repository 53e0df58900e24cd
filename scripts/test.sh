#!/usr/bin/env bash
# Runs every test from a fresh Debian machine: installs what it needs, builds (warnings are
# errors), and runs the whole suite through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
DUELHALL_WITH_BROWSER=1 scripts/install-deps.sh
build=${BUILD_DIR:-build/test}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_WERROR=ON
cmake --build "$build" --parallel "$(nproc)"
if [ -f clients/web/package.json ]; then
  scripts/build-web.sh
fi
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1800
