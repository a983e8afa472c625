#!/usr/bin/env bash
# Runs every libFuzzer target in fuzz/ (ASan + UBSan, clang) for a bounded time each and fails on any
# crash, sanitizer report, leak or timeout. Every saved reproducer in fuzz/findings/ is run too
# through its target, one more job beside the targets (known findings must stay handled, see
# fuzz/known_findings.hpp).
#   scripts/fuzz.sh [seconds per target, default 600] [build dir, default build-fuzz]
# With GPUTCO_FUZZ_STEP_SECONDS set and no seconds given, the targets share that budget instead (the
# time per target is the budget × targets at once / targets, at least 10 s): CI's bounded step.
# Corpora grow in <build dir>/fuzz/corpus/<target>/ across runs (seeds: <build dir>/fuzz/seeds/);
# a failing input is written to <build dir>/fuzz/artifacts/; a summary per target is printed at the end.
# Needs clang-14 and libclang-rt-14-dev (GPUTCO_SANITIZE=1 bash scripts/install-deps.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-}
build=${2:-build-fuzz}
launcher=()  # GPUTCO_CCACHE=0: no ccache (as scripts/ci-sanitize.sh, which shares the build)
if [ "${GPUTCO_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi

cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="${GPUTCO_FUZZ_CXX:-clang++-14}" \
  -DGPUTCO_SANITIZE=address,undefined -DGPUTCO_BUILD_FUZZERS=ON "${launcher[@]}" >/dev/null
mapfile -t targets < "$build/fuzz/targets.txt"
cmake --build "$build" -j2 --target gputco_fuzzers  # one goal: the targets build side by side

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
# -timeout: a run longer than this (seconds) is a finding; -rss_limit_mb: so is memory beyond it.
limits=(-timeout=25 -rss_limit_mb=2560 -max_len=65536)
# GPUTCO_FUZZ_SEED fixes libFuzzer's random seed (CI sets it): from the same corpus a run then tries the
# same inputs in the same order, so a slower machine tries a prefix of what a faster one tried.
seed=()
if [ -n "${GPUTCO_FUZZ_SEED:-}" ]; then seed=(-seed="$GPUTCO_FUZZ_SEED"); fi
failed=()

replay() {  # every saved reproducer through its target; a failing one's name to replay.failed, its log kept
  local file name target
  : >"$build/fuzz/replay.failed"
  for file in fuzz/findings/*; do
    [ -f "$file" ] || continue
    name=$(basename "$file"); target=${name%%-*}
    if ! "$build/fuzz/fuzz_$target" "${limits[@]}" "$file" >"$build/fuzz/replay.log" 2>&1; then
      cp "$build/fuzz/replay.log" "$build/fuzz/replay-$name.log"
      echo "$name" >>"$build/fuzz/replay.failed"
    fi
  done
}

# One target per core at a time (each fuzzer runs on one thread): same time per target, less in all.
# GPUTCO_FUZZ_JOBS overrides how many run at once.
parallel=${GPUTCO_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
if [ -z "$seconds" ]; then
  if [ -n "${GPUTCO_FUZZ_STEP_SECONDS:-}" ]; then
    seconds=$((GPUTCO_FUZZ_STEP_SECONDS * parallel / ${#targets[@]}))
    [ "$seconds" -ge 10 ] || seconds=10
  else
    seconds=600
  fi
fi
fuzz_target() {
  local target=$1 corpus="$build/fuzz/corpus/$1" artifacts="$build/fuzz/artifacts/$1/" log="$build/fuzz/$1.log"
  local status=0 runs coverage inputs
  mkdir -p "$corpus" "$artifacts"
  "$build/fuzz/fuzz_$target" "${limits[@]}" "${seed[@]}" -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$artifacts" "$corpus" "$build/fuzz/seeds/$target" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  coverage=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 || true)
  inputs=$(ls "$corpus" | wc -l)
  echo "fuzz_$target: ${runs:-?} executions, ${coverage:-cov: ?}, corpus $inputs inputs, exit $status" \
    >"$build/fuzz/$target.summary"
  return "$status"
}
# The replay of fuzz/findings/ is one more job beside the targets: it takes a core while the other
# fuzzes, instead of running alone first (15 targets on 2 cores leave one core idle for a round anyway).
echo "== the reproducers in fuzz/findings/ and ${#targets[@]} targets for ${seconds} s each, $parallel at a time"
replay &
running=1
for target in "${targets[@]}"; do
  if [ "$running" -ge "$parallel" ]; then wait -n || true; running=$((running - 1)); fi
  fuzz_target "$target" &
  running=$((running + 1))
done
wait
while read -r name; do
  tail -n 40 "$build/fuzz/replay-$name.log"
  failed+=("$name")
done <"$build/fuzz/replay.failed"
summary=()
for target in "${targets[@]}"; do
  line=$(cat "$build/fuzz/$target.summary")
  summary+=("$line")
  if [ "${line##*exit }" != 0 ]; then
    tail -n 60 "$build/fuzz/$target.log"
    failed+=("fuzz_$target")
  fi
done

printf '%s\n' "${summary[@]}"
if [ "${#failed[@]}" -gt 0 ]; then
  echo "fuzzing found problems in: ${failed[*]} (inputs under $build/fuzz/artifacts/)" >&2
  exit 1
fi
