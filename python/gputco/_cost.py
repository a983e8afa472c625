"""Python-side helpers of the cost engine: CostReport as dicts and DataFrames."""
from __future__ import annotations

from ._core import CostReport, MonthlyCashFlow

__all__ = ["MONTH_COLUMNS"]

# The C++ field list (gputco/results/report.hpp), the one the JSON and CSV writers use.
MONTH_COLUMNS = list(MonthlyCashFlow._fields)


def _summary(self: CostReport) -> dict:
    """Totals and savings as a plain dict (JSON-friendly; None where a figure does not apply)."""
    return {
        "strategy": self.strategy,
        "offering": self.offering,
        "currency": self.currency,
        "horizon_months": self.horizon_months,
        "units": self.units,
        "gpus_per_unit": self.gpus_per_unit,
        "total": self.total,
        "npv": self.npv,
        "annual_discount_rate": self.annual_discount_rate,
        "used_gpu_hours": self.used_gpu_hours,
        "effective_cost_per_used_gpu_hour": self.effective_cost_per_used_gpu_hour,
        "reserved_utilisation": self.reserved_utilisation,
        "owned_utilisation": self.owned_utilisation,
        "baseline_total": self.baseline_total,
        "savings": self.savings,
        "savings_fraction": self.savings_fraction,
        "break_even_utilisation": self.break_even_utilisation,
        "break_even_month": self.break_even_month,
        "spread": None if self.spread is None else self.spread._asdict(),
    }


def _to_frame(self: CostReport):
    """Monthly cash flows as a pandas DataFrame indexed by month, plus a `cumulative` column."""
    import pandas as pd

    columns = self._month_columns()
    frame = pd.DataFrame({name: columns[name] for name in MONTH_COLUMNS}).set_index("month")
    frame["cumulative"] = frame["total"].cumsum()
    frame.attrs["strategy"] = self.strategy
    frame.attrs["offering"] = self.offering
    frame.attrs["currency"] = self.currency
    return frame


CostReport.summary = _summary  # type: ignore[attr-defined]
CostReport.to_frame = _to_frame  # type: ignore[attr-defined]
