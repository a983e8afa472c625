"""Python-side helpers of the plan engine: PlanDistribution as dicts and DataFrames."""
from __future__ import annotations

from ._core import PlanDistribution

__all__ = ["FUTURE_COLUMNS", "BAND_COLUMNS", "compare_frame"]

FUTURE_COLUMNS = [
    "total", "npv", "regret", "demand_gpu_hours", "committed_spend", "committed_gpu_hours",
    "committed_used_gpu_hours", "stranded_unused", "stranded_above_market",
]
BAND_COLUMNS = [
    "mean", "p5", "p50", "p95", "cumulative_mean", "cumulative_p5", "cumulative_p50", "cumulative_p95",
]


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
    import pandas as pd

    columns = self._future_columns()
    frame = pd.DataFrame({name: columns[name] for name in FUTURE_COLUMNS})
    frame.index.name = "future"
    frame.attrs["plan"] = self.plan
    frame.attrs["currency"] = self.currency
    return frame


def _monthly_bands(self: PlanDistribution):
    """One row per month (index `month`): mean, P5, P50 and P95 of the month's cash flow and of the
    cumulative cost up to and including it, over the futures."""
    import pandas as pd

    columns = self._band_columns()
    frame = pd.DataFrame({name: columns[name] for name in ["month"] + BAND_COLUMNS})
    frame["month"] = frame["month"].astype(int)
    frame = frame.set_index("month")
    frame.attrs["plan"] = self.plan
    frame.attrs["currency"] = self.currency
    return frame


def compare_frame(results) -> "pandas.DataFrame":  # noqa: F821
    """One row per plan of compare_plans()/evaluate_plan() results: total and regret distributions."""
    import pandas as pd

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
    return pd.DataFrame(rows).set_index("plan")


PlanDistribution.summary = _summary  # type: ignore[attr-defined]
PlanDistribution.to_frame = _to_frame  # type: ignore[attr-defined]
PlanDistribution.monthly_bands = _monthly_bands  # type: ignore[attr-defined]
