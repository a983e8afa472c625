"""Deadline-aware spot policies: hand-computed traces, the tick log as a DataFrame, messages."""
import re

import numpy as np
import pytest

import gputco

SPOT, ON_DEMAND = 1.0, 3.0  # round prices for hand arithmetic


def test_reference_prices_of_the_paper():
    job = gputco.DeadlineJob(compute_hours=48, deadline_hours=72)
    always = gputco.SpotAvailability.always_available(72)
    # 48 h x $3.06 = $146.88 on demand; 48 h x $0.9701 = $46.5648 on spot that is always there.
    od = gputco.simulate_deadline(job, always, "on_demand_only", spot_price_per_hour=0.9701,
                                  on_demand_price_per_hour=3.06)
    assert od.cost == pytest.approx(146.88, rel=1e-12)
    for policy in ("greedy", "uniform_progress"):
        r = gputco.simulate_deadline(job, always, policy, 0.9701, 3.06)
        assert r.cost == pytest.approx(46.5648, rel=1e-12)
        assert r.met_deadline


def test_hand_trace_and_tick_frame():
    # C0 = 4, R0 = 10, d = 1 tick, spot up 1,0,0,0,0,0,1,1,1,1. Uniform Progress (ep(t) = 0.4 t): k0 spot
    # launch; k1 preempted and behind (0 < 0.4): on-demand, changeover; stays while cp < ep(t + 2): done
    # 1, 2, 3 at k2..k4; k5 leaves (3 >= 2.8), no spot, idle; k6 spot launch, k7 done 4.
    # 3 x $1 + 4 x $3 = $15. Greedy idles until 5 h left <= 4 + 1, then on demand: $1 + 5 x $3 = $16.
    job = gputco.DeadlineJob(compute_hours=4, deadline_hours=10, changeover_hours=1)
    trace = gputco.SpotAvailability([1, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    u = gputco.simulate_deadline(job=job, availability=trace, policy="uniform_progress",
                                 spot_price_per_hour=SPOT, on_demand_price_per_hour=ON_DEMAND)
    assert u.decisions == ["spot"] + ["on_demand"] * 4 + ["none", "spot", "spot"]
    assert (u.cost, u.spot_hours, u.on_demand_hours, u.idle_hours) == (15, 3, 4, 1)
    assert (u.changeovers, u.preemptions, u.finish_hours, u.met_deadline) == (3, 1, 8, True)
    g = gputco.simulate_deadline(job, trace, "greedy", SPOT, ON_DEMAND)
    assert (g.cost, g.finish_hours) == (16, 10)
    assert gputco.omniscient_cost(job, trace, SPOT, ON_DEMAND) == 10

    frame = u.to_frame()
    assert frame.index.name == "tick"
    assert list(frame.columns) == ["start_hours", "spot_available", "decision", "progress_hours"]
    assert frame["start_hours"].tolist() == [0, 1, 2, 3, 4, 5, 6, 7]
    assert frame["progress_hours"].tolist() == [0, 0, 1, 2, 3, 3, 3, 4]
    assert frame["spot_available"].tolist() == [True, False, False, False, False, False, True, True]
    assert frame["decision"].tolist() == u.decisions
    assert list(frame["decision"].cat.categories) == ["none", "spot", "on_demand"]


def test_finer_ticks_in_the_frame():
    job = gputco.DeadlineJob(compute_hours=1.5, deadline_hours=3, changeover_hours=0.25, tick_hours=0.25)
    r = gputco.simulate_deadline(job, gputco.SpotAvailability.always_available(12), "greedy", SPOT, ON_DEMAND)
    assert r.tick_hours == 0.25
    assert r.finish_hours == 1.75  # 1 changeover tick + 6 work ticks of 0.25 h
    assert r.to_frame()["start_hours"].tolist() == [0.25 * k for k in range(7)]


def test_trace_text_and_generator():
    assert gputco.SpotAvailability.from_text("t,up\n0,1\n1,0\n").available.tolist() == [True, False]
    process = gputco.MarkovAvailability(mean_up_hours=6, mean_down_hours=2)
    assert process.availability_fraction() == 0.75
    a = gputco.SpotAvailability.markov(process, ticks=1000, tick_hours=0.5, seed=9)
    b = gputco.SpotAvailability.markov(process, 1000, 0.5, 9)
    assert len(a) == 1000 and a.available.dtype == np.bool_
    assert np.array_equal(a.available, b.available)


def test_comparison_is_deterministic_and_meets_deadlines():
    job = gputco.DeadlineJob(compute_hours=24, deadline_hours=36, changeover_hours=1)
    process = gputco.MarkovAvailability(mean_up_hours=8, mean_down_hours=3)
    c = gputco.compare_deadline_policies(job, process, 0.9701, 3.06, paths=200, seed=5, omniscient=True)
    again = gputco.compare_deadline_policies(job, process, 0.9701, 3.06, paths=200, seed=5)
    assert [o.policy for o in c.policies] == ["greedy", "uniform_progress", "on_demand_only"]
    for o, p in zip(c.policies, again.policies):
        assert np.array_equal(o.cost_samples, p.cost_samples)
        assert o.deadline_miss_probability == 0
    assert c["on_demand_only"].cost.mean == pytest.approx(25 * 3.06)
    assert c["uniform_progress"].cost.ci_high < c["on_demand_only"].cost.mean
    assert c.omniscient_cost is not None and again.omniscient_cost is None
    assert c.omniscient_cost.mean <= c["greedy"].cost.mean
    only = gputco.compare_deadline_policies(job, process, 0.9701, 3.06, paths=20, seed=5, policies=["greedy"])
    assert len(only.policies) == 1
    with pytest.raises(ValueError, match=re.escape('policy = "uniform_progress": was not compared in this run')):
        only["uniform_progress"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: gputco.DeadlineJob(compute_hours=-1, deadline_hours=10),
         "deadline_job.compute_hours = -1: must be finite and > 0"),
        (lambda: gputco.DeadlineJob(compute_hours=8, deadline_hours=8, changeover_hours=1),
         "deadline_job.deadline_hours = 8: must be >= compute_hours + changeover_hours = 9 "
         "(infeasible even on demand)"),
        (lambda: gputco.DeadlineJob(compute_hours=4, deadline_hours=10, changeover_hours=0.2),
         "deadline_job.changeover_hours = 0.2: must be a whole number of ticks (tick_hours = 1)"),
        (lambda: gputco.simulate_deadline(gputco.DeadlineJob(compute_hours=4, deadline_hours=10),
                                          gputco.SpotAvailability.always_available(10), "cheapest", SPOT, ON_DEMAND),
         'policy = "cheapest": must be one of greedy, uniform_progress, on_demand_only'),
        (lambda: gputco.simulate_deadline(gputco.DeadlineJob(compute_hours=4, deadline_hours=10),
                                          gputco.SpotAvailability.always_available(9), "greedy", SPOT, ON_DEMAND),
         "availability.ticks = 9: must cover the deadline, >= 10 ticks"),
        (lambda: gputco.SpotAvailability.from_text("1\nyes\n"), 'availability line 2 = "yes": must be 0 or 1'),
        (lambda: gputco.SpotAvailability.markov(gputco.MarkovAvailability(mean_up_hours=0.5), 10),
         "markov.mean_up_hours = 0.5: must be >= tick_hours = 1"),
        (lambda: gputco.compare_deadline_policies(gputco.DeadlineJob(compute_hours=4, deadline_hours=10),
                                                  gputco.MarkovAvailability(), SPOT, ON_DEMAND,
                                                  policies=["greedy", "fast"]),
         'policies[1] = "fast": must be one of greedy, uniform_progress, on_demand_only'),
    ],
)
def test_bad_input_raises_value_error_with_the_library_message(call, message):
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        call()
