#!/usr/bin/env python3
"""Build and start-up times: the figures of benchmarks/README.md, "Build and start-up times".

    python3 benchmarks/build_times.py [--build-dir DIR] [--jobs N] [--skip-build]

1. A fresh build of everything the README's test command compiles (library, Python extension, command,
   tests, examples, benchmarks) in DIR: wall time, and the CPU seconds of each translation unit and link
   (user + system, so a busy machine inflates them less than wall time), heaviest first.
2. The rebuild after one engine source changes (src/engines/plan_core.cpp touched): the library and
   one test (test_plan_engine), then everything else that links the library; wall time.
3. The heaviest headers: each header the project includes, parsed alone (CPU seconds of a
   -fsyntax-only compile of a file holding just that #include), times the translation units of the
   build that include it (from the compiler's dependency files). Nested headers count in their
   includers too, so the column ranks, it does not add up.
4. Start-up: `import gputco` (less a bare interpreter) and `gputco --help`, best of 20 runs each, with the
   package of the Python running this script (install it first: the README's second command).

Run it on a quiet machine; it prints the CPU model and a load check first.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import os
import pathlib
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
LAUNCHER = """#!/bin/sh
out=""; prev=""
for a in "$@"; do if [ "$prev" = "-o" ]; then out=$a; fi; prev=$a; done
exec /usr/bin/time -f "%U %S $out" -a -o "{log}" "$@"
"""


def cpu_name() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def instruction_sets() -> str:
    try:
        flags = next(line for line in open("/proc/cpuinfo") if line.startswith("flags")).split()
    except (OSError, StopIteration):
        return "unknown"
    wanted = ["sse4_2", "avx2", "fma", "avx512f", "avx512bw", "avx512vl"]
    return " ".join(f for f in wanted if f in flags)


def run(cmd: list[str], **kw) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, check=True, **kw)
    return time.perf_counter() - start


def best_of(cmd: list[str], n: int = 20, **kw) -> float:
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
        best = min(best, time.perf_counter() - start)
    return best


def read_log(log: pathlib.Path) -> list[tuple[float, str]]:
    rows = []
    for line in log.read_text().splitlines():
        parts = line.split(maxsplit=2)
        if len(parts) == 3 and not line.startswith("Command"):
            try:
                rows.append((float(parts[0]) + float(parts[1]), parts[2]))
            except ValueError:
                pass
    return sorted(rows, reverse=True)


def pybind11_dir() -> list[str]:
    try:
        out = subprocess.run([sys.executable, "-m", "pybind11", "--cmakedir"], check=True, capture_output=True,
                             text=True).stdout.strip()
        return [f"-Dpybind11_DIR={out}"]
    except (subprocess.CalledProcessError, FileNotFoundError):
        return []


INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^>"]+)[>"]', re.M)


def heaviest_headers(build: pathlib.Path, jobs: int, top: int = 15, candidates: int = 120) -> None:
    """Parse cost of each directly included header times the translation units that include it."""
    direct: set[str] = set()
    for folder in ("include", "src", "tests", "python/src", "benchmarks", "examples", "fuzz"):
        for source in (ROOT / folder).rglob("*"):
            if source.suffix in (".hpp", ".h", ".cpp"):
                direct.update(INCLUDE.findall(source.read_text(errors="replace")))
    depfiles = [d.read_text(errors="replace") for d in build.rglob("*.o.d")]
    counts = {}
    for name in direct:
        pattern = re.compile(r"[\s/]" + re.escape(name) + r"(\s|$)")
        counts[name] = sum(1 for text in depfiles if pattern.search(text))
    python_includes = subprocess.run([sys.executable, "-m", "pybind11", "--includes"], capture_output=True,
                                     text=True).stdout.split() if shutil.which(sys.executable) else []
    flags = ["-std=c++20", "-fsyntax-only", f"-I{ROOT / 'include'}", "-isystem", "/usr/include/eigen3",
             "-isystem", "/usr/include/coin", *python_includes]
    for sub in ("src", "src/engines/spot", "src/catalog", "src/results", "src/optimise", "src/cli", "src/work"):
        flags.append(f"-I{ROOT / sub}")
    flags += [f"-I{build / 'generated'}", f"-I{build}"]

    def parse_cpu(name: str) -> float | None:
        with tempfile.NamedTemporaryFile("w", suffix=".cpp") as probe:
            probe.write(f"#include <{name}>\n")
            probe.flush()
            out = subprocess.run(["/usr/bin/time", "-f", "%U %S", "c++", *flags, probe.name], capture_output=True,
                                 text=True)
        if out.returncode != 0:
            return None
        user, system = out.stderr.strip().splitlines()[-1].split()
        return float(user) + float(system)

    ranked = sorted((n for n in counts if counts[n] > 1), key=lambda n: -counts[n])[:candidates]
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        costs = dict(zip(ranked, pool.map(parse_cpu, ranked)))
    rows = sorted(((c * counts[n], n, c) for n, c in costs.items() if c is not None), reverse=True)
    print(f"\n| heaviest headers ({len(depfiles)} translation units) | parsed alone, CPU s | TUs | product |")
    print("|---|---|---|---|")
    for total, name, cost in rows[:top]:
        print(f"| `{name}` | {cost:.2f} | {counts[name]} | {total:.0f} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build-dir", default=os.path.join(tempfile.gettempdir(), "gputco-build-times"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--skip-build", action="store_true", help="only the start-up times")
    args = parser.parse_args()
    print(f"CPU: {cpu_name()} ({instruction_sets()}), {os.cpu_count()} logical CPUs; "
          f"load average {os.getloadavg()[0]:.2f}")

    if not args.skip_build:
        build = pathlib.Path(args.build_dir)
        shutil.rmtree(build, ignore_errors=True)
        build.mkdir(parents=True)
        log = build / "cpu_seconds.txt"
        launcher = build / "timed-compiler.sh"
        launcher.write_text(LAUNCHER.format(log=log))
        launcher.chmod(0o755)
        configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                     "-DGPUTCO_BUILD_PYTHON=ON", "-DGPUTCO_PYTHON_TESTS=ON",
                     f"-DCMAKE_CXX_COMPILER_LAUNCHER={launcher}", f"-DCMAKE_CXX_LINKER_LAUNCHER={launcher}",
                     *pybind11_dir()]
        configure_s = run(configure, stdout=subprocess.DEVNULL)
        build_s = run(["cmake", "--build", str(build), "-j", str(args.jobs)], stdout=subprocess.DEVNULL)
        rows = read_log(log)
        total = sum(s for s, _ in rows)
        print(f"\nfresh build: configure {configure_s:.1f} s, build {build_s:.1f} s wall on {args.jobs} jobs, "
              f"{total:.0f} CPU s in {len(rows)} compiles and links")
        groups: dict[str, float] = {}
        for seconds, out in rows:
            key = ("library" if "gputco.dir" in out and "/tests/" not in out else
                   "Python extension" if "_core" in out else
                   "tests" if "test_" in out or "doctest_main" in out else
                   "examples" if "examples" in out else
                   "benchmarks" if "bench_" in out else "other")
            groups[key] = groups.get(key, 0.0) + seconds
        print("| part | CPU s |\n|---|---|")
        for key, seconds in sorted(groups.items(), key=lambda kv: -kv[1]):
            print(f"| {key} | {seconds:.0f} |")
        print("\n| heaviest compiles and links | CPU s |\n|---|---|")
        for seconds, out in rows[:15]:
            print(f"| {out.replace(str(build) + '/', '')} | {seconds:.1f} |")

        (ROOT / "src/engines/plan_core.cpp").touch()
        one_s = run(["cmake", "--build", str(build), "-j", str(args.jobs), "--target", "gputco", "test_plan_engine"],
                    stdout=subprocess.DEVNULL)
        print(f"\nafter touching src/engines/plan_core.cpp: library + test_plan_engine rebuilt in {one_s:.1f} s wall")
        rebuild_s = run(["cmake", "--build", str(build), "-j", str(args.jobs)], stdout=subprocess.DEVNULL)
        print(f"then everything else that links the library: {rebuild_s:.1f} s wall")
        heaviest_headers(build, args.jobs)

    print("\nstart-up, best of 20:")
    bare = best_of([sys.executable, "-c", "pass"])
    try:
        with_import = best_of([sys.executable, "-c", "import gputco"], cwd=tempfile.gettempdir())
    except subprocess.CalledProcessError:
        print(f"| import gputco | not importable by {sys.executable} (run this script with the venv's python) |")
        return 1
    print(f"| import gputco | {1000 * (with_import - bare):.0f} ms (interpreter alone {1000 * bare:.0f} ms) |")
    command = shutil.which("gputco")
    if command:
        print(f"| gputco --help | {1000 * best_of([command, '--help']):.1f} ms |")
    else:
        print("| gputco --help | not on PATH |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
