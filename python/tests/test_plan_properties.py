"""Properties of the plan engine and the recommender that must hold for every input (Hypothesis,
derandomized so every run tries the same examples), over small random plans, demand and options:

- every figure of a plan's result (distributions, per-future outcomes, monthly bands and cash flows)
  is finite, or the call is a ValueError in the library's form "<field> = <value>: <rule>";
- recommend_plan() never returns a plan the engine prices above all on demand (same futures, same
  prices, same plan options; its objective measure, total or NPV), within a cent, when no CVaR limit
  forbids all on demand.
"""
from __future__ import annotations

import math
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SMALL = settings(max_examples=50, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow])
MESSAGE = re.compile(r"^\S.* = .*: \S.*", re.DOTALL)

months = st.integers(1, 30)
fraction = st.floats(0.0, 1.0)


@pytest.fixture(scope="module")
def p4d(catalog):
    return catalog.offering("aws", "p4d.24xlarge", "us-east-1")


@st.composite
def demand(draw):
    """A few futures of a small demand model (growth, volatility, an event, a weekly shape)."""
    import gputco

    horizon = draw(months)
    events = []
    if draw(st.booleans()):
        first = draw(st.integers(0, horizon - 1))
        events.append(gputco.DemandEvent(gpus=draw(st.floats(0.0, 16.0)), probability=draw(fraction),
                                         first_month=first, last_month=draw(st.integers(first, horizon - 1))))
    hour_of_week = draw(st.one_of(st.just([]), st.lists(st.floats(0.0, 2.0), min_size=168, max_size=168)))
    model = gputco.DemandModel(draw(st.floats(0.0, 32.0)), monthly_log_growth=draw(st.floats(-0.05, 0.05)),
                               monthly_log_volatility=draw(st.floats(0.0, 0.3)), events=events,
                               hour_of_week=hour_of_week)
    return gputco.DemandFutures.generate(model, gputco.Horizon.months(horizon), draw(st.integers(1, 6)),
                                         draw(st.integers(0, 2**32)))


def owned_terms():
    import gputco

    return st.builds(lambda capex, life, staff: gputco.Owned(capex_per_gpu=capex, life_years=life, staff_per_month=staff),
                     st.floats(0.0, 50_000.0), st.integers(1, 10), st.floats(0.0, 5_000.0))


@st.composite
def plans(draw):
    """Commitments (either unit, term, payment, start month, renewal, a discount), owned purchases and a spot
    share with periods; months may fall outside a short horizon (then a ValueError naming the field)."""
    import gputco

    commitments = [
        gputco.Commitment(draw(st.floats(0.0, 40.0)), unit=draw(st.sampled_from(["gpus", "instances"])),
                          term_years=draw(st.sampled_from([1, 3])),
                          payment=draw(st.sampled_from(["no_upfront", "partial_upfront", "all_upfront"])),
                          start_month=draw(st.integers(0, 24)), renewal=draw(st.sampled_from(["lapse", "renew"])),
                          reservation_discount=draw(st.one_of(st.none(), st.floats(0.0, 0.9))))
        for _ in range(draw(st.integers(0, 3)))]
    owned = [gputco.OwnedPurchase(draw(st.floats(0.0, 16.0)), month=draw(st.integers(0, 24)), terms=draw(owned_terms()))
             for _ in range(draw(st.integers(0, 2)))]
    spot = None
    if draw(st.booleans()):
        firsts = sorted(set(draw(st.lists(st.integers(1, 24), max_size=2))))
        periods = [gputco.SpotPeriod(first_month=m, overhead=draw(st.floats(1.0, 2.0)), availability=draw(fraction))
                   for m in firsts]
        spot = gputco.SpotShare(draw(st.floats(0.0, 32.0)), overhead=draw(st.floats(1.0, 2.0)),
                                availability=draw(fraction), periods=periods,
                                price_per_gpu_hour=draw(st.one_of(st.none(), st.floats(0.0, 40.0))))
    return gputco.Plan(commitments, owned=owned, spot=spot)


