# Every dependency comes from a Debian -dev package (see README); nothing is downloaded.
include(GNUInstallDirs)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
if(POLICY CMP0167)
  cmake_policy(SET CMP0167 NEW)             # use Boost's own BoostConfig.cmake (Debian ships it)
endif()
find_package(Boost 1.74 REQUIRED CONFIG)    # header-only parts: Random, Math
find_package(fmt 9 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)   # private: JSON catalog and report I/O
find_package(Threads REQUIRED)
find_package(yaml-cpp 0.7 REQUIRED)        # private: scenario files (keeps line and column of every node)
find_package(CLI11 2.1 CONFIG REQUIRED)    # the gputco command's argument parser (header-only)
