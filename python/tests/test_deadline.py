"""Deadline-aware spot policies: hand-computed traces, the tick log as a DataFrame, messages."""
import re
from pathlib import Path

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
    # C0 = 4, R0 = 10, d = 1 tick, spot up 1,0,0,0,0,0,1,1,1,1. The prose variant of Uniform Progress
    # (ep(t) = 0.4 t): k0 spot launch; k1 preempted and behind (0 < 0.4): on-demand, changeover; stays
    # while cp < ep(t + 2): done 1, 2, 3 at k2..k4; k5 leaves (3 >= 2.8), no spot, idle; k6 spot launch,
    # k7 done 4. 3 x $1 + 4 x $3 = $15. The authors' Uniform Progress stays on on-demand while spot is
    # unavailable: done 4 at k5, $1 + 5 x $3 = $16. Greedy idles until slack 6 - 4 <= 2d at k4, then on
    # demand: $1 + 5 x $3 = $16.
    job = gputco.DeadlineJob(compute_hours=4, deadline_hours=10, changeover_hours=1)
    trace = gputco.SpotAvailability([1, 0, 0, 0, 0, 0, 1, 1, 1, 1])
    u = gputco.simulate_deadline(job=job, availability=trace, policy="uniform_progress_prose",
                                 spot_price_per_hour=SPOT, on_demand_price_per_hour=ON_DEMAND)
    assert u.decisions == ["spot"] + ["on_demand"] * 4 + ["none", "spot", "spot"]
    assert (u.cost, u.spot_hours, u.on_demand_hours, u.idle_hours) == (15, 3, 4, 1)
    assert (u.changeovers, u.preemptions, u.finish_hours, u.met_deadline) == (3, 1, 8, True)
    up = gputco.simulate_deadline(job, trace, "uniform_progress", SPOT, ON_DEMAND)
    assert up.decisions == ["spot"] + ["on_demand"] * 5
    assert (up.cost, up.finish_hours) == (16, 6)
    g = gputco.simulate_deadline(job, trace, "greedy", SPOT, ON_DEMAND)
    assert (g.cost, g.finish_hours) == (16, 9)
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
         'policy = "cheapest": must be one of greedy, uniform_progress, on_demand_only, greedy_simple, '
         'uniform_progress_prose'),
        (lambda: gputco.simulate_deadline(gputco.DeadlineJob(compute_hours=4, deadline_hours=10),
                                          gputco.SpotAvailability.always_available(9), "greedy", SPOT, ON_DEMAND),
         "availability.ticks = 9: must cover the deadline, >= 10 ticks"),
        (lambda: gputco.SpotAvailability.from_text("1\nyes\n"), 'availability line 2 = "yes": must be 0 or 1'),
        (lambda: gputco.SpotAvailability.markov(gputco.MarkovAvailability(mean_up_hours=0.5), 10),
         "markov.mean_up_hours = 0.5: must be >= tick_hours = 1"),
        (lambda: gputco.compare_deadline_policies(gputco.DeadlineJob(compute_hours=4, deadline_hours=10),
                                                  gputco.MarkovAvailability(), SPOT, ON_DEMAND,
                                                  policies=["greedy", "fast"]),
         'policies[1] = "fast": must be one of greedy, uniform_progress, on_demand_only, greedy_simple, '
         'uniform_progress_prose'),
        (lambda: gputco.SpotAvailability.from_json('{"metadata": {"gap_seconds": 60}, "data": [1, -2]}'),
         'trace.data[1] = "-2": must be a whole number >= 0'),
        (lambda: gputco.SpotAvailability([1, 0], tick_hours=1.0).resampled(0.3),
         "tick_hours = 0.3: must divide or be a whole multiple of the trace's tick_hours = 1"),
        (lambda: gputco.sweep_windows(gputco.DeadlineJob(compute_hours=2, deadline_hours=4),
                                      gputco.SpotAvailability([1, 1, 1]), SPOT, ON_DEMAND),
         "trace.ticks = 3: must hold one window of 4 ticks"),
        (lambda: gputco.simulate_multi_region(gputco.DeadlineJob(compute_hours=2, deadline_hours=4), [],
                                              "uniform_progress", ON_DEMAND),
         "regions.size = 0: must be >= 1"),
        (lambda: gputco.simulate_multi_region(gputco.DeadlineJob(compute_hours=2, deadline_hours=4),
                                              [gputco.SpotRegion("a", gputco.SpotAvailability([1] * 4), 1.0)],
                                              "FAILOVER", ON_DEMAND),
         'policy = "FAILOVER": must be one of skypilot_failover, skypilot_eager_next_region, uniform_progress'),
        (lambda: gputco.deadline_tranche([1.0], gputco.DeadlineJob(compute_hours=2, deadline_hours=4), 1.0),
         "cost_samples[0] = 1: must be >= compute_hours x spot_price_per_hour = 2"),
    ],
)
def test_bad_input_raises_value_error_with_the_library_message(call, message):
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        call()


