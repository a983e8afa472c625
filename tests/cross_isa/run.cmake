# cross_isa_arm64: builds tests/cross_isa/figures.cpp and the spot engine for arm64 with CROSS_CXX,
# runs it under QEMU and compares its output with NATIVE's, letter for letter.
# Arguments: CROSS_CXX, QEMU, SOURCE_DIR, NATIVE, WORK_DIR, INCLUDES (dependency include dirs, |-separated).
# Run with `cmake -P`: a script sets no policies of its own, so CMake 3.20 behaviour (IN_LIST, ...)
# is asked for here, whichever CMake runs it (Debian 12 ships 3.25).
cmake_minimum_required(VERSION 3.20)
set(sources engines/spot/accumulator.cpp engines/spot/batch.cpp engines/spot/executor.cpp
            engines/spot/kernels.cpp engines/spot/limits.cpp engines/spot/spot.cpp
            engines/spot/spot_lanes_portable.cpp engines/spot/exponential_tables.cpp results/statistics.cpp results/quantiles.cpp
            engines/checkpoint.cpp
            engines/interruption.cpp)
list(TRANSFORM sources PREPEND "${SOURCE_DIR}/src/")
# One translation unit for all but the portable lane kernel (whose macro must not reach another file,
# as in the library's unity batches): the headers, fmt's compiled-in implementation above all, are
# parsed and compiled once instead of once per file (benchmarks/README.md, "Build and start-up times").
list(FILTER sources EXCLUDE REGEX "spot_lanes_portable[.]cpp$")
set(unity "")
foreach(source IN LISTS sources)
  string(APPEND unity "#include \"${source}\"\n")
endforeach()
file(WRITE "${WORK_DIR}/unity.cpp" "${unity}")
set(sources "${WORK_DIR}/unity.cpp" "${SOURCE_DIR}/src/engines/spot/spot_lanes_portable.cpp")
string(REPLACE "|" ";" include_dirs "${INCLUDES}")
set(include_flags)
foreach(dir IN LISTS include_dirs)
  list(APPEND include_flags -idirafter "${dir}")
endforeach()
file(MAKE_DIRECTORY "${WORK_DIR}")
# The library's own flags that matter for the numbers (-ffp-contract=off); warnings are the native
# build's business. fmt header-only: no arm64 libfmt needed.
execute_process(
  COMMAND "${CROSS_CXX}" -O2 -w -Wno-psabi -std=c++20 -ffp-contract=off -DFMT_HEADER_ONLY
          -I "${SOURCE_DIR}/include" -I "${SOURCE_DIR}/src/engines/spot" ${include_flags}
          ${sources} "${SOURCE_DIR}/tests/cross_isa/figures.cpp" -static -pthread -o "${WORK_DIR}/figures_arm64"
  RESULT_VARIABLE built)
if(NOT built EQUAL 0)
  message(FATAL_ERROR "arm64 build failed (${built})")
endif()
execute_process(COMMAND "${QEMU}" "${WORK_DIR}/figures_arm64" OUTPUT_VARIABLE arm64 RESULT_VARIABLE ran)
execute_process(COMMAND "${NATIVE}" OUTPUT_VARIABLE native RESULT_VARIABLE ran_native)
if(NOT ran EQUAL 0 OR NOT ran_native EQUAL 0)
  message(FATAL_ERROR "figures program failed: arm64 ${ran}, native ${ran_native}")
endif()
message(STATUS "native:\n${native}arm64:\n${arm64}")
if(NOT arm64 STREQUAL native)
  message(FATAL_ERROR "arm64 and native figures differ")
endif()
