#!/usr/bin/env bash
# Builds the fuzz targets (clang, libFuzzer, ASan + UBSan; tests/fuzz) and runs each for the
# given number of seconds (default 60), starting from its committed seed corpus plus whatever
# earlier runs found (kept in build/fuzz/work/<target>). Prints executions and findings per target
# and the totals; exits 1 when anything was found (the inputs are in build/fuzz/findings/<target>).
# Usage: scripts/fuzz.sh [seconds per target] [target...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
build=build/fuzz
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
shared=()
[ -n "${DUELHALL_SHARED_DIR:-}" ] && shared=(-DDUELHALL_SHARED_DIR="$DUELHALL_SHARED_DIR")
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${launcher[@]}" "${shared[@]}" \
  -DCMAKE_CXX_COMPILER=clang++ -DDUELHALL_FUZZ=ON >/dev/null
cmake --build "$build" --parallel "${DUELHALL_JOBS:-$(nproc)}" --target duelhall_fuzz

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for dir in tests/fuzz/corpus/*/; do targets+=("$(basename "$dir")"); done
fi
total_runs=0
total_findings=0
report=()
for target in "${targets[@]}"; do
  work=$build/work/$target
  findings=$build/findings/$target
  rm -rf "$findings"  # this run's findings only: keep a fixed finding's input in the corpus
  mkdir -p "$work" "$findings"
  log=$build/logs/$target.log
  mkdir -p "$(dirname "$log")"
  echo "== $target: ${seconds} s"
  set +e
  "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$findings/" "$work" "tests/fuzz/corpus/$target" \
    >"$log" 2>&1
  status=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  runs=${runs:-0}
  found=$(find "$findings" -type f | wc -l)
  if [ "$status" -ne 0 ] && [ "$found" -eq 0 ]; then found=1; fi  # died without an artifact
  [ "$found" -eq 0 ] || tail -40 "$log"
  total_runs=$((total_runs + runs))
  total_findings=$((total_findings + found))
  report+=("$(printf '%-16s %14s executions %3s findings' "$target" "$runs" "$found")")
done
echo
printf '%s\n' "${report[@]}"
printf '%-16s %14s executions %3s findings\n' total "$total_runs" "$total_findings"
[ "$total_findings" -eq 0 ]
