"""Python-side helpers of the plan engine: PlanDistribution as dicts and DataFrames."""
from __future__ import annotations

from ._core import PlanDistribution
from ._frames import Column, declare, frame, TEXT

__all__ = ["FUTURE_COLUMNS", "BAND_COLUMNS", "COMPARE_COLUMNS", "compare_frame"]

FUTURE_COLUMNS = [
    "total", "npv", "regret", "demand_gpu_hours", "committed_spend", "committed_gpu_hours",
    "committed_used_gpu_hours", "stranded_unused", "stranded_above_market",
]
BAND_COLUMNS = [
    "mean", "p5", "p50", "p95", "cumulative_mean", "cumulative_p5", "cumulative_p50", "cumulative_p95",
]
COMPARE_COLUMNS = [
    "mean", "standard_error", "p5", "p50", "p95", "cvar95", "regret_mean", "regret_p95", "best_fraction",
    "committed_utilisation", "stranded",
]
FUTURES_VIEW = declare("PlanDistribution.to_frame", FUTURE_COLUMNS, index="future", attrs=("plan", "currency"))
BANDS_VIEW = declare("PlanDistribution.monthly_bands", BAND_COLUMNS, index=Column("month", "int64"),
                     attrs=("plan", "currency"))
COMPARE_VIEW = declare("compare_frame", COMPARE_COLUMNS, index=Column("plan", TEXT))


def _summary(self: PlanDistribution) -> dict:
    """Distributions and means as a plain dict (JSON-friendly)."""
    return {
        "plan": self.plan,
        "offering": self.offering,
        "currency": self.currency,
        "horizon_months": self.horizon_months,
        "futures": self.future_count,
        "total": self.total._asdict(),
        "npv": self.npv._asdict(),
        "regret": self.regret._asdict(),
        "mean_committed_spend": self.mean_committed_spend,
        "committed_utilisation": self.committed_utilisation,
        "mean_stranded_unused": self.mean_stranded_unused,
        "mean_stranded_above_market": self.mean_stranded_above_market,
        "best_fraction": self.best_fraction,
    }


def _to_frame(self: PlanDistribution):
    """One row per future (index `future`): total, NPV, regret, demand, committed spend and use, stranded."""
    return frame(FUTURES_VIEW, self._future_columns(), attrs={"plan": self.plan, "currency": self.currency})


def _monthly_bands(self: PlanDistribution):
    """One row per month (index `month`): mean, P5, P50 and P95 of the month's cash flow and of the
    cumulative cost up to and including it, over the futures."""
    return frame(BANDS_VIEW, self._band_columns(), attrs={"plan": self.plan, "currency": self.currency})


def compare_frame(results) -> "pandas.DataFrame":  # noqa: F821
    """One row per plan of compare_plans()/evaluate_plan() results: total and regret distributions."""
    rows = []
    for r in results:
        rows.append({
            "plan": r.plan,
            "mean": r.total.mean, "standard_error": r.total.standard_error,
            "p5": r.total.p5, "p50": r.total.p50, "p95": r.total.p95, "cvar95": r.total.cvar95,
            "regret_mean": r.regret.mean, "regret_p95": r.regret.p95, "best_fraction": r.best_fraction,
            "committed_utilisation": r.committed_utilisation,
            "stranded": r.mean_stranded_unused + r.mean_stranded_above_market,
        })
    return frame(COMPARE_VIEW, rows)


PlanDistribution.summary = _summary  # type: ignore[attr-defined]
PlanDistribution.to_frame = _to_frame  # type: ignore[attr-defined]
PlanDistribution.monthly_bands = _monthly_bands  # type: ignore[attr-defined]
