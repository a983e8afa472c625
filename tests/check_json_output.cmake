# Runs PROGRAM with ARGS (a |-separated list) and fails unless it exits 0 and its standard output is
# one JSON document (an example's --json).
# Run with `cmake -P`: a script sets no policies of its own, so CMake 3.20 behaviour (IN_LIST, ...)
# is asked for here, whichever CMake runs it (Debian 12 ships 3.25).
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${PROGRAM} ${args} OUTPUT_VARIABLE out RESULT_VARIABLE code)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} exited with ${code}")
endif()
string(JSON type ERROR_VARIABLE error TYPE "${out}")
if(error)
  message(FATAL_ERROR "${PROGRAM} --json printed no JSON (${error}):\n${out}")
endif()
if(NOT type STREQUAL "OBJECT" AND NOT type STREQUAL "ARRAY")
  message(FATAL_ERROR "${PROGRAM} --json printed a ${type}, not an object or array")
endif()
