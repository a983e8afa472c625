# Precompiled headers for the targets whose many files parse the same heavy headers: the test suites
# (one header compiled once, shared by every suite with the suites' own flags), the Python bindings and
# the examples (examples/CMakeLists.txt).
# Off by default when ccache is the compiler launcher: GCC writes a different .gch on every build
# (two builds of the same header differ, measured), and ccache hashes the .gch into the key of every
# file that uses it, so with a precompiled header no such file could hit the cache of another build
# directory, and without `sloppiness = pch_defines,time_macros` ccache would not cache them at all.
# A fresh build (scripts/test.sh, pip install ., CI) has no cache to hit and takes the headers.
set(gputco_pch_default ON)
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(gputco_pch_default OFF)
endif()
option(GPUTCO_PCH "Precompiled headers for the test suites, the Python bindings and the examples (off under ccache)"
       ${gputco_pch_default})
