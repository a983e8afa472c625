"""Plots of cost reports and spot simulations. Each function draws on `ax` (a new figure's axes by
default) and returns the matplotlib Axes. matplotlib is imported only when a plot is drawn, so
`import gputco` does not need it (install with `pip install gputco[plot]`)."""
from __future__ import annotations

from typing import Iterable, Optional, Sequence, Union

import numpy as np

from ._core import DeadlineJob, DeadlineResult, MultiRegionResult, ServingResult, CostReport, Discounts, DemandProfile, Horizon, Mix, OnDemand, Offering, Reserved, SpotResult, evaluate
from ._spot import SAMPLE_COLUMNS

__all__ = ["plot_cumulative_cost", "plot_spot_distribution", "plot_savings_vs_utilisation",
           "plot_deadline_decisions", "plot_cost_vs_time", "plot_cost_fan", "plot_frontier", "plot_price_spread",
           "plot_ready_replicas"]


def _axes(ax):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(8, 4.5))
    return ax


def _as_list(items):
    if isinstance(items, dict):
        return list(items.items())
    if isinstance(items, (CostReport, Reserved, OnDemand, Mix)):
        items = [items]
    return [(None, item) for item in items]


def plot_cumulative_cost(reports: Union[CostReport, Iterable[CostReport], dict], ax=None):
    """Cumulative cash paid by month, one line per report (a dict maps labels to reports).

    Lines are labelled with the strategy, and the offering too when reports differ in offering.
    """
    ax = _axes(ax)
    pairs = _as_list(reports)
    offerings = {report.offering for _, report in pairs}
    currencies = {report.currency for _, report in pairs}
    for label, report in pairs:
        frame = report.to_frame()
        if label is None:
            label = report.strategy if len(offerings) == 1 else f"{report.strategy} ({report.offering})"
        months = np.concatenate([[0], frame.index.to_numpy() + 1])
        cumulative = np.concatenate([[0.0], frame["cumulative"].to_numpy()])
        ax.step(months, cumulative, where="post", label=label)
    ax.set_xlabel("month")
    ax.set_ylabel(f"cumulative cost ({'/'.join(sorted(currencies))})")
    ax.set_title("Cumulative cost")
    ax.grid(True, alpha=0.3)
    if pairs:
        ax.legend()
    return ax


def plot_spot_distribution(result: SpotResult, column: str = "cost", ax=None, bins: int = 60):
    """Histogram of one sample column of a spot simulation with its mean and P50/P90/P95/P99 marked."""
    if column not in SAMPLE_COLUMNS:
        raise ValueError(f'column = "{column}": must be one of {", ".join(SAMPLE_COLUMNS)}')
    ax = _axes(ax)
    samples = getattr(result.samples, column)
    summary = getattr(result, column)
    ax.hist(samples, bins=bins, color="tab:blue", alpha=0.6)
    ax.axvline(summary.mean, color="black", linestyle="-", label=f"mean {summary.mean:,.4g}")
    styles = {"p50": ":", "p90": "--", "p95": "-.", "p99": (0, (1, 3))}
    for name, style in styles.items():
        value = getattr(summary, name)
        ax.axvline(value, color="tab:red", linestyle=style, label=f"{name.upper()} {value:,.4g}")
    ax.set_xlabel(column)
    ax.set_ylabel("paths")
    ax.set_title(f"Spot {column}: {result.paths:,} paths, seed {result.seed}")
    ax.legend()
    return ax


def _with_fleet(strategy, gpus: float):
    if isinstance(strategy, Mix):
        return Mix(strategy.tranches, fleet_gpus=gpus)
    if isinstance(strategy, Reserved):
        return Mix([(1.0, strategy)], fleet_gpus=gpus)
    return strategy


