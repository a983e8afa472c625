# Installs headers, the library and a CMake package so that consumers can write
#   find_package(gputco CONFIG REQUIRED)  target_link_libraries(app PRIVATE gputco::gputco)
# All of it is the "dev" component: the Python wheel installs only the "python" component (the
# extension module and the command), so one build serves both (`cmake --install build --component dev`).
include(CMakePackageConfigHelpers)
set(GPUTCO_CMAKE_DIR "${CMAKE_INSTALL_LIBDIR}/cmake/gputco")

install(DIRECTORY include/gputco DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" COMPONENT dev)
install(TARGETS gputco EXPORT gputcoTargets
        ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev
        LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}" COMPONENT dev)
install(EXPORT gputcoTargets NAMESPACE gputco:: DESTINATION "${GPUTCO_CMAKE_DIR}" COMPONENT dev)
configure_package_config_file(cmake/gputcoConfig.cmake.in
  "${PROJECT_BINARY_DIR}/gputcoConfig.cmake" INSTALL_DESTINATION "${GPUTCO_CMAKE_DIR}")
write_basic_package_version_file("${PROJECT_BINARY_DIR}/gputcoConfigVersion.cmake"
  COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/gputcoConfig.cmake" "${PROJECT_BINARY_DIR}/gputcoConfigVersion.cmake"
        DESTINATION "${GPUTCO_CMAKE_DIR}" COMPONENT dev)
