# Where the doctest suites (tests/test_<concept>.cpp) are linked. Each suite is its own target, named
# after its file, and its own ctest case of the same name, either way:
#   GPUTCO_TEST_GROUPS=OFF  one executable per suite (tests/test_cost), its ctest case runs it;
#   GPUTCO_TEST_GROUPS=ON   each suite an object library, linked with the others of its area into one
#                           executable (tests/gputco_tests_<area>); its ctest case runs that executable
#                           with doctest's source-file filter (-sf=*/test_cost.cpp), so it runs the
#                           suite's own test cases only, in a process of its own, and a failure still
#                           names the suite. About 85 links become 6: with the library's static archive
#                           and libstdc++ every link takes seconds.
# Off by default when ccache is the compiler launcher, like the unity batches: a developer builds the
# one suite he works on (cmake --build build --target test_cost), which grouped would relink its whole
# area. On in fresh builds (scripts/test.sh, CI). `gputco_test_suites` builds every suite either way.
# The areas are name patterns below, first match wins; a suite matching none goes to "misc".
set(gputco_test_groups_default ON)
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache")
  set(gputco_test_groups_default OFF)
endif()
option(GPUTCO_TEST_GROUPS "Link the doctest suites into a few executables (off under ccache)"
       ${gputco_test_groups_default})
set(gputco_test_areas
  scenario "^test_scenario"
  recommend "^test_(recommend|optimise|mip)"
  spot "^test_(spot|deadline|interruption|checkpoint|job|sample_column|random|quantiles|statistics)"
  prices "^test_(catalog|currency|query|price|importers|gpu_match|throughput|focus|bill|contract|finops|held)"
  engines "^test_(cost|plan|strategy|savings|capacity|instrument|demand|serving|work|llm|scaling)")
# With GPUTCO_UNITY_BUILD on as well, each area's suites are compiled in unity batches (of
# GPUTCO_UNITY_BATCH_SIZE, cmake/unity_build.cmake): a batch parses the headers and instantiates the
# templates its suites share once. So two suites of one area must not define the same file-local name
# (a helper two suites share lives in a header, tests/plan_fixtures.hpp, tests/scenario_files.hpp); a
# build under ccache does not see such a clash, the README's test command and CI do. The other way
# round, a suite calling a helper it no longer defines may find another suite's in its batch; the
# build under ccache, every suite alone, fails on it. A suite with settings of its own (include
# directories, compile options, more sources) is compiled alone.
add_custom_target(gputco_test_suites)

# gputco_add_test_suite(<name> <source> [NO_TEST]): the suite's target, and its ctest case unless
# NO_TEST (the precompiled header's host, which is compiled like a suite and runs nothing).
function(gputco_add_test_suite name source)
  cmake_parse_arguments(PARSE_ARGV 2 arg "NO_TEST" "" "")
  if(NOT GPUTCO_TEST_GROUPS)
    add_executable(${name} "${source}")
    if(NOT arg_NO_TEST)
      add_test(NAME ${name} COMMAND ${name})
      add_dependencies(gputco_test_suites ${name})
    endif()
    return()
  endif()
  add_library(${name} OBJECT "${source}")
  if(arg_NO_TEST)
    return()
  endif()
  set(area misc)
  set(areas ${gputco_test_areas})
  while(areas)
    list(POP_FRONT areas candidate pattern)
    if(name MATCHES "${pattern}")
      set(area ${candidate})
      break()
    endif()
  endwhile()
  set(group gputco_tests_${area})
  if(NOT TARGET ${group})
    add_executable(${group})
    set_target_properties(${group} PROPERTIES LINKER_LANGUAGE CXX)
    add_dependencies(gputco_test_suites ${group})
    set_property(GLOBAL APPEND PROPERTY GPUTCO_TEST_GROUP_TARGETS ${group})
  endif()
  # The suite's objects join the executable once tests/CMakeLists.txt is read (below).
  set_property(TARGET ${group} APPEND PROPERTY GPUTCO_SUITES ${name})
  # The filter matches the suite's own file only; a filter that matched nothing would pass silently.
  add_test(NAME ${name} COMMAND ${group} "-sf=*/${name}.cpp")
  set_tests_properties(${name} PROPERTIES FAIL_REGULAR_EXPRESSION "test cases: +0 [|]")