DATA = Path(__file__).resolve().parents[2] / "tests" / "data"
ONE = {"values": "available_nodes", "nodes_needed": 1}  # the authors' traces count instances; one is needed


def test_the_issue_reproduction_gives_13_21():
    # C0 = 3 h, R0 = 9 h, d = 1 h: spot k0 (changeover), on-demand k1 (changeover) and k2..k4 (work).
    # 1 h x $0.9731 + 4 h x $3.06 = $13.2131; the prose variant pays $17.2462 (see test_deadline.cpp).
    job = gputco.DeadlineJob(compute_hours=3, deadline_hours=9, changeover_hours=1)
    trace = gputco.SpotAvailability([1, 0, 1, 1, 0, 1, 0, 1, 1])
    up = gputco.simulate_deadline(job, trace, "uniform_progress", 0.9731, 3.06)
    assert round(up.cost, 2) == 13.21 and up.finish_hours == 5
    assert round(gputco.simulate_deadline(job, trace, "uniform_progress_prose", 0.9731, 3.06).cost, 2) == 17.25
    assert gputco.deadline_policies() == ["greedy", "uniform_progress", "on_demand_only", "greedy_simple",
                                          "uniform_progress_prose"]


def test_json_trace_from_text_path_and_bytes():
    text = (DATA / "deadline_trace_zone_a.json").read_text()
    for source in (text, text.encode(), DATA / "deadline_trace_zone_a.json", str(DATA / "deadline_trace_zone_a.json")):
        t = gputco.SpotAvailability.from_json(source, **ONE)
        assert (t.ticks, t.tick_hours, t.available_ticks()) == (72, 1.0, 44)
    t = gputco.SpotAvailability.from_json('{"metadata": {"gap_seconds": 600}, "data": [0, 2, 2]}', **ONE)
    assert t.tick_hours == pytest.approx(1 / 6) and t.available.tolist() == [False, True, True]
    assert t.window(1, 2).available.tolist() == [True, True]
    assert t.resampled(0.5).available.tolist() == [False]  # 3 x 10 min, one of them without spot
    assert gputco.common_tick_hours(1.0, 0.2) == pytest.approx(0.2)


def test_window_sweep_tables():
    trace = gputco.SpotAvailability.from_json(DATA / "deadline_trace_zone_a.json", **ONE)
    job = gputco.DeadlineJob(compute_hours=10, deadline_hours=20, changeover_hours=1)
    sweep = gputco.sweep_windows(job, trace, 0.9731, 3.06, stride_ticks=4)
    assert sweep.window_starts.tolist() == list(range(0, 53, 4))
    summary = sweep.summary()
    assert list(summary.index) == ["greedy", "uniform_progress", "on_demand_only", "omniscient"]
    assert list(summary.columns) == ["mean", "standard_error", "p50", "p95", "max", "deadline_misses", "miss_rate",
                                     "gap_closed"]
    assert (summary["deadline_misses"] == 0).all()
    assert summary.loc["greedy", "gap_closed"] == 0 and summary.loc["omniscient", "gap_closed"] == 1
    frame = sweep.to_frame()
    assert frame.index.name == "start_tick" and len(frame) == 14
    # The table is the per-window costs summarised: means and type-7 P95 as NumPy computes them.
    for policy in ("greedy", "uniform_progress", "on_demand_only", "omniscient"):
        assert summary.loc[policy, "mean"] == pytest.approx(frame[policy].mean(), rel=1e-12)
        assert summary.loc[policy, "p95"] == pytest.approx(np.quantile(frame[policy], 0.95), rel=1e-12)
    greedy, best = frame["greedy"].mean(), frame["omniscient"].mean()
    assert summary.loc["uniform_progress", "gap_closed"] == pytest.approx(
        (greedy - frame["uniform_progress"].mean()) / (greedy - best), rel=1e-12)
    assert (frame["omniscient"] <= frame[["greedy", "uniform_progress", "on_demand_only"]].min(axis=1) + 1e-9).all()


