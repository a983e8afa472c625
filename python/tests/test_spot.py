import _thread
import gc
import json
import os
import signal
import threading
import time
import weakref

import math

import numpy as np
import pandas as pd
import pytest

import gputco
from gputco._spot import SAMPLE_COLUMNS

JOB = dict(work_hours=500.0, mtbf_hours=24.0, checkpoint_interval_hours=2.0, checkpoint_write_hours=5 / 60,
           restart_hours=10 / 60)


@pytest.fixture(scope="module")
def result():
    return gputco.simulate_spot(**JOB, price_per_hour=1.2, paths=20_000, seed=42, on_demand_price_per_hour=4.0)


def test_frame_columns_dtypes_and_zero_copy(result):
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == SAMPLE_COLUMNS
    assert len(frame) == len(result) == result.paths == 20_000
    # Counts are integers; the rest are float64 views of the result's samples.
    assert frame["interruptions"].dtype == np.int64
    np.testing.assert_array_equal(frame["interruptions"].to_numpy(), result.samples.interruptions)
    assert frame["interruptions"].sum() > 0
    for column in SAMPLE_COLUMNS:
        view = getattr(result.samples, column)
        assert not view.flags.writeable
        if column != "interruptions":
            assert frame[column].dtype == np.float64, column
            assert np.shares_memory(frame[column].to_numpy(), view), column
    np.testing.assert_allclose(frame["cost"], frame["billed_hours"] * 1.2, rtol=1e-12)


def test_samples_outlive_the_result():
    r = gputco.simulate_spot(**JOB, paths=2048, seed=1)
    ref = weakref.ref(r)
    cost = r.samples.cost
    expected = float(cost.sum())
    frame = r.to_frame()
    del r
    gc.collect()
    assert ref() is not None
    assert float(frame["cost"].sum()) == expected and float(cost.sum()) == expected
    del cost, frame
    gc.collect()
    assert ref() is None


def test_summary_and_json(result):
    summary = result.summary()
    for column in SAMPLE_COLUMNS:
        entry = summary[column]
        assert {"mean", "standard_error", "ci_low", "ci_high", "p50", "p90", "p95", "p99"} <= set(entry)
        samples = getattr(result.samples, column)
        assert entry["mean"] == pytest.approx(samples.mean(), rel=1e-12)
        assert entry["p95"] == pytest.approx(np.quantile(samples, 0.95), rel=1e-12)
        assert entry["ci_low"] < entry["mean"] < entry["ci_high"] or entry["standard_error"] == 0
    assert summary["paths"] == 20_000 and summary["seed"] == 42
    assert summary["effective_discount"] == pytest.approx(1 - summary["cost"]["mean"] / (4.0 * 500))
    assert json.loads(result.to_json()) == summary  # all finite here, so JSON round-trips exactly
    unknown = gputco.simulate_spot(**JOB, paths=1024, seed=1)
    assert json.loads(unknown.to_json())["effective_discount"] is None


def test_same_seed_same_numbers_any_thread_count(result):
    for threads in (1, 2, 3):
        again = gputco.simulate_spot(**JOB, price_per_hour=1.2, paths=20_000, seed=42, threads=threads,
                                     on_demand_price_per_hour=4.0)
        for column in SAMPLE_COLUMNS:
            np.testing.assert_array_equal(getattr(again.samples, column), getattr(result.samples, column))
    other = gputco.simulate_spot(**JOB, price_per_hour=1.2, paths=20_000, seed=43)
    assert not np.array_equal(other.samples.cost, result.samples.cost)


def test_monte_carlo_agrees_with_closed_form(result):
    expected = gputco.expected_spot_time(500.0, 2.0, 5 / 60, 10 / 60, 24.0)
    for name in ("billed_hours", "interruptions"):
        s = getattr(result, name)
        assert abs(s.mean - getattr(expected, name)) < 4 * s.standard_error, name


