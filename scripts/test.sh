#!/usr/bin/env bash
# Builds gputco once and runs every test (README.md's second command calls it after install-deps.sh).
#
# One CMake build in build/ serves everything: scikit-build-core configures and compiles the library,
# the Python extension, the command, the C++ tests and examples there, and packs the wheel from that
# same build (the benchmarks, which no test runs, are built where they are run: benchmarks/README.md);
# ctest then runs the doctest suites, the examples, the find_package consumer
# (against this build's own install) and pytest (against the installed wheel). Run it again after a
# change and only what changed recompiles.
#
# Python: the active virtual environment if there is one, else .venv (made here with `python3 -m venv`,
# since a stock Debian or Ubuntu Python refuses `pip install` outside one). Each step prints its time.
# GPUTCO_TEST_JOBS sets how many tests run at once (default: the number of cores).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
started=$SECONDS
step_started=$SECONDS
step() {
  echo "== $* (at $((SECONDS - started)) s)"
  step_started=$SECONDS
}
done_step() { echo "== done in $((SECONDS - step_started)) s"; }

step "Python environment"
if [ -z "${VIRTUAL_ENV:-}" ]; then
  [ -x .venv/bin/python ] || python3 -m venv .venv
  # shellcheck disable=SC1091
  . .venv/bin/activate
fi
python=python
# Build and test requirements as pyproject.toml lists them (its one copy).
mapfile -t build_requires < <("$python" - <<'EOF'
import tomllib
with open("pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["build-system"]["requires"]))
EOF
)
mapfile -t run_requires < <("$python" - <<'EOF'
import tomllib
with open("pyproject.toml", "rb") as f:
    project = tomllib.load(f)["project"]
print("\n".join(project["dependencies"] + project["optional-dependencies"]["test"]))
EOF
)
"$python" -m pip install -q --disable-pip-version-check "${build_requires[@]}"
done_step

# The test requirements download while the compiler runs.
pip_log=$(mktemp)
"$python" -m pip install -q --disable-pip-version-check "${run_requires[@]}" >"$pip_log" 2>&1 &
pip_job=$!

step "Build: library, Python extension, command, tests, examples (build/)"
# The extension without link-time optimisation (python/CMakeLists.txt, GPUTCO_PYTHON_LTO): the wheel
# built here is for the tests, and its LTO link would be the slowest step of a fresh build and of every
# rebuild after a change to the library. For the same reason the code around the library (bindings,
# command, examples) is compiled at -O1 (CMakeLists.txt, GPUTCO_FRONT_END_OPT); the library keeps -O3.
rm -rf build/dist
export CMAKE_GENERATOR="${CMAKE_GENERATOR:-Unix Makefiles}"  # the README's first command makes build/ so
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$jobs}"
"$python" -m pip wheel . -v --no-build-isolation --no-deps --disable-pip-version-check -w build/dist \
  --config-settings=build-dir=build \
  --config-settings=cmake.define.GPUTCO_BUILD_TESTS=ON --config-settings=cmake.define.GPUTCO_BUILD_EXAMPLES=ON \
  --config-settings=cmake.define.GPUTCO_PYTHON_TESTS=ON --config-settings=cmake.define.GPUTCO_PYTHON_LTO=OFF \
  --config-settings=cmake.define.GPUTCO_FRONT_END_OPT=-O1
wheels=(build/dist/gputco-*.whl)
done_step

step "Install the wheel and the test requirements"
if ! wait "$pip_job"; then cat "$pip_log" >&2; exit 1; fi
"$python" -m pip install -q --disable-pip-version-check --no-deps --force-reinstall "${wheels[0]}"
done_step

step "Tests (ctest, ${GPUTCO_TEST_JOBS:-$jobs} at once)"
GPUTCO_WHEEL="$PWD/${wheels[0]}" ctest --test-dir build --output-on-failure -j "${GPUTCO_TEST_JOBS:-$jobs}"
done_step
echo "== all done in $((SECONDS - started)) s"
