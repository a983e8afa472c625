function(gputco_set_warnings target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                             -Wno-sign-conversion -Wnon-virtual-dtor
                                             # designated initializers that omit defaulted members are the API style
                                             -Wno-missing-field-initializers)
  endif()
endfunction()
