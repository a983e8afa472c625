"""The plan recommender from Python: DataFrames, held-out judgement beside the baselines, errors, invariants."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st


@pytest.fixture(scope="module")
def p4d(catalog):
    return catalog.offering("aws", "p4d.24xlarge", "us-east-1")


def model(gputco, volatility=0.05):
    return gputco.DemandModel(
        8, monthly_log_growth=0.01, monthly_log_volatility=volatility,
        events=[gputco.DemandEvent(gpus=8, probability=0.6, first_month=0, last_month=11)])


def test_recommend_returns_frames_and_beats_the_baselines_out_of_sample(gputco, p4d):
    train = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.years(3), 300, 1)
    fresh = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.years(3), 2000, 2)
    history = gputco.DemandProfile.constant(8, gputco.Horizon.months(3))
    r = gputco.recommend(train, p4d, held_out=fresh, history=history, baseline_term_years=1,
                         baseline_payment="all_upfront", review_months=6)
    assert r.recommendation.proven_optimal
    assert len(r.distribution) == 2000
    assert list(r.baselines.index)[1] == "all on demand"
    assert any(name.startswith("lookback 30 days") for name in r.baselines.index)
    ours = r.baselines.iloc[0]
    for name, row in r.baselines.iloc[1:].iterrows():
        if np.isnan(row["regret_mean"]):  # rows priced future by future: the hindsight level, the policy
            continue
        # Beating a baseline in expectation: by more than 4 standard errors of the difference is not
        # required; the mean regret against the set of compared plans must be the smallest.
        assert ours["regret_mean"] <= row["regret_mean"] + 1e-9, name
    policy = r.baselines.loc["provider advice re-run monthly, lookback 30 days, 1y all_upfront"]
    assert np.isfinite(policy["mean"]) and np.isnan(policy["regret_mean"])
    assert r.summary["held_out_mean"].iloc[0] < r.baselines.loc["all on demand", "mean"]


def test_errors_are_value_errors_with_the_field(gputco, p4d):
    futures = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.months(12), 20, 3)
    with pytest.raises(ValueError, match=r"^options.review_months = 0: must be >= 1$"):
        gputco.recommend_plan(futures, p4d, review_months=0)
    with pytest.raises(ValueError, match=r"^limits.cvar95 = 1000: no plan meets it over these futures"):
        gputco.recommend_plan(futures, p4d, cvar95_limit=1000.0)
    with pytest.raises(ValueError, match=r'^objective = "mean": must be "total" or "npv"$'):
        gputco.recommend_plan(futures, p4d, objective="mean")


def test_frontier_is_a_frame_with_an_infeasible_point(gputco, p4d):
    futures = gputco.DemandFutures.generate(model(gputco, 0.1), gputco.Horizon.years(2), 40, 4)
    free = gputco.recommend_plan(futures, p4d, review_months=12)
    limits = [free.in_sample.total.cvar95 * 1.01, 1000.0]
    r = gputco.recommend(futures, p4d, review_months=12, cvar95_limits=limits)
    assert list(r.frontier["feasible"]) == [True, False]
    assert r.frontier["cvar95"].iloc[0] <= limits[0] * (1 + 1e-9)
    assert list(r.frontier["timed_out"]) == [False, False]


def test_a_frontier_point_at_the_time_limit_is_marked_and_the_rest_computed(gputco, p4d):
    futures = gputco.DemandFutures.generate(model(gputco, 0.15), gputco.Horizon.years(2), 200, 4)
    free = gputco.recommend_plan(futures, p4d, review_months=3)
    limits = [free.in_sample.total.cvar95 * 0.97, free.in_sample.total.cvar95 * 10]
    points = gputco.cost_risk_frontier(futures, p4d, limits, review_months=3, time_limit_seconds=1e-6)
    assert [p.timed_out for p in points] == [True, True]
    assert points[1].feasible and points[1].gap >= 0
    assert points[0].feasible or points[0].reason.startswith("options.time_limit_seconds = 1e-06")


@settings(max_examples=15, deadline=None, derandomize=True)
@given(base=st.floats(1.0, 24.0), volatility=st.floats(0.0, 0.2), review=st.integers(1, 12),
       spot=st.booleans(), overhead=st.floats(1.0, 2.0))
def test_never_worse_than_on_demand_in_sample(gputco, p4d, base, volatility, review, spot, overhead):
    m = gputco.DemandModel(base, monthly_log_volatility=volatility)
    futures = gputco.DemandFutures.generate(m, gputco.Horizon.years(2), 25, 5)
    options = [gputco.SpotOption("spot", overhead=overhead, availability=0.9)] if spot else []
    r = gputco.recommend_plan(futures, p4d, review_months=review, spot=options)
    on_demand = gputco.evaluate_plan(gputco.Plan(), futures, p4d)
    assert r.in_sample.total.mean <= on_demand.total.mean * (1 + 1e-12)
    again = gputco.recommend_plan(futures, p4d, review_months=review, spot=options, threads=1)
    assert str(again.plan) == str(r.plan)  # deterministic, whatever the thread count


def test_hindsight_bound_is_below_every_plan_in_every_future(gputco, p4d):
    train = gputco.DemandFutures.generate(model(gputco, 0.1), gputco.Horizon.years(2), 30, 6)
    fresh = gputco.DemandFutures.generate(model(gputco, 0.1), gputco.Horizon.years(2), 40, 7)
    history = gputco.DemandProfile.constant(8, gputco.Horizon.months(3))
    spot = [gputco.SpotOption("spot", overhead=1.05, availability=0.7)]
    r = gputco.recommend(train, p4d, held_out=fresh, history=history, review_months=12, spot=spot,
                         hindsight_bound=True)
    bound = gputco.hindsight_plan_totals(fresh, p4d, review_months=12, spot=spot)
    assert bound.exact and len(bound.totals) == 40
    # 1-year baselines renew in months 0 and 12: inside the decision, so the bound holds for them too.
    for plan in [r.plan] + list(gputco.baseline_plans(history, p4d, 1, "all_upfront")):
        totals = gputco.evaluate_plan(plan, fresh, p4d).to_frame()["total"]
        assert all(t >= b * (1 - 1e-9) for t, b in zip(totals, bound.totals)), str(plan)
    last = r.baselines.iloc[-1]
    assert r.baselines.index[-1] == "best plan in hindsight per future (a lower bound)"
    assert last["mean"] == pytest.approx(np.mean(bound.totals), rel=1e-12)
    ours = r.baselines.iloc[0]
    assert ours["regret_vs_bound_mean"] == pytest.approx(ours["mean"] - last["mean"], rel=1e-9)
    assert (r.baselines["regret_vs_bound_mean"].iloc[:-1] >= -1e-6).all()


def test_an_options_object_gives_what_the_keywords_give(gputco, p4d):
    futures = gputco.DemandFutures.generate(model(gputco, 0.1), gputco.Horizon.years(2), 30, 8)
    spot = [gputco.SpotOption("spot", overhead=1.05, availability=0.7)]
    keywords = dict(review_months=6, spot=spot, cvar95_limit=1e9, upfront_per_period=2e6, committed_share=2.0,
                    annual_discount_rate=0.05, objective="npv", threads=1)
    options = gputco.RecommendOptions(
        review_months=6, spot=spot, objective="npv",
        limits=gputco.RiskLimits(cvar95=1e9, upfront_per_period=2e6, committed_share=2.0),
        plan_options=gputco.PlanOptions(annual_discount_rate=0.05, threads=1))
    assert options.objective == "npv" and options.unit == "gpus" and options.limits.cvar95 == 1e9
    assert options.plan_options.annual_discount_rate == 0.05 and options.spot[0].name == "spot"
    built = gputco.recommend_options(**keywords)
    assert built.limits.upfront_per_period == 2e6 and built.plan_options.threads == 1
    a = gputco.recommend_plan(futures, p4d, **keywords)
    b = gputco.recommend_plan(futures, p4d, options)
    assert str(a.plan) == str(b.plan) and a.in_sample.npv.mean == b.in_sample.npv.mean
    assert a.status == b.status
    frontier = gputco.cost_risk_frontier(futures, p4d, [1e9], options)
    assert frontier[0].feasible and frontier[0].mean == a.in_sample.npv.mean
    r = gputco.recommend(futures, p4d, options=options)
    assert str(r.plan) == str(a.plan)


def test_options_and_keywords_together_are_a_type_error(gputco, p4d):
    futures = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.months(12), 5, 3)
    with pytest.raises(TypeError, match=r"^review_months = 3: give either options or keywords, not both$"):
        gputco.recommend_plan(futures, p4d, gputco.RecommendOptions(), review_months=3)
    with pytest.raises(TypeError, match=r"^options = 3: must be RecommendOptions, not int$"):
        gputco.hindsight_plan_totals(futures, p4d, 3)
    with pytest.raises(TypeError, match=r"^review_months = 'x': must be"):
        gputco.recommend_plan(futures, p4d, review_months="x")
    with pytest.raises(ValueError, match=r'^unit = "boxes": must be one of'):
        gputco.RecommendOptions(unit="boxes")


def test_ctrl_c_stops_the_hindsight_bound(gputco, p4d):
    import _thread
    import threading
    import time

    futures = gputco.DemandFutures.generate(model(gputco, 0.1), gputco.Horizon.years(3), 400, 9)
    spot = [gputco.SpotOption("spot", overhead=1.05, availability=0.7)]
    bound = None
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        bound = gputco.hindsight_plan_totals(futures, p4d, review_months=3, spot=spot, threads=1)  # minutes in full
    timer.join()
    assert bound is None and time.perf_counter() - start < 10
    small = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.months(12), 2, 10)
    assert len(gputco.hindsight_plan_totals(small, p4d, review_months=12).totals) == 2  # still works


def test_a_deadline_miss_limit_gives_the_plan_without_the_excluded_option(gputco, p4d):
    futures = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.months(12), 10, 11)
    safe = gputco.SpotOption("spot, checkpoint every 1 h", overhead=1.15, availability=0.9, deadline_miss_probability=0.01)
    risky = gputco.SpotOption("spot, checkpoint every 4 h", overhead=1.05, availability=0.9,
                              deadline_miss_probability=0.2)
    free = gputco.recommend_plan(futures, p4d, review_months=6, spot=[safe, risky])
    assert free.plan.spot.overhead == 1.05  # the risky option wins without the limit
    limited = gputco.recommend_plan(futures, p4d, review_months=6, spot=[safe, risky],
                                    deadline_miss_probability_limit=0.05)
    removed = gputco.recommend_plan(futures, p4d, review_months=6, spot=[safe])
    assert str(limited.plan) == str(removed.plan) and limited.in_sample.total.mean == removed.in_sample.total.mean
    assert limited.solver_objective == removed.solver_objective
    assert limited.status == removed.status + (
        '; spot option "spot, checkpoint every 4 h" not tried: deadline-miss probability 0.2 > '
        "limits.deadline_miss_probability = 0.05")
    assert [c.excluded for c in limited.candidates] == [
        "", "", "deadline-miss probability 0.2 > limits.deadline_miss_probability = 0.05"]
    loose = gputco.recommend_plan(futures, p4d, review_months=6, spot=[safe, risky],
                                  deadline_miss_probability_limit=0.2)
    assert str(loose.plan) == str(free.plan) and loose.status == free.status
    assert loose.in_sample.total.mean == free.in_sample.total.mean
    none = gputco.recommend_plan(futures, p4d, review_months=6, spot=[safe, risky],
                                 deadline_miss_probability_limit=0.0)
    without = gputco.recommend_plan(futures, p4d, review_months=6)
    assert str(none.plan) == str(without.plan) and none.plan.spot is None
    assert none.status.endswith("; every spot option excluded: the plan runs without spot")


@pytest.mark.parametrize("limit, text", [(float("nan"), "nan"), (-0.1, "-0.1"), (1.5, "1.5")])
def test_a_bad_deadline_miss_limit_names_the_limit(gputco, p4d, limit, text):
    futures = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.months(12), 2, 3)
    with pytest.raises(ValueError, match=rf"^limits.deadline_miss_probability = {text}: must be in \[0, 1\]$"):
        gputco.recommend_plan(futures, p4d, deadline_miss_probability_limit=limit)


def test_spot_option_from_a_simulation(gputco):
    job = gputco.Job(work_hours=24, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, restart_hours=0.2,
                     capacity_wait_hours=0.5, deadline_hours=30)
    r = gputco.simulate_spot(job, gputco.Poisson(8), options=gputco.SimulationOptions(paths=4096, seed=5))
    s = gputco.SpotOption.from_spot(r, job, availability=0.8, name="spot, 2 h")
    assert 0 < r.deadline_miss_probability < 1
    assert s.deadline_miss_probability == r.deadline_miss_probability
    assert s.overhead == r.charged_hours.mean / 24 and s.availability == 0.8 and s.name == "spot, 2 h"


def test_owned_hardware_equals_enumeration_priced_by_the_engine(gputco, p4d):
    # Owned servers of 8 GPUs at months 0 and 6 (0..2 each) and 1-year all-upfront instances (0..1 at
    # months 0, 6): 3^2 x 2^2 = 36 plans priced by the engine, billed per instance as the recommender bills
    # when it counts in instances; the optimiser must find the cheapest.
    import itertools

    futures = gputco.DemandFutures.generate(model(gputco, 0.1), gputco.Horizon.months(18), 4, 12)
    servers = gputco.Owned(capex_per_gpu=30000, life_years=4, staff_per_month=600, colocation_per_gpu_month=50)
    options = gputco.RecommendOptions(
        commitments=[gputco.CommitmentOption(1, "all_upfront")], start_months=[0, 6], unit="instances",
        max_count=1, owned=gputco.OwnedOption(servers, months=[0, 6], max_gpus=16, step_gpus=8),
        plan_options=gputco.PlanOptions(threads=1))
    r = gputco.recommend_plan(futures, p4d, options)
    assert r.plan.billing == "instances"
    best = None
    for o0, o6, c0, c6 in itertools.product(range(0, 17, 8), range(0, 17, 8), range(2), range(2)):
        owned = [gputco.OwnedPurchase(n, month=m, terms=servers) for n, m in ((o0, 0), (o6, 6)) if n]
        commitments = [gputco.Commitment(n, unit="instances", term_years=1, payment="all_upfront", start_month=m)
                       for n, m in ((c0, 0), (c6, 6)) if n]
        plan = gputco.Plan(commitments, owned=owned, billing="instances")
        mean = gputco.evaluate_plan(plan, futures, p4d).total.mean
        best = mean if best is None else min(best, mean)
    assert r.in_sample.total.mean == pytest.approx(best, rel=1e-9)
    assert len(r.plan.owned) > 0
    with pytest.raises(ValueError, match=r"^options.owned.months\[0\] = 18: must be in \[0, 18\)"):
        gputco.recommend_plan(futures, p4d, owned=gputco.OwnedOption(servers, months=[18], max_gpus=1))
    with pytest.raises(ValueError, match=r"^options.owned.step_gpus = 4: must cover a whole number of instances "
                                         r"\(4 GPUs: 0.5 instances of 8\) when the recommender counts in instances"):
        gputco.recommend_plan(futures, p4d, unit="instances",
                              owned=gputco.OwnedOption(servers, months=[0], max_gpus=8, step_gpus=4))


def test_counted_in_instances_the_recommendation_is_billed_per_instance_and_so_are_the_baselines(gputco, p4d):
    # 3 GPUs of an 8-GPU p4d all year: billed per instance all on demand pays a whole instance every hour,
    # so one reserved instance is advised; the study's summary says how it is billed, and its all
    # on-demand baseline is billed the same way (8 GPUs an hour, not 3).
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(3, gputco.Horizon.months(12)))
    r = gputco.recommend(futures, p4d, commitments=[gputco.CommitmentOption(1, "all_upfront")],
                         start_months=[0], unit="instances")
    assert r.plan.billing == "instances"
    assert r.summary["billing"].iloc[0] == "instances"
    assert len(r.plan.commitments) == 1 and r.plan.commitments[0].count == 1
    on_demand = gputco.evaluate_plan(gputco.Plan(billing="instances"), futures, p4d).total.mean
    assert r.baselines.loc["all on demand", "mean"] == pytest.approx(on_demand, rel=1e-12)
    assert on_demand == pytest.approx(p4d.on_demand_hourly * 8760, rel=1e-12)
    per_gpu = gputco.recommend(futures, p4d, commitments=[gputco.CommitmentOption(1, "all_upfront")],
                               start_months=[0], unit="gpus")
    assert per_gpu.summary["billing"].iloc[0] == "gpus"
    with pytest.raises(ValueError, match=r'^plan.billing = "boxes"'):
        gputco.Plan(billing="boxes")


def test_held_out_judged_at_the_fitted_prices_unless_told_otherwise(gputco, p4d):
    train = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.years(3), 40, 1)
    fresh = gputco.DemandFutures.generate(model(gputco), gputco.Horizon.years(3), 200, 2)
    cut = gputco.aws_june_2025_price_cut(p4d)
    prices = gputco.price_paths(gputco.PriceModel(start="2025-01", changes=[cut]), gputco.Horizon.years(3), 1, 1)
    kw = dict(review_months=12, commitments=[gputco.CommitmentOption(1, "no_upfront", reservation_discount=0.3)])
    r = gputco.recommend(train, p4d, held_out=fresh, prices=prices, **kw)
    at_cut = gputco.evaluate_plan(r.plan, fresh, p4d, prices=prices)
    assert r.summary["held_out_mean"].iloc[0] == pytest.approx(at_cut.total.mean, rel=1e-12)
    assert r.summary["held_out_prices"].iloc[0] == "fitted prices"
    listed = gputco.recommend(train, p4d, held_out=fresh, prices=prices, held_out_prices=None, **kw)
    assert listed.summary["held_out_mean"].iloc[0] == pytest.approx(at_cut.total.mean, rel=1e-12)
    without = gputco.recommend(train, p4d, held_out=fresh, **kw)
    assert without.summary["held_out_prices"].iloc[0] == "list prices"
    given = gputco.recommend(train, p4d, held_out=fresh, prices=prices, held_out_prices=prices, **kw)
    assert given.summary["held_out_prices"].iloc[0] == "held_out_prices"
    launch = gputco.GenerationLaunch(probability=0.5, first_month=6, last_month=24, on_demand_factor=0.7)
    per_future = gputco.price_paths(gputco.PriceModel(launches=[launch]), gputco.Horizon.years(3), 40, 1)
    assert per_future.on_demand.shape == (36, 40)
    with pytest.raises(ValueError, match=r"^held_out_prices = \(not given\): the fitted prices have 40 paths, one per fitted "
                                         r"future, and held_out has 200 futures; give held_out_prices"):
        gputco.recommend(train, p4d, held_out=fresh, prices=per_future, **kw)


def test_the_newsvendor_baseline_over_a_short_history_does_not_advise_none(gputco, catalog):
    nd96 = catalog.offering("azure", "Standard_ND96asr_v4", "eastus")
    plans = gputco.baseline_plans(gputco.DemandProfile.constant(8, gputco.Horizon.months(2)), nd96, 1, "all_upfront")
    newsvendor = plans[-1]
    assert newsvendor.name.startswith("newsvendor on the history (repeated to the 1-year term)")
    assert sum(c.count for c in newsvendor.commitments) == 8
    lookback = plans[1]
    assert lookback.commitments[0].count == 1 and lookback.commitments[0].unit == "instances"


def test_a_risk_limited_recommendation_reports_its_held_out_cvar95_with_a_standard_error(gputco, p4d):
    train = gputco.DemandFutures.generate(model(gputco, 0.15), gputco.Horizon.years(2), 60, 1)
    fresh = gputco.DemandFutures.generate(model(gputco, 0.15), gputco.Horizon.years(2), 1000, 2)
    free = gputco.recommend_plan(train, p4d, review_months=12)
    limit = free.in_sample.total.cvar95 * 0.99
    r = gputco.recommend(train, p4d, held_out=fresh, review_months=12, cvar95_limit=limit)
    out = gputco.evaluate_plan(r.plan, fresh, p4d)
    totals = out.to_frame()["total"].to_numpy()
    eta = out.total.p95
    y = eta + np.maximum(0.0, totals - eta) / 0.05
    se = y.std(ddof=1) / np.sqrt(len(y))
    row = r.summary.iloc[0]
    assert row["held_out_cvar95_standard_error"] == pytest.approx(se, rel=1e-9)
    assert row["held_out_meets_cvar95_limit"] == bool(out.total.cvar95 + 1.645 * se <= limit)
    assert gputco.check_risk(out, 1e12).meets_limit
    strict = gputco.check_risk(out, limit, confidence=0.99)
    assert strict.confidence == 0.99
    assert strict.upper == pytest.approx(out.total.cvar95 + 2.3263478740408408 * se, rel=1e-9)
    # The limit was made to hold on the held-out futures (tightened: no model to draw fresh ones from).
    assert row["cvar95_verdict"].startswith(("holds: CVaR95 ", "could not hold limits.cvar95 = "))
    assert row["solved_cvar95_limit"] <= limit
    assert row["fitted_futures"] == 60


def test_the_providers_advice_re_run_monthly_in_python(gputco, catalog):
    offering = catalog.offering("azure", "Standard_ND96asr_v4", "eastus")
    hours = np.full(12 * 730, 16.0)
    hours[:730] = 8.0
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.hourly(hours))
    plan = gputco.provider_policy_plan(gputco.DemandProfile.constant(8, gputco.Horizon.months(1)), futures, 0,
                                       offering, lookback_days=30, term_years=1, payment="all_upfront")
    assert [(c.count, c.start_month) for c in plan.commitments] == [(1, 0), (1, 2)]
    assert gputco.provider_advice_units([12.0] * 100 + [4.0] * 68, 0.0, 8.0, 1.0, 2.0) == 1


def test_a_scenarios_recommend_section_gives_what_recommend_gives(gputco):
    """gputco.run_recommend on a scenario dict: the study gputco.recommend runs on the same futures
    (the scenario's seed), held-out futures (seed + 1) and options."""
    scenario = {
        "version": 1, "name": "rec", "horizon_months": 24, "seed": 7,
        "offering": {"provider": "gcp", "instance_type": "a2-highgpu-8g", "region": "us-central1"},
        "demand": {"kind": "constant", "gpus": 8},
        "futures": {"count": 40, "base_gpus": 8, "monthly_log_growth": 0.02, "monthly_log_volatility": 0.05},
        "recommend": {"commitments": [{"term_years": 1, "payment": "no_upfront"}], "review_months": 6,
                      "spot": [{"name": "spot", "overhead": 1.1, "availability": 0.8}], "held_out": 60,
                      "cvar95_limits": [2.5e6], "baselines": {"history": "demand"}},
    }
    got = gputco.run_recommend(scenario)
    model = gputco.DemandModel(8, monthly_log_growth=0.02, monthly_log_volatility=0.05)
    horizon = gputco.Horizon.months(24)
    a2 = gputco.catalog().offering("gcp", "a2-highgpu-8g", "us-central1")
    want = gputco.recommend(
        gputco.DemandFutures.generate(model, horizon, 40, 7), a2,
        held_out=gputco.DemandFutures.generate(model, horizon, 60, 8),
        history=gputco.DemandProfile.constant(8, horizon), cvar95_limits=[2.5e6],
        commitments=[gputco.CommitmentOption(1, "no_upfront")], review_months=6,
        spot=[gputco.SpotOption("spot", overhead=1.1, availability=0.8)])
    assert str(got.plan) == str(want.plan)
    assert got.baselines.equals(want.baselines)
    assert got.frontier.equals(want.frontier)
    assert got.summary.drop(columns="solve_seconds").equals(want.summary.drop(columns="solve_seconds"))
    del scenario["recommend"]
    scenario["plans"] = [{"name": "od"}]
    assert gputco.run_recommend(scenario) is None
