import math
import pathlib

import numpy as np
import pandas as pd
import pytest

import gputco
from gputco._catalog import OFFERING_COLUMNS


def test_builtin_catalog(catalog):
    assert len(catalog) == len(catalog.offerings) > 0
    assert catalog is not None and gputco.Catalog.builtin().to_json() == catalog.to_json()
    p4d = catalog.offering("aws", "p4d.24xlarge")
    assert p4d.gpus_per_instance == 8 and p4d.gpu == catalog.gpu(p4d.gpu).name
    assert p4d.on_demand_per_gpu_hour() == pytest.approx(p4d.on_demand_hourly / 8)
    assert p4d.key == f"aws/{p4d.region}/p4d.24xlarge"
    price = p4d.reserved_price(3, "all_upfront")
    assert price is not None and price.payment == "all_upfront"
    assert price.effective_hourly() == pytest.approx(price.hourly + price.upfront / (3 * 8760))
    assert p4d.reserved_price(3, "partial_upfront") is None or p4d.reserved_price(3, "partial_upfront").term_years == 3


def test_offerings_frame_columns_and_dtypes(catalog):
    frame = catalog.offerings_frame()
    assert list(frame.columns) == OFFERING_COLUMNS
    assert len(frame) == len(catalog.offerings)
    for column in OFFERING_COLUMNS:
        if column.endswith(("_hourly", "_per_gpu_hour", "_seconds")):
            assert frame[column].dtype == np.float64, column
    assert frame["gpus_per_instance"].dtype == np.int64
    a100 = catalog.offerings_frame(gpu="A100-40GB", provider="azure")
    assert set(a100["provider"]) == {"azure"} and set(a100["gpu"]) == {"A100-40GB"}
    # The catalog lists every Azure region; eastus carries the reservations.
    row = a100.set_index(["instance_type", "region"]).loc[("Standard_ND96asr_v4", "eastus")]
    assert row["on_demand_per_gpu_hour"] == pytest.approx(row["on_demand_hourly"] / 8)
    assert row["reserved_3y_all_upfront_per_gpu_hour"] < row["on_demand_per_gpu_hour"]
    empty = catalog.offerings_frame(provider="nosuchcloud")
    assert list(empty.columns) == OFFERING_COLUMNS and len(empty) == 0


def test_json_round_trip_and_file(catalog, tmp_path: pathlib.Path):
    text = catalog.to_json()
    again = gputco.Catalog.from_json(text)
    assert again.to_json() == text
    path = tmp_path / "catalog.json"
    path.write_text(text)
    assert gputco.Catalog.from_json_file(path).to_json() == text
    with pytest.raises(ValueError):
        gputco.Catalog.from_json("{not json")


def test_custom_offering_overrides(catalog):
    mine = gputco.Offering(provider="aws", region="us-east-1", instance_type="p4d.24xlarge", gpu="A100-40GB",
                           gpus_per_instance=8, on_demand_hourly=20.0,
                           reserved=[gputco.ReservedPrice(term_years=1, payment="no_upfront", hourly=14.0,
                                                     source=gputco.Source("negotiated", "2025-06"))],
                           source=gputco.Source("negotiated", "2025-06"))
    merged = catalog.overridden_by(gputco.Catalog([], [mine]))
    assert merged.offering("aws", "p4d.24xlarge", "us-east-1").on_demand_hourly == 20.0
    assert len(merged) == len(catalog)
    with pytest.raises(ValueError, match="gpus_per_instance"):
        gputco.Offering(provider="aws", region="us-east-1", instance_type="x", gpu="A100-40GB",
                        on_demand_hourly=1.0, gpus_per_instance=0, source=gputco.Source("mine", "2025"))
    converted = mine.converted("EUR", 0.5)
    assert converted.currency == "EUR" and converted.on_demand_hourly == 10.0


def test_find_returns_offerings(catalog):
    found = catalog.find(provider="aws")
    assert found and all(o.provider == "aws" for o in found)
    assert all(isinstance(o.spot_hourly, float) or o.spot_hourly is None for o in found)
    assert not any(math.isnan(o.on_demand_hourly) for o in found)


