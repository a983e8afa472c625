# The linker: mold where it is installed (scripts/install-deps.sh installs Debian's), else lld, else
# gold, else the toolchain's default (GNU ld). Linking the library's static archive into the test
# executables, the command, the extension and the fuzz targets is a large part of a fresh build, and
# GNU ld is the slowest of the four (benchmarks/README.md, "Build and start-up times"). Only a linker
# the compiler accepts (checked by linking a test program) is taken. GPUTCO_LINKER names one
# (mold, lld, gold, bfd) or "default" for the toolchain's own.
include(CheckLinkerFlag)
set(GPUTCO_LINKER "" CACHE STRING "Linker for -fuse-ld= (empty: the fastest found; default: the toolchain's)")
if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT GPUTCO_LINKER STREQUAL "default")
  set(candidates mold lld gold)
  if(GPUTCO_LINKER)
    set(candidates ${GPUTCO_LINKER})
  endif()
  foreach(linker IN LISTS candidates)
    string(TOUPPER "${linker}" upper)
    check_linker_flag(CXX "-fuse-ld=${linker}" GPUTCO_HAVE_LINKER_${upper})
    if(GPUTCO_HAVE_LINKER_${upper})
      add_link_options(-fuse-ld=${linker})
      message(STATUS "Linker: ${linker}")
      break()
    endif()
  endforeach()
  if(GPUTCO_LINKER AND NOT GPUTCO_HAVE_LINKER_${upper})
    message(FATAL_ERROR "GPUTCO_LINKER=${GPUTCO_LINKER}: the compiler cannot link with it")
  endif()
endif()
