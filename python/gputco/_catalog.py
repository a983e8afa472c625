"""Python-side helpers of the catalog: the built-in catalog and DataFrame views."""
from __future__ import annotations

import math
from typing import Optional

from ._core import Catalog, Offering
from ._frames import Column, declare, frame, TEXT

__all__ = ["catalog", "offerings_frame", "OFFERING_COLUMNS"]

_TERMS = (1, 3)
_PAYMENTS = ("no_upfront", "partial_upfront", "all_upfront")

OFFERING_COLUMNS = [
    "provider", "region", "instance_type", "gpu", "gpus_per_instance", "currency",
    "on_demand_hourly", "on_demand_per_gpu_hour", "spot_hourly", "spot_per_gpu_hour",
    *[f"reserved_{t}y_{p}_per_gpu_hour" for t in _TERMS for p in _PAYMENTS],
    "billing_increment_seconds", "source", "as_of",
]
_OFFERING_TEXT = ("provider", "region", "instance_type", "gpu", "currency", "source", "as_of")


def _offering_column(name: str) -> Column:
    return Column(name, TEXT if name in _OFFERING_TEXT else "int64" if name == "gpus_per_instance" else "float64")


OFFERINGS_VIEW = declare("Catalog.offerings_frame", [_offering_column(name) for name in OFFERING_COLUMNS])


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
    return frame(OFFERINGS_VIEW, [_offering_row(o) for o in self.find(provider=provider, gpu=gpu, region=region)])


Catalog.offerings_frame = offerings_frame  # type: ignore[attr-defined]


QUERY_COLUMNS = [*OFFERING_COLUMNS, "zone", "effective_from", "price", "per_gpu_hour", "per_gpu_hour_currency", "conversion",
                 "provider_kind", "price_age_days", "stale"]
QUERY_VIEW = declare("Catalog.query", [
    *OFFERINGS_VIEW.columns, Column("zone", TEXT), Column("effective_from", TEXT), Column("price", TEXT),
    Column("per_gpu_hour"), Column("per_gpu_hour_currency", TEXT), Column("conversion", TEXT),
    Column("provider_kind", TEXT), Column("price_age_days", "Int64"), Column("stale", "boolean")])


def query(
    self: Catalog,
    *,
    gpu: Optional[str] = None,
    min_gpu_memory_gb: Optional[float] = None,
    gpus_per_instance: Optional[int] = None,
    provider: Optional[str] = None,
    region: Optional[str] = None,
    currency: Optional[str] = None,
    has_spot: Optional[bool] = None,
    has_reservations: Optional[bool] = None,
    as_of=None,
    provider_kind: Optional[str] = None,
    sort_currency: Optional[str] = "USD",
    price: str = "on_demand",
    rates=None,
    date=None,
    every_region: bool = False,
):
    """Offerings meeting every given criterion as a DataFrame, cheapest per GPU-hour first.

    `gpu` takes any provider's spelling ("a100", "Nvidia Tesla T4"); `as_of` looks at the prices in
    force at that date; `provider_kind` is "hyperscaler", "neocloud" or "marketplace". Ranked rows
    carry each price's age in days at `date` and a stale flag (older than STALE_PRICE_AGE_DAYS, or
    undated). Rows are ranked by `price` ("on_demand", "spot", "reserved_1y",
    "reserved_3y") per GPU-hour in `sort_currency`, converted with `rates` (default: the built-in
    ExchangeRates) at `date` (default: `as_of`, else today); offerings without that price are left
    out, and a missing exchange rate raises ValueError. With sort_currency=None the rows keep catalog
    order and their own currencies. Unless `region` is given or every_region=True, each instance type
    appears in its cheapest regions only (cheapest_region_per_instance), as in `gputco catalog`.
    """
    from ._core import (ExchangeRates, cheapest_region_per_instance, provider_kind as kind_of, query_offerings,
                        rank_by_gpu_hour_price, today)

    found = query_offerings(
        self, gpu=gpu or "", min_gpu_memory_gb=min_gpu_memory_gb, gpus_per_instance=gpus_per_instance,
        provider=provider or "", region=region or "", currency=currency or "", has_spot=has_spot,
        has_reservations=has_reservations, as_of=None if as_of is None else str(as_of),
        provider_kind=provider_kind or "")
    if not every_region and not region:
        found = cheapest_region_per_instance(found)
    rows = []
    if sort_currency is None:
        for o in found:
            row = _offering_row(o)
            row.update(zone=o.zone, effective_from=o.effective_from, price=price, per_gpu_hour=math.nan,
                       per_gpu_hour_currency=o.currency, conversion="", provider_kind=kind_of(o.provider),
                       price_age_days=None, stale=None)
            rows.append(row)
    else:
        when = date if date is not None else (as_of if as_of is not None else today())
        table = rates if rates is not None else ExchangeRates.builtin()
        for ranked in rank_by_gpu_hour_price(found, sort_currency, table, str(when), price):
            o = ranked.offering
            row = _offering_row(o)
            row.update(zone=o.zone, effective_from=o.effective_from, price=price, per_gpu_hour=ranked.per_gpu_hour,
                       per_gpu_hour_currency=ranked.currency, conversion=ranked.conversion,
                       provider_kind=kind_of(o.provider), price_age_days=ranked.price_age_days, stale=ranked.stale)
            rows.append(row)
    return frame(QUERY_VIEW, rows)


Catalog.query = query  # type: ignore[attr-defined]


SPREAD_VIEW = declare("Catalog.price_spread", [
    Column("gpu", TEXT), Column("offerings", "int64"), Column("min"), Column("median"), Column("max"),
    Column("cheapest", TEXT), Column("dearest", TEXT), Column("currency", TEXT)])


def price_spread_frame(self: Catalog, *, price: str = "on_demand", currency: str = "USD", date=None, rates=None,
                       every_region: bool = False, **criteria):
    """Per GPU, the min, median and max price per GPU-hour across the offerings `criteria` select
    (Catalog.query's keywords), in one `currency` at `date`'s exchange rates (default today), with
    the cheapest and dearest offering's key. One row per GPU, sorted by name. Unless a region is given
    or every_region=True, each instance type counts in its cheapest regions only
    (cheapest_region_per_instance), as `gputco catalog --spread` counts it."""
    from ._core import (ExchangeRates, cheapest_region_per_instance, price_spread, query_offerings,
                        rank_by_gpu_hour_price, today)

    found = query_offerings(self, **{k: ("" if v is None else v) if k in ("gpu", "provider", "region", "currency", "provider_kind")
                                     else v for k, v in criteria.items()})
    if not every_region and not criteria.get("region"):
        found = cheapest_region_per_instance(found)
    when = date if date is not None else today()
    ranked = rank_by_gpu_hour_price(found, currency, rates if rates is not None else ExchangeRates.builtin(), str(when), price)
    rows = [dict(gpu=s.gpu, offerings=s.offerings, min=s.min, median=s.median, max=s.max, cheapest=s.cheapest,
                 dearest=s.dearest, currency=currency) for s in price_spread(ranked)]
    return frame(SPREAD_VIEW, rows)


Catalog.price_spread = price_spread_frame  # type: ignore[attr-defined]
