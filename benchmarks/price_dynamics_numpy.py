"""The fastest NumPy we can write of gputco's price model (the baseline of bench_price_dynamics).

Same model and sizes as bench_price_dynamics: 10 offerings x 10,000 futures x 36 months; on-demand OU
with drift and compound-Poisson jumps, a spot spread OU with correlated shocks, a 1-year reservation
spread OU with jumps. Vectorised over futures (one array operation per month and component), on
NumPy's fastest bit generator (SFC64), writing into preallocated arrays. A month's jumps are drawn as a
Poisson count n and their sum as n mu + s sqrt(n) Z (exact for normal jump sizes), so no per-jump
Python loop. Same distribution as the C++ engine, not the same samples.

Usage: python3 benchmarks/price_dynamics_numpy.py [--futures N] [--repeat K]
"""
import argparse
import math
import time

import numpy as np

OD = dict(reversion=0.05, volatility=0.02, drift=-0.005, jump_rate=0.08, jump_mean=-0.05, jump_sd=0.2)
SPOT = dict(reversion=0.3, volatility=0.1, drift=0.0, jump_rate=0.0, jump_mean=0.0, jump_sd=0.0)
RES = dict(reversion=0.1, volatility=0.01, drift=0.0, jump_rate=0.03, jump_mean=0.0, jump_sd=0.1)
RHO = 0.5


def step_constants(p):
    k = p["reversion"]
    phi = math.exp(-k)
    var = -math.expm1(-2 * k) / (2 * k) if k > 0 else 1.0
    return phi, p["volatility"] * math.sqrt(var)


def offering(rng, futures, months):
    out = {name: np.zeros((months, futures)) for name in ("on_demand", "spot", "reserved")}
    devs = [np.zeros(futures) for _ in range(3)]
    consts = [step_constants(p) for p in (OD, SPOT, RES)]
    z = np.empty(futures)
    z2 = np.empty(futures)
    x = [np.empty(futures) for _ in range(3)]
    for m in range(1, months):
        rng.standard_normal(out=z)
        for i, p in enumerate((OD, SPOT, RES)):
            phi, sd = consts[i]
            d = devs[i]
            d *= phi
            if i == 0:
                d += sd * z
            else:
                rng.standard_normal(out=z2)
                if i == 1:
                    z2 *= math.sqrt(1 - RHO * RHO)
                    z2 += RHO * z
                d += sd * z2
            if p["jump_rate"] > 0:
                n = rng.poisson(p["jump_rate"], futures)
                jumped = np.nonzero(n)[0]
                if jumped.size:
                    nj = n[jumped]
                    d[jumped] += nj * p["jump_mean"] + p["jump_sd"] * np.sqrt(nj) * rng.standard_normal(jumped.size)
            np.add(d, p["drift"] * m, out=x[i])
        out["on_demand"][m] = x[0]
        np.add(x[0], x[1], out=out["spot"][m])
        np.add(x[0], x[2], out=out["reserved"][m])
    for a in out.values():
        np.exp(a, out=a)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--futures", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    best_wall = best_cpu = math.inf
    for r in range(args.repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        checksum = 0.0
        for o in range(10):
            paths = offering(np.random.Generator(np.random.SFC64(o + 1000 * r)), args.futures, 36)
            checksum += paths["on_demand"][35, 0]
        best_wall = min(best_wall, time.perf_counter() - wall)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    print(f"numpy price paths: 10 offerings x {args.futures} futures x 36 months: "
          f"{best_wall * 1e3:.1f} ms wall, {best_cpu * 1e3:.1f} ms CPU (best of {args.repeat})  numpy {np.__version__}")


if __name__ == "__main__":
    main()
