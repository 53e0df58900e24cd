#!/usr/bin/env bash
# Runs every test from a fresh Debian machine: installs what it needs, builds (warnings are
# errors), runs the suite through ctest (which also builds the web client for its browser tests),
# then the sanitizer runs (scripts/sanitize.sh): the suite again under ASan and UBSan, with each
# fuzz target over its corpus and a fixed set of mutations of it, and the server's multithreaded
# tests under TSan, each in its own build directory, built in the background while the plain
# suite runs. The libFuzzer build (clang) is scripts/fuzz.sh's, or scripts/sanitize.sh fuzz.
# Each test runs once where it tells most: the plain build runs the engine's tests (every
# random-play seed) and what the sanitizer builds leave out (the browser, cluster and deploy
# tests), the ASan build the rest. DUELHALL_SANITIZE=0 leaves the sanitizer runs out and runs the
# whole suite in the plain build (a quick local check); CI always runs them (docs/testing.md has
# their times against CI's 90 minutes).
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
  -DDUELHALL_EXCLUDE_TESTS="$exclude" -DDUELHALL_TEST_UNITY=ON -DDUELHALL_LIBRARY_UNITY=ON
cmake --build "$build" --parallel "$(nproc)"
ahead=""
if [ "${DUELHALL_SANITIZE:-1}" != 0 ]; then
  # The sanitizer builds start now, at the lowest priority, one after the other: the plain suite
  # spends most of its time waiting on browsers, servers and clusters (a quarter of two cores
  # busy, docs/testing.md), and the builds take what it leaves idle. Each step's tests run once
  # its build is done and the plain suite is over.
  status=$build-sanitize-ahead
  rm -rf "$status" && mkdir -p "$status"
  setsid nice -n 19 bash -c '
    for s in asan tsan; do
      if scripts/sanitize.sh --build-only "$s" >"$0/$s.log" 2>&1; then touch "$0/$s.built"
      else touch "$0/$s.failed" && exit 1; fi
    done' "$status" &
  ahead=$!
  trap 'if [ -n "$ahead" ]; then kill -- -"$ahead" 2>/dev/null || true; fi' EXIT
fi
step "plain suite"
ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)" --timeout 1800 "${only[@]}"
if [ -n "$ahead" ]; then
  for s in asan tsan; do
    until [ -e "$status/$s.built" ] || [ -e "$status/$s.failed" ]; do sleep 5; done
    step "$s (built in the background)"
    cat "$status/$s.log"
    [ -e "$status/$s.built" ] || { echo "the $s build failed" >&2; exit 1; }
    scripts/sanitize.sh --test-only "$s"
  done
fi
step "done"
