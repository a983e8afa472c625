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
find_package(ZLIB REQUIRED)                # private: gzip-compressed cost exports (.csv.gz), read as streamed
find_package(yaml-cpp 0.7 REQUIRED)       # private: Cyclenerd pricing.yml importer and scenario files (line and column of every node)
# private: COIN-OR CBC, the mixed-integer solver behind recommend_plan (Debian coinor-libcbc-dev)
find_package(PkgConfig REQUIRED)
pkg_check_modules(CBC REQUIRED IMPORTED_TARGET cbc)
# Sanitizer and fuzzer builds only (cmake/sanitizers.cmake): clang-14 and libclang-rt-14-dev, the
# compiler with its ASan/UBSan/TSan and libFuzzer runtimes.
find_package(CLI11 2.1 CONFIG REQUIRED)    # the gputco command's argument parser (header-only)
