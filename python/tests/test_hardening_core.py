"""Hostile inputs to demand futures, demand models, deadline policies and traces, each exactly as it
was reported: now a clear error in the library's words, or a sound answer."""
import math

import pytest

import gputco


def test_demand_future_indices_are_checked():
    futures = gputco.DemandFutures.generate(gputco.DemandModel(8), gputco.Horizon.years(3), 10, 1)
    assert futures.gpu_hours(9, 35) == pytest.approx(8 * 730)
    with pytest.raises(ValueError, match=r"^month = 36: must be in \[0, 36\) \(the horizon's months\)$"):
        futures.gpu_hours(0, 36)
    with pytest.raises(ValueError, match=r"^month = -1: must be in \[0, 36\) \(the horizon's months\)$"):
        futures.gpu_hours(0, -1)
    with pytest.raises(ValueError, match=r"^future = 10: must be < 10 \(the number of futures\)$"):
        futures.gpu_hours(10, 0)
    with pytest.raises(ValueError, match=r"^future = 10: must be < 10 \(the number of futures\)$"):
        futures.profile(10)


def test_expected_level_checks_the_month():
    model = gputco.DemandModel(8, monthly_log_growth=0.02, seasonality=[1.0] * 12)
    assert gputco.expected_level(model, 600) == pytest.approx(8 * math.exp(0.02 * 600))
    with pytest.raises(ValueError, match=r"^month = -1: must be in \[0, 1200\) \(the longest horizon's months\)$"):
        gputco.expected_level(model, -1)
    with pytest.raises(ValueError, match=r"^month = 1000000000: must be in \[0, 1200\)"):
        gputco.expected_level(model, 10**9)


def test_demand_models_that_would_not_stay_finite_are_errors_naming_the_parameter():
    three, century = gputco.Horizon.years(3), gputco.Horizon.years(100)
    with pytest.raises(ValueError, match=r"^demand_model\.monthly_log_growth = 10: must be in \[-1, 1\]$"):
        gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_growth=10), three, 10, 1)
    with pytest.raises(ValueError, match=r"^demand_model\.monthly_log_volatility = 100: must be <= 1$"):
        gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_volatility=100), three, 10, 1)
    with pytest.raises(ValueError, match=r"^demand_model\.monthly_log_growth = 0\.7: must keep demand within 1e\+09 "
                                         r"GPUs: .* reaches inf GPUs in month 1199$"):
        gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_growth=0.7), century, 10, 1)
    futures = gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_growth=0.7), gputco.Horizon.years(2), 10, 1)
    assert all(math.isfinite(x) for row in futures.levels for x in row)


def test_uniform_progress_at_changeover_0_runs_available_spot_at_slack_0():
    job = gputco.DeadlineJob(compute_hours=11, deadline_hours=11)
    r = gputco.simulate_deadline(job, gputco.SpotAvailability.always_available(11), "uniform_progress", 0.9731, 3.06)
    assert r.cost == pytest.approx(11 * 0.9731, rel=1e-12)  # 10.7041, not all on-demand's 33.66


def test_a_trace_is_read_as_the_caller_says_and_says_how():
    counts = '{"metadata": {"gap_seconds": 3600}, "data": [16, 3, 0, 16, 15]}'
    with pytest.raises(ValueError, match=r'^trace\.metadata\.values = "missing": the file does not say what a value '
                                         r'means: pass values = available'):
        gputco.SpotAvailability.from_json(counts)
    with pytest.raises(ValueError, match=r"^trace\.data\[0\] = 16: must be 0 or 1 \(values = available: one node"):
        gputco.SpotAvailability.from_json(counts, values="available")
    all16 = gputco.SpotAvailability.from_json(counts, values="available_nodes", nodes_needed=16)
    assert all16.available.tolist() == [True, False, False, True, False]
    assert all16.layout == "available nodes (available when >= 16)"
    flipped = gputco.SpotAvailability.from_json('{"metadata": {"gap_seconds": 600}, "data": [1, 0]}', values="preempted")
    assert flipped.available.tolist() == [False, True] and flipped.layout == "preempted flags (1 = preempted)"
    with pytest.raises(ValueError, match=r'^options\.values = "flags": must be one of unstated, available, '
                                         r'available_nodes, preempted$'):
        gputco.SpotAvailability.from_json(counts, values="flags")
    with pytest.raises(ValueError, match=r'^trace\.metadata = "repeated": must appear once$'):
        gputco.SpotAvailability.from_json('{"metadata": {"gap_seconds": 600}, "metadata": {"gap_seconds": 60}, '
                                          '"data": [1]}', values="available")


def test_summarize_of_huge_samples_is_finite_or_an_error():
    s = gputco.summarize([1e308] * 3)
    assert s.mean == 1e308 and s.p50 == 1e308 and s.standard_error == 0.0
    with pytest.raises(ValueError, match=r'^samples = "min -1\.7e\+308, max 1\.7e\+308": their confidence interval '
                                         r'lies beyond the largest double \(1\.8e308\); rescale them$'):
        gputco.summarize([1.7e308, -1.7e308, 1.7e308, -1.7e308])


def test_hindsight_totals_do_not_grow_with_the_fleet():
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    futures = gputco.DemandFutures.generate(gputco.DemandModel(1e8, monthly_log_volatility=0.05),
                                            gputco.Horizon.years(3), 20, 1)
    totals, gpus = gputco.hindsight_reservation_totals(futures, p4d, 1, "all_upfront")  # 1e8 counts each, before
    assert all(math.isfinite(t) for t in totals) and all(0 <= g <= 2e8 for g in gpus)
