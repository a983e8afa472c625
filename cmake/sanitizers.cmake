# Sanitizer and fuzzer builds, both off by default (scripts/ci-sanitize.sh and scripts/fuzz.sh use them).
#   -DGPUTCO_SANITIZE=address,undefined   every target built and linked with these sanitizers
#   -DGPUTCO_SANITIZE=thread              ThreadSanitizer
#   -DGPUTCO_BUILD_FUZZERS=ON             the libFuzzer targets in fuzz/ (clang only), with the library
#                                         instrumented for coverage
# Included before any target is defined, so the library, the tests and the fuzzers agree.
set(GPUTCO_SANITIZE "" CACHE STRING "Sanitizers for every target (-fsanitize=...), e.g. address,undefined or thread")
option(GPUTCO_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (clang only)" OFF)

if(GPUTCO_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    message(FATAL_ERROR "GPUTCO_SANITIZE needs GCC or Clang")
  endif()
  string(REPLACE "-g" "" CMAKE_CXX_FLAGS_RELWITHDEBINFO "${CMAKE_CXX_FLAGS_RELWITHDEBINFO}")  # see below
  # Stop at the first report (a finding must fail the run), keep frames for readable stacks. Line
  # tables are all a report's stack needs: full debug information only made the builds slower.
  add_compile_options(-fsanitize=${GPUTCO_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer
                      $<IF:$<CXX_COMPILER_ID:Clang>,-gline-tables-only,-g1>)
  add_link_options(-fsanitize=${GPUTCO_SANITIZE})
endif()

if(GPUTCO_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GPUTCO_BUILD_FUZZERS needs clang (libFuzzer): -DCMAKE_CXX_COMPILER=clang++-14")
  endif()
  # Coverage feedback from the library too, not only from the fuzz target's own file.
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()

# Code no fuzzer runs, the doctest suites, compiles without the coverage hooks that
# GPUTCO_BUILD_FUZZERS puts everywhere (the library keeps them for the fuzzers the build shares with
# the suites): a suite's compile takes about an eighth less CPU (benchmarks/README.md). Called at the
# top of tests/CMakeLists.txt, before any target there.
function(gputco_without_fuzzer_coverage)
  get_directory_property(options COMPILE_OPTIONS)
  list(REMOVE_ITEM options -fsanitize=fuzzer-no-link)
  set_directory_properties(PROPERTIES COMPILE_OPTIONS "${options}")
endfunction()
