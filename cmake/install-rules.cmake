# Installs headers, the library and a CMake package so that consumers can write
#   find_package(gputco CONFIG REQUIRED)  target_link_libraries(app PRIVATE gputco::gputco)
include(CMakePackageConfigHelpers)
set(GPUTCO_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/gputco")

install(DIRECTORY include/gputco DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
install(TARGETS gputco EXPORT gputcoTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}")
install(EXPORT gputcoTargets NAMESPACE gputco:: DESTINATION "${GPUTCO_CMAKE_DIR}")
configure_package_config_file(cmake/gputcoConfig.cmake.in
  "${PROJECT_BINARY_DIR}/gputcoConfig.cmake" INSTALL_DESTINATION "${GPUTCO_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/gputcoConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/gputcoConfig.cmake" "${PROJECT_BINARY_DIR}/gputcoConfigVersion.cmake"
        DESTINATION "${GPUTCO_CMAKE_DIR}")
