"""`python -m gputco ...` runs the gputco command (the same program as `gputco ...`), so the command is
reachable from any Python that has the package, also where the scripts folder is not on the PATH."""
from __future__ import annotations

import os
import pathlib
import shutil
import subprocess
import sys


def command() -> str:
    """The command pip installed beside this Python, else one on the PATH; GPUTCO_BUILD_DIR (a build
    tree, for the tests) first."""
    build = os.environ.get("GPUTCO_BUILD_DIR")
    candidates = [pathlib.Path(build) / "src" / "cli" / "gputco"] if build else []
    scripts = pathlib.Path(sys.executable).parent
    candidates += [scripts / "gputco", scripts / "gputco.exe"]
    for c in candidates:
        if c.is_file():
            return str(c)
    found = shutil.which("gputco")
    if not found:
        raise SystemExit("gputco: the gputco command is not installed beside this Python nor on the PATH")
    return found


def main(argv: list[str] | None = None) -> int:
    return subprocess.run([command(), *(sys.argv[1:] if argv is None else argv)]).returncode


if __name__ == "__main__":
    sys.exit(main())
