"""Scenario files from Python, and sweeps over their assumptions.

    s = gputco.load_scenario("examples/scenarios/ladder_uncertain_growth.yaml")   # a dict
    gputco.run_scenario(s)                                   # one row per strategy
    df = gputco.sweep(s, {"demand.annual_growth_rate": [0.0, 0.2, 0.4],
                          "discounts.on_demand_discount": [0.0, 0.1]})
    df = gputco.sweep(s, {"demand.annual_growth_rate": (0.0, 0.6)}, samples=1000, seed=7)  # Latin hypercube
    df = gputco.sweep(s, grid, client=dask_client)           # the same DataFrame, as Dask tasks

A scenario is the dict of its file (the schema in schema/scenario-v1.json); the C++ loader checks it,
so errors read as they do in the `gputco` command.
"""
from __future__ import annotations

import copy
import itertools
import json
import os
import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:  # NumPy and pandas load on first use, so `import gputco` stays quick
    import pandas as pd

from . import _core
from ._frames import Column, declare, frame, INFER, TEXT
from ._progress import progress as _progress

def _library_view(name: str, result: str):
    """A view in the columns the library declares for `result` (gputco/app/columns.hpp): the command's
    CSV and JSON have the same ones."""
    return declare(name, [Column(n, TEXT if dtype == "object" else dtype) for n, _unit, dtype in _core._columns(result)])


STRATEGIES_VIEW = _library_view("run_scenario", "strategies")
# The outputs a sweep can ask of each strategy and plan: the library's sweep point columns after "name".
OUTPUTS = tuple(name for name, _unit, _dtype in _core._columns("sweep_points")[1:])
SPOT_JOBS_VIEW = _library_view("run_spot_jobs", "spot_jobs")
DEADLINE_JOBS_VIEW = _library_view("run_deadline_jobs", "deadline_jobs")
# Inputs keep the dtype pandas gives the grid's values; outputs are float64, one per output and strategy.
SWEEP_VIEW = declare("sweep", [], extra="float64")
TORNADO_VIEW = declare("tornado", [Column("field", TEXT), "low", "high"], extra="float64")


def load_scenario(path: str | os.PathLike) -> dict:
    """The scenario file as a dict, checked by the library's loader (ValueError names file:line:column)."""
    import yaml  # a runtime dependency only of scenario files

    path = os.fspath(path)
    text = _read_scenario_file(path)
    _core._scenario_canonical(text, path)  # the loader's checks, with the file's lines and columns
    scenario = yaml.safe_load(text)
    scenario["_file"] = os.path.abspath(path)  # relative catalog files resolve against it
    return scenario


def _plain(scenario: Mapping) -> dict:
    """The scenario dict without its "_file", a PriceDynamics under "price_model" (a fitted model, as
    gputco.prices.fit_family(...).dynamics gives) written as the mapping a file holds, so that runs and
    sweeps price the plans under its paths and a sweep can set its fields ("price_model.on_demand.volatility")."""
    body = {k: v for k, v in scenario.items() if k != "_file"}
    if isinstance(body.get("price_model"), _core.PriceDynamics):
        import yaml  # a runtime dependency only of scenario files

        body["price_model"] = yaml.safe_load(_core._price_model_yaml(body["price_model"]))["price_model"]
    return body


def _text(scenario: Mapping | str | os.PathLike) -> tuple[str, str]:
    if isinstance(scenario, Mapping):
        return json.dumps(_plain(scenario)), scenario.get("_file", "<scenario>")
    path = os.fspath(scenario)
    return _read_scenario_file(path), path


