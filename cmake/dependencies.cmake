# Every dependency comes from a Debian -dev package (see README); nothing is downloaded.
include(GNUInstallDirs)
find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(Boost 1.74 REQUIRED)           # header-only parts: Random, Math
find_package(fmt 9 REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)   # private: JSON catalog and report I/O
find_package(Threads REQUIRED)
