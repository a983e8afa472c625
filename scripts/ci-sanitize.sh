#!/usr/bin/env bash
# The sanitizer and fuzzing steps of CI (.ci/run calls it after the README's test command); developers
# can run it as it is. Four steps, each failing on any report:
#   1. the doctest suites built with AddressSanitizer + UndefinedBehaviorSanitizer (clang),
#   2. every fuzz target for GPUTCO_FUZZ_SECONDS (default 25) seconds (scripts/fuzz.sh): 14 targets,
#      about 7 minutes with the replay of fuzz/findings/,
#   3. the multi-threaded spot engine's suite built with ThreadSanitizer,
#   4. the spot lane kernels and sample columns under Valgrind's memcheck (reads of uninitialised
#      memory, which neither sanitizer above reports: the columns are sized without zero-fill).
# Build directories: build-asan (steps 1 and 2 share it), build-tsan, and the README's build (step 4).
set -euo pipefail
cd "$(dirname "$0")/.."
GPUTCO_SANITIZE=1 bash scripts/install-deps.sh
cxx=${GPUTCO_FUZZ_CXX:-clang++-14}
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
start=$SECONDS

echo "== ASan + UBSan: doctest suites"
# One build for the tests and the fuzzers: the library carries the fuzzers' coverage hooks, which
# the tests simply do not use.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DGPUTCO_SANITIZE=address,undefined -DGPUTCO_BUILD_FUZZERS=ON \
  -DGPUTCO_BUILD_EXAMPLES=OFF -DGPUTCO_BUILD_BENCHMARKS=OFF >/dev/null
mapfile -t suites < <(cd tests && ls test_*.cpp | sed 's/\.cpp$//')
cmake --build build-asan -j2 --target "${suites[@]}"
ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --test-dir build-asan -R '^test_' -j2 --output-on-failure
echo "(ASan + UBSan done at $((SECONDS - start)) s)"

echo "== fuzzing"
# A fixed seed and a fresh corpus: CI starts from the inputs a developer's run of this script starts
# from. The runs drift apart once coverage differs (multi-threaded runs, polls timed by the clock), so a
# red step is reproduced from its saved input, not by rerunning; longer runs with random seeds
# (scripts/fuzz.sh 3600) look for new findings.
GPUTCO_FUZZ_SEED=${GPUTCO_FUZZ_SEED:-1} bash scripts/fuzz.sh "${GPUTCO_FUZZ_SECONDS:-25}" build-asan
echo "(fuzzing done at $((SECONDS - start)) s)"

echo "== ThreadSanitizer: the spot engine with 2 and 8 threads"
cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DGPUTCO_SANITIZE=thread -DGPUTCO_BUILD_EXAMPLES=OFF -DGPUTCO_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build build-tsan -j2 --target test_spot test_cost
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ctest --test-dir build-tsan -R '^test_(spot|cost)$' --output-on-failure
echo "(ThreadSanitizer done at $((SECONDS - start)) s)"

echo "== Valgrind memcheck: the spot lane kernels and sample columns"
# The ordinary build (Valgrind runs no AVX-512, and hides it from the CPU check: the avx2, portable
# and scalar kernels run). The test cases that run every kernel, thread count and adaptive round.
cmake -S . -B build >/dev/null
cmake --build build -j2 --target test_spot test_spot_lanes
valgrind -q --error-exitcode=3 build/tests/test_spot \
  -tc='spot samples*,spot kernels*,identical samples*,target_half_width*,per-path bookkeeping*'
valgrind -q --error-exitcode=3 build/tests/test_spot_lanes
echo "(sanitizer steps done in $((SECONDS - start)) s)"
