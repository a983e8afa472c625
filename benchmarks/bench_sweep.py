"""Sweep throughput: points per second of gputco.sweep on the ladder example (3 strategies over a
36-month hourly demand, whole instances), on 1 and 2 threads, and on Dask LocalClusters of 1 and 2
workers, as processes and as threads. First a calibration: two busy processes against one, which says
whether two cores are really there (two vCPUs that share a core, or a loaded machine, give far less than
2x). Best of N runs each; run after `pip install .[test]`:

    python benchmarks/bench_sweep.py [points] [repeats]
"""
import multiprocessing
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


def _busy(points, out):
    """One single-threaded sweep in its own process; reports its own points per second."""
    s = gputco.load_scenario(ROOT / "examples/scenarios/ladder_uncertain_growth.yaml")
    grid = {"demand.annual_growth_rate": (0.0, 0.8), "discounts.on_demand_discount": (0.0, 0.3)}
    start = time.perf_counter()
    gputco.sweep(s, grid, samples=points, seed=1, threads=1)
    out.put(points / (time.perf_counter() - start))


def calibrate(points, repeats):
    """Points per second of one busy process alone, and of each of two at once (best of N)."""
    context = multiprocessing.get_context("spawn")
    results = {}
    for copies in (1, 2):
        best_rate = 0.0
        for _ in range(repeats):
            queue = context.Queue()
            procs = [context.Process(target=_busy, args=(points, queue)) for _ in range(copies)]
            for p in procs:
                p.start()
            rates = [queue.get() for _ in procs]
            for p in procs:
                p.join()
            best_rate = max(best_rate, min(rates))
        results[copies] = best_rate
    return results


def main():
    points = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    s = gputco.load_scenario(ROOT / "examples/scenarios/ladder_uncertain_growth.yaml")
    grid = {"demand.annual_growth_rate": (0.0, 0.8), "discounts.on_demand_discount": (0.0, 0.3)}
    run = lambda **kw: gputco.sweep(s, grid, samples=points, seed=1, **kw)  # noqa: E731
    try:
        cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = next(line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name"))
    except Exception:  # noqa: BLE001
        model = platform.processor()
    print(f"# {points} points, best of {repeats}; {model}; {os.cpu_count()} CPUs; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    alone = calibrate(points, repeats)
    print(f"calibration: 1 busy process {alone[1]:,.0f} points/s; each of 2 at once {alone[2]:,.0f} points/s "
          f"(2 cores would give {alone[2] / alone[1]:.2f} of 1.00)")
    run(threads=1)  # warm up
    for threads in (1, 2):
        t = best(lambda: run(threads=threads, chunk_size=max(1, points // 8)), repeats)
        print(f"threads={threads}: {points / t:,.0f} points/s")
    from distributed import Client, LocalCluster

    for label, kwargs in (("LocalCluster 1 worker process x 1 thread", dict(n_workers=1, threads_per_worker=1)),
                          ("LocalCluster 2 worker processes x 1 thread", dict(n_workers=2, threads_per_worker=1)),
                          ("LocalCluster 1 worker process x 2 threads", dict(n_workers=1, threads_per_worker=2)),
                          ("LocalCluster threads only (processes=False), 1 thread",
                           dict(processes=False, n_workers=1, threads_per_worker=1)),
                          ("LocalCluster threads only (processes=False), 2 threads",
                           dict(processes=False, n_workers=1, threads_per_worker=2))):
        kwargs.setdefault("processes", True)
        with LocalCluster(dashboard_address=None, **kwargs) as cluster, Client(cluster) as client:
            run(client=client, chunk_size=max(1, points // 8))  # warm up the workers
            t = best(lambda: run(client=client, chunk_size=max(1, points // 8)), repeats)
            print(f"{label}: {points / t:,.0f} points/s")


if __name__ == "__main__":
    main()