def test_multi_region_on_two_trace_files():
    a = gputco.SpotAvailability.from_json(DATA / "deadline_trace_zone_a.json", **ONE)
    b = gputco.SpotAvailability.from_json(DATA / "deadline_trace_zone_b.json", **ONE)
    regions = [gputco.SpotRegion("us-east-1a", a, 0.9731), gputco.SpotRegion("us-east-1b", b, 1.10)]
    job = gputco.DeadlineJob(compute_hours=24, deadline_hours=36, changeover_hours=1)
    best = gputco.omniscient_multi_region_cost(job, regions, 3.06)
    # Two regions can only help: no dearer than the best of either alone.
    assert best <= min(gputco.omniscient_cost(job, r.availability, r.spot_price_per_hour, 3.06) for r in regions)
    for policy in ("skypilot_failover", "skypilot_eager_next_region", "uniform_progress"):
        r = gputco.simulate_multi_region(job, regions, policy, 3.06)
        assert r.run.met_deadline and r.run.cost >= best - 1e-9
        frame = r.to_frame([x.name for x in regions])
        spot_rows = frame[frame["decision"] == "spot"]
        assert set(spot_rows["region"]) <= {"us-east-1a", "us-east-1b"}
        assert frame.loc[frame["decision"] != "spot", "region"].isna().all()


def test_deadline_costs_as_a_plan_tranche():
    job = gputco.DeadlineJob(compute_hours=24, deadline_hours=36, changeover_hours=1)
    c = gputco.compare_deadline_policies(job, gputco.MarkovAvailability(mean_up_hours=8, mean_down_hours=3),
                                         0.9731, 3.06, paths=100, seed=2, policies=["uniform_progress"])
    tranche = gputco.deadline_tranche(c["uniform_progress"].cost_samples, job, 0.9731)
    assert tranche.overhead == pytest.approx(c["uniform_progress"].cost.mean / (24 * 0.9731), rel=1e-12)
    assert tranche.price_per_gpu_hour == 0.9731 and tranche.availability == 1.0
    assert len(tranche.overhead_samples) == 100
    # It prices in a mix like any spot tranche.
    demand = gputco.DemandProfile.constant(4, gputco.Horizon.years(1))
    p3 = gputco.catalog().offering("aws", "p3.2xlarge")
    report = gputco.evaluate(gputco.Mix([(0.5, tranche), (0.5, gputco.OnDemand())]), demand, p3)
    assert report.total > 0


@pytest.mark.parametrize("sweep", [False, True])
def test_ctrl_c_stops_a_long_run(sweep):
    # Ctrl-C (interrupt_main sets the same flag) stops compare_deadline_policies and sweep_windows
    # within a poll (about 50 ms); the full runs would take minutes.
    import _thread
    import threading
    import time

    job = gputco.DeadlineJob(compute_hours=48, deadline_hours=72, changeover_hours=1)
    long_trace = gputco.SpotAvailability.markov(gputco.MarkovAvailability(), ticks=2_000_000, seed=1)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        if sweep:
            gputco.sweep_windows(job, long_trace, 0.9731, 3.06)
        else:
            gputco.compare_deadline_policies(job, gputco.MarkovAvailability(), 0.9731, 3.06, paths=10_000_000,
                                             omniscient=True)
    timer.join()
    assert time.perf_counter() - start < 10
