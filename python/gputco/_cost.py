"""Python-side helpers of the cost engine: CostReport as dicts and DataFrames."""
from __future__ import annotations

from typing import Iterable, Optional

from ._core import CostReport, DemandProfile, Discounts, MonthlyCashFlow, Offering, _evaluate_batch
from ._frames import Column, declare, frame, TEXT

__all__ = ["FIGURES", "MONTH_COLUMNS", "evaluate_batch"]

# The C++ field list (gputco/results/report.hpp), the one the JSON and CSV writers use.
MONTH_COLUMNS = list(MonthlyCashFlow._fields)
_MONTH_FIELDS = [Column(name, dtype) for name, dtype in zip(MonthlyCashFlow._fields, MonthlyCashFlow._field_dtypes)]
MONTHS_VIEW = declare("CostReport.to_frame", [c for c in _MONTH_FIELDS if c.name != "month"] + [Column("cumulative")],
                      index=_MONTH_FIELDS[0], attrs=("strategy", "offering", "currency"))
# The report's own figures (total, npv, savings, break-even, ...): the C++ list cost_figure_fields.
FIGURES = list(CostReport._figures)
BATCH_VIEW = declare("evaluate_batch", [
    Column("strategy", TEXT), *(Column(name, dtype) for name, dtype in zip(CostReport._figures, CostReport._figure_dtypes)),
    Column("spread_p05", "Float64"), Column("spread_p50", "Float64"), Column("spread_p95", "Float64"),
], attrs=("offering", "currency", "units"))


def _summary(self: CostReport) -> dict:
    """Totals and savings as a plain dict (JSON-friendly; None where a figure does not apply)."""
    return {
        "strategy": self.strategy,
        "offering": self.offering,
        "currency": self.currency,
        "horizon_months": self.horizon_months,
        "units": self.units,
        "gpus_per_unit": self.gpus_per_unit,
        **{name: getattr(self, name) for name in FIGURES},
        "spread": None if self.spread is None else self.spread._asdict(),
    }


def _to_frame(self: CostReport):
    """Monthly cash flows as a pandas DataFrame indexed by month, plus a `cumulative` column."""
    import numpy as np

    columns = self._month_columns()
    columns["cumulative"] = np.cumsum(columns["total"])
    return frame(MONTHS_VIEW, columns,
                 attrs={"strategy": self.strategy, "offering": self.offering, "currency": self.currency})


CostReport.summary = _summary  # type: ignore[attr-defined]
CostReport.to_frame = _to_frame  # type: ignore[attr-defined]


def evaluate_batch(strategies: Iterable, demand: DemandProfile, offering: Offering, *,
                   discounts: Optional[Discounts] = None, annual_discount_rate: float = 0.0,
                   units: str = "instances"):
    """Many strategies on one demand and offering as a pandas DataFrame, one row per strategy.

    Each row holds the figures evaluate() reports for that strategy (total, npv, savings, ...), bit for
    bit; the all on-demand baseline is costed once for all rows, so a sweep of 100 strategies costs a
    fraction of 100 evaluate() calls. Figures that do not apply (break-even, a spread without overhead
    samples) are <NA>.

        levels = [gputco.Mix([(f, gputco.Reserved(term_years=3)), (1 - f, gputco.OnDemand())])
                  for f in (0.0, 0.25, 0.5, 0.75, 1.0)]
        gputco.evaluate_batch(levels, demand, offering).sort_values("npv")
    """
    columns = _evaluate_batch(list(strategies), demand, offering, discounts=discounts,
                              annual_discount_rate=annual_discount_rate, units=units)
    return frame(BATCH_VIEW, columns, attrs={"offering": offering.key, "currency": offering.currency, "units": units})
