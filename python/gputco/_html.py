"""Jupyter's rich display of the main results: `_repr_html_` renders a result's own summary() (the
figures its dict and JSON give, nested statistics as one row each) and, below it, the head of its
to_frame() or its tables, so the notebook shows the same numbers as the other views."""
from __future__ import annotations

import html
import math
from typing import Any, Optional


def _cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "&mdash;"
    if isinstance(value, float):
        return f"{value:,.4f}" if abs(value) < 1 else f"{value:,.2f}"
    return html.escape(str(value))


def summary_table(title: str, summary: dict) -> str:
    """A two-column table of a summary dict; a nested dict (a statistic's mean, p95, ...) is one row."""
    rows = []
    for key, value in summary.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {_cell(v)}" for k, v in value.items())
            rows.append(f"<tr><th style='text-align:left'>{html.escape(key)}</th><td>{value}</td></tr>")
        else:
            rows.append(f"<tr><th style='text-align:left'>{html.escape(key)}</th><td>{_cell(value)}</td></tr>")
    return f"<b>{html.escape(title)}</b><table>{''.join(rows)}</table>"


def result_html(title: str, summary: dict, frame: Optional[Any] = None, rows: int = 12) -> str:
    out = summary_table(title, summary)
    if frame is not None and len(frame):
        out += frame.head(rows).to_html(max_cols=20)
        if len(frame) > rows:
            out += f"<p>{len(frame) - rows} more rows: .to_frame()</p>"
    return out


def install() -> None:
    """Adds _repr_html_ to CostReport, SpotResult, PlanDistribution and RecommendResult."""
    from ._core import CostReport, PlanDistribution, SpotResult
    from ._recommend import RecommendResult

    CostReport._repr_html_ = lambda self: result_html(f"CostReport: {self.strategy}", self.summary(), self.to_frame())
    SpotResult._repr_html_ = lambda self: result_html("SpotResult", self.summary())
    PlanDistribution._repr_html_ = lambda self: result_html(f"PlanDistribution: {self.plan}", self.summary())

    def recommend_html(self: RecommendResult) -> str:
        out = f"<b>Recommended plan: {html.escape(str(self.plan))}</b>" + self.summary.to_html()
        out += "<b>Baselines</b>" + self.baselines.to_html()
        if len(self.frontier):
            out += "<b>Cost-risk frontier</b>" + self.frontier.to_html()
        return out

    RecommendResult._repr_html_ = recommend_html
