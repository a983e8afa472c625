"""The version is written once (CMakeLists.txt's project version): the module and the package metadata agree."""
import importlib.metadata
import re
from pathlib import Path


def test_version_written_once(gputco):
    cmake = (Path(__file__).parents[2] / "CMakeLists.txt").read_text()
    written = re.search(r"project\(gputco VERSION ([0-9.]+)", cmake).group(1)
    assert gputco.__version__ == written
    assert importlib.metadata.version("gputco") == written
