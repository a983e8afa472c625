"""Plans over time from Python: agreement with evaluate(), DataFrames, regret, errors, the fan plot."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st


@pytest.fixture(scope="module")
def p4d(catalog):
    # The plans start in 2025-01, before AWS's June 2025 cut: the prices in force then.
    return catalog.offering("aws", "p4d.24xlarge", "us-east-1").price_at("2025-01-01")


@pytest.fixture(scope="module")
def futures(gputco):
    model = gputco.DemandModel(
        8, monthly_log_volatility=0.03,
        events=[gputco.DemandEvent(gpus=8, probability=0.6, first_month=0, last_month=11)])
    return gputco.DemandFutures.generate(model, gputco.Horizon.years(3), 2000, 42)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(
    gpus=st.floats(0.0, 40.0),
    reserved_fraction=st.floats(0.0, 1.0),
    term=st.sampled_from([1, 3]),
    payment=st.sampled_from(["all_upfront"]),
    months=st.integers(1, 48),
    rate=st.floats(0.0, 0.2),
)
def test_plan_without_uncertainty_equals_evaluate_to_the_cent(gputco, catalog, gpus, reserved_fraction, term,
                                                              payment, months, rate):
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    demand = gputco.DemandProfile.constant(gpus, gputco.Horizon.months(months))
    mix = gputco.Mix([(reserved_fraction, gputco.Reserved(term_years=term, payment=payment)),
                      (1.0 - reserved_fraction, gputco.OnDemand())])
    report = gputco.evaluate(mix, demand, p4d, annual_discount_rate=rate, units="gpus")
    plan = gputco.Plan.from_mix(mix, demand.peak_gpus())
    result = gputco.evaluate_plan(plan, gputco.DemandFutures.from_profile(demand), p4d, annual_discount_rate=rate)
    assert abs(result.total.mean - report.total) < 0.005
    assert abs(result.npv.mean - report.npv) < 0.005
    assert len(result.mean_months) == len(report.months)


def test_frames_one_row_per_future_and_per_month(gputco, p4d, futures):
    ladder = gputco.Plan([
        gputco.Commitment(1, unit="instances", term_years=3, payment="all_upfront"),
        gputco.Commitment(1, unit="instances", term_years=1, payment="all_upfront", start_month=9),
    ], name="ladder")
    result = gputco.evaluate_plan(ladder, futures, p4d)
    frame = result.to_frame()
    assert len(frame) == futures.count
    assert frame.index.name == "future"
    assert frame["total"].mean() == pytest.approx(result.total.mean)
    bands = result.monthly_bands()
    assert list(bands.index) == list(range(36))
    assert (bands["p5"] <= bands["p50"]).all() and (bands["p50"] <= bands["p95"]).all()
    assert bands["cumulative_p95"].iloc[-1] == result.total.p95
    summary = result.summary()
    assert summary["plan"] == "ladder" and summary["futures"] == 2000
    assert summary["total"]["cvar95"] >= summary["total"]["p95"]


def test_regret_against_the_cheapest_compared_plan(gputco, p4d, futures):
    plans = [gputco.Plan(name="on-demand"),
             gputco.Plan([gputco.Commitment(8, term_years=3, payment="all_upfront")], name="base"),
             gputco.Plan.from_mix(gputco.Mix([(0.7, gputco.Reserved(term_years=3, payment="all_upfront")),
                                              (0.3, gputco.OnDemand())]), 16)]
    results = gputco.compare_plans(plans, futures, p4d)
    regrets = np.stack([r.to_frame()["regret"].to_numpy() for r in results])
    assert (regrets >= 0).all()
    assert (regrets.min(axis=0) == 0).all()
    assert sum(r.best_fraction for r in results) >= 1.0 - 1e-9
    table = gputco.compare_frame(results)
    assert list(table.index) == ["on-demand", "base", plans[2].name]
    totals, gpus = gputco.hindsight_reservation_totals(futures, p4d, 3, "all_upfront")
    base_totals = results[1].to_frame()["total"].to_numpy()
    assert (totals <= base_totals + 1e-6).all()
    assert set(np.unique(gpus)) <= set(range(0, 40))


def test_june_2025_cut_and_thread_counts(gputco, p4d, futures):
    cut = gputco.aws_june_2025_price_cut(p4d)
    assert cut.on_demand_factor == pytest.approx(21.96 / 32.7726)
    prices = gputco.price_paths(gputco.PriceModel(start="2025-01", changes=[cut]), gputco.Horizon.years(3),
                                futures.count, 1)
    assert prices.on_demand.shape == (36, 1)
    plan = gputco.Plan(spot=gputco.SpotShare(4, overhead=1.1, availability=0.9), name="spot")
    one = gputco.evaluate_plan(plan, futures, p4d, prices=prices, threads=1)
    two = gputco.evaluate_plan(plan, futures, p4d, prices=prices, threads=2)
    assert np.array_equal(one.to_frame()["total"].to_numpy(), two.to_frame()["total"].to_numpy())
    before = gputco.evaluate_plan(plan, futures, p4d)
    assert one.total.mean < before.total.mean


def test_bad_input_raises_value_error_naming_the_field(gputco, p4d, futures):
    with pytest.raises(ValueError, match=r"^plan\.commitments\[0\]\.start_month = 40: must be in \[0, 36\) \(the horizon's months\)$"):
        gputco.evaluate_plan(gputco.Plan([gputco.Commitment(1, start_month=40)]), futures, p4d)
    model = gputco.DemandModel(8, events=[gputco.DemandEvent(gpus=8, probability=1.5, first_month=0, last_month=3)])
    with pytest.raises(ValueError, match=r"^demand_model\.events\[0\]\.probability = 1\.5: must be in \[0, 1\]$"):
        gputco.DemandFutures.generate(model, gputco.Horizon.years(1), 10, 1)
    usd = gputco.catalog().find(provider="aws")[0]
    other = [o for o in gputco.catalog().offerings if o.currency != "USD"][0]
    plan = gputco.Plan([gputco.Commitment(1, term_years=1, payment="all_upfront", reservation_discount=0.3, offering=other)])
    with pytest.raises(ValueError, match=r"^plan\.commitments\[0\]\.offering\.currency = \""):
        gputco.evaluate_plan(plan, futures, usd)
    with pytest.raises(ValueError, match=r"^commitment\.unit = \"racks\": must be one of gpus, instances$"):
        gputco.Commitment(1, unit="racks")
    # With a dated table the commitment is converted, and the result names the rate.
    converted = gputco.evaluate_plan(plan, futures, usd, exchange_rates=gputco.ExchangeRates.builtin(),
                                     rate_date="2025-01-01")
    assert len(converted.conversions) == 1 and converted.conversions[0].startswith("plan.commitments[0]: ")
    assert converted.total.mean > 0


def test_linear_cost_mean_matches_mean_demand(gputco, catalog):
    offering = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    model = gputco.DemandModel(4, monthly_log_growth=0.01, monthly_log_volatility=0.1,
                               events=[gputco.DemandEvent(gpus=4, probability=0.3, first_month=2, last_month=8)])
    horizon = gputco.Horizon.years(2)
    futures = gputco.DemandFutures.generate(model, horizon, 20000, 3)
    result = gputco.evaluate_plan(gputco.Plan(), futures, offering)
    price = offering.on_demand_hourly / offering.gpus_per_instance
    expected = sum(price * 730 * gputco.expected_level(model, m) for m in range(24))
    assert abs(result.total.mean - expected) <= 4 * result.total.standard_error


def test_fan_plot(gputco, p4d, futures):
    from gputco.plots import plot_cost_fan

    results = gputco.compare_plans([gputco.Plan(name="a"), gputco.Plan([gputco.Commitment(8, reservation_discount=0.3)], name="b")], futures, p4d)
    ax = plot_cost_fan({"all on-demand": results[0], "1y no-upfront x 8 at 30% off": results[1]})
    assert len(ax.get_lines()) == 2
    assert len(ax.collections) == 2
    assert "2,000 futures" in ax.get_title()


def test_spot_periods(gputco, catalog):
    offering = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    demand = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(8, gputco.Horizon.months(2)))
    share = gputco.SpotShare(8, price_per_gpu_hour=1.0, periods=[gputco.SpotPeriod(first_month=1, overhead=2.0)])
    result = gputco.evaluate_plan(gputco.Plan(spot=share), demand, offering)
    # month 0: 8 x 730 h x $1; month 1: the same billed twice over
    assert result.mean_months[0].total == pytest.approx(5840.0)
    assert result.mean_months[1].total == pytest.approx(11680.0)
