"""Python-side helpers of the catalog: the built-in catalog and DataFrame views."""
from __future__ import annotations

import math
from typing import Optional

from ._core import Catalog, Offering

__all__ = ["catalog", "offerings_frame", "OFFERING_COLUMNS"]

_TERMS = (1, 3)
_PAYMENTS = ("no_upfront", "partial_upfront", "all_upfront")

OFFERING_COLUMNS = [
    "provider", "region", "instance_type", "gpu", "gpus_per_instance", "currency",
    "on_demand_hourly", "on_demand_per_gpu_hour", "spot_hourly", "spot_per_gpu_hour",
    *[f"reserved_{t}y_{p}_per_gpu_hour" for t in _TERMS for p in _PAYMENTS],
    "billing_increment_seconds", "source", "as_of",
]


def catalog() -> Catalog:
    """The catalog compiled into the library (no file needed)."""
    return Catalog.builtin()


def _offering_row(o: Offering) -> dict:
    n = o.gpus_per_instance
    spot = o.spot_hourly
    row = {
        "provider": o.provider,
        "region": o.region,
        "instance_type": o.instance_type,
        "gpu": o.gpu,
        "gpus_per_instance": n,
        "currency": o.currency,
        "on_demand_hourly": o.on_demand_hourly,
        "on_demand_per_gpu_hour": o.on_demand_per_gpu_hour(),
        "spot_hourly": math.nan if spot is None else spot,
        "spot_per_gpu_hour": math.nan if spot is None else spot / n,
    }
    for term in _TERMS:
        for payment in _PAYMENTS:
            price = o.reserved_price(term, payment)
            row[f"reserved_{term}y_{payment}_per_gpu_hour"] = (
                math.nan if price is None else price.effective_hourly() / n
            )
    row["billing_increment_seconds"] = o.billing_increment_seconds
    row["source"] = o.source.name
    row["as_of"] = o.source.as_of
    return row


def offerings_frame(
    self: Catalog,
    provider: Optional[str] = None,
    gpu: Optional[str] = None,
    region: Optional[str] = None,
):
    """Offerings matching every given criterion as a pandas DataFrame, one row per offering.

    Prices per GPU-hour are in the offering's currency; reserved columns are effective rates
    (hourly + upfront / term hours) and NaN where the catalog has no such price.
    """
    import pandas as pd

    rows = [_offering_row(o) for o in self.find(provider=provider, gpu=gpu, region=region)]
    return pd.DataFrame(rows, columns=OFFERING_COLUMNS)


Catalog.offerings_frame = offerings_frame  # type: ignore[attr-defined]
