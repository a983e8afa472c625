#!/usr/bin/env bash
# The sanitizer and fuzzing steps of CI (.ci/run calls it after the README's test command); developers
# can run it as it is. Four steps, each failing on any report and printing its time:
#   1. the doctest suites built with AddressSanitizer + UndefinedBehaviorSanitizer (clang), and run,
#   2. every fuzz target (scripts/fuzz.sh, two at a time on two cores) and, as one more job beside them,
#      the replay of every saved reproducer in fuzz/findings/: GPUTCO_FUZZ_SECONDS per target if set, else the step's budget
#      GPUTCO_FUZZ_STEP_SECONDS (default 90) shared by the targets, so a new target does not lengthen
#      CI (15 targets: 12 s each). Why 90 s (it was 180): CI's fuzzing starts from the seeds with a
#      fixed seed each run, so it checks that no target fails on its seeds and the mutations nearest
#      them, and the saved findings stay fixed; new findings come from long runs with random seeds
#      (scripts/fuzz.sh 3600), not from CI's seconds. The slowest target, scenario (19 seeds, about
#      15 inputs a second on a quiet machine), gets past its seeds only on a quiet machine: at load 6
#      its 12 s ran the seeds alone (26 executions).
#   3. the suites that run the library's threads (the spot engine's, and every detail::parallel_for
#      user's) built with ThreadSanitizer,
#   4. the spot lane kernels and sample columns under Valgrind's memcheck (reads of uninitialised
#      memory, which neither sanitizer above reports: the columns are sized without zero-fill).
# Build directories: build-asan (steps 1 and 2 share it), build-tsan, and the README's build (step 4).
set -euo pipefail
cd "$(dirname "$0")/.."
GPUTCO_SANITIZE=1 bash scripts/install-deps.sh
cxx=${GPUTCO_FUZZ_CXX:-clang++-14}
# ccache pays off across a developer's runs. GPUTCO_CCACHE=0 (CI's fresh clone, .ci/run) leaves it out:
# no file compiles twice within one run (the ASan and TSan builds differ in flags), so there it would
# only add its lookups, and without it the builds take the precompiled headers and the unity batches
# (cmake/precompiled_headers.cmake, cmake/unity_build.cmake): the ASan and TSan libraries compile in
# batches. scripts/fuzz.sh reads the same variable, so build-asan keeps one
# configuration.
launcher=()
if [ "${GPUTCO_CCACHE:-1}" = 1 ] && command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
start=$SECONDS
step_start=$SECONDS
times=()
cpu_file=$(mktemp)
cpu_now() {  # cpu = user + system CPU seconds of the programs this script has run so far (bash's times,
  times >"$cpu_file"  # run in this shell: in a pipe or a $( ) it would report a subshell's)
  cpu=$(awk 'NR == 2 { t = 0; for (i = 1; i <= 2; ++i) { split($i, p, /[ms]/); t += p[1] * 60 + p[2] }; printf "%.0f", t }' "$cpu_file")
}
step() {  # ends the step running (printing its wall and CPU time: the machine may be shared) and starts the next
  if [ -n "${step_name:-}" ]; then
    cpu_now
    times+=("$step_name: $((SECONDS - step_start)) s ($((cpu - step_cpu)) CPU s)")
    echo "== done in $((SECONDS - step_start)) s, $((cpu - step_cpu)) CPU s: $step_name"
  fi
  step_name=$1
  step_start=$SECONDS
  cpu_now
  step_cpu=$cpu
  [ -z "$step_name" ] || echo "== $step_name (at $((SECONDS - start)) s)"
}

step "ASan + UBSan: build the doctest suites and the fuzz targets"
# One build for the tests and the fuzzers: the library carries the fuzzers' coverage hooks, which
# the tests simply do not use (the suites' own code is compiled without them: cmake/sanitizers.cmake). One goal for both (fuzz/CMakeLists.txt), so the fuzz targets compile
# beside the suites' compiles and links instead of one by one in the fuzzing step.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DGPUTCO_SANITIZE=address,undefined -DGPUTCO_BUILD_FUZZERS=ON \
  -DGPUTCO_BUILD_EXAMPLES=OFF -DGPUTCO_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-asan -j2 --target gputco_suites_and_fuzzers
