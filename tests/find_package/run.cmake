# Installs this build of gputco (its "dev" component: headers, library, CMake package) into a scratch
# prefix, then configures, builds and runs a tiny consumer project that finds it with
# find_package(gputco CONFIG REQUIRED). The library is the one the tests ran against, not a rebuild.
# Run with `cmake -P`: a script sets no policies of its own, so CMake 3.20 behaviour (IN_LIST, ...)
# is asked for here, whichever CMake runs it (Debian 12 ships 3.25).
cmake_minimum_required(VERSION 3.20)
set(prefix "${BINARY_DIR}/prefix")
file(REMOVE_RECURSE "${BINARY_DIR}")
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --component dev --prefix "${prefix}")
# The consumer's program is the C++ snippet of README.md, so the README cannot drift from the API.
file(READ "${SOURCE_DIR}/README.md" readme)
string(FIND "${readme}" "```cpp\n" begin)
if(begin EQUAL -1)
  message(FATAL_ERROR "README.md has no ```cpp snippet")
endif()
math(EXPR begin "${begin} + 7")
string(SUBSTRING "${readme}" ${begin} -1 rest)
string(FIND "${rest}" "```" end)
string(SUBSTRING "${rest}" 0 ${end} snippet)
file(MAKE_DIRECTORY "${BINARY_DIR}/consumer-src")
file(WRITE "${BINARY_DIR}/consumer-src/main.cpp" "${snippet}")
file(COPY "${SOURCE_DIR}/tests/find_package/consumer/CMakeLists.txt" DESTINATION "${BINARY_DIR}/consumer-src")
run(${CMAKE_COMMAND} -S "${BINARY_DIR}/consumer-src" -B "${BINARY_DIR}/consumer"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}")
run(${CMAKE_COMMAND} --build "${BINARY_DIR}/consumer")
run("${BINARY_DIR}/consumer/consumer")
