"""The fastest NumPy we can write of the spot Monte Carlo's Poisson model (the baseline of bench_spot).

Two implementations, both vectorised over paths, both on NumPy's fastest bit generator (SFC64):

* ``events``: the same event loop as the C++ engine (one exponential lifetime per launch, the whole
  segments before the interruption skipped with ``floor``), run on a working set of ``chunk`` paths at a
  time so that its arrays stay in cache, every array operation writing into preallocated buffers, and
  finished paths compacted away lazily (only once half the working set has finished), not every step.
* ``shortcut``: the distributional shortcut that Poisson interruptions allow (memoryless lifetimes). A
  segment of L hours (its work plus the checkpoint write) is first tried without a restart and fails
  with probability q0 = 1 - exp(-L/M); after a failure each retry takes R + L hours and fails with
  q1 = 1 - exp(-(R + L)/M). So a path's failures are Binomial(segments, q0) first failures plus
  NegativeBinomial(first failures, 1 - q1) retries, and the running time lost to each failure is an
  exponential truncated to its attempt. Same distribution as the event loop, not the same samples; no
  per-event Python loop at all.

Both compute every path's billed hours, wall hours, lost work and interruptions, then the mean,
standard error and four percentiles of the cost, as simulate_spot does. An event is one interruption.
Reference job: W = 2000 h, MTBF 20 h, tau = 2 h, delta = 0.1 h, R = 0.25 h, $1.2/h.

Usage: python3 benchmarks/spot_numpy_best.py [--paths N] [--repeat K] [--method events|shortcut|both]
"""
import argparse
import math
import time

import numpy as np

JOB = dict(work=2000.0, mtbf=20.0, tau=2.0, delta=0.1, restart=0.25, wait=0.0, price=1.2)


def segments(work, tau):
    """Segment count as the library counts it: a ratio within 1e-9 of a whole number is that number."""
    ratio = work / tau
    nearest = round(ratio)
    return int(nearest) if nearest >= 1 and abs(ratio - nearest) <= 1e-9 * ratio else math.ceil(ratio)


def simulate_events(paths, work, mtbf, tau, delta, restart, wait, price, seed=2024, chunk=16384):
    rng = np.random.Generator(np.random.SFC64(seed))
    seg = tau + delta
    n = segments(work, tau)
    last_work = work - (n - 1) * tau
    tail = last_work + delta               # the last segment's running time
    first_rest = (n - 1) * seg + tail      # running time a fresh path needs
    billed_out = np.empty(paths)
    lost_out = np.empty(paths)
    count_out = np.empty(paths)
    # Scratch buffers, reused by every step of every chunk.
    buf = {name: np.empty(chunk) for name in ("kill", "run", "t1", "t2", "t3")}
    fin = np.empty(chunk, dtype=bool)
    in_last = np.empty(chunk, dtype=bool)
    for start in range(0, paths, chunk):
        size = min(chunk, paths - start)
        ids = np.arange(start, start + size)
        rest = np.full(size, first_rest)
        billed = np.zeros(size)
        lost = np.zeros(size)
        count = np.zeros(size)
        live = size
        restart_now = 0.0                  # every path of a chunk starts together: 0, then R
        while live:
            w = ids.size
            kill, run, t1, t2, t3 = (buf[k][:w] for k in ("kill", "run", "t1", "t2", "t3"))
            f, il = fin[:w], in_last[:w]
            rng.standard_exponential(w, out=kill)
            np.multiply(kill, mtbf, out=kill)
            np.subtract(kill, restart_now, out=run)
            np.greater_equal(run, rest, out=f)
            done = np.flatnonzero(f)
            if done.size:                  # record the finished paths; rest = inf retires them
                who = ids[done]
                billed_out[who] = billed[done] + (restart_now + rest[done])
                lost_out[who] = lost[done]
                count_out[who] = count[done]
                rest[done] = np.inf
                live -= done.size
            # Every path as if interrupted (the retired ones change nothing that is read again).
            np.maximum(run, 0.0, out=run)                     # worked since the restart
            np.subtract(rest, tail, out=t1)                   # where the last segment starts
            np.greater(run, t1, out=il)
            np.subtract(run, t1, out=t1)
            np.minimum(t1, last_work, out=t1)                 # lost in the last segment
            np.divide(run, seg, out=t2)
            np.floor(t2, out=t2)
            np.multiply(t2, seg, out=t2)                      # whole segments skipped, in hours
            np.subtract(run, t2, out=t3)
            np.minimum(t3, tau, out=t3)                       # lost in a full segment
            np.subtract(rest, t2, out=t2)
            np.copyto(t3, t1, where=il)
            np.copyto(t2, tail, where=il)
            rest[:] = t2
            rest[f] = np.inf
            billed += kill
            lost += t3
            count += 1.0
            restart_now = restart
            if 0 < live <= w // 2:         # lazy compaction
                keep = np.isfinite(rest)
                ids, rest, billed, lost, count = ids[keep], rest[keep], billed[keep], lost[keep], count[keep]
    return billed_out, billed_out + count_out * wait, lost_out, count_out