step "ASan + UBSan: run the doctest suites"
# ctest starts the longest cases first when it knows their times (its cost data, which every run
# writes to build-asan/Testing/Temporary/): a fresh build-asan gets the longest suites' seconds from
# the last quiet CI run (benchmarks/README.md), so that the two slots do not end on one of them alone.
costs=build-asan/Testing/Temporary/CTestCostData.txt
if [ ! -f "$costs" ]; then
  mkdir -p "$(dirname "$costs")"
  printf '%s\n' "test_recommend_blocks 1 40" "test_recommend_exact 1 30" "test_recommend_holding 1 29" \
    "test_cost_invariants 1 28" "test_scenario 1 22" "test_scenario_llm 1 20" "---" >"$costs"
fi
ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -R '^test_' -j2 --output-on-failure

step "fuzzing (replay fuzz/findings/ beside the targets)"
# A fixed seed and a fresh corpus: CI starts from the inputs a developer's run of this script starts
# from. The runs drift apart once coverage differs (multi-threaded runs, polls timed by the clock), so a
# red step is reproduced from its saved input, not by rerunning; longer runs with random seeds
# (scripts/fuzz.sh 3600) look for new findings.
if [ -n "${GPUTCO_FUZZ_SECONDS:-}" ]; then
  GPUTCO_FUZZ_SEED=${GPUTCO_FUZZ_SEED:-1} bash scripts/fuzz.sh "$GPUTCO_FUZZ_SECONDS" build-asan
else
  GPUTCO_FUZZ_SEED=${GPUTCO_FUZZ_SEED:-1} GPUTCO_FUZZ_STEP_SECONDS=${GPUTCO_FUZZ_STEP_SECONDS:-90} \
    bash scripts/fuzz.sh "" build-asan
fi

step "ThreadSanitizer: the spot engine with 2 and 8 threads, and every parallel_for user"
# The suites that run the library's threads, each its own executable (GPUTCO_TEST_GROUPS=OFF), not the
# areas they belong to: the spot engine (test_spot, and test_cost it prices with) and the users of
# detail::parallel_for — the serving Monte Carlo's zones and the serving search (test_serving), the
# recommender's and the re-planning policy's futures (test_recommend, test_rolling, test_flex_start_plan)
# — and progress reports and cancellation from another thread (test_scenario_progress).
tsan_suites=(test_spot test_cost test_serving test_recommend test_rolling test_flex_start_plan test_scenario_progress)
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DGPUTCO_SANITIZE=thread -DGPUTCO_TEST_GROUPS=OFF -DGPUTCO_BUILD_EXAMPLES=OFF \
  -DGPUTCO_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-tsan -j2 --target "${tsan_suites[@]}"
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build-tsan -j2 -R "^($(IFS='|'; echo "${tsan_suites[*]}"))\$" --output-on-failure

step "Valgrind memcheck: the spot lane kernels and sample columns"
# The ordinary build (Valgrind runs no AVX-512, and hides it from the CPU check: the avx2, portable
# and scalar kernels run). The test cases that run every kernel, thread count and adaptive round.
# A suite's command is ctest's (its own executable, or its group's with a filter: cmake/test_groups.cmake).
cmake -S . -B build >/dev/null
suite_command() {  # prints the command of ctest case $1 in build/, one argument per line
  python3 - "$1" <<'EOF'
import re, shlex, sys
text = open("build/tests/CTestTestfile.cmake").read()
print("\n".join(shlex.split(re.search(r'^add_test\("%s" (.*)\)$' % sys.argv[1], text, re.M)[1])))
EOF
}
mapfile -t spot < <(suite_command test_spot)
mapfile -t spot_lanes < <(suite_command test_spot_lanes)
cmake --build build -j2 --target "$(basename "${spot[0]}")" "$(basename "${spot_lanes[0]}")"
# The two runs side by side: Valgrind runs a program's threads one at a time, so each takes one core.
# Each writes its own log, printed when both are done.
memcheck() {  # memcheck <log> <command...>
  local log=$1
  shift
  valgrind -q --error-exitcode=3 "$@" >"$log" 2>&1
}
memcheck build/memcheck_spot.log "${spot[@]}" \
  -tc='spot samples*,spot kernels*,identical samples*,target_half_width*,per-path bookkeeping*' &
spot_job=$!
memcheck_status=0
memcheck build/memcheck_spot_lanes.log "${spot_lanes[@]}" || memcheck_status=$?
wait "$spot_job" || memcheck_status=$?
cat build/memcheck_spot.log build/memcheck_spot_lanes.log
if [ "$memcheck_status" != 0 ]; then
  echo "Valgrind memcheck failed (exit $memcheck_status)" >&2
  exit "$memcheck_status"
fi
step ""
printf '%s\n' "${times[@]}"
cpu_now
rm -f "$cpu_file"
echo "(sanitizer steps done in $((SECONDS - start)) s, $cpu CPU s)"
