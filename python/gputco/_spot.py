"""Python-side helpers of the spot Monte Carlo: SpotResult as DataFrame, dict and JSON."""
from __future__ import annotations

import json
import math

from ._core import SpotResult

__all__ = ["SAMPLE_COLUMNS"]

SAMPLE_COLUMNS = ["wall_hours", "billed_hours", "cost", "interruptions", "lost_work_hours", "charged_hours"]


def _finite_or_none(value: float):
    return value if math.isfinite(value) else None


def _to_frame(self: SpotResult):
    """One row per simulated path. `interruptions` counts, so it is int64 (a copy); the other columns
    are float64 and share memory with the result (no copy)."""
    import numpy as np
    import pandas as pd

    samples = self.samples
    columns = {name: getattr(samples, name) for name in SAMPLE_COLUMNS}
    columns["interruptions"] = columns["interruptions"].astype(np.int64)  # whole numbers, held as doubles
    return pd.DataFrame(columns, copy=False)


def _summary(self: SpotResult) -> dict:
    """Plain dict: per column a dict of mean, stderr, ci_low, ci_high, p50, p90, p95, p99, min, max,
    count; plus the scalar figures of the run."""
    out: dict = {name: getattr(self, name)._asdict() for name in SAMPLE_COLUMNS}
    out["deadline_miss_probability"] = self.deadline_miss_probability
    out["effective_price_per_useful_hour"] = self.effective_price_per_useful_hour
    out["effective_discount"] = self.effective_discount
    out["paths"] = self.paths
    out["seed"] = self.seed
    out["kernel"] = self.kernel
    return out


def _to_json(self: SpotResult, indent: int | None = 2) -> str:
    """summary() as JSON; figures that are not finite (e.g. an unknown discount) become null."""

    def clean(value):
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()}
        if isinstance(value, float):
            return _finite_or_none(value)
        return value

    return json.dumps(clean(_summary(self)), indent=indent)


SpotResult.to_frame = _to_frame  # type: ignore[attr-defined]
SpotResult.summary = _summary  # type: ignore[attr-defined]
SpotResult.to_json = _to_json  # type: ignore[attr-defined]