def plot_savings_vs_utilisation(
    strategies,
    offering: Offering,
    utilisations: Optional[Sequence[float]] = None,
    gpus: float = 10.0,
    horizon: Optional[Horizon] = None,
    discounts: Optional[Discounts] = None,
    ax=None,
    units: str = "instances",
):
    """Savings vs all on-demand as a function of how busy the fleet is.

    For each utilisation u, a fleet of `gpus` GPUs is bought as the strategy (a Reserved strategy
    reserves all of them) while demand is u x gpus every hour; a strategy pays off where its curve is
    above zero (the break-even utilisation). `strategies` is one strategy, a list or a dict of labels.
    The y axis is cut at -100% (paying twice the on-demand bill). `units` is passed to evaluate():
    whole instances (default) or "gpus" for the GPU-level view.
    """
    ax = _axes(ax)
    if utilisations is None:
        utilisations = np.linspace(0.05, 1.0, 20)
    utilisations = np.asarray(utilisations, dtype=float)
    horizon = horizon if horizon is not None else Horizon.years(3)
    base = DemandProfile.constant(gpus, horizon)
    for label, strategy in _as_list(strategies):
        fleet = _with_fleet(strategy, gpus)
        savings = np.array([
            evaluate(fleet, base.scaled(float(u)), offering, discounts=discounts, units=units).savings_fraction
            for u in utilisations
        ])
        ax.plot(utilisations * 100, savings * 100, marker="o", markersize=3,
                label=label if label is not None else str(strategy))
    ax.axhline(0.0, color="black", linewidth=0.8)
    bottom, top = ax.get_ylim()
    ax.set_ylim(max(bottom, -100.0), top)  # losses of several times the on-demand bill add nothing
    ax.set_xlabel("utilisation of the fleet (%)")
    ax.set_ylabel("savings vs all on-demand (%)")
    # The view changes the answer (a part-filled instance is paid in full): the title says which.
    view = (f"whole instances of {offering.gpus_per_instance} GPUs" if units == "instances" and offering.gpus_per_instance > 1
            else "single GPUs")
    ax.set_title(f"Savings vs utilisation: {offering.key}, bought in {view}")
    ax.grid(True, alpha=0.3)
    ax.legend()
    return ax


def plot_cost_fan(results, ax=None):
    """Fan plot of cumulative cost over the futures: for each plan (a PlanDistribution, a list of
    them, or a dict of labels to them) the P5-P95 band of the cumulative cost by month, filled, and
    its median as a line."""
    ax = _axes(ax)
    if isinstance(results, dict):
        pairs = list(results.items())
    elif hasattr(results, "monthly_bands"):
        pairs = [(None, results)]
    else:
        pairs = [(None, r) for r in results]
    currencies = set()
    for label, result in pairs:
        bands = result.monthly_bands()
        currencies.add(result.currency)
        months = np.concatenate([[0], bands.index.to_numpy() + 1])
        low = np.concatenate([[0.0], bands["cumulative_p5"].to_numpy()])
        median = np.concatenate([[0.0], bands["cumulative_p50"].to_numpy()])
        high = np.concatenate([[0.0], bands["cumulative_p95"].to_numpy()])
        (line,) = ax.plot(months, median, label=f"{label or result.plan} (P50; P5-P95 shaded)")
        ax.fill_between(months, low, high, color=line.get_color(), alpha=0.2, linewidth=0)
    ax.set_xlabel("month")
    ax.set_ylabel(f"cumulative cost ({'/'.join(sorted(currencies))})")
    futures = {r.future_count for _, r in pairs}
    ax.set_title(f"Cumulative cost over {'/'.join(f'{n:,}' for n in sorted(futures))} futures")
    ax.grid(True, alpha=0.3)
    if pairs:
        ax.legend()
    return ax


