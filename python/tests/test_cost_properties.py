"""Invariants of evaluate() and optimal_reservation() through the Python API, over inputs Hypothesis
draws (derandomized, so CI runs the same cases every time). The C++ suite checks the same invariants
over 1,000 seeded cases each (tests/test_cost_invariants.cpp); docs/design.md states them."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gputco

PROPERTIES = settings(max_examples=300, derandomize=True, deadline=None,
                      suppress_health_check=[HealthCheck.too_slow])
PAYMENTS = ["no_upfront", "partial_upfront", "all_upfront"]
SOURCE = gputco.Source("random test offering", "2026-01")


def prices(lo, hi):
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


@st.composite
def offerings(draw):
    gpus = draw(st.sampled_from([1, 2, 4, 8]))
    reserved = []
    for years in draw(st.sets(st.sampled_from([1, 3]))):
        effective = draw(prices(0.2, 12.0)) * gpus
        share = draw(prices(0.0, 1.0))
        reserved.append(gputco.ReservedPrice(term_years=years, payment=draw(st.sampled_from(PAYMENTS)),
                                             upfront=effective * share * years * 8760,
                                             hourly=effective * (1 - share), source=SOURCE))
    spot = draw(st.one_of(st.none(), prices(0.02, 12.0)))
    return gputco.Offering(provider="testcloud", region="test-1", instance_type="random", gpu="A100-40GB",
                           gpus_per_instance=gpus, on_demand_hourly=draw(prices(0.1, 10.0)) * gpus,
                           spot_hourly=None if spot is None else spot * gpus, reserved=reserved,
                           source=SOURCE)


@st.composite
def demands(draw):
    months = draw(st.integers(1, 24))
    horizon = gputco.Horizon.months(months)
    kind = draw(st.sampled_from(["constant", "growth", "hourly"]))
    if kind == "constant":
        return gputco.DemandProfile.constant(draw(prices(0.0, 20.0)), horizon)
    if kind == "growth":
        return gputco.DemandProfile.linear_growth(draw(prices(0.0, 10.0)), draw(prices(0.0, 30.0)), horizon)
    seed = draw(st.integers(0, 2**32 - 1))
    peak = draw(prices(0.0, 24.0))
    values = np.random.default_rng(seed).uniform(0.0, peak, months * 730)
    if draw(st.booleans()):
        values = np.floor(values)  # whole GPUs
    return gputco.DemandProfile.hourly(values)


@st.composite
def reservations(draw, offering):
    term = draw(st.sampled_from([1, 3]))
    payment = draw(st.sampled_from(PAYMENTS))
    listed = offering.reserved_price(term, payment) is not None
    discount = None if listed and draw(st.booleans()) else draw(prices(0.0, 0.9))
    return gputco.Reserved(term_years=term, payment=payment, reservation_discount=discount,
                           renewal=draw(st.sampled_from(["renew", "lapse"])))


@st.composite
def tranche_kinds(draw, offering):
    kind = draw(st.sampled_from(["reserved", "owned", "spot", "on_demand"]))
    if kind == "reserved":
        return draw(reservations(offering))
    if kind == "owned":
        return gputco.Owned(capex_per_gpu=draw(prices(0.0, 40000.0)), life_years=draw(st.integers(1, 5)),
                            residual_fraction=draw(prices(0.0, 0.5)), watts_per_gpu=draw(prices(0.0, 1000.0)),
                            idle_power_fraction=draw(prices(0.0, 1.0)), pue=draw(prices(1.0, 2.0)),
                            electricity_per_kwh=draw(prices(0.0, 0.4)))
    if kind == "spot":
        price = None if offering.spot_hourly is not None and draw(st.booleans()) else draw(prices(0.0, 5.0))
        return gputco.SpotTranche(price_per_gpu_hour=price, overhead=draw(prices(1.0, 1.6)),
                                  availability=draw(prices(0.0, 1.0)))
    return gputco.OnDemand()


@st.composite
def cases(draw):
    offering = draw(offerings())
    demand = draw(demands())
    n = draw(st.integers(1, 4))
    weights = [draw(prices(0.01, 1.0)) for _ in range(n)]
    fractions = [w / sum(weights) for w in weights[:-1]]
    fractions.append(1.0 - sum(fractions))
    mix = gputco.Mix([(f, draw(tranche_kinds(offering))) for f in fractions],
                     fleet_gpus=draw(st.one_of(st.none(), prices(0.0, 24.0))),
                     rounding=draw(st.sampled_from(["nearest", "down", "up", "none"])))
    discounts = gputco.Discounts(on_demand_discount=draw(prices(0.0, 0.9)), free_gpu_hours=draw(prices(0.0, 5000.0)),
                                 voucher_price_factor=draw(prices(0.05, 1.0)),
                                 region_price_factor=draw(prices(0.5, 2.0)))
    units = draw(st.sampled_from(["instances", "gpus"]))
    return offering, demand, mix, discounts, units


@PROPERTIES
@given(cases())
def test_every_gpu_hour_is_served_once(case):
    offering, demand, mix, discounts, units = case
    report = gputco.evaluate(mix, demand, offering, discounts=discounts, units=units)
    frame = report.to_frame()
    served = frame[["owned_used_gpu_hours", "reserved_used_gpu_hours", "spot_gpu_hours", "on_demand_gpu_hours"]]
    assert served.sum(axis=1).to_numpy() == pytest.approx(frame["used_gpu_hours"].to_numpy(), rel=1e-9, abs=1e-9)
    assert served.to_numpy().sum() == pytest.approx(demand.total_gpu_hours(), rel=1e-9, abs=1e-9)
    assert report.used_gpu_hours == pytest.approx(demand.total_gpu_hours(), rel=1e-9, abs=1e-9)
    assert (frame["on_demand_paid_gpu_hours"] >= frame["on_demand_gpu_hours"] - 1e-9).all()
    assert report.units == units
    assert report.gpus_per_unit == (offering.gpus_per_instance if units == "instances" else 1)


@PROPERTIES
@given(offerings(), demands(), st.floats(0.0, 0.9), st.floats(0.05, 1.0), st.floats(0.5, 2.0))
def test_all_on_demand_costs_demand_times_the_paid_price(offering, demand, plan, voucher, region):
    discounts = gputco.Discounts(on_demand_discount=plan, voucher_price_factor=voucher, region_price_factor=region)
    report = gputco.evaluate(gputco.OnDemand(), demand, offering, discounts=discounts, units="gpus")
    price = offering.on_demand_hourly / offering.gpus_per_instance * region * (1 - plan) * voucher
    assert report.total == pytest.approx(demand.total_gpu_hours() * price, abs=0.005)


@PROPERTIES
@given(st.data())
def test_advice_is_no_worse_than_on_demand_or_its_neighbours(data):
    offering, demand, _, discounts, units = data.draw(cases())
    reserved = data.draw(reservations(offering))
    advice = gputco.optimal_reservation(demand, offering, reserved, discounts=discounts, units=units)
    unit = advice.gpus_per_unit

    def npv(r):
        return gputco.evaluate(gputco.Mix([(1.0, reserved)], fleet_gpus=r, rounding="none"), demand, offering,
                               discounts=discounts, units=units).npv

    best = advice.report.npv
    slack = 1e-9 * max(1.0, abs(best))
    assert best <= gputco.evaluate(gputco.OnDemand(), demand, offering, discounts=discounts, units=units).npv + slack
    assert best <= npv(advice.reserved_gpus + unit) + slack
    if advice.reserved_gpus >= unit:
        assert best <= npv(advice.reserved_gpus - unit) + slack


@PROPERTIES
@given(cases(), st.floats(1.0, 1.5), st.floats(0.0, 2000.0), st.floats(0.1, 1.0))
def test_cost_rises_with_prices_and_demand_and_falls_with_credits(case, up, more_free, voucher_cut):
    offering, demand, mix, discounts, units = case
    fixed = gputco.Mix(mix.tranches, fleet_gpus=mix.fleet_gpus if mix.fleet_gpus is not None else demand.peak_gpus(),
                       rounding=mix.rounding)

    def total(offer=offering, d=demand, disc=discounts):
        return gputco.evaluate(fixed, d, offer, discounts=disc, units=units).total

    base = total()
    slack = 1e-9 * max(1.0, abs(base))
    dearer = gputco.Offering(provider=offering.provider, region=offering.region,
                             instance_type=offering.instance_type, gpu=offering.gpu,
                             gpus_per_instance=offering.gpus_per_instance,
                             on_demand_hourly=offering.on_demand_hourly * up,
                             spot_hourly=None if offering.spot_hourly is None else offering.spot_hourly * up,
                             reserved=[gputco.ReservedPrice(term_years=p.term_years, payment=p.payment,
                                                            upfront=p.upfront * up, hourly=p.hourly * up,
                                                            source=p.source)
                                       for p in offering.reserved],
                             source=offering.source)
    assert total(offer=dearer) >= base - slack
    assert total(d=demand.scaled(up)) >= base - slack
    credits = gputco.Discounts(on_demand_discount=discounts.on_demand_discount,
                               free_gpu_hours=discounts.free_gpu_hours + more_free,
                               voucher_price_factor=discounts.voucher_price_factor * voucher_cut,
                               region_price_factor=discounts.region_price_factor)
    assert total(disc=credits) <= base + slack


@PROPERTIES
@given(cases(), st.floats(-0.2, 0.3))
def test_reports_are_finite_and_non_negative(case, rate):
    offering, demand, mix, discounts, units = case
    report = gputco.evaluate(mix, demand, offering, discounts=discounts, units=units, annual_discount_rate=rate)
    frame = report.to_frame()
    for column in ["upfront", "reserved_recurring", "on_demand", "spot", "capex", "operating", "used_gpu_hours",
                   "spot_paid_gpu_hours", "on_demand_paid_gpu_hours"]:
        assert np.isfinite(frame[column]).all() and (frame[column] >= 0).all(), column
    assert (frame["credits"] <= 0).all() and (frame["resale"] <= 0).all()
    for figure in [report.total, report.npv, report.baseline_total, report.savings, report.savings_fraction]:
        assert math.isfinite(figure)
    assert report.total >= 0 and report.baseline_total >= 0
    # None exactly when (almost) nothing is used (F1: it was NaN; F16: infinite below 1e-280 GPU-hours);
    # otherwise finite.
    assert (report.effective_cost_per_used_gpu_hour is None) == (report.used_gpu_hours < 1e-12)
    if report.effective_cost_per_used_gpu_hour is not None:
        assert math.isfinite(report.effective_cost_per_used_gpu_hour)
    if report.break_even_utilisation is not None:  # F15: none, never +inf, when it never pays back
        assert math.isfinite(report.break_even_utilisation) and report.break_even_utilisation >= 0