def simulate_shortcut(paths, work, mtbf, tau, delta, restart, wait, price, seed=2024, chunk=2048):
    rng = np.random.Generator(np.random.SFC64(seed))
    n = segments(work, tau)
    last_work = work - (n - 1) * tau
    billed_out = np.empty(paths)
    lost_out = np.empty(paths)
    count_out = np.empty(paths)
    kinds = [(n - 1, tau), (1, last_work)] if n > 1 else [(1, last_work)]
    for start in range(0, paths, chunk):
        size = min(chunk, paths - start)
        billed = np.zeros(size)
        lost = np.zeros(size)
        count = np.zeros(size)
        for how_many, seg_work in kinds:
            length = seg_work + delta                       # a first attempt
            retry = restart + length                        # an attempt after a failure
            billed += how_many * length                     # the successful attempts
            first = rng.binomial(how_many, -math.expm1(-length / mtbf), size)
            retries = np.zeros(size, dtype=np.int64)
            some = first > 0
            retries[some] = rng.negative_binomial(first[some], math.exp(-retry / mtbf))
            billed += first * restart                       # a segment that failed succeeds on a retry: + R
            for failures, limit, restart_part in ((first, length, 0.0), (retries, retry, restart)):
                total = int(failures.sum())
                if total == 0:
                    continue
                # Per-path sums of a flat array of draws, path by path: reduceat at each path's first
                # draw (a path with none would read its neighbour's, hence the where).
                starts = np.cumsum(failures) - failures
                starts[failures == 0] = 0
                has = failures > 0
                # Exp(M) truncated to [0, limit] by inversion: t = -M log(1 - u (1 - e^(-limit/M))).
                t = rng.random(total)
                t *= math.expm1(-limit / mtbf)
                np.log1p(t, out=t)
                t *= -mtbf
                billed += np.where(has, np.add.reduceat(t, starts), 0.0)
                # Work lost: the time since the restart, at most the segment's work.
                t -= restart_part
                np.clip(t, 0.0, seg_work, out=t)
                lost += np.where(has, np.add.reduceat(t, starts), 0.0)
            count += first + retries
        billed_out[start:start + size] = billed
        lost_out[start:start + size] = lost
        count_out[start:start + size] = count
    return billed_out, billed_out + count_out * wait, lost_out, count_out


METHODS = {"events": simulate_events, "shortcut": simulate_shortcut}


def closed_form(work, mtbf, tau, delta, restart, **_):
    """Daly: E[interruptions] and E[billed] summed over segments."""
    n = segments(work, tau)
    last_work = work - (n - 1) * tau
    e_n = e_b = 0.0
    for count, w in ((n - 1, tau), (1, last_work)):
        e_n += count * math.exp(restart / mtbf) * math.expm1((w + delta) / mtbf)
        e_b += count * mtbf * math.exp(restart / mtbf) * math.expm1((w + delta) / mtbf)
    return e_n, e_b


def run(method, paths, job=JOB):
    start = time.perf_counter()
    billed, wall, lost, count = METHODS[method](paths, **job)
    cost = billed * job["price"]
    summary = (cost.mean(), cost.std(ddof=1) / math.sqrt(cost.size), np.percentile(cost, [50, 90, 95, 99]))
    seconds = time.perf_counter() - start
    return seconds, count, cost, summary


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--paths", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--method", choices=["events", "shortcut", "both"], default="both")
    args = parser.parse_args()
    e_n, e_b = closed_form(**JOB)
    for method in (["events", "shortcut"] if args.method == "both" else [args.method]):
        best = math.inf
        for _ in range(args.repeat):
            seconds, count, cost, summary = run(method, args.paths)
            best = min(best, seconds)
        events = float(count.sum())
        print(f"numpy {np.__version__} {method}: {args.paths} paths, best of {args.repeat}: {best:.3f} s, "
              f"{1e9 * best / events:.2f} ns/event, mean interruptions {count.mean():.3f} "
              f"(closed form {e_n:.3f}), mean cost ${summary[0]:.2f} +- {summary[1]:.2f} "
              f"(closed form ${JOB['price'] * e_b:.2f})")


if __name__ == "__main__":
    main()