def _frontier_mask(hours: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """True where no other point is at least as fast and strictly cheaper, or faster and as cheap."""
    order = np.lexsort((cost, hours))
    mask = np.zeros(len(hours), dtype=bool)
    best = np.inf
    for i in order:
        if cost[i] < best:
            mask[i] = True
            best = cost[i]
    return mask


def plot_cost_vs_time(ranking, ax=None, label_frontier: bool = True, log: bool = True):
    """Cost per run against time to train, one point per row of a rank_offerings() DataFrame, coloured
    by way of buying; the frontier (rows no other row beats on both) is drawn as a step line and
    labelled. Spot rows are at their means; estimates and proxies are hollow markers."""
    ax = _axes(ax)
    hours = ranking["run_hours"].to_numpy(dtype=float)
    cost = ranking["cost_per_run"].to_numpy(dtype=float)
    for buying, group in ranking.groupby("buying", sort=True):
        measured = group["match"] == "measured"
        line = ax.scatter(group.loc[measured, "run_hours"], group.loc[measured, "cost_per_run"], s=18, label=buying)
        ax.scatter(group.loc[~measured, "run_hours"], group.loc[~measured, "cost_per_run"], s=18,
                   facecolors="none", edgecolors=line.get_facecolor())
    mask = _frontier_mask(hours, cost)
    order = np.argsort(hours[mask])
    ax.step(hours[mask][order], cost[mask][order], where="post", color="black", linewidth=1, label="frontier")
    if label_frontier:
        for _, row in ranking[mask].iterrows():
            ax.annotate(f"{row['provider']}/{row['instance_type']} ({row['buying']})",
                        (row["run_hours"], row["cost_per_run"]), fontsize=7, xytext=(3, 3),
                        textcoords="offset points")
    if log:
        ax.set_xscale("log")
        ax.set_yscale("log")
    currency = ranking.attrs.get("currency", "")
    ax.set_xlabel("time to train (h)")
    ax.set_ylabel(f"cost per run ({currency})")
    ax.set_title(f"Cost vs time to train: {ranking.attrs.get('workload', '')}")
    ax.grid(True, alpha=0.3, which="both")
    ax.legend(fontsize=8)
    return ax


_DECISION_COLOURS = {"spot": "tab:green", "on_demand": "tab:red", "none": "white"}


def plot_deadline_decisions(result: Union[DeadlineResult, MultiRegionResult], job: Optional[DeadlineJob] = None,
                            ax=None, region_names: Optional[Sequence[str]] = None):
    """A policy's decisions over a trace: a bar per tick coloured by what ran (spot, on-demand, idle;
    spot bars labelled with their region for a MultiRegionResult), a strip below marking the ticks
    with spot available, the compute done by each tick's end and, given the job, the expected
    progress ep(t) = t C0 / R0 of Uniform Progress and the deadline."""
    ax = _axes(ax)
    regions = None
    if isinstance(result, MultiRegionResult):
        regions = list(result.region)
        result = result.run
    tick = result.tick_hours
    decisions = result.decisions
    starts = np.arange(len(decisions)) * tick
    progress = np.asarray(result.progress_hours)
    top = max(float(progress.max()) if len(progress) else 1.0, job.compute_hours if job else 0.0)
    band = 0.06 * top
    for name, colour in _DECISION_COLOURS.items():
        picked = [k for k, d in enumerate(decisions) if d == name]
        if picked and name != "none":
            ax.bar(starts[picked], band, width=tick, bottom=-2.2 * band, align="edge", color=colour,
                   label=name.replace("_", "-"))
    available = np.asarray(result.spot_available, dtype=bool)
    ax.bar(starts[available], band, width=tick, bottom=-3.4 * band, align="edge", color="tab:olive", alpha=0.5,
           label="spot available")
    if regions is not None:
        for k, r in enumerate(regions):
            if r >= 0 and (k == 0 or regions[k - 1] != r):
                label = region_names[r] if region_names is not None else str(r)
                ax.annotate(label, (starts[k], -1.1 * band), fontsize=7, va="bottom")
    ax.step(np.append(starts, starts[-1] + tick if len(starts) else 0.0),
            np.append([0.0], progress), where="pre", color="black", label="compute done (h)")
    if job is not None:
        t = np.array([0.0, job.deadline_hours])
        ax.plot(t, t * job.compute_hours / job.deadline_hours, "--", color="grey", label="expected progress ep(t)")
        ax.axvline(job.deadline_hours, color="tab:purple", linestyle=":", label="deadline")
    ax.set_xlabel("hours from start")
    ax.set_ylabel("compute done (h)")
    ax.set_ylim(-3.6 * band, 1.08 * top)
    ax.set_title(f"cost {result.cost:.2f}, finished at {result.finish_hours:g} h")
    ax.legend(loc="upper left", fontsize=8)
    return ax


def plot_frontier(frontier, risk: str = "cvar95", ax=None, currency: str = ""):
    """The cost-risk frontier of gputco.recommend(..., cvar95_limits=...): one point per feasible row of
    the frontier DataFrame, mean cost against `risk` ("cvar95" or "p95"), joined in the order of the
    limits, on the fitted futures; with held_out_mean / held_out_cvar95 columns (recommend with
    held_out) the same plans judged on the held-out futures as a second line. Limits no plan met are
    marked as dotted vertical lines."""
    if risk not in ("cvar95", "p95"):
        raise ValueError(f'risk = "{risk}": must be "cvar95" or "p95"')
    ax = _axes(ax)
    feasible = frontier[frontier["feasible"].astype(bool)]
    ax.plot(feasible[risk].to_numpy(dtype=float), feasible["mean"].to_numpy(dtype=float), marker="o",
            label="fitted futures")
    if risk == "cvar95" and "held_out_mean" in frontier.columns:
        ax.plot(feasible["held_out_cvar95"].to_numpy(dtype=float), feasible["held_out_mean"].to_numpy(dtype=float),
                marker="s", linestyle="--", label="held-out futures")
    for limit in frontier.loc[~frontier["feasible"].astype(bool), "cvar95_limit"]:
        ax.axvline(float(limit), color="grey", linestyle=":", linewidth=1)
    unit = f" ({currency})" if currency else ""
    ax.set_xlabel(("CVaR95" if risk == "cvar95" else "P95") + f" of the total{unit}")
    ax.set_ylabel(f"mean total{unit}")
    ax.set_title("Cost-risk frontier: the plan of least mean cost under each CVaR95 limit")
    ax.grid(True, alpha=0.3)
    ax.legend()
    return ax


def plot_price_spread(spread, ax=None):
    """The spread of each GPU's price per GPU-hour (Catalog.price_spread's frame): a bar from min to
    max, the median marked, GPUs by median price; the count of offerings beside each bar."""
    ax = _axes(ax)
    rows = spread.sort_values("median").reset_index(drop=True)
    y = np.arange(len(rows))
    ax.hlines(y, rows["min"], rows["max"], linewidth=6, alpha=0.4, label="min to max")
    ax.plot(rows["median"], y, "k|", markersize=14, label="median")
    for i, r in rows.iterrows():
        ax.annotate(f" {r['offerings']}", (r["max"], i), va="center", fontsize=8)
    ax.set_yticks(y)
    ax.set_yticklabels(rows["gpu"])
    currency = rows["currency"].iloc[0] if len(rows) else ""
    ax.set_xlabel(f"price per GPU-hour ({currency})")
    ax.set_title("Price spread per GPU across offerings (count at the right)")
    ax.legend(loc="lower right")
    return ax


def plot_ready_replicas(results: Union[ServingResult, dict], target_replicas: Optional[int] = None, ax=None):
    """Ready replicas over the trace, one step line per serving run (a dict: label -> ServingResult, e.g.
    one per policy), the target N as a dashed line, and each run's availability and cost in its label."""
    ax = _axes(ax)
    runs = [(None, results)] if isinstance(results, ServingResult) else list(results.items())
    for label, r in runs:
        ready = np.asarray(r.ready)
        if len(ready) == 0:
            raise ValueError("results: a run without its per-tick ready replicas")
        hours = np.arange(len(ready)) * (r.hours / len(ready))
        name = f"{label}: " if label else ""
        ax.step(hours, ready, where="post", linewidth=0.8,
                label=f"{name}{100 * r.availability:.2f}% with >= N, cost {r.cost:,.0f}")
    if target_replicas is not None:
        ax.axhline(target_replicas, color="black", linestyle="--", linewidth=0.8, label=f"N = {target_replicas}")
    ax.set_xlabel("hours from start")
    ax.set_ylabel("ready replicas")
    ax.legend(loc="lower left", fontsize=8)
    return ax
