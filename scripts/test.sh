#!/usr/bin/env bash
# Runs every test from a fresh Debian machine: installs what it needs, builds (warnings are
# errors), runs the whole suite through ctest (which also builds the web client for its browser
# tests), then the sanitizer runs (scripts/sanitize.sh): the suite again under ASan and UBSan,
# the server's multithreaded tests under TSan, and each fuzz target over its corpus, each in its
# own build directory. DUELHALL_SANITIZE=0 leaves the sanitizer runs out (a quick local check);
# CI always runs them (docs/testing.md has their times against CI's 90 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
DUELHALL_WITH_BROWSER=1 scripts/install-deps.sh
build=${BUILD_DIR:-build/test}
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_WERROR=ON "${launcher[@]}"
cmake --build "$build" --parallel "$(nproc)"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1800
if [ "${DUELHALL_SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh asan tsan fuzz
fi