endfunction()

# A suite's settings as one string: suites with equal settings can share a unity batch.
function(gputco_suite_settings suite out)
  set(settings "")
  foreach(property IN ITEMS SOURCES COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES LINK_LIBRARIES
                            PRECOMPILE_HEADERS_REUSE_FROM)
    get_target_property(value ${suite} ${property})
    string(APPEND settings "${property}=${value};")
  endforeach()
  get_target_property(sources ${suite} SOURCES)
  list(LENGTH sources count)
  string(REPLACE "${sources}" "" settings "${settings}")  # the file itself differs, its count must not
  set(${out} "${count}:${settings}" PARENT_SCOPE)
endfunction()

# Once tests/CMakeLists.txt is read: each group takes its suites' objects — with GPUTCO_UNITY_BUILD,
# those of the suites with the settings most of its suites have from unity batches of one object
# library with those settings (each such suite's own target then builds only on request) — and
# links what its suites link (the library, doctest's main, the suites' own object libraries such as
# the legacy oracles), each once.
function(gputco_link_test_groups)
  get_property(groups GLOBAL PROPERTY GPUTCO_TEST_GROUP_TARGETS)
  foreach(group IN LISTS groups)
    get_target_property(suites ${group} GPUTCO_SUITES)
    set(libraries "")
    set(batched "")
    set(batch_settings "")
    if(GPUTCO_UNITY_BUILD)
      # The batch takes the settings most of the area's one-file suites have.
      set(most 1)
      foreach(suite IN LISTS suites)
        gputco_suite_settings(${suite} settings)
        string(MD5 key "${settings}")
        math(EXPR count_${group}_${key} "${count_${group}_${key}} + 1")
        if(settings MATCHES "^1:" AND count_${group}_${key} GREATER most)
          set(most ${count_${group}_${key}})
          set(batch_settings "${settings}")
        endif()
      endforeach()
    endif()
    foreach(suite IN LISTS suites)
      get_target_property(suite_libraries ${suite} LINK_LIBRARIES)
      if(suite_libraries)
        list(APPEND libraries ${suite_libraries})
      endif()
      if(batch_settings)
        gputco_suite_settings(${suite} settings)
        if(settings STREQUAL batch_settings)
          list(APPEND batched ${suite})
          continue()
        endif()
      endif()
      target_sources(${group} PRIVATE $<TARGET_OBJECTS:${suite}>)
    endforeach()
    if(batched)
      list(GET batched 0 first)
      set(batch ${group}_batches)
      set(sources "")
      foreach(suite IN LISTS batched)
        get_target_property(source ${suite} SOURCES)
        list(APPEND sources ${source})
        set_target_properties(${suite} PROPERTIES EXCLUDE_FROM_ALL ON)
      endforeach()
      add_library(${batch} OBJECT ${sources})
      foreach(property IN ITEMS COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES)
        get_target_property(value ${first} ${property})
        if(value)
          set_target_properties(${batch} PROPERTIES ${property} "${value}")
        endif()
      endforeach()
      get_target_property(first_libraries ${first} LINK_LIBRARIES)
      target_link_libraries(${batch} PRIVATE ${first_libraries})
      get_target_property(pch_host ${first} PRECOMPILE_HEADERS_REUSE_FROM)
      if(pch_host)
        target_precompile_headers(${batch} REUSE_FROM ${pch_host})
      endif()
      gputco_unity_build(${batch})
      target_sources(${group} PRIVATE $<TARGET_OBJECTS:${batch}>)
    endif()
    list(REMOVE_DUPLICATES libraries)
    target_link_libraries(${group} PRIVATE ${libraries})
  endforeach()
endfunction()
if(GPUTCO_TEST_GROUPS)
  cmake_language(DEFER CALL gputco_link_test_groups)
endif()