def test_the_2026_market_by_provider_kind_with_ages_and_spread(catalog):
    neo = catalog.query(gpu="H200", provider_kind="neocloud", date="2026-12-05")
    assert len(neo) >= 2 and set(neo["provider_kind"]) == {"neocloud"}
    assert set(neo["provider"]) >= {"nebius", "hyperstack"}
    # Every ranked price shows its age at the date asked; undated seed prices are stale.
    rows = catalog.query(currency="CNY", date="2026-12-05")
    assert rows["stale"].all()
    lambda_h100 = catalog.query(provider="lambda", gpu="H100", date="2026-12-05")
    assert (lambda_h100["price_age_days"] == 76).all()  # the 2026-09-20 list
    assert not lambda_h100["stale"].any() and gputco.STALE_PRICE_AGE_DAYS == 365
    assert gputco.provider_kind("vast") == "marketplace" and gputco.provider_kind("mine") == "unknown"
    with pytest.raises(ValueError, match='provider_kind = "cheap": must be one of hyperscaler'):
        catalog.query(provider_kind="cheap")
    ranked = gputco.rank_by_gpu_hour_price(catalog.find(gpu="H100"), "USD", gputco.ExchangeRates(), "2026-12-05")
    spread = {s.gpu: s for s in gputco.price_spread(ranked)}["H100"]
    # Every region: from a Vast.ai host's ask (anycloud-sh/catalog vast/vms.csv line 19, $1.80) to Azure
    # ND96isr_H100_v5 in southafricawest ($186.608/h / 8, azure/vms.csv 2026-05-20).
    assert spread.min == pytest.approx(1.80) and spread.max == pytest.approx(186.608 / 8)
    assert spread.min <= spread.median <= spread.max and spread.cheapest == "vast/Florida, US, NA/1x-H100_SXM-32-65536"
    assert spread.dearest == "azure/southafricawest/Standard_ND96isr_H100_v5"


def test_cross_check_names_both_sources_and_the_one_used(catalog):
    mine = gputco.Catalog.from_json(catalog.to_json()).offering("aws", "p5.48xlarge", "us-east-1")
    other = gputco.Offering(provider="aws", region="us-east-1", instance_type="p5.48xlarge", gpu="H100",
                            gpus_per_instance=8, on_demand_hourly=98.32,
                            source=gputco.Source(name="an old quote", as_of="2025-01"))
    found = gputco.cross_check(catalog, gputco.Catalog([], [other]))
    assert [d.key for d in found] == ["aws/us-east-1/p5.48xlarge"]
    d = found[0]
    assert d.first == mine.on_demand_hourly == 55.04 and d.second == 98.32 and d.used == "first"
    assert d.relative == pytest.approx(98.32 / 55.04 - 1)
    assert "differ by 78.6% (more than 10%); using 55.04" in d.message()


def test_price_spread_table_and_plot(catalog, tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    from gputco import plots

    spread = catalog.price_spread(date="2026-12-05")
    h100 = spread.set_index("gpu").loc["H100"]
    assert h100["min"] == pytest.approx(1.80) and h100["currency"] == "USD"
    assert h100["cheapest"] == "vast/Florida, US, NA/1x-H100_SXM-32-65536"
    # By default each instance type counts in its cheapest regions only (on demand, spot, reservation).
    kept = gputco._core.cheapest_region_per_instance(catalog.find(gpu="H100"))
    ranked = gputco.rank_by_gpu_hour_price(kept, "USD", gputco.ExchangeRates(), "2026-12-05")
    prices = sorted(r.per_gpu_hour for r in ranked)
    assert h100["offerings"] == len(prices) and h100["median"] == pytest.approx(float(np.median(prices)))
    assert h100["max"] == pytest.approx(prices[-1])
    every = catalog.price_spread(date="2026-12-05", every_region=True).set_index("gpu").loc["H100"]
    assert every["offerings"] == len(catalog.find(gpu="H100")) > h100["offerings"]
    assert every["max"] == pytest.approx(186.608 / 8)
    neo = catalog.price_spread(date="2026-12-05", provider_kind="neocloud")
    assert set(neo["gpu"]) >= {"H100", "H200", "B200", "MI300X"}
    ax = plots.plot_price_spread(spread)
    assert len(ax.get_yticklabels()) == len(spread)
    ax.figure.savefig(tmp_path / "spread.png")


def test_today_is_the_clock_or_gputco_today_and_query_ages_prices_by_it(monkeypatch):
    import datetime
    monkeypatch.delenv("GPUTCO_TODAY", raising=False)
    assert gputco.today() in {str(datetime.datetime.now(datetime.timezone.utc).date()),
                              str(datetime.datetime.now(datetime.timezone.utc).date() - datetime.timedelta(days=1))}
    monkeypatch.setenv("GPUTCO_TODAY", "2030-01-02")
    assert gputco.today() == "2030-01-02"
    # Catalog.query ages prices at today when given no date: the same ages as at the pinned date.
    catalog = gputco.Catalog.builtin()
    rows = catalog.query(gpu="H100", provider="gcp", sort_currency="USD")
    pinned = catalog.query(gpu="H100", provider="gcp", sort_currency="USD", date="2030-01-02")
    assert list(rows["price_age_days"]) == list(pinned["price_age_days"])
    monkeypatch.setenv("GPUTCO_TODAY", "soon")
    with pytest.raises(ValueError, match=r'^GPUTCO_TODAY = "soon": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists$'):
        gputco.today()
