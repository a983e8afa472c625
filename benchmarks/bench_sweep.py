"""Sweep throughput: points per second of gputco.sweep on the ladder example (3 strategies over a
36-month hourly demand, whole instances), on 1 and 2 threads and on a Dask LocalCluster of 2 worker
processes and of 1 process with 2 threads. Best of N runs each; run after `pip install .[test]`.

    python benchmarks/bench_sweep.py [points] [repeats]
"""
import os
import pathlib
import platform
import subprocess
import sys
import time

import gputco

ROOT = pathlib.Path(__file__).resolve().parents[1]


def best(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    s = gputco.load_scenario(ROOT / "examples/scenarios/ladder_uncertain_growth.yaml")
    grid = {"demand.annual_growth_rate": (0.0, 0.8), "discounts.plan_discount": (0.0, 0.3)}
    run = lambda **kw: gputco.sweep(s, grid, samples=points, seed=1, **kw)  # noqa: E731
    try:
        cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = next(line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name"))
    except Exception:  # noqa: BLE001
        model = platform.processor()
    print(f"# {points} points, best of {repeats}; {model}; {os.cpu_count()} CPUs")
    run(threads=1)  # warm up
    for threads in (1, 2):
        t = best(lambda: run(threads=threads, chunk_size=max(1, points // 8)), repeats)
        print(f"threads={threads}: {points / t:,.0f} points/s")
    from distributed import Client, LocalCluster

    for label, kwargs in (("LocalCluster 2 processes x 1 thread", dict(n_workers=2, threads_per_worker=1)),
                          ("LocalCluster 1 process x 2 threads", dict(n_workers=1, threads_per_worker=2))):
        with LocalCluster(processes=True, dashboard_address=None, **kwargs) as cluster, Client(cluster) as client:
            run(client=client, chunk_size=max(1, points // 8))  # warm up the workers
            t = best(lambda: run(client=client, chunk_size=max(1, points // 8)), repeats)
            print(f"{label}: {points / t:,.0f} points/s")


if __name__ == "__main__":
    main()
