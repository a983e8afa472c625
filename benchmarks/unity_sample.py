#!/usr/bin/env python3
"""Unity builds against file-by-file compiles, on the same files in the same minutes.

    python3 benchmarks/unity_sample.py BUILD_DIR [--every K] [--target NAME ...]

BUILD_DIR is configured with GPUTCO_UNITY_BUILD=ON and CMAKE_EXPORT_COMPILE_COMMANDS=ON. For every K-th
unity batch (all by default) of the named targets' directories (CMakeFiles/<target>.dir/Unity/), this
compiles the batch once and each of its files alone, with the batch's own command, and prints the CPU
seconds (user + system) of both; one file then one batch, alternately, so a changing load on a shared
machine weighs on both sides alike. Object files go to a temporary folder, the build is left as it was.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import re
import resource
import shlex
import subprocess
import sys
import tempfile


def cpu_seconds(args: list[str], cwd: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def with_output(command: str, source: str, output: str) -> list[str]:
    args, out, skip = shlex.split(command), [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a in ("-o", "-MF", "-MT"):
            skip = True
            continue
        if a == "-MD":
            continue
        out.append(a)
    out[-1] = source  # the command ends with the source file
    return out + ["-o", output]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("build_dir", type=pathlib.Path)
    parser.add_argument("--every", type=int, default=1, help="every K-th batch (default: all)")
    parser.add_argument("--target", action="append", default=None, help="target names (default: gputco)")
    args = parser.parse_args()
    targets = args.target or ["gputco"]
    entries = json.loads((args.build_dir / "compile_commands.json").read_text())
    batches = [e for e in entries if any(f"/{t}.dir/Unity/" in e["file"] for t in targets)]
    batches.sort(key=lambda e: (e["file"].split(".dir/")[0], int(re.search(r"unity_(\d+)_", e["file"])[1])))
    batches = batches[:: args.every]
    total_files = total_unity = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        obj = str(pathlib.Path(tmp) / "x.o")
        for e in batches:
            members = re.findall(r'#include "([^"]+)"', pathlib.Path(e["file"]).read_text())
            if not e["command"].rstrip().endswith(e["file"]):
                print(f"skipped {e['file']}: its command does not end with the file", file=sys.stderr)
                continue
            files = 0.0
            for m in members:
                files += cpu_seconds(with_output(e["command"], m, obj), e["directory"])
            unity = cpu_seconds(with_output(e["command"], e["file"], obj), e["directory"])
            total_files += files
            total_unity += unity
            name = "/".join(pathlib.Path(e["file"]).parts[-4:])
            print(f"{name}: {len(members)} files {files:.1f} CPU s alone, {unity:.1f} CPU s as one batch", flush=True)
    if total_files:
        print(f"total: {total_files:.1f} CPU s file by file, {total_unity:.1f} CPU s in batches "
              f"({100 * (1 - total_unity / total_files):.0f} % less)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