def assert_finite_result(result):
    for name in ("total", "npv", "regret"):
        for key, value in getattr(result, name)._asdict().items():
            assert math.isfinite(value), f"{name}.{key} = {value}"
    for key, value in result.summary().items():
        if isinstance(value, float):
            assert math.isfinite(value), f"{key} = {value}"
    frames = [result.to_frame(), result.monthly_bands()]
    for frame in frames:
        numbers = frame.select_dtypes("number")
        assert numbers.notna().all().all() and (abs(numbers) < math.inf).all().all(), frame
    for month in result.mean_months:
        for key in dir(month):
            value = getattr(month, key)
            if not key.startswith("_") and isinstance(value, float):
                assert math.isfinite(value), f"mean_months[{month.month}].{key} = {value}"


@SMALL
@given(futures=demand(), plan=plans(), rate=st.floats(0.0, 0.3), on_demand_discount=st.floats(0.0, 0.5))
def test_every_plan_result_is_finite(gputco, p4d, futures, plan, rate, on_demand_discount):
    try:
        result = gputco.evaluate_plan(plan, futures, p4d, annual_discount_rate=rate,
                                      discounts=gputco.Discounts(on_demand_discount=on_demand_discount), threads=1)
    except ValueError as e:  # a month past the horizon: named, never a non-finite answer
        assert MESSAGE.match(str(e)), str(e)
        return
    assert result.future_count == futures.count
    assert_finite_result(result)


@SMALL
@given(futures=demand(), data=st.data())
def test_recommend_never_returns_a_plan_dearer_than_all_on_demand(gputco, p4d, futures, data):
    spot = [gputco.SpotOption(f"spot {i}", overhead=data.draw(st.floats(1.0, 2.0)), availability=data.draw(fraction),
                              deadline_miss_probability=data.draw(st.one_of(st.none(), fraction)))
            for i in range(data.draw(st.integers(0, 2)))]
    unit = data.draw(st.sampled_from(["gpus", "instances"]))
    # Counted in instances the plan is billed per instance: owned GPUs (served first) come in whole ones.
    step = p4d.gpus_per_instance if unit == "instances" else 1
    owned = None
    if data.draw(st.integers(0, 3)) == 0:  # few counts: each combination is a solve
        owned = gputco.OwnedOption(data.draw(owned_terms()), months=[0], max_gpus=step * data.draw(st.integers(0, 2)),
                                   step_gpus=step)
    objective = data.draw(st.sampled_from(["total", "npv"]))
    keywords = dict(
        # Reservations the offering lists (none = all of them), or one at a discount of its own.
        commitments=data.draw(st.lists(st.one_of(
            st.sampled_from([gputco.CommitmentOption(r.term_years, r.payment) for r in p4d.reserved]),
            st.builds(lambda term, d: gputco.CommitmentOption(term, reservation_discount=d), st.sampled_from([1, 3]),
                      st.floats(0.0, 0.7))), max_size=2)),
        review_months=data.draw(st.integers(1, 12)), unit=unit,
        spot=spot, owned=owned, objective=objective, annual_discount_rate=data.draw(st.floats(0.0, 0.3)),
        discounts=gputco.Discounts(on_demand_discount=data.draw(st.floats(0.0, 0.5))),
        deadline_miss_probability_limit=data.draw(st.one_of(st.none(), fraction)),
        committed_share=data.draw(st.one_of(st.none(), st.floats(0.0, 2.0))),
        max_blocks=data.draw(st.integers(1, 8)), threads=1, time_limit_seconds=2.0)
    r = gputco.recommend_plan(futures, p4d, **keywords)
    assert_finite_result(r.in_sample)
    assert math.isfinite(r.solver_objective)
    plan_options = dict(annual_discount_rate=keywords["annual_discount_rate"], discounts=keywords["discounts"], threads=1)
    chosen = gputco.evaluate_plan(r.plan, futures, p4d, **plan_options)
    assert r.plan.billing == unit
    on_demand = gputco.evaluate_plan(gputco.Plan(billing=unit), futures, p4d, **plan_options)  # billed alike
    measure = "total" if objective == "total" else "npv"
    ours, baseline = getattr(chosen, measure).mean, getattr(on_demand, measure).mean
    assert ours <= baseline + max(0.01, 1e-12 * abs(baseline)), (str(r.plan), ours, baseline, r.status)
