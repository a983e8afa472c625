"""Re-planning from Python: gputco.rolling_replan beside the static recommendation and the hindsight bound."""
import numpy as np
import pytest


@pytest.fixture(scope="module")
def p4d(catalog):
    return catalog.offering("aws", "p4d.24xlarge", "us-east-1")


def test_a_jump_seen_at_month_12_is_bought_for_and_priced_by_the_engine(gputco, p4d):
    horizon = gputco.Horizon.months(24)
    model = gputco.DemandModel(8)
    fitted = gputco.DemandFutures.generate(model, horizon, 10, 1)
    hours = np.where(np.arange(24 * 730) < 12 * 730, 8.0, 24.0)  # 8 GPUs for a year, then 24
    judged = gputco.DemandFutures.from_profile(gputco.DemandProfile.hourly(hours))
    r = gputco.rolling_replan(fitted, judged, p4d, every_months=12, model=model, futures=10, start_months=[0, 12],
                              commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")])
    bought_at_12 = sum(c.count for c in r.plans[0].commitments if c.start_month == 12)
    static_at_12 = sum(c.count for c in r.static_recommendation.commitments if c.start_month == 12)
    assert (static_at_12, bought_at_12) == (8, 24)
    assert r.rolling.per_future[0] < r.static_plan.per_future[0]
    assert r.saving.mean == pytest.approx(r.static_plan.mean - r.rolling.mean, rel=1e-12)
    priced = gputco.evaluate_plan(r.plans[0], judged, p4d)
    assert priced.total.mean == r.rolling.per_future[0]
    assert r.rolling.mean >= r.hindsight.mean - 1e-6


def test_no_re_solve_before_the_horizon_is_the_static_recommendation(gputco, p4d):
    horizon = gputco.Horizon.months(12)
    model = gputco.DemandModel(8, monthly_log_volatility=0.1)
    fitted = gputco.DemandFutures.generate(model, horizon, 10, 1)
    judged = gputco.DemandFutures.generate(model, horizon, 5, 2)
    r = gputco.rolling_replan(fitted, judged, p4d, every_months=12, review_months=6)
    assert r.solves == 1
    assert r.rolling.per_future == r.static_plan.per_future
    alone = gputco.recommend_plan(fitted, p4d, review_months=6)
    assert [(c.count, c.start_month) for c in r.static_recommendation.commitments] == \
        [(c.count, c.start_month) for c in alone.plan.commitments]


def test_re_solving_without_a_model_is_an_error_naming_it(gputco, p4d):
    futures = gputco.DemandFutures.generate(gputco.DemandModel(8), gputco.Horizon.months(12), 3, 1)
    with pytest.raises(ValueError, match=r"^rolling\.model = \"none\": must be given when rolling\.every_months = 3 < 12 "
                                         r"\(the horizon's months\): a re-solve needs futures continuing from the month seen$"):
        gputco.rolling_replan(futures, futures, p4d, every_months=3)