def test_default_interval_is_the_optimal_one():
    a = gputco.simulate_spot(500, 24, checkpoint_write_hours=5 / 60, paths=1024, seed=3)
    tau = gputco.optimal_checkpoint_interval(5 / 60, 24)
    b = gputco.simulate_spot(500, 24, tau, 5 / 60, paths=1024, seed=3)
    np.testing.assert_array_equal(a.samples.wall_hours, b.samples.wall_hours)


def test_models_and_statistics():
    weibull = gputco.simulate_spot(500, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, paths=2048,
                                   seed=5, model=gputco.Weibull(0.7, 12, rules=gputco.aws_rules()))
    trace = gputco.simulate_spot(500, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, paths=2048, seed=5,
                                 model=gputco.Trace([5.0, 10.0, 30.0], source="test"))
    poisson = gputco.simulate_spot(500, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, paths=2048,
                                   seed=5, model=gputco.Poisson(24))
    plain = gputco.simulate_spot(500, 24, 2, 0.1, paths=2048, seed=5)
    np.testing.assert_array_equal(poisson.samples.cost, plain.samples.cost)
    assert weibull.billed_hours.mean > 500 and trace.billed_hours.mean > 500
    s = gputco.summarize(plain.samples.cost)
    assert s.mean == plain.cost.mean and s.p99 == plain.cost.p99
    assert gputco.quantile(pd.Series(plain.samples.cost), 0.5) == plain.cost.p50
    with pytest.raises(ValueError, match="^mtbf_hours = 24: give either mtbf_hours or model, not both$"):
        gputco.simulate_spot(500, 24, 2, model=gputco.Poisson(24))
    with pytest.raises(ValueError, match="mtbf_hours"):
        gputco.Poisson(-1)
    # issue 24 #5: without an interval a Weibull job runs at the optimal interval for its mean lifetime,
    # the default a scenario file's spot job has (one rule, in C++)
    tau = gputco.optimal_checkpoint_interval(0.1, 12 * math.gamma(1 + 1 / 0.7))
    assert gputco.checkpoint_interval_or_default(0, 0.1, gputco.Weibull(0.7, 12)) == pytest.approx(tau, rel=1e-14)
    tau = gputco.checkpoint_interval_or_default(0, 0.1, gputco.Weibull(0.7, 12))  # C++'s Gamma, to the last bit
    implicit = gputco.simulate_spot(500, checkpoint_write_hours=0.1, paths=2048, seed=5, model=gputco.Weibull(0.7, 12))
    explicit = gputco.simulate_spot(500, checkpoint_interval_hours=tau, checkpoint_write_hours=0.1, paths=2048, seed=5,
                                    model=gputco.Weibull(0.7, 12))
    np.testing.assert_array_equal(implicit.samples.cost, explicit.samples.cost)
    with pytest.raises(ValueError, match=r"^job.checkpoint_interval_hours = 0: must be given for a model without a "
                                         r"mean lifetime \(price-driven\)$"):
        gputco.simulate_spot(500, model=gputco.PriceDriven())
    bucket = gputco.advisor_bucket(2)
    assert bucket.mtbf_hours == pytest.approx(-730 / np.log1p(-0.125))


def _is_released(run):
    """True if another Python thread makes progress while `run` is inside C++."""
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    ticker = threading.Thread(target=tick)
    ticker.start()
    try:
        start = time.perf_counter()
        run()
        end = time.perf_counter()
    finally:
        done.set()
        ticker.join()
    return sum(start < t < end for t in ticks) > 20


def test_gil_released_while_simulating():
    assert _is_released(lambda: gputco.simulate_spot(20000, 2, 0.5, 0.05, paths=20_000, seed=1, threads=1))


BIG = dict(work_hours=20000, mtbf_hours=2, checkpoint_interval_hours=0.5, checkpoint_write_hours=0.05,
           paths=50_000_000, seed=1, threads=2)


