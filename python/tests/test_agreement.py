"""Same inputs, same numbers in C++ and Python, seeded Monte Carlo included.

python/tests/reference_values.cpp computes the figures below with the C++ API; its output is stored in
data/reference_values.json. The Python side must reproduce them (to 1e-12: the same code runs, only
the way the arguments travel differs). When the build tree is known (GPUTCO_BUILD_DIR, as under ctest)
the program is also run live and must agree bit for bit.
"""
import json
import os
import pathlib
import subprocess

import pytest

import gputco

HERE = pathlib.Path(__file__).parent
JOB = dict(work_hours=500.0, checkpoint_interval_hours=2.0, checkpoint_write_hours=5 / 60,
           restart_hours=10 / 60, capacity_wait_hours=0.5)


def python_values() -> dict:
    v = {}
    v["interval_exact"] = gputco.optimal_checkpoint_interval(5 / 60, 24.0, method="exact")
    v["interval_daly"] = gputco.optimal_checkpoint_interval(5 / 60, 24.0, method="daly")
    v["interval_young"] = gputco.optimal_checkpoint_interval(5 / 60, 24.0, method="young")
    e = gputco.expected_spot_time(mtbf_hours=24.0, **JOB)
    v["expected_billed_hours"] = e.billed_hours
    v["expected_wall_hours"] = e.wall_hours
    v["expected_interruptions"] = e.interruptions

    p = gputco.simulate_spot(**JOB, mtbf_hours=24.0, price_per_hour=1.2, on_demand_price_per_hour=4.0,
                             deadline_hours=560, paths=5000, seed=42, threads=1)
    v["poisson_cost_mean"] = p.cost.mean
    v["poisson_cost_p95"] = p.cost.p95
    v["poisson_wall_hours_mean"] = p.wall_hours.mean
    v["poisson_interruptions_mean"] = p.interruptions.mean
    v["poisson_lost_work_hours_p50"] = p.lost_work_hours.p50
    v["poisson_cost_0"] = float(p.samples.cost[0])
    v["poisson_cost_4999"] = float(p.samples.cost[4999])
    v["poisson_deadline_miss_probability"] = p.deadline_miss_probability
    v["poisson_effective_discount"] = p.effective_discount
    w = gputco.simulate_spot(**JOB, model=gputco.Weibull(shape=0.7, scale_hours=12), deadline_hours=560,
                             paths=5000, seed=7)
    v["weibull_billed_hours_mean"] = w.billed_hours.mean
    v["weibull_billed_hours_p99"] = w.billed_hours.p99

    azure = gputco.catalog().offering("azure", "Standard_ND96asr_v4")
    demand = gputco.DemandProfile.constant(4, gputco.Horizon.years(3)).with_weekly_pattern([1, 1, 1, 1, 1, .5, .5])
    mix = gputco.Mix([(0.7, gputco.Reserved(term_years=3, payment="all_upfront")), (0.3, gputco.OnDemand())])
    r = gputco.evaluate(mix, demand, azure, annual_discount_rate=0.05, units="gpus",
                        discounts=gputco.Discounts(free_gpu_hours=100, voucher_price_factor=0.9))
    v["demand_total_gpu_hours"] = demand.total_gpu_hours()
    v["mix_total"] = r.total
    v["mix_npv"] = r.npv
    v["mix_savings_fraction"] = r.savings_fraction
    v["mix_reserved_utilisation"] = r.reserved_utilisation
    v["mix_month_0_total"] = r.months[0].total
    v["mix_break_even_month"] = r.break_even_month if r.break_even_month is not None else -1
    return v


def test_python_reproduces_stored_cpp_values():
    stored = json.loads((HERE / "data" / "reference_values.json").read_text())
    computed = python_values()
    assert computed.keys() == stored.keys()
    for key, value in stored.items():
        assert computed[key] == pytest.approx(value, rel=1e-12, abs=1e-12), key


def _reference_program():
    build = os.environ.get("GPUTCO_BUILD_DIR")
    if not build:
        return None
    for name in ("gputco_python_reference", "gputco_python_reference.exe"):
        for path in pathlib.Path(build).glob(f"**/{name}"):
            return path
    return None


@pytest.mark.skipif(_reference_program() is None, reason="C++ reference program not built (set GPUTCO_BUILD_DIR)")
def test_python_matches_live_cpp_bit_for_bit():
    output = subprocess.run([str(_reference_program())], check=True, capture_output=True, text=True).stdout
    live = json.loads(output)
    computed = python_values()
    mismatched = {k: (live[k], computed[k]) for k in live if live[k] != computed[k]}
    assert not mismatched