def _read_scenario_file(path: str) -> str:
    """The file's text, read by the library (the scenario size limit; ValueError naming the file if it
    cannot be read); bytes that are not UTF-8 are a ValueError too."""
    data = _core._read_scenario_file(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError(f'path = "{path}": byte {e.start} is not UTF-8') from None


def run_scenario(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """Every strategy of a scenario (a dict or a file): one row each, the outputs as columns."""
    text, file = _text(scenario)
    strategies, _, _, _, _ = _core._run_scenario(text, file)
    return frame(STRATEGIES_VIEW, strategies)


def run_spot_jobs(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's spot jobs, simulated with its seed: one row each."""
    text, file = _text(scenario)
    _, spot, _, _, _ = _core._run_scenario(text, file)
    return frame(SPOT_JOBS_VIEW, spot)


def run_deadline_jobs(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's deadline jobs under their policies, seeded: one row per job and policy."""
    text, file = _text(scenario)
    _, _, _, deadline, _ = _core._run_scenario(text, file)
    return frame(DEADLINE_JOBS_VIEW, deadline)


SERVICES_VIEW = _library_view("run_services", "services")


def run_services(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's services on spot: per service and policy its cheapest candidate meeting the
    availability target (else its most available one), the omniscient bound, and the chosen plan."""
    text, file = _text(scenario)
    return frame(SERVICES_VIEW, _core._run_scenario_services(text, file))


LLM_TRAINING_JOBS_VIEW = _library_view("run_llm_training", "scenario_llm_training")
LLM_SERVING_JOBS_VIEW = _library_view("run_llm_serving", "scenario_llm_serving")


def run_llm_training(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's `llm_training` runs ranked over its catalog (rank_llm_training): one row per run,
    offering and way of buying, cheapest first within a run, the columns of gputco.LLM_TRAINING_COLUMNS
    after "llm_training"; spot rows simulated with the scenario's seed (run i with seed + i)."""
    text, file = _text(scenario)
    training, _ = _core._run_scenario_llm(text, file)
    return frame(LLM_TRAINING_JOBS_VIEW, training)


def run_llm_serving(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's `llm_serving` services ranked over its catalog (rank_llm_serving): one row per
    service, offering and way of buying, cheapest fleet first, the columns of gputco.LLM_SERVING_COLUMNS
    after "llm_serving"."""
    text, file = _text(scenario)
    _, serving = _core._run_scenario_llm(text, file)
    return frame(LLM_SERVING_JOBS_VIEW, serving)


def run_recommend(scenario: Mapping | str | os.PathLike):
    """The scenario's `recommend` section (docs/scenarios.md): the study gputco.recommend runs, on the
    scenario's futures, offering, prices and discounts, as a RecommendResult (plan, recommendation,
    distribution, summary, frontier, baselines); None when the scenario has no recommend section.
    Releases the GIL; Ctrl-C stops it (KeyboardInterrupt)."""
    from ._recommend import _study_result

    text, file = _text(scenario)
    study = _core._run_scenario_recommend(text, file)
    return None if study is None else _study_result(study)


PLANS_VIEW = _library_view("run_plans", "plans")
PLAN_COLUMNS = tuple(PLANS_VIEW.names)


def run_plans(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's plans over its futures: one row each, statistics of the total over the futures
    (total_mean, total_standard_error, total_p5 ... total_cvar95), npv_mean, regret against the cheapest
    plan of the scenario per future."""
    text, file = _text(scenario)
    _, _, plans, _, _ = _core._run_scenario(text, file)
    return frame(PLANS_VIEW, plans)


def run_workloads(scenario: Mapping | str | os.PathLike) -> pd.DataFrame:
    """The scenario's workloads, cost per unit of work through rank_offerings: one row per workload and
    way of running it (cheapest run first within a workload), the columns of gputco.RANKING_COLUMNS
    after "workload"; spot rows simulated with the scenario's seed (workload i with seed + i)."""
    text, file = _text(scenario)
    _, _, _, _, workloads = _core._run_scenario(text, file)
    return frame(WORKLOADS_VIEW, workloads)


def _workloads_view():
    from ._work import RANKING_VIEW

    return declare("run_workloads", [Column("workload", TEXT), *RANKING_VIEW.columns])


WORKLOADS_VIEW = _workloads_view()

_STEP = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def set_path(scenario: dict, path: str, value: Any) -> None:
    """Sets a field given as a path, e.g. "strategies[1].mix.tranches[0].fraction" (ValueError if absent).
    A mix tranche's fraction moves the mix's other fractions with it, so they still sum to 1."""
    steps = [(name, int(index) if index else None) for name, index in _STEP.findall(path)]
    if not steps:
        raise ValueError(f"{path} = {value!r}: not a field path")
    node: Any = scenario
    for i, (name, index) in enumerate(steps):
        last = i == len(steps) - 1
        key: Any = name if index is None else index
        if index is None and not isinstance(node, dict) or index is not None and not isinstance(node, list):
            raise ValueError(f"{path} = {value!r}: no such field in the scenario")
        if last:
            if index is not None and index >= len(node):
                raise ValueError(f"{path} = {value!r}: no such field in the scenario")
            node[key] = value
        else:
            if index is None and key not in node:
                node[key] = {}  # e.g. "discounts.on_demand_discount" where the file has no discounts
            if index is not None and index >= len(node):
                raise ValueError(f"{path} = {value!r}: no such field in the scenario")
            node = node[key]
    _follow_split(scenario, steps, value)


_TRANCHE_FRACTION = re.compile(r"^(.*)\.mix\.tranches\[(\d+)\]\.fraction$")


def _follow_split(scenario: dict, steps: list, value: Any) -> None:
    """A mix's fractions sum to 1: when a sweep sets one tranche's fraction (70/30 -> 50/50), the other
    tranches share the rest in their file's proportions (with two tranches the other takes 1 - f)."""
    path = "".join(f"[{i}]" if i is not None else f".{n}" for n, i in steps).lstrip(".")
    match = _TRANCHE_FRACTION.match(path)
    if not match or not isinstance(value, (int, float)):
        return
    tranches = _node(scenario, path[: path.rindex(".tranches[")] + ".tranches")
    index = int(match.group(2))
    others = [t for i, t in enumerate(tranches) if i != index and isinstance(t, dict) and "fraction" in t]
    rest = sum(t["fraction"] for t in others)
    for t in others:
        t["fraction"] = (1.0 - value) * (t["fraction"] / rest if rest > 0 else 1.0 / len(others))


def _node(scenario: dict, path: str) -> Any:
    node: Any = scenario
    for name, index in _STEP.findall(path):
        node = node[int(index)] if index else node[name]
    return node


def _python_value(value: Any) -> Any:
    numpy = sys.modules.get("numpy")  # a NumPy scalar exists only once NumPy is loaded
    return value.item() if numpy is not None and isinstance(value, numpy.generic) else value


def _at_point(message: str, file: str, names: Sequence[str], point: Sequence[Any]) -> str:
    """A point's error as the user can find it: the file and the point's values, not a line and
    column of the JSON text the point was run from."""
    where = ", ".join(f"{name} = {_python_value(value)!r}" for name, value in zip(names, point))
    located = re.match(re.escape(file) + r":\d+:\d+: ", message)
    rest = message[located.end():] if located else message
    return f"{file}, sweep point {where}: {rest}"


def _run_points(base: str, file: str, names: Sequence[str], points: Sequence[Sequence[Any]],
                outputs: Sequence[str]) -> list[dict]:
    """One task's work: the points of a chunk, run one after the other. Also runs on Dask workers."""
    scenario = json.loads(base)
    rows = []
    for point in points:
        s = copy.deepcopy(scenario)
        for name, value in zip(names, point):
            set_path(s, name, _python_value(value))
        try:
            figures = _core._run_sweep_point(json.dumps(s), file)
        except ValueError as e:
            raise ValueError(_at_point(str(e), file, names, point)) from None
        row = {name: _python_value(value) for name, value in zip(names, point)}
        for r in figures:  # the library's sweep point columns, one per output and strategy or plan
            for output in outputs:
                row[f"{output}[{r['name']}]"] = r[output]
        rows.append(row)
    return rows


def latin_hypercube(ranges: Mapping[str, tuple[float, float]], samples: int, seed: int = 0) -> list[tuple]:
    """samples points, each range cut into samples equal strata, one point per stratum and parameter,
    strata paired at random (numpy's PCG64 seeded with seed)."""
    if samples < 1:
        raise ValueError(f"samples = {samples}: must be >= 1")
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(seed))
    columns = []
    for name, bounds in ranges.items():
        if not (isinstance(bounds, (tuple, list)) and len(bounds) == 2) or not bounds[0] <= bounds[1]:
            raise ValueError(f"grid[{name!r}] = {bounds!r}: must be (low, high) with low <= high for samples")
        low, high = float(bounds[0]), float(bounds[1])
        u = (rng.permutation(samples) + rng.random(samples)) / samples
        columns.append(low + u * (high - low))
    return [tuple(float(c[i]) for c in columns) for i in range(samples)]


def sweep(scenario: Mapping | str | os.PathLike, grid: Mapping[str, Any], client: Any = None, *,
          samples: int | None = None, seed: int = 0, outputs: Sequence[str] = ("total", "npv", "p95"),
          chunk_size: int | None = None, threads: int | None = None) -> pd.DataFrame:
    """The scenario over a grid of assumptions: one row per point, the inputs then the outputs, one
    column per output and strategy or plan ("total[on-demand]", "p95[plan ladder]"); outputs are
    among gputco.SWEEP_OUTPUTS, the library's sweep point columns (a plan's total and npv are means
    over its futures; standard_error ... cvar95 are the total's statistics).

    grid maps field paths to values: lists give their Cartesian product; with samples=n, (low, high)
    pairs give n Latin hypercube points (seed fixes them). Points run in chunks: on the library's
    threads, or with a dask.distributed Client as Dask tasks. Each point's own seed is the scenario's,
    so the DataFrame is the same whichever way it runs and however it is chunked.
    """
    if isinstance(scenario, Mapping):
        base_dict = _plain(scenario)
        file = scenario.get("_file", "<scenario>")
    else:
        base_dict, file = load_scenario(scenario), os.fspath(scenario)
        base_dict.pop("_file")
    for output in outputs:
        if output not in OUTPUTS:
            raise ValueError(f"outputs = {output!r}: must be one of {', '.join(OUTPUTS)}")
    names = list(grid)
    if not names:
        raise ValueError("grid = {}: must name at least one field")
    if samples is None:
        for name in names:
            if isinstance(grid[name], (str, bytes)) or not hasattr(grid[name], "__iter__"):
                raise ValueError(f"grid[{name!r}] = {grid[name]!r}: must be a list of values")
        points = list(itertools.product(*(list(grid[name]) for name in names)))
    else:
        points = latin_hypercube(grid, samples, seed)
    base = json.dumps(base_dict)
    # Check the first point here, so a bad path or value fails at once, with the loader's message.
    started = time.perf_counter()
    first = _run_points(base, file, names, points[:1], outputs)
    seconds_per_point = max(time.perf_counter() - started, 1e-6)
    if chunk_size is None:  # about two seconds of work per task
        chunk_size = max(1, min(len(points), int(2.0 / seconds_per_point)))
    chunks = [points[i:i + chunk_size] for i in range(1, len(points), chunk_size)]
    bar = _progress(len(points), "sweep", "points")
    bar.update(1)
    try:
        if client is not None:
            futures = client.map(_run_points, [base] * len(chunks), [file] * len(chunks), [names] * len(chunks),
                                 chunks, [list(outputs)] * len(chunks), pure=False)
            results = client.gather(futures)
        else:
            workers = threads or os.cpu_count() or 1
            results = []
            with ThreadPoolExecutor(max_workers=workers) as pool:
                for chunk, result in zip(chunks, pool.map(lambda c: _run_points(base, file, names, c, outputs), chunks)):
                    results.append(result)
                    bar.update(len(chunk))
    finally:
        bar.close()
    rows = first + [row for chunk in results for row in chunk]
    inputs = [Column(name, INFER) for name in names]
    return frame(SWEEP_VIEW, rows, extra=[*inputs, *(c for c in rows[0] if c not in names)])


def tornado(scenario: Mapping | str | os.PathLike, ranges: Mapping[str, tuple[float, float]], *,
            output: str = "total", strategy: str, client: Any = None) -> pd.DataFrame:
    """One-at-a-time sensitivity: each field at its low and high value, the others as in the scenario.
    Rows sorted by swing (largest first): field, low, high, output at low, output at high, swing."""
    rows = []
    column = f"{output}[{strategy}]"
    for name, (low, high) in ranges.items():
        df = sweep(scenario, {name: [low, high]}, client=client, outputs=(output,))
        if column not in df:
            raise ValueError(f"strategy = {strategy!r}: not a strategy of the scenario")
        at_low, at_high = float(df[column].iloc[0]), float(df[column].iloc[1])
        rows.append({"field": name, "low": low, "high": high, f"{output}_at_low": at_low,
                     f"{output}_at_high": at_high, "swing": abs(at_high - at_low)})
    table = frame(TORNADO_VIEW, rows, extra=[f"{output}_at_low", f"{output}_at_high", "swing"])
    return table.sort_values("swing", ascending=False, ignore_index=True)


def heat_map(scenario: Mapping | str | os.PathLike, x: tuple[str, Sequence[float]], y: tuple[str, Sequence[float]],
             *, output: str = "total", strategy: str, client: Any = None) -> pd.DataFrame:
    """output[strategy] over a two-field grid: a DataFrame indexed by y's values, one column per x value."""
    df = sweep(scenario, {x[0]: list(x[1]), y[0]: list(y[1])}, client=client, outputs=(output,))
    column = f"{output}[{strategy}]"
    if column not in df:
        raise ValueError(f"strategy = {strategy!r}: not a strategy of the scenario")
    return df.pivot(index=y[0], columns=x[0], values=column)


def plot_tornado(table: pd.DataFrame, ax=None):
    """Horizontal bars from tornado(): each field's output at its low and high value."""
    import matplotlib.pyplot as plt
    import numpy as np

    ax = ax or plt.subplots(figsize=(7, 0.5 + 0.45 * len(table)))[1]
    low_col = [c for c in table.columns if c.endswith("_at_low")][0]
    high_col = [c for c in table.columns if c.endswith("_at_high")][0]
    ys = np.arange(len(table))[::-1]
    lows, highs = table[low_col].to_numpy(), table[high_col].to_numpy()
    ax.barh(ys, highs - np.minimum(lows, highs), left=np.minimum(lows, highs), color="tab:blue")
    ax.set_yticks(ys, table["field"])
    ax.set_xlabel(low_col.replace("_at_low", ""))
    ax.set_title("one-at-a-time sensitivity")
    return ax


def plot_heat_map(table: pd.DataFrame, ax=None, label: str = "total"):
    """A heat map of heat_map()'s table, with a colour bar."""
    import matplotlib.pyplot as plt

    ax = ax or plt.subplots(figsize=(6, 4.5))[1]
    image = ax.imshow(table.to_numpy(), origin="lower", aspect="auto")
    ax.set_xticks(range(len(table.columns)), [f"{v:g}" for v in table.columns])
    ax.set_yticks(range(len(table.index)), [f"{v:g}" for v in table.index])
    ax.set_xlabel(str(table.columns.name))
    ax.set_ylabel(str(table.index.name))
    ax.figure.colorbar(image, ax=ax, label=label)
    return ax
