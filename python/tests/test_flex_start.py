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
