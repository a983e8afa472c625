"""gputco.evaluate_batch: one DataFrame row per strategy, equal to evaluate() bit for bit."""
import math
import random

import pandas as pd
import pytest

import gputco

H2 = gputco.Horizon.years(2)


@pytest.fixture(scope="module")
def p4d(catalog):
    return catalog.offering("aws", "p4d.24xlarge")


def random_strategy(rng: random.Random):
    kinds = [lambda: gputco.OnDemand(),
             lambda: gputco.Reserved(term_years=rng.choice([1, 3]), payment=rng.choice(["no_upfront", "all_upfront"]),
                                     reservation_discount=rng.uniform(0, 0.7)),
             lambda: gputco.SpotTranche(overhead=rng.uniform(1, 1.5), availability=rng.uniform(0, 1),
                                        price_per_gpu_hour=rng.uniform(0.5, 3))]
    n = rng.randint(1, 3)
    cuts = sorted(rng.uniform(0, 1) for _ in range(n - 1))
    fractions = [b - a for a, b in zip([0.0] + cuts, cuts + [1.0])]
    fractions[-1] = 1.0 - sum(fractions[:-1])
    return gputco.Mix([(f, rng.choice(kinds)()) for f in fractions])


@pytest.mark.parametrize("units", ["instances", "gpus"])
def test_rows_equal_evaluate(p4d, units):
    rng = random.Random(7)
    demand = gputco.DemandProfile.linear_growth(3, 40, H2).with_daily_pattern([1.0] * 12 + [0.4] * 12)
    strategies = [random_strategy(rng) for _ in range(40)]
    discounts = gputco.Discounts(on_demand_discount=0.1, free_gpu_hours=500)
    frame = gputco.evaluate_batch(strategies, demand, p4d, discounts=discounts, annual_discount_rate=0.05,
                                  units=units)
    assert len(frame) == len(strategies) and frame.attrs["units"] == units
    for row, strategy in zip(frame.itertuples(index=False), strategies):
        report = gputco.evaluate(strategy, demand, p4d, discounts=discounts, annual_discount_rate=0.05, units=units)
        assert row.strategy == report.strategy
        for name in ("total", "npv", "baseline_total", "savings", "savings_fraction", "reserved_utilisation",
                     "used_gpu_hours"):
            assert getattr(row, name) == getattr(report, name), name
        expected_month = report.break_even_month
        assert (pd.isna(row.break_even_month) if expected_month is None else row.break_even_month == expected_month)
        expected_u = report.break_even_utilisation
        assert (pd.isna(row.break_even_utilisation) if expected_u is None
                else row.break_even_utilisation == expected_u)


def test_missing_figures_are_na_and_bad_strategies_are_named(p4d):
    demand = gputco.DemandProfile.constant(8, H2)
    frame = gputco.evaluate_batch([gputco.OnDemand()], demand, p4d)
    assert pd.isna(frame.loc[0, "break_even_utilisation"]) and pd.isna(frame.loc[0, "spread_p95"])
    assert frame.loc[0, "savings"] == 0 and not math.isnan(frame.loc[0, "total"])
    assert gputco.evaluate_batch([], demand, p4d).empty
    with pytest.raises(ValueError) as error:
        gputco.evaluate_batch([gputco.OnDemand(), gputco.Mix([(1.4, gputco.OnDemand())])], demand, p4d)
    assert str(error.value) == "strategies[1].mix.tranches[0].fraction = 1.4: must be in [0, 1]"
