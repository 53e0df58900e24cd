#!/usr/bin/env bash
# The sanitizer runs of the test command (scripts/test.sh), each in its own build directory:
#   asan  the whole suite built with gcc's AddressSanitizer and UndefinedBehaviorSanitizer
#         (halting on the first error), except the browser client's tests, the cluster's
#         (several servers, Redis and PostgreSQL each: the plain build runs them) and what
#         DUELHALL_SANITIZE_SKIP names; with the fuzz targets replayed over their corpora and
#         mutations of them (DUELHALL_FUZZ_REPLAY, tests/fuzz/replay_main.cpp);
#   tsan  the server's multithreaded tests (dispatch, integration against the real binary,
#         storage's group commit, the bots' thinking pool) under ThreadSanitizer;
#   fuzz  every fuzz target (clang, libFuzzer) for 15 s from its committed corpus (not part of
#         the test command: scripts/fuzz.sh runs longer).
# Usage: scripts/sanitize.sh [--build-only | --test-only] [asan] [tsan] [fuzz]   (default: all three)
#   --build-only configures and builds the steps' build directories; --test-only runs the tests of
#   steps already built (scripts/test.sh builds them in the background while the plain suite runs).
# A sanitizer report from any process, the servers the integration tests start included, fails
# the run: reports are written under <build>/sanitizer-logs and checked after ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${DUELHALL_JOBS:-$(nproc)}
# Long benchmarks and browser tests are the normal build's job; under a sanitizer they would
# take most of CI's time and test nothing the other tests do not.
skip=${DUELHALL_SANITIZE_SKIP:-'^web: '}
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
shared=()
# -O1: the sanitizer builds compile 3.3 times slower than the plain build at -O3 and half of that
# at -O1 (docs/testing.md); -O1 still inlines enough for the suite's timeouts.
# The test binaries' own files at -O0 (DUELHALL_TEST_OPTIMIZE): they are glue, and at -O1 under a
# sanitizer they took half of the build.
# Each test binary's files compile together, 8 at a time (DUELHALL_TEST_UNITY): a test file is
# mostly the headers it parses.
optimise=(-DCMAKE_BUILD_TYPE=Release "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG"
          -DDUELHALL_TEST_OPTIMIZE=-O0 -DDUELHALL_TEST_UNITY=ON -DDUELHALL_LIBRARY_UNITY=ON)
[ -n "${DUELHALL_SHARED_DIR:-}" ] && shared=(-DDUELHALL_SHARED_DIR="$DUELHALL_SHARED_DIR")

# ctest with every process's sanitizer reports collected in $1/sanitizer-logs.
run_ctest() {
  local build=$1
  shift
  local logs=$PWD/$build/sanitizer-logs
  rm -rf "$logs" && mkdir -p "$logs"
  # Random play over a quarter of its seeds (tests/harness/random_play.hpp): every check still
  # runs on every step, and the plain build plays every seed (scripts/test.sh).
  DUELHALL_RANDOM_PLAY_SHARE=${DUELHALL_RANDOM_PLAY_SHARE:-0.25} \
  ASAN_OPTIONS="halt_on_error=1:abort_on_error=1:detect_leaks=1:log_path=$logs/asan" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan" \
  TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:log_path=$logs/tsan" \
    ctest --test-dir "$build" --output-on-failure --no-tests=error --parallel "$jobs" --timeout 600 "$@"
  if compgen -G "$logs/*" >/dev/null; then
    echo "sanitizer reports in $logs:"
    cat "$logs"/*
    return 1
  fi
}

asan_build() {
  local build=build/asan
  cmake -S . -B "$build" -G Ninja "${optimise[@]}" "${launcher[@]}" "${shared[@]}" \
    -DDUELHALL_BUILD_BENCH=OFF -DDUELHALL_CLUSTER_TESTS=OFF -DDUELHALL_FUZZ_REPLAY=ON \
    -DDUELHALL_EDGE_OPTIONS=-fno-sanitize=undefined \
    -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g1" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined"
  cmake --build "$build" --parallel "$jobs"
}

asan_test() {
  # The expert's strength against the random bot is a result, not a memory fault: the plain build
  # plays that arena (the expert's legality and search run here in the bots' other tests).
  run_ctest build/asan -E "$skip|^bots: ?The expert beats the random bot"
}

tsan_build() {
  local build=build/tsan
  # -Wno-tsan: gcc warns at every Asio handler that TSan does not model atomic_thread_fence
  # (Asio's fenced blocks); the hand-offs it guards also go through the scheduler's mutex.
  cmake -S . -B "$build" -G Ninja "${optimise[@]}" "${launcher[@]}" "${shared[@]}" \
    -DDUELHALL_BUILD_BENCH=OFF \
    -DCMAKE_CXX_FLAGS="-fsanitize=thread -fno-omit-frame-pointer -g1 -Wno-tsan" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread"
  cmake --build "$build" --parallel "$jobs" --target test_server_dispatch test_server_integration \
    test_storage test_server_bots test_relay_shutdown test_hall duelhall duelhall-verify
}

tsan_test() {
  run_ctest build/tsan -R '^(server dispatch|server integration|storage|bots: server):'
}

fuzz_build() {
  local build=build/fuzz
  # -O1 with line tables only, as OSS-Fuzz builds: 7 to 20% less compile time per file than
  # -O2 -g (docs/testing.md), and a finding's stack still names its lines.
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" "${shared[@]}" \
    "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -gline-tables-only -DNDEBUG" \
    -DCMAKE_CXX_COMPILER=clang++ -DDUELHALL_FUZZ=ON
  cmake --build "$build" --parallel "$jobs" --target duelhall_fuzz
}

fuzz_test() {
  run_ctest build/fuzz
}

phases=(build test)
case "${1:-}" in
  --build-only) phases=(build) && shift ;;
  --test-only) phases=(test) && shift ;;
esac
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(asan tsan fuzz)
for step in "${steps[@]}"; do
  case "$step" in
    asan | tsan | fuzz) ;;
    *) echo "unknown step: $step (asan, tsan or fuzz)" >&2 && exit 2 ;;
  esac
  for phase in "${phases[@]}"; do
    echo "== $step $phase (at ${SECONDS} s)" && "${step}_${phase}"
  done
done
