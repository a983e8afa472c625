# Compiles a data file into the library: writes a .cpp defining `const char <symbol>[]` (the bytes, then
# a 0) and `<symbol>_size`, regenerated whenever the file changes. Bytes as hex, not a string
# literal: compilers cap literal lengths.
function(gputco_embed_file input output symbol)
  file(READ "${input}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
  string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
  file(RELATIVE_PATH name "${PROJECT_SOURCE_DIR}" "${input}")
  set(text "// Generated at build time from ${name}; edit that file, not this one.\n#include <cstddef>\n\nnamespace gputco::detail {\nextern const char ${symbol}[];\nextern const std::size_t ${symbol}_size;\nconst char ${symbol}[] = {\n${bytes}0};\nconst std::size_t ${symbol}_size = sizeof(${symbol}) - 1;\n}  // namespace gputco::detail\n")
  # Write only on change, so an unchanged file does not rebuild the library.
  if(EXISTS "${output}")
    file(READ "${output}" old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE "${output}" "${text}")
  endif()
  set_property(DIRECTORY "${PROJECT_SOURCE_DIR}" APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${input}")
endfunction()
