"""Flex-start (GCP Dynamic Workload Scheduler) for a deadline job from Python (docs/models.md, section 5d)."""
import math

import pytest

import gputco


def test_one_run_by_hand():
    # 100 h of work by a 110 h deadline, 2 h requests granted half the time, 30% off $10/h: five
    # requests fit the slack; all fail with probability 1/32 and the job runs on demand.
    job = gputco.DeadlineJob(compute_hours=100, deadline_hours=110)
    r = gputco.flex_start_job(job, gputco.FlexStart(discount=0.3, grant_probability=0.5), 10.0)
    assert r.most_requests == 5
    assert r.expected_cost == pytest.approx(31 / 32 * 700 + 1 / 32 * 1000, rel=1e-12)
    assert r.cost_standard_deviation == pytest.approx(300 * math.sqrt(31 / 1024), rel=1e-9)
    assert r.worst_finish_hours <= 110


def test_rules_reach_python_as_value_errors():
    with pytest.raises(ValueError, match=r"^flex_start\.request_valid_hours = 3: must be in \(0, 2\]"):
        gputco.FlexStart(discount=0.3, request_valid_hours=3)


def _eight_gpu_offering():
    # 8 GPUs an instance at $80 an instance-hour on demand: $10 a GPU-hour.
    return gputco.Offering(provider="gcp", region="test-1", instance_type="a3-test-8g", gpu="H100",
                           gpus_per_instance=8, on_demand_hourly=80.0,
                           source=gputco.Source("hand-made test offering", "2026-12"))


def test_flex_start_request_in_a_plan_by_hand():
    # 2 GPUs busy all month, 8 more for 5 days from day 10, a request for those 8 GPUs at 40% off:
    # granted, 8 × 120 h × $6 = 5,760 charged as it runs plus 1,460 GPU-h × $10 on demand = 20,360;
    # refused, (1,460 + 960) GPU-h × $10 = 24,200. Over 2,000 futures the mean is near
    # 0.7 × 20,360 + 0.3 × 24,200 = 21,512 (within 4 standard errors).
    profile = gputco.DemandProfile.constant(2, gputco.Horizon.months(1))
    window = gputco.DemandWindow(start_day=10, days=5, gpus=8)
    request = gputco.FlexStartRequest(gpus=8, start_day=10, days=5, discount=0.4, grant_probability=0.7)
    plan = gputco.Plan(flex_starts=[request])
    assert plan.flex_starts[0].grant_probability == 0.7
    assert gputco.FlexStartRequest.max_days == 7
    futures = gputco.DemandFutures.from_profiles([profile] * 2000)
    d = gputco.evaluate_plan(plan, futures, _eight_gpu_offering(), windows=[window], seed=3)
    assert abs(d.total.mean - 21512) <= 4 * d.total.standard_error
    again = gputco.evaluate_plan(plan, futures, _eight_gpu_offering(), windows=[window], seed=3, threads=1)
    assert again.total.mean == d.total.mean
    certain = gputco.Plan(flex_starts=[gputco.FlexStartRequest(gpus=8, start_day=10, days=5, discount=0.4,
                                                                grant_probability=1)])
    one = gputco.DemandFutures.from_profile(profile)
    assert gputco.evaluate_plan(certain, one, _eight_gpu_offering(), windows=[window]).total.mean == \
        pytest.approx(20360, rel=1e-12)


def test_flex_start_request_rules_reach_python_as_value_errors():
    one = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(2, gputco.Horizon.months(1)))
    plan = gputco.Plan(flex_starts=[gputco.FlexStartRequest(gpus=8, start_day=0, days=8, discount=0.4,
                                                             grant_probability=0.5)])
    with pytest.raises(ValueError, match=r"^plan\.flex_starts\[0\]\.days = 8: must be in \(0, 7\] \(a flex-start run "
                                         r"lasts at most seven days\)$"):
        gputco.evaluate_plan(plan, one, _eight_gpu_offering())


def test_recommender_makes_a_flex_start_request_for_the_window():
    # 8 GPUs for 5 days on 8-GPU instances at $10 a GPU-hour, granted for sure at 40% off:
    # 8 × 120 h × $6 = 5,760 against 9,600 on demand (tests/test_recommend_flex.cpp works the same case).
    futures = gputco.DemandFutures.from_profile(gputco.DemandProfile.constant(0, gputco.Horizon.months(1)))
    r = gputco.recommend_plan(futures, _eight_gpu_offering(),
                              commitments=[gputco.CommitmentOption(1, "no_upfront", reservation_discount=0.3,
                                                                   term_months=1)],
                              start_months=[0], windows=[gputco.DemandWindow(start_day=10, days=5, gpus=8)],
                              flex_start=gputco.FlexStartOption(discount=0.4, grant_probability=1.0), threads=1)
    assert [(f.gpus, f.start_day, f.days) for f in r.plan.flex_starts] == [(8, 10, 5)]
    assert r.in_sample.total.mean == pytest.approx(5760, rel=1e-12)
