#!/usr/bin/env bash
# Runs every test from a fresh Debian machine: installs what it needs, builds (warnings are
# errors), runs the suite through ctest (which also builds the web client for its browser tests),
# then the sanitizer runs (scripts/sanitize.sh): the suite again under ASan and UBSan, the
# server's multithreaded tests under TSan, and each fuzz target over its corpus, each in its own
# build directory. Each test runs once where it tells most: the plain build runs the engine's
# tests (every random-play seed) and what the sanitizer builds leave out (the browser, cluster and
# deploy tests), the ASan build the rest. DUELHALL_SANITIZE=0 leaves the sanitizer runs out and
# runs the whole suite in the plain build (a quick local check); CI always runs them
# (docs/testing.md has their times against CI's 90 minutes).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each step's time, for docs/testing.md's budget.
step() { echo "== $1 (at ${SECONDS} s)"; }
step "installs"
DUELHALL_WITH_BROWSER=1 scripts/install-deps.sh
build=${BUILD_DIR:-build/test}
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
only=()
exclude=""
if [ "${DUELHALL_SANITIZE:-1}" != 0 ]; then
  only=(-R '^(web|cluster|deploy|core|jedi_duel|young_jedi|force_battles|bots):')
  # The binaries of the other groups, whose tests the ASan build runs, are not built here
  # (every other target is: the server, the tools, the benchmarks, warnings as errors).
  exclude='^test_(accounts|glicko2|loadgen_refusal|moderation|pairing|relay_shutdown|server_dispatch'
  exclude+='|server_integration|server_net|server_views|storage|tournaments|wire_diff|ws_client|hall|server_decks)$'
fi
step "plain build"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDUELHALL_WERROR=ON "${launcher[@]}" \
  -DDUELHALL_EXCLUDE_TESTS="$exclude" -DDUELHALL_TEST_UNITY=ON
cmake --build "$build" --parallel "$(nproc)"
step "plain suite"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1800 "${only[@]}"
if [ "${DUELHALL_SANITIZE:-1}" != 0 ]; then
  scripts/sanitize.sh asan tsan fuzz
fi
step "done"
