"""Python side of the spot Monte Carlo: simulate_spot's keyword form, and SpotResult as DataFrame,
dict and JSON."""
from __future__ import annotations

import json
import math
import numbers
from typing import Optional

from ._core import (
    Job,
    Offering,
    Poisson,
    SimulationOptions,
    SpotPricing,
    SpotResult,
    _simulate_spot,
    _spot_job_pricing,
    checkpoint_interval_or_default,
)
from ._frames import Column, declare, frame

__all__ = ["SAMPLE_COLUMNS", "simulate_spot"]


def simulate_spot(*args, **keywords) -> SpotResult:
    """Monte Carlo of a checkpointed job on spot capacity, in one of two forms.

    ``simulate_spot(job, model, pricing=SpotPricing(), options=SimulationOptions())`` takes the
    library's own objects (``Job``; ``Poisson``, ``Weibull``, ``Trace`` or ``PriceDriven``;
    ``SpotPricing``; ``SimulationOptions``), as the C++ ``simulate_spot`` does.

    ``simulate_spot(work_hours, mtbf_hours=None, checkpoint_interval_hours=None, ...)`` is the keyword
    form: it builds those objects from plain numbers (see ``_keywords``) and calls the first form.

    Releases the GIL; Ctrl-C stops it (KeyboardInterrupt).
    """
    if isinstance(args[0] if args else keywords.get("job"), Job):
        return _simulate_spot(*args, **keywords)
    return _keywords(*args, **keywords)


def _keywords(work_hours: float, mtbf_hours: Optional[float] = None,
              checkpoint_interval_hours: Optional[float] = None, checkpoint_write_hours: float = 0.0,
              restart_hours: float = 0.0, capacity_wait_hours: float = 0.0,
              price_per_hour: Optional[float] = None, paths: int = 100000, seed: int = 0, threads: int = 0, *,
              on_demand_price_per_hour: Optional[float] = None, deadline_hours: float = math.inf,
              model=None, target_half_width: float = 0.0,
              max_paths: Optional[int] = None, confidence: float = 0.95, keep_samples: bool = True,
              billing_increment_hours: Optional[float] = None, minimum_billed_hours: Optional[float] = None,
              offering: Optional[Offering] = None) -> SpotResult:
    """The keyword form. Interruptions are Poisson(mtbf_hours) unless `model` is given (not both);
    without checkpoint_interval_hours the optimal interval for the model's mean lifetime is used
    (Poisson, Weibull, Trace; a PriceDriven model needs one). `offering`
    supplies the per-GPU spot and on-demand prices and the billing increment and minimum; keywords
    given as well override it; without either the price is 1 per hour, billed continuously.
    max_paths None = 16 x paths. keep_samples=False keeps no per-path samples (summaries streamed;
    quantiles from every k-th path beyond spot_quantile_subsample paths)."""
    # Wrong types are named before any value is used (the optimal interval below would otherwise
    # report a value error for another parameter first).
    _require_numbers(work_hours=work_hours, mtbf_hours=mtbf_hours, checkpoint_interval_hours=checkpoint_interval_hours,
                     checkpoint_write_hours=checkpoint_write_hours, restart_hours=restart_hours,
                     capacity_wait_hours=capacity_wait_hours, price_per_hour=price_per_hour)
    if model is not None and mtbf_hours is not None:
        raise ValueError(f"mtbf_hours = {mtbf_hours:g}: give either mtbf_hours or model, not both")
    if model is None and mtbf_hours is None:
        raise ValueError("mtbf_hours = None: required unless model is given")
    if model is None:
        model = Poisson(mtbf_hours)
    # The library's defaults (gputco/app/spot_job.hpp), as a scenario file's spot job has them: the
    # optimal interval for the model's mean lifetime, the offering's prices and billing.
    checkpoint_interval_hours = checkpoint_interval_or_default(0.0 if checkpoint_interval_hours is None else checkpoint_interval_hours,
                                                               checkpoint_write_hours, model)
    job = Job(work_hours=work_hours, checkpoint_interval_hours=checkpoint_interval_hours,
              checkpoint_write_hours=checkpoint_write_hours, restart_hours=restart_hours,
              capacity_wait_hours=capacity_wait_hours, deadline_hours=deadline_hours)
    pricing = _spot_job_pricing(offering, price_per_hour, on_demand_price_per_hour, billing_increment_hours,
                                minimum_billed_hours)
    options = SimulationOptions(paths=paths, seed=seed, threads=threads, target_half_width=target_half_width,
                                max_paths=max_paths or 0, confidence=confidence, keep_samples=keep_samples)
    return _simulate_spot(job, model, pricing, options)


def _require_numbers(**values) -> None:
    """TypeError naming the first parameter that is neither None nor a real number."""
    for name, value in values.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
            raise TypeError(f"{name} = {value!r}: must be a number, not {type(value).__name__}")



SAMPLE_COLUMNS = ["wall_hours", "billed_hours", "cost", "interruptions", "lost_work_hours", "charged_hours"]
SAMPLES_VIEW = declare("SpotResult.to_frame",
                       [Column(name, "int64" if name == "interruptions" else "float64") for name in SAMPLE_COLUMNS])


def _finite_or_none(value: float):
    return value if math.isfinite(value) else None


def _to_frame(self: SpotResult):
    """One row per simulated path. `interruptions` counts, so it is int64 (a copy); the other columns
    are float64 and share memory with the result (no copy)."""
    samples = self.samples
    return frame(SAMPLES_VIEW, {name: getattr(samples, name) for name in SAMPLE_COLUMNS})


def _summary(self: SpotResult) -> dict:
    """Plain dict: per column a dict of mean, standard_error, ci_low, ci_high, p50, p90, p95, p99, min, max,
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
