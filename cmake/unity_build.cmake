# Unity builds for the targets with many source files (the library, the command, the Python bindings):
# CMake compiles their sources in batches, one translation unit per batch, so the headers every file
# parses (the standard library, fmt, Eigen, pybind11, the library's own) are parsed once per batch
# rather than once per file. Sources with compile options of their own (the SIMD kernels) are left out
# by CMake and compiled alone.
# Off by default when ccache is the compiler launcher, like the precompiled headers: a developer's
# edit would recompile the whole batch, and a batch hits the cache only if none of its files changed.
# A fresh build (scripts/test.sh, pip install ., CI's sanitizer builds, which run without ccache) takes
# it. Figures: benchmarks/README.md, "Build and start-up times".
set(gputco_unity_default ON)
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(gputco_unity_default OFF)
endif()
option(GPUTCO_UNITY_BUILD "Unity builds of the library, the command and the bindings (off under ccache)"
       ${gputco_unity_default})
set(GPUTCO_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch (GPUTCO_UNITY_BUILD)")

function(gputco_unity_build target)
  if(GPUTCO_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${GPUTCO_UNITY_BATCH_SIZE})
    # GCC takes every file after the first of a batch for a header, and warns where a class of the
    # library holds a type from a .cpp file's unnamed namespace (harmless in a .cpp file, which it is).
    target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
  endif()
endfunction()
