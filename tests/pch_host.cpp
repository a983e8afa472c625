// No test cases of its own: gputco_test_pch (tests/CMakeLists.txt) compiles the suites' precompiled
// header with their flags, and a CMake target needs a source file to do so.
