#!/usr/bin/env bash
# Installs what gputco needs to build, test and run on a Debian/Ubuntu machine:
# a C++20 compiler, CMake, the Debian -dev packages of its dependencies, and Python with venv.
# Safe to run again; skips a compiler or CMake that is already there. With GPUTCO_CROSS_CHECK=1 it also
# installs an arm64 cross compiler and qemu, for the test that the same seed gives the same numbers on
# arm64 (cross_isa_arm64; CI sets it, without them that test is left out). With GPUTCO_SANITIZE=1 it
# also installs clang and its sanitizer and libFuzzer runtimes, and Valgrind (scripts/ci-sanitize.sh,
# scripts/fuzz.sh). With GPUTCO_REQUIRE_BROWSER=1 it also installs Chromium, for the report pages' check.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi

packages=(libeigen3-dev libboost-dev libboost-math-dev libfmt-dev doctest-dev nlohmann-json3-dev libyaml-cpp-dev
          coinor-libcbc-dev pkg-config libcli11-dev zlib1g-dev)
command -v g++ >/dev/null 2>&1 || packages+=(g++)
command -v cmake >/dev/null 2>&1 || packages+=(cmake)
command -v make >/dev/null 2>&1 || packages+=(make)
# mold, a faster linker, where the distribution has it (Debian 12, Ubuntu 22.04): CMake takes it when
# it is there (cmake/linker.cmake), and links with the toolchain's default where it is not.
if apt-cache show mold >/dev/null 2>&1; then packages+=(mold); fi
# Python for the extension and its tests (scripts/test.sh): the interpreter, its headers, and venv, since
# a stock Debian or Ubuntu Python refuses `pip install` outside a virtual environment.
if ! command -v python3 >/dev/null 2>&1; then
  packages+=(python3 python3-dev python3-venv)
else
  python3 -c 'import ensurepip' >/dev/null 2>&1 || packages+=(python3-venv)
  python3 -c 'import os, sysconfig; assert os.path.exists(os.path.join(sysconfig.get_paths()["include"], "Python.h"))' \
    >/dev/null 2>&1 || packages+=(python3-dev)
fi
if [ "${GPUTCO_CROSS_CHECK:-0}" = 1 ]; then packages+=(g++-aarch64-linux-gnu qemu-user); fi
if [ "${GPUTCO_SANITIZE:-0}" = 1 ]; then packages+=(clang-14 libclang-rt-14-dev valgrind); fi
# CI renders the example reports in headless Chromium (scripts/check-report-browser.sh).
if [ "${GPUTCO_REQUIRE_BROWSER:-0}" = 1 ]; then packages+=(chromium); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
