import io
import json

import numpy as np
import pandas as pd
import pytest

import gputco
from gputco._cost import MONTH_COLUMNS

H3 = gputco.Horizon.years(3)
RESERVED_3Y = gputco.Reserved(term_years=3, payment="all_upfront")


@pytest.fixture(scope="module")
def p4d(catalog):
    # The reference figures are priced before AWS's June 2025 cut.
    return catalog.offering("aws", "p4d.24xlarge").price_at("2025-05-31")


def test_reference_discounts(p4d):
    # docs/models.md, section 2.5: real p4d, 3-yr 61.9% off; 70/30 costs 18.581/h vs 32.773/h (-43.3%),
    # per GPU.
    demand = gputco.DemandProfile.constant(10, H3)
    reserved = gputco.evaluate(RESERVED_3Y, demand, p4d, units="gpus")
    assert reserved.savings_fraction == pytest.approx(0.619, abs=0.0005)
    mix = gputco.evaluate(gputco.Mix([(0.7, RESERVED_3Y), (0.3, gputco.OnDemand())]), demand, p4d, units="gpus")
    assert mix.savings_fraction == pytest.approx(0.433, abs=0.0005)
    assert mix.total / (10 * 26280) * 8 == pytest.approx(18.581, abs=0.001)
    on_demand = gputco.evaluate(gputco.OnDemand(), demand, p4d, units="gpus")
    assert on_demand.total == pytest.approx(mix.baseline_total) and on_demand.savings == 0
    assert mix.strategy == "70% reserved 3y all_upfront + 30% on-demand" == gputco.describe(
        gputco.Mix([(0.7, RESERVED_3Y), (0.3, gputco.OnDemand())]))


def test_report_frame_summary_and_renderings(p4d):
    demand = gputco.DemandProfile.linear_growth(2, 8, H3)
    report = gputco.evaluate(gputco.Mix([gputco.Tranche(0.5, gputco.Reserved(term_years=1, reservation_discount=0.3)),
                                         (0.5, gputco.OnDemand())], fleet_gpus=6),
                             demand, p4d, discounts=gputco.Discounts(free_gpu_hours=100),
                             annual_discount_rate=0.05)
    frame = report.to_frame()
    assert list(frame.columns) == MONTH_COLUMNS[1:] + ["cumulative"]
    assert frame.index.name == "month" and frame.index.dtype == np.int64
    assert all(frame[c].dtype == np.float64 for c in frame.columns)
    assert len(frame) == len(report.months) >= 36
    assert frame["total"].sum() == pytest.approx(report.total)
    assert frame["cumulative"].iloc[-1] == pytest.approx(report.total)
    assert frame["credits"].sum() < 0  # the free hours
    assert report.npv < report.total
    summary = report.summary()
    assert summary["total"] == report.total and summary["break_even_month"] == report.break_even_month
    json.dumps(summary)
    assert str(report) == report.to_table() and "Total cost" in str(report)
    assert json.loads(report.to_json())["total"] == pytest.approx(report.total)
    csv = pd.read_csv(io.StringIO(report.to_csv()))
    assert csv["total"].sum() == pytest.approx(report.total)


def test_spot_tranche_from_simulation(p4d):
    sim = gputco.simulate_spot(500, 24, 2, 5 / 60, 10 / 60, paths=2048, seed=9)
    tranche = gputco.spot_tranche(sim, 500.0, availability=0.9)
    assert tranche.overhead == pytest.approx(sim.billed_hours.mean / 500)
    assert tranche.overhead_samples.shape == (2048,)
    job = gputco.Job(work_hours=500, checkpoint_interval_hours=2, checkpoint_write_hours=5 / 60)
    assert gputco.spot_tranche(sim, job).overhead == tranche.overhead
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.years(1))
    report = gputco.evaluate(gputco.Mix([(0.5, RESERVED_3Y), (0.3, tranche), (0.2, gputco.OnDemand())]),
                             demand, p4d)
    assert report.spread is not None and report.spread.p05 <= report.spread.p95
    assert report.summary()["spread"]["mean"] == report.spread.mean
    with pytest.raises(ValueError, match="overhead"):
        gputco.evaluate(gputco.Mix([(1.0, gputco.SpotTranche(overhead=0.5))]), demand, p4d)


def test_whole_instances_by_default_and_the_gpu_view_on_request(p4d):
    demand = gputco.DemandProfile.constant(4, gputco.Horizon.months(1))
    whole = gputco.evaluate(gputco.OnDemand(), demand, p4d)
    single = gputco.evaluate(gputco.OnDemand(), demand, p4d, units="gpus")
    assert (whole.units, whole.gpus_per_unit) == ("instances", 8)
    assert (single.units, single.gpus_per_unit) == ("gpus", 1)
    # 4 GPUs on an 8-GPU p4d.24xlarge pay the whole instance: 730 h × 32.7726 = 23,923.998.
    assert whole.total == pytest.approx(730 * 32.7726)
    assert single.total == pytest.approx(730 * 32.7726 / 2)
    frame = whole.to_frame()
    assert frame["on_demand_paid_gpu_hours"].iloc[0] == pytest.approx(8 * 730)
    assert frame["on_demand_gpu_hours"].iloc[0] == pytest.approx(4 * 730)
    assert whole.summary()["units"] == "instances"
    assert "Bought in: whole instances of 8 GPUs" in str(whole)
    with pytest.raises(ValueError, match='^units = "gpu": must be one of instances, gpus$'):
        gputco.evaluate(gputco.OnDemand(), demand, p4d, units="gpu")


def test_spot_hours_without_capacity_fall_to_on_demand(p4d):
    # 1 GPU of demand on a fleet of 2 spot GPUs available half the hours: all 730 GPU-hours are costed.
    demand = gputco.DemandProfile.constant(1, gputco.Horizon.months(1))
    mix = gputco.Mix([(1.0, gputco.SpotTranche(availability=0.5))], fleet_gpus=2)
    report = gputco.evaluate(mix, demand, p4d, units="gpus")
    month = report.months[0]
    assert month.spot_gpu_hours == pytest.approx(365) and month.on_demand_gpu_hours == pytest.approx(365)
    assert report.used_gpu_hours == pytest.approx(730)


def test_month_fields_are_one_list_for_csv_json_attributes_and_frame(p4d):
    report = gputco.evaluate(gputco.Mix([(0.7, RESERVED_3Y), (0.3, gputco.OnDemand())]),
                             gputco.DemandProfile.constant(10, H3), p4d)
    fields = list(gputco.MonthlyCashFlow._fields)
    # The CSV header, the JSON keys, the attributes and the frame's columns are the same list.
    assert report.to_csv().splitlines()[0].split(",") == fields
    assert set(json.loads(report.to_json())["months"][0]) == set(fields)
    assert list(report.to_frame().reset_index().columns) == fields + ["cumulative"]
    month = report.months[3]
    assert month._asdict() == {name: getattr(month, name) for name in fields}
    assert isinstance(month.month, int) and month.month == 3
    # Every value agrees across the views, to the bit.
    frame = report.to_frame()
    csv = pd.read_csv(io.StringIO(report.to_csv())).set_index("month")
    for name in fields[1:]:
        assert frame[name].iloc[3] == getattr(month, name) == csv[name].iloc[3], name
