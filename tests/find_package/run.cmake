# Installs gputco into a scratch prefix, then configures, builds and runs a tiny consumer project
# that finds it with find_package(gputco CONFIG REQUIRED).
set(prefix "${BINARY_DIR}/prefix")
file(REMOVE_RECURSE "${BINARY_DIR}")
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGV}")
  endif()
endfunction()
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${BINARY_DIR}/gputco" -G "${GENERATOR}"
    -DCMAKE_BUILD_TYPE=Release -DGPUTCO_BUILD_TESTS=OFF -DGPUTCO_BUILD_EXAMPLES=OFF
    -DGPUTCO_BUILD_BENCHMARKS=OFF "-DCMAKE_INSTALL_PREFIX=${prefix}")
run(${CMAKE_COMMAND} --build "${BINARY_DIR}/gputco" --parallel 2)
run(${CMAKE_COMMAND} --install "${BINARY_DIR}/gputco")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/find_package/consumer" -B "${BINARY_DIR}/consumer"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}")
run(${CMAKE_COMMAND} --build "${BINARY_DIR}/consumer")
run("${BINARY_DIR}/consumer/consumer")
