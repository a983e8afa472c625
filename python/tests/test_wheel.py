"""The wheel the build packs installs on its own and runs: extension module, Python package, command.

scripts/test.sh packs the wheel from the same CMake build the other tests use and names it in
GPUTCO_WHEEL. Here it is installed into an empty folder with no index and no dependencies, as it would
be on another machine of the same kind, and run from there.
"""
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

WHEEL = os.environ.get("GPUTCO_WHEEL")
pytestmark = pytest.mark.skipif(not WHEEL, reason="needs the packed wheel (GPUTCO_WHEEL, set by scripts/test.sh)")


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--disable-pip-version-check",
                    "--target", str(target), WHEEL], check=True, capture_output=True, text=True)
    return target


def test_the_installed_package_is_imported_from_where_the_wheel_put_it(installed):
    code = "import gputco; print(gputco.__file__); print(gputco._core.__file__); print(gputco.__version__)"
    env = dict(os.environ, PYTHONPATH=str(installed))
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=installed, check=True, capture_output=True,
                         text=True).stdout.split()
    assert pathlib.Path(out[0]).is_relative_to(installed)
    assert pathlib.Path(out[1]).is_relative_to(installed)
    import gputco
    assert out[2] == gputco.__version__


def test_the_wheel_holds_no_cpp_development_files(installed):
    # The headers, static library and CMake package are the build's "dev" component, not the wheel's.
    names = {p.relative_to(installed).as_posix() for p in installed.rglob("*") if p.is_file()}
    assert not [n for n in names if n.endswith((".hpp", ".a", ".cmake"))]
    assert any(n.startswith("gputco/_core") for n in names)


def test_the_command_runs_from_the_install_and_points_nowhere_into_the_build(installed):
    command = installed / "bin" / "gputco"
    assert command.is_file()
    subprocess.run([str(command), "--help"], check=True, capture_output=True)
    readelf = shutil.which("readelf")
    if readelf is None:
        pytest.skip("readelf not installed")
    for binary in [command, *installed.glob("gputco/_core*.so")]:
        dynamic = subprocess.run([readelf, "-d", str(binary)], check=True, capture_output=True, text=True).stdout
        paths = [line for line in dynamic.splitlines() if "RPATH" in line or "RUNPATH" in line]
        assert not paths, f"{binary.name} keeps a library path: {paths}"
