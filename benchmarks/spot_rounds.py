"""Rounds of the spot benchmark: every C++ kernel (1 and 2 threads, with samples and without), the
Highway kernel (bench_spot_highway, if built next to bench_spot), the other interruption models and
every NumPy implementation, back to back in each round, so that their ratios come from the same
conditions. Prints the best of the rounds per program and the ratios to the best NumPy.

    python3 benchmarks/spot_rounds.py --bench build/benchmarks/bench_spot --rounds 3 [--busy-check]

Each kernel's ratio is also given against NumPy held to the same instruction set ("like for like"):
NumPy picks its own SIMD code at run time (AVX-512 here for exp and log), so on a machine with AVX-512
the avx2 kernel is set against NumPy run with NPY_DISABLE_CPU_FEATURES naming its dispatch targets
above x86-64-v3 (what NumPy runs on an AVX2 machine), and the portable kernel against NumPy held to its
baseline. Both ratios are printed.

--busy-check also times two 1-thread runs of the chosen kernel at once against one alone (best of three
trials each): on a VM whose two vCPUs share a core (or are busy with other work) two processes cannot
run at full speed, and no 1 -> 2 thread figure can be read without knowing that.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time

import spot_numpy_best
import spot_numpy_reference


def cpp_rounds(bench, paths, threads):
    """{(kernel, threads): seconds} from one run of bench_spot --kernels all."""
    out = subprocess.run([bench, "--paths", str(paths), "--repeat", "1", "--kernels", "all", "--threads",
                          str(threads)], check=True, capture_output=True, text=True).stdout
    times, kernel, events = {}, None, None
    for line in out.splitlines():
        if m := re.match(r"kernel (\w+):", line):
            kernel = m.group(1)
        elif m := re.search(r"\((\d+) thr\): ([\d.]+) s, .* ([\d.e+]+) events", line):
            times[(kernel, int(m.group(1)))] = float(m.group(2))
            events = float(m.group(3))
        elif m := re.search(r"keep_samples = false: ([\d.]+) s", line):
            times[(kernel + " without samples", 1)] = float(m.group(1))
    return times, events


def highway_round(bench, paths):
    """{(kernel, 1): seconds of the path loop alone} from one round of bench_spot_highway, or {}."""
    highway = os.path.join(os.path.dirname(bench), "bench_spot_highway")
    if not os.path.exists(highway):
        return {}
    out = subprocess.run([highway, "--paths", str(paths), "--rounds", "1"], check=True, capture_output=True,
                         text=True).stdout
    if "bit-identical across kernels: yes" not in out:
        raise SystemExit("bench_spot_highway: the kernels' samples differ")
    return {("loop only: " + m.group(1).strip(), 1): float(m.group(2))
            for m in re.finditer(r"^ +(.+?): ([\d.]+) s, ", out, re.M)}


def model_round(bench, paths):
    """{(model, kernel): ns per event}, the Poisson kernel's included, from one run of bench_spot --models
    all on every lane kernel."""
    out = subprocess.run([bench, "--paths", "1000", "--repeat", "1", "--models", "all", "--model-paths",
                          str(paths), "--kernels", "all"], check=True, capture_output=True, text=True).stdout
    ns = {}
    for section in out.split("models, 1 thread (")[1:]:
        m = re.match(r"(\w+) for Poisson: ([\d.]+) ns/event\)", section)
        kernel = m.group(1)
        ns[("poisson", kernel)] = float(m.group(2))
        for row in re.finditer(r"^ +(.+?): [\d.]+ s, ([\d.]+) ns/event", section, re.M):
            ns[(row.group(1).strip(), kernel)] = float(row.group(2))
    return ns


def numpy_seconds(name, paths):
    start = time.perf_counter()
    if name == "straightforward":
        r = spot_numpy_reference.simulate(paths)
        cost = r["cost"]
    else:
        billed, _, _, _ = spot_numpy_best.METHODS[name](paths, **spot_numpy_best.JOB)
        cost = billed * spot_numpy_best.JOB["price"]
    cost.mean(), cost.std(ddof=1), spot_numpy_best.np.percentile(cost, [50, 90, 95, 99])
    return time.perf_counter() - start


# NumPy's dispatch targets above each kernel's instruction set: disabled (NPY_DISABLE_CPU_FEATURES)
# to run NumPy as it runs on a CPU with that instruction set only.
ABOVE = {"avx2": ("X86_V4", "AVX512_SKX", "AVX512_CLX", "AVX512_CNL", "AVX512_ICL", "AVX512_SPR"),
         "portable": ("X86_V3", "AVX2", "FMA3", "X86_V4", "AVX512_SKX", "AVX512_CLX", "AVX512_CNL",
                      "AVX512_ICL", "AVX512_SPR")}


def held_to(kernel):
    """The NPY_DISABLE_CPU_FEATURES value that holds NumPy to `kernel`'s instruction set, or None when
    NumPy would not use anything above it here (then the ordinary NumPy is already like for like)."""
    if kernel not in ABOVE:
        return None
    umath = spot_numpy_best.np._core._multiarray_umath
    features = getattr(umath, "__cpu_features__", {})
    dispatch = set(getattr(umath, "__cpu_dispatch__", ()))
    names = [n for n in ABOVE[kernel] if n in dispatch and features.get(n)]
    return " ".join(names) or None


def numpy_seconds_held(name, paths, disabled):
    """numpy_seconds in a fresh interpreter whose NumPy dispatch leaves out `disabled`."""
    env = dict(os.environ, NPY_DISABLE_CPU_FEATURES=disabled)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--numpy-only", name, "--paths", str(paths)],
                         env=env, check=True, capture_output=True, text=True).stdout
    return float(out)


def busy_check(bench, paths, kernel, repeats=3):
    """Best of `repeats` alternating trials: one process alone, then two at once (each best of its own)."""
    env = dict(os.environ, GPUTCO_SPOT_KERNEL=kernel)
    cmd = [bench, "--paths", str(paths), "--repeat", "1", "--threads", "1"]

    def seconds(out):
        return float(re.search(r"1 thread \(1 thr\): ([\d.]+) s", out).group(1))

    alone, both = math.inf, [math.inf, math.inf]
    for _ in range(repeats):
        alone = min(alone, seconds(subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout))
        procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True) for _ in range(2)]
        both = [min(b, seconds(p.communicate()[0])) for b, p in zip(both, procs)]
    return alone, both


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", default="build/benchmarks/bench_spot")
    parser.add_argument("--paths", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--model-paths", type=int, default=200_000)
    parser.add_argument("--busy-check", action="store_true")
    parser.add_argument("--numpy-only", help=argparse.SUPPRESS)  # one NumPy timing, for numpy_seconds_held
    args = parser.parse_args()
    if args.numpy_only:
        print(numpy_seconds(args.numpy_only, args.paths))
        return
    held = {kernel: held_to(kernel) for kernel in ABOVE}
    best, models = {}, {}
    events = None
    for r in range(args.rounds):
        times, events = cpp_rounds(args.bench, args.paths, args.threads)
        times.update(highway_round(args.bench, args.paths))
        for name, ns in model_round(args.bench, args.model_paths).items():
            models[name] = min(models.get(name, math.inf), ns)
        for name in ("straightforward", "events", "shortcut"):
            times[("numpy " + name, 1)] = numpy_seconds(name, args.paths)
        for kernel, disabled in held.items():
            if disabled:
                for name in ("events", "shortcut"):
                    times[(f"numpy {name} held to {kernel}", 1)] = numpy_seconds_held(name, args.paths, disabled)
        for key, value in times.items():
            best[key] = min(best.get(key, math.inf), value)
        print(f"round {r + 1}: " + ", ".join(f"{k[0]}/{k[1]}t {v:.3f} s" for k, v in sorted(times.items())),
              file=sys.stderr)
    numpy_best = min(best[("numpy events", 1)], best[("numpy shortcut", 1)])
    # The best NumPy held to each kernel's instruction set (the ordinary one where nothing is held back).
    like_for_like = {kernel: min(best[(f"numpy events held to {kernel}", 1)],
                                 best[(f"numpy shortcut held to {kernel}", 1)]) if disabled else numpy_best
                     for kernel, disabled in held.items()}
    for kernel, disabled in held.items():
        print(f"NumPy held to {kernel}: NPY_DISABLE_CPU_FEATURES=\"{disabled}\"" if disabled else
              f"NumPy held to {kernel}: nothing above it in NumPy's dispatch here")
    print(f"{args.paths} paths, {events:.4g} events, best of {args.rounds} rounds")
    print("| program | 1 thread | ns per event | x best NumPy | x best NumPy on its instruction set | "
          f"{args.threads} threads | 1 -> {args.threads} threads |")
    print("|---|---|---|---|---|---|---|")
    for (name, threads), seconds in sorted(best.items(), key=lambda kv: kv[1]):
        if threads != 1:
            continue
        many = best.get((name, args.threads))
        kernel = name.removeprefix("loop only: ").split()[0]
        like = like_for_like.get(kernel, numpy_best)
        print(f"| {name} | {seconds:.3f} s | {1e9 * seconds / events:.2f} | {numpy_best / seconds:.2f} | "
              f"{like / seconds:.2f} | "
              + (f"{many:.3f} s | {seconds / many:.2f}x |" if many else "— | — |"))
    if models:
        print(f"\nmodels, 1 thread, {args.model_paths} paths, best of {args.rounds} rounds, on each lane kernel")
        print("| model | kernel | ns per event | x the Poisson kernel's |")
        print("|---|---|---|---|")
        for (name, kernel), ns in models.items():
            print(f"| {name} | {kernel} | {ns:.2f} | {ns / models[('poisson', kernel)]:.2f}x |")
    if args.busy_check:
        kernel = min((k for k, t in best if t == 1 and k.isalnum()), key=lambda k: best[(k, 1)])
        alone, both = busy_check(args.bench, args.paths, kernel)
        print(f"busy check ({kernel}, 1 thread): alone {alone:.3f} s; two processes at once {both[0]:.3f} s "
              f"and {both[1]:.3f} s: {alone / max(both):.2f}x of one core each")


if __name__ == "__main__":
    main()
