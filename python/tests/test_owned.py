"""Owning GPUs (buy vs rent) through the Python API, checked against hand arithmetic."""
import json

import pytest

import gputco


def _offering() -> gputco.Offering:
    # $3.20 per GPU-hour on demand.
    return gputco.Offering(provider="testcloud", instance_type="gpu1", gpu="A100-40GB", on_demand_hourly=3.2,
                           region="test-1", source=gputco.Source(name="hand-made test offering", as_of="2026-01"))


def _owned() -> gputco.Owned:
    return gputco.Owned(capex_per_gpu=20000, life_years=3, residual_fraction=0.1, watts_per_gpu=500,
                        idle_power_fraction=0.3, pue=1.5, electricity_per_kwh=0.10,
                        colocation_per_gpu_month=100, maintenance_fraction_per_year=0.05)


def test_owned_fleet_costs_and_cash_flow_columns():
    report = gputco.evaluate(_owned(), gputco.DemandProfile.constant(4, gputco.Horizon.years(3)), _offering())
    # 80,000 capex − 8,000 resale + 36 × (219 power + 400 colocation + 333.33 maintenance) = 106,284
    assert report.total == pytest.approx(106284.0)
    frame = report.to_frame()
    assert frame["capex"].iloc[0] == pytest.approx(80000.0)
    assert frame["resale"].iloc[-1] == pytest.approx(-8000.0)
    assert frame["operating"].sum() == pytest.approx(36 * (219.0 + 400.0 + 1000.0 / 3.0))
    assert str(frame["owned_used_gpu_hours"].dtype) == "float64"
    assert report.summary()["owned_utilisation"] == pytest.approx(1.0)
    assert report.break_even_utilisation == pytest.approx(0.3045506146)


def test_owned_base_with_cloud_bursts():
    mix = gputco.Mix([(0.5, _owned()), (0.5, gputco.OnDemand())], fleet_gpus=4)
    report = gputco.evaluate(mix, gputco.DemandProfile.constant(6, gputco.Horizon.years(3)), _offering())
    # 2 owned GPUs; 4 GPUs on demand every hour: 4 × 730 × 3.20 = 9,344 a month.
    assert report.to_frame()["on_demand"].iloc[5] == pytest.approx(9344.0)
    assert str(mix) == "50% owned 3y life + 50% on-demand"


def test_bad_ownership_terms_are_value_errors():
    with pytest.raises(ValueError, match=r"^owned\.pue = 0\.9: must be finite and >= 1$"):
        gputco.Owned(capex_per_gpu=1000, pue=0.9)
    with pytest.raises(ValueError, match=r"^owned\.life_years = 0: must be in \[1, 10\]$"):
        gputco.Owned(capex_per_gpu=1000, life_years=0)


def test_figures_that_do_not_apply_are_none():
    # F1: nothing used, so no cost per used GPU-hour (it was NaN); JSON null, summary None.
    idle = gputco.evaluate(gputco.OnDemand(), gputco.DemandProfile.constant(0, gputco.Horizon.years(1)), _offering())
    assert idle.used_gpu_hours == 0
    assert idle.effective_cost_per_used_gpu_hour is None
    assert idle.summary()["effective_cost_per_used_gpu_hour"] is None
    assert json.loads(idle.to_json())["effective_cost_per_used_gpu_hour"] is None
    # F15: power above idle 40 kW × 1.0 × $0.10 = $4.00 per busy hour against $3.20 on demand: owning never
    # pays back, so there is no break-even utilisation (it was +inf).
    hungry = gputco.Owned(capex_per_gpu=20000, life_years=4, residual_fraction=0.1, watts_per_gpu=40000,
                          idle_power_fraction=0, pue=1, electricity_per_kwh=0.1)
    never = gputco.evaluate(hungry, gputco.DemandProfile.constant(1, gputco.Horizon.years(4)), _offering())
    assert never.break_even_utilisation is None
    assert json.loads(never.to_json())["break_even_utilisation"] is None