def test_ctrl_c_interrupt_main_stops_the_run():
    timer = threading.Timer(0.3, _thread.interrupt_main)
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        gputco.simulate_spot(**BIG)
    timer.join()
    assert time.perf_counter() - start < 10  # the full run would take minutes


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name == "nt", reason="POSIX signals")
def test_sigint_stops_the_run():
    timer = threading.Timer(0.3, os.kill, args=(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        gputco.simulate_spot(**BIG)
    timer.join()
    assert time.perf_counter() - start < 10
    # the module still works afterwards
    assert gputco.simulate_spot(**JOB, paths=1024, seed=1).paths == 1024


def test_python_signal_handler_error_propagates():
    class Stop(Exception):
        pass

    def handler(signum, frame):
        raise Stop("stopped by handler")

    previous = signal.signal(signal.SIGUSR1, handler)
    try:
        timer = threading.Timer(0.3, os.kill, args=(os.getpid(), signal.SIGUSR1))
        timer.start()
        with pytest.raises(Stop, match="stopped by handler"):
            gputco.simulate_spot(**BIG)
        timer.join()
    finally:
        signal.signal(signal.SIGUSR1, previous)


def test_continuous_billing_by_default_charges_the_running_time(result):
    np.testing.assert_array_equal(result.samples.charged_hours, result.samples.billed_hours)
    assert result.charged_hours.mean == result.billed_hours.mean
    assert result.summary()["charged_hours"] == result.summary()["billed_hours"]
    np.testing.assert_array_equal(result.to_frame()["charged_hours"], result.samples.billed_hours)


def test_hourly_billing_rounds_each_launch_by_hand():
    # W = 20, tau = 2, R = 0.5, every launch lives 5.2 h: 4 launches of 5.2 h (2 segments each, the rest
    # lost), then R + 2 segments = 4.5 h. Billed 4 x 5.2 + 4.5 = 25.3; hourly 4 x 6 + 5 = 29; at $3/h 87.
    job = dict(work_hours=20, checkpoint_interval_hours=2, restart_hours=0.5, model=gputco.Trace([5.2]), paths=10)
    hourly = gputco.simulate_spot(**job, price_per_hour=3, billing_increment_hours=1)
    assert hourly.billed_hours.mean == pytest.approx(25.3)
    assert hourly.charged_hours.mean == pytest.approx(29.0)
    assert hourly.cost.mean == pytest.approx(87.0)
    # A 5.5 h minimum lifts only the last launch: 4 x 6 + 5.5.
    floored = gputco.simulate_spot(**job, billing_increment_hours=1, minimum_billed_hours=5.5)
    assert floored.charged_hours.mean == pytest.approx(29.5)
    frame = hourly.to_frame()
    np.testing.assert_allclose(frame["cost"], frame["charged_hours"] * 3, rtol=1e-15)


def test_offering_supplies_prices_and_billing():
    p3 = gputco.catalog().offering("aws", "p3.2xlarge", "us-east-1")  # $0.5197 spot, $3.06, per second, 60 s min
    from_offering = gputco.simulate_spot(**JOB, paths=2048, seed=9, offering=p3)
    explicit = gputco.simulate_spot(**JOB, paths=2048, seed=9, price_per_hour=0.5197, on_demand_price_per_hour=3.06,
                                    billing_increment_hours=1 / 3600, minimum_billed_hours=60 / 3600)
    np.testing.assert_array_equal(from_offering.samples.cost, explicit.samples.cost)
    assert from_offering.effective_discount == pytest.approx(1 - from_offering.cost.mean / (3.06 * 500))
    assert (from_offering.samples.charged_hours > from_offering.samples.billed_hours).all()
    # Keywords override the offering: continuous billing at the offering's prices.
    continuous = gputco.simulate_spot(**JOB, paths=2048, seed=9, offering=p3, billing_increment_hours=0,
                                      minimum_billed_hours=0)
    np.testing.assert_array_equal(continuous.samples.charged_hours, continuous.samples.billed_hours)
    np.testing.assert_array_equal(continuous.samples.cost, continuous.samples.billed_hours * 0.5197)

    g5 = gputco.catalog().offering("aws", "g5.xlarge", "us-east-1")
    with pytest.raises(ValueError, match='^offering.spot_hourly = "none": offering aws/us-east-1/g5.xlarge lists '
                                         'no spot price$'):
        gputco.simulate_spot(**JOB, paths=1024, offering=g5)
    priced = gputco.simulate_spot(**JOB, paths=1024, offering=g5, price_per_hour=0.4)
    assert priced.effective_discount == pytest.approx(1 - priced.cost.mean / (1.006 * 500))


def test_bad_billing_is_rejected_with_the_field():
    with pytest.raises(ValueError, match=r"^pricing.billing_increment_hours = -1: must be finite and >= 0$"):
        gputco.simulate_spot(**JOB, paths=1024, billing_increment_hours=-1)
    with pytest.raises(ValueError, match=r"^pricing.minimum_billed_hours = inf: must be finite and >= 0$"):
        gputco.simulate_spot(**JOB, paths=1024, minimum_billed_hours=float("inf"))


def test_every_kernel_gives_the_same_samples(monkeypatch):
    kernels = gputco.spot_kernels()
    assert kernels[:2] == ["scalar", "portable"]
    assert gputco.default_spot_kernel() == kernels[-1]
    widest = gputco.simulate_spot(**JOB, paths=3001, seed=4)
    assert widest.kernel == kernels[-1] and widest.summary()["kernel"] == kernels[-1]
    for name in kernels:
        monkeypatch.setenv("GPUTCO_SPOT_KERNEL", name)
        r = gputco.simulate_spot(**JOB, paths=3001, seed=4)
        assert r.kernel == name
        for column in SAMPLE_COLUMNS:
            np.testing.assert_array_equal(getattr(r.samples, column), getattr(widest.samples, column))
    monkeypatch.setenv("GPUTCO_SPOT_KERNEL", "turbo")
    with pytest.raises(ValueError, match=r'^GPUTCO_SPOT_KERNEL = "turbo": must be one of auto, scalar, portable'):
        gputco.simulate_spot(**JOB, paths=10, seed=4)
    monkeypatch.delenv("GPUTCO_SPOT_KERNEL")
    job = {k: v for k, v in JOB.items() if k != "mtbf_hours"}
    ruled = gputco.simulate_spot(**job, paths=10, seed=4, model=gputco.Poisson(24, rules=gputco.aws_rules()))
    assert ruled.kernel == kernels[-1]  # provider rules run in the lane kernels too


def test_object_form_takes_the_exported_classes_and_equals_the_keyword_form():
    job = gputco.Job(work_hours=500, checkpoint_interval_hours=2, checkpoint_write_hours=5 / 60,
                     restart_hours=10 / 60, capacity_wait_hours=0.5)
    pricing = gputco.SpotPricing(price_per_hour=1.2, on_demand_price_per_hour=4.0)
    options = gputco.SimulationOptions(paths=3001, seed=7, threads=2)
    by_objects = gputco.simulate_spot(job, gputco.Poisson(24), pricing, options)
    by_keywords = gputco.simulate_spot(500, 24, 2, 5 / 60, 10 / 60, 0.5, 1.2, paths=3001, seed=7, threads=1,
                                       on_demand_price_per_hour=4.0)
    for column in SAMPLE_COLUMNS:
        np.testing.assert_array_equal(getattr(by_objects.samples, column), getattr(by_keywords.samples, column))
    assert by_objects.effective_discount == by_keywords.effective_discount
    named = gputco.simulate_spot(job=job, model=gputco.Poisson(24), pricing=pricing, options=options)
    np.testing.assert_array_equal(named.samples.cost, by_objects.samples.cost)
    defaults = gputco.simulate_spot(job, gputco.Poisson(24))  # SpotPricing(), SimulationOptions()
    assert defaults.paths == 100_000 and defaults.cost.mean == defaults.billed_hours.mean
    assert repr(options) == ("SimulationOptions(paths=3001, seed=7, threads=2, target_half_width=0, max_paths=0, "
                             "confidence=0.95, keep_samples=True)")
    with pytest.raises(ValueError, match=r"^pricing\.price_per_hour = 0: must be finite and > 0$"):
        gputco.SpotPricing(price_per_hour=0)
    with pytest.raises(ValueError, match=r"^options\.paths = 0: must be > 0$"):
        gputco.SimulationOptions(paths=0)
    with pytest.raises(TypeError):
        gputco.simulate_spot(job, "poisson")


def test_spot_pricing_from_offering(catalog):
    offering = next(o for o in catalog.offerings if o.spot_per_gpu_hour() is not None)
    pricing = gputco.SpotPricing.from_offering(offering)
    assert pricing.price_per_hour == offering.spot_per_gpu_hour()
    assert pricing.billing_increment_hours == offering.billing_increment_seconds / 3600
    job = {k: v for k, v in JOB.items() if k != "mtbf_hours"}
    a = gputco.simulate_spot(**job, mtbf_hours=24, offering=offering, paths=2000, seed=1)
    b = gputco.simulate_spot(gputco.Job(**job), gputco.Poisson(24), pricing, gputco.SimulationOptions(paths=2000, seed=1))
    np.testing.assert_array_equal(a.samples.cost, b.samples.cost)


# Inputs that crashed or hung the process before the limits (each a ValueError now, within seconds).
@pytest.mark.parametrize("call, message", [
    (lambda: gputco.simulate_spot(**JOB, paths=10**9, threads=2),
     "options.paths = 1000000000: must be <= 100000000 (each path keeps 48 bytes of samples; "
     "options.keep_samples = false keeps none)"),
    (lambda: gputco.simulate_spot(**JOB, paths=10**12, threads=2),
     "options.paths = 1000000000000: must be <= 100000000 (each path keeps 48 bytes of samples; "
     "options.keep_samples = false keeps none)"),
    (lambda: gputco.simulate_spot(**JOB, paths=10**13, threads=2, keep_samples=False),
     "options.paths = 10000000000000: must be <= 1000000000000 (with options.keep_samples = false)"),
    (lambda: gputco.simulate_spot(20, checkpoint_interval_hours=2, model=gputco.Weibull(1, 1e-300)),
     "job.work_hours = 20: needs at least 2e+301 launches per path (limit 1e8): a launch keeps 1e-300 h of work "
     "on average under this interruption model"),
    (lambda: gputco.simulate_spot(1e12, checkpoint_interval_hours=2, model=gputco.Weibull(1, 12)),
     "job.work_hours = 1000000000000: must be in [1e-09, 1e+09] hours"),
    (lambda: gputco.simulate_spot(1e9, checkpoint_interval_hours=2, model=gputco.Weibull(1, 1)),
     "job.work_hours = 1000000000: needs at least 1e+09 launches per path (limit 1e8): a launch keeps 1 h "
     "of work on average under this interruption model"),
    (lambda: gputco.simulate_spot(500, checkpoint_interval_hours=0.5, checkpoint_write_hours=0.05, restart_hours=1,
                                  model=gputco.Poisson(0.04, rules=gputco.ProviderRules(protection_hours=1))),
     "job.checkpoint_interval_hours = 0.5: needs at least 8.71e+08 launches per path (limit 1e8): without an "
     "emergency checkpoint a launch keeps whole segments only (0.5 h and its write), and after its restart one "
     "keeps 5.73e-07 h of them on average; use a shorter interval"),
    (lambda: gputco.simulate_spot(20, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, model=gputco.Poisson(
        5, rules=gputco.ProviderRules(notice_hours=1e308, emergency_checkpoint=True))),
     "rules.notice_hours = 1e+308: must be <= 1e+09"),
])
def test_limits_fail_fast(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == message


def test_adaptive_run_is_bounded_by_default_and_threads_beyond_the_system_are_fine():
    r = gputco.simulate_spot(**JOB, paths=1000, seed=2, target_half_width=1e-300)
    assert r.paths == 16_000
    many = gputco.simulate_spot(**JOB, paths=20_000, seed=2, threads=4000)
    one = gputco.simulate_spot(**JOB, paths=20_000, seed=2, threads=1)
    np.testing.assert_array_equal(many.samples.cost, one.samples.cost)


def test_keep_samples_false_streams_the_summaries():
    """No samples kept: mean and standard error equal the sampled run's to rounding; quantiles of all
    paths while the run has at most spot_quantile_subsample; the sample-memory ceiling lifted."""
    job = gputco.Job(work_hours=60, checkpoint_interval_hours=2, checkpoint_write_hours=0.1, restart_hours=0.25)
    sampled = gputco.simulate_spot(job, gputco.Poisson(8), gputco.SpotPricing(price_per_hour=1.2),
                                   gputco.SimulationOptions(paths=20_000, seed=3))
    options = gputco.SimulationOptions(paths=20_000, seed=3, keep_samples=False)
    assert options.keep_samples is False and "keep_samples=False" in repr(options)
    streamed = gputco.simulate_spot(job, gputco.Poisson(8), gputco.SpotPricing(price_per_hour=1.2), options)
    assert len(streamed.samples.cost) == 0 and streamed.paths == 20_000
    for name in ("cost", "wall_hours", "interruptions"):
        a, b = getattr(streamed, name), getattr(sampled, name)
        assert a.mean == pytest.approx(b.mean, rel=1e-12)
        assert a.standard_error == pytest.approx(b.standard_error, rel=1e-12)
        assert (a.p50, a.p95, a.p99, a.min, a.max) == (b.p50, b.p95, b.p99, b.min, b.max)
    keywords = gputco.simulate_spot(60, 8, 2, 0.1, 0.25, price_per_hour=1.2, paths=20_000, seed=3,
                                    keep_samples=False)
    assert keywords.cost.mean == streamed.cost.mean
    gputco.SimulationOptions(paths=gputco.spot_max_paths + 1, keep_samples=False)  # no sample memory to bound
    with pytest.raises(ValueError, match=r"^options\.paths = 100000001: must be <= 100000000 \(each path keeps 48 "
                                         r"bytes of samples; options\.keep_samples = false keeps none\)$"):
        gputco.SimulationOptions(paths=gputco.spot_max_paths + 1)


def test_estimate_spot_work_matches_the_closed_form_and_the_run():
    # W = 100 h in 100 segments, delta 0.1, R 0.25, MTBF 20: E[N] = 100 e^{0.0125} (e^{0.055} - 1) = 5.7252,
    # so 6.7252 launches a path; the run's interruptions + 1 agree within 4 standard errors.
    job = gputco.Job(work_hours=100, checkpoint_interval_hours=1, checkpoint_write_hours=0.1, restart_hours=0.25)
    work = gputco.estimate_spot_work(job, gputco.Poisson(20))
    assert work.launches_per_path == pytest.approx(6.725181, rel=1e-6)
    assert work.price_steps_per_path == 0
    r = gputco.simulate_spot(job, gputco.Poisson(20), options=gputco.SimulationOptions(paths=4000, seed=8))
    assert abs(r.interruptions.mean + 1 - work.launches_per_path) <= 4 * r.interruptions.standard_error
    # A restart that no launch outlives: the same ValueError as simulate_spot, before any run.
    bad = gputco.Job(work_hours=1000, checkpoint_interval_hours=10, checkpoint_write_hours=0.1, restart_hours=10)
    with pytest.raises(ValueError, match=r"^job.restart_hours = 10: expects at least 5.07e\+115 launches per path"):
        gputco.estimate_spot_work(bad, gputco.Weibull(shape=8, scale_hours=10))
