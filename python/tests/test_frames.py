"""Every DataFrame view against its declaration (gputco/_frames.py): column names and order, dtypes,
index and attrs, so a field added to a result cannot be left out of one of its views."""
from pathlib import Path

import pandas as pd
import pytest

import gputco
from gputco._frames import INFER, TEXT, VIEWS, Column

ROOT = Path(__file__).resolve().parents[2]
TRACES = ROOT / "tests" / "data"
ONE = {"values": "available_nodes", "nodes_needed": 1}  # the authors' traces count instances; one is needed


@pytest.fixture(scope="module")
def p4d():
    return gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")


@pytest.fixture(scope="module")
def plans(p4d):
    futures = gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_volatility=0.03),
                                            gputco.Horizon.years(1), 40, 42)
    return gputco.compare_plans([gputco.Plan(name="on demand"),
                                 gputco.Plan([gputco.Commitment(8, term_years=1, payment="all_upfront")], name="1y")],
                                futures, p4d), futures


@pytest.fixture(scope="module")
def regions():
    a = gputco.SpotAvailability.from_json(TRACES / "deadline_trace_zone_a.json", **ONE)
    b = gputco.SpotAvailability.from_json(TRACES / "deadline_trace_zone_b.json", **ONE)
    return [gputco.SpotRegion("us-east-1a", a, 0.9731), gputco.SpotRegion("us-east-1b", b, 1.10)]


def focus_bill():
    return gputco.read_focus(ROOT / "tests" / "data" / "focus" / "aws_focus_1_2.csv")


def scenario(name):
    return gputco.load_scenario(ROOT / "examples" / "scenarios" / name)


def cost_report(p4d):
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.months(14))
    mix = gputco.Mix([(0.5, gputco.Reserved(term_years=1, payment="all_upfront")), (0.5, gputco.OnDemand())])
    return gputco.evaluate(mix, demand, p4d)


def multi_region(regions):
    job = gputco.DeadlineJob(compute_hours=24, deadline_hours=36, changeover_hours=1)
    return gputco.simulate_multi_region(job, regions, "skypilot_failover", 3.06)


def recommended(p4d, plans, **keywords):
    _, futures = plans
    return gputco.recommend(futures, p4d, review_months=12, **keywords)


def window_sweep(regions):
    job = gputco.DeadlineJob(compute_hours=10, deadline_hours=20, changeover_hours=1)
    return gputco.sweep_windows(job, regions[0].availability, 0.9731, 3.06, stride_ticks=4)


LADDER = "ladder_uncertain_growth.yaml"

# view name -> frames of it, each with the columns its call names after the declared ones.
CASES = {
    "CostReport.to_frame": lambda f: [(cost_report(f["p4d"]).to_frame(), [])],
    "evaluate_batch": lambda f: [(gputco.evaluate_batch(
        [gputco.OnDemand(), gputco.Reserved(term_years=1, payment="all_upfront")],
        gputco.DemandProfile.constant(8, gputco.Horizon.years(1)), f["p4d"]), [])],
    "SpotResult.to_frame": lambda f: [(gputco.simulate_spot(100, 20, checkpoint_write_hours=0.1, paths=64).to_frame(), [])],
    "PlanDistribution.to_frame": lambda f: [(f["plans"][0][0].to_frame(), [])],
    "PlanDistribution.monthly_bands": lambda f: [(f["plans"][0][1].monthly_bands(), [])],
    "compare_frame": lambda f: [(gputco.compare_frame(f["plans"][0]), [])],
    "DeadlineResult.to_frame": lambda f: [(gputco.simulate_deadline(
        gputco.DeadlineJob(compute_hours=4, deadline_hours=10, changeover_hours=1),
        gputco.SpotAvailability([1, 0, 0, 0, 0, 0, 1, 1, 1, 1]), "greedy", 1.0, 3.0).to_frame(), [])],
    "MultiRegionResult.to_frame": lambda f: [(multi_region(f["regions"]).to_frame(), [])],
    "MultiRegionResult.to_frame(names)": lambda f: [
        (multi_region(f["regions"]).to_frame([r.name for r in f["regions"]]), [])],
    "WindowSweep.summary": lambda f: [(window_sweep(f["regions"]).summary(), [])],
    "WindowSweep.to_frame": lambda f: [
        (window_sweep(f["regions"]).to_frame(), ["greedy", "uniform_progress", "on_demand_only", "omniscient"])],
    "Catalog.offerings_frame": lambda f: [(gputco.catalog().offerings_frame(gpu="A100-40GB"), []),
                                          (gputco.catalog().offerings_frame(gpu="no such GPU"), [])],
    "Catalog.query": lambda f: [(gputco.catalog().query(gpu="a100"), []),
                                (gputco.catalog().query(gpu="a100", sort_currency=None), []),
                                (gputco.catalog().query(gpu="no such GPU"), [])],
    "Catalog.price_spread": lambda f: [(gputco.catalog().price_spread(date="2026-12-05"), []),
                                       (gputco.catalog().price_spread(gpu="no such GPU"), [])],
    "rank_offerings": lambda f: [(gputco.rank_offerings(
        gputco.Workload(model="resnet50", work_per_epoch=1_281_167, epochs=90), spot=False, owned=False), [])],
    "seed_audit": lambda f: [(gputco.seed_audit(), [])],
    "llm_training_cost": lambda f: [(gputco.llm_training_cost(gputco.LlmTraining(
        model=gputco.LlmModel(parameters=1e9), tokens=1e9), gpus=["H100"], paths=200), [])],
    "llm_serving_cost": lambda f: [(gputco.llm_serving_cost(gputco.LlmServing(
        model=gputco.LlmModel(parameters=1e9, layers=16, hidden_size=2048, attention_heads=16)), gpus=["H100"]), [])],
    "throughput_frame": lambda f: [(gputco.throughput_frame(), [])],
    "run_scenario": lambda f: [(gputco.run_scenario(scenario("a100_three_year.yaml")), [])],
    "run_spot_jobs": lambda f: [(gputco.run_spot_jobs(scenario("spot_training_job.yaml")), [])],
    "run_deadline_jobs": lambda f: [(gputco.run_deadline_jobs(scenario("deadline_job.yaml")), [])],
    "run_services": lambda f: [(gputco.run_services(scenario("serve_on_spot.yaml")), [])],
    "run_plans": lambda f: [(gputco.run_plans(scenario("plans_under_uncertain_demand.yaml")), [])],
    "run_workloads": lambda f: [(gputco.run_workloads(scenario("resnet50_cost_per_run.yaml")), [])],
    "run_llm_training": lambda f: [(gputco.run_llm_training(scenario("llm_fine_tune_and_serve.yaml")), [])],
    "run_llm_serving": lambda f: [(gputco.run_llm_serving(scenario("llm_fine_tune_and_serve.yaml")), [])],
    "sweep": lambda f: [(gputco.sweep(scenario(LADDER), {"demand.annual_growth_rate": [0.0, 0.2]}, outputs=("total",)),
                         [Column("demand.annual_growth_rate", INFER), "total[on-demand]",
                          "total[ladder 50% 3y + 25% 1y + 25% on-demand]", "total[3y on the starting fleet]"])],
    "tornado": lambda f: [(gputco.tornado(scenario(LADDER), {"discounts.on_demand_discount": (0.0, 0.2)},
                                          strategy="on-demand"), ["total_at_low", "total_at_high", "swing"])],
    "RecommendResult.baselines": lambda f: [(recommended(f["p4d"], f["plans"]).baselines, [])],
    "RecommendResult.summary": lambda f: [(recommended(f["p4d"], f["plans"]).summary, [])],
    "RecommendResult.frontier": lambda f: [
        (recommended(f["p4d"], f["plans"]).frontier, []),
        (recommended(f["p4d"], f["plans"], cvar95_limits=[1e9], held_out=f["plans"][1]).frontier, [])],
    "FocusBill.hourly": lambda f: [(focus_bill().hourly, [])],
    "FocusBill.figures": lambda f: [(focus_bill().figures, [])],
    "FocusBill.commitments": lambda f: [(focus_bill().commitments, [])],
    "FocusBill.series": lambda f: [(focus_bill().series, [])],
    "FocusBill.unmatched": lambda f: [(focus_bill().unmatched, []),
                                      (gputco.read_focus(ROOT / "tests" / "data" / "focus" / "azure_focuscost_1_0.csv").unmatched, [])],
}

TEXT_DTYPE = pd.Series(["text"]).dtype  # pandas' default string dtype (object before pandas 3)


def check_dtype(series_dtype, column: Column, where: str):
    if column.dtype == INFER:
        return
    if column.dtype == TEXT:
        assert series_dtype == TEXT_DTYPE, f"{where}: {series_dtype} is not pandas' string dtype"
    elif column.dtype == "category":
        assert isinstance(series_dtype, pd.CategoricalDtype), where
        assert tuple(series_dtype.categories) == column.categories, where
    else:
        assert str(series_dtype) == column.dtype, f"{where}: {series_dtype} != {column.dtype}"


def test_every_view_has_a_case():
    assert sorted(CASES) == sorted(VIEWS)


@pytest.mark.parametrize("name", sorted(VIEWS))
def test_view_matches_its_declaration(name, p4d, plans, regions):
    view = VIEWS[name]
    for frame, extra in CASES[name]({"p4d": p4d, "plans": plans, "regions": regions}):
        expected = view.with_extra(extra)
        assert list(frame.columns) == [c.name for c in expected]
        for column in expected:
            check_dtype(frame[column.name].dtype, column, f"{name}[{column.name}] ({len(frame)} rows)")
        if isinstance(view.index, Column):
            assert frame.index.name == view.index.name
            check_dtype(frame.index.dtype, view.index, f"{name} index")
        else:
            assert frame.index.name == view.index
            assert isinstance(frame.index, pd.RangeIndex)
        assert set(view.attrs) <= set(frame.attrs)


def test_data_the_view_does_not_declare_is_refused():
    from gputco._frames import frame

    # A field added to a result but not to its view fails here rather than vanishing from the frame.
    row = {"month": 0, **{c.name: 1.0 for c in VIEWS["CostReport.to_frame"].columns}, "new_field": 2.0}
    with pytest.raises(ValueError, match=r"^columns = \['new_field'\]: not in view CostReport.to_frame$"):
        frame(VIEWS["CostReport.to_frame"], [row], attrs={"strategy": "", "offering": "", "currency": ""})
    with pytest.raises(ValueError, match=r"^extra = \['x'\]: view seed_audit has no columns named per call$"):
        frame(VIEWS["seed_audit"], [], extra=["x"])
    with pytest.raises(ValueError, match=r"needs unit, currency, workload, skipped, prices_as_of, max_price_age_days, stale_left_out$"):
        frame(VIEWS["rank_offerings"], [])
    # A declared whole-number column refuses values the cast would change.
    with pytest.raises(ValueError, match=r"^deadline_misses = 2.5: must be int64 \(declared so\)$"):
        frame(VIEWS["WindowSweep.summary"], [{c.name: 2.5 for c in VIEWS["WindowSweep.summary"].columns}
                                             | {"policy": "greedy"}])


def test_spot_samples_are_views_not_copies():
    r = gputco.simulate_spot(100, 20, checkpoint_write_hours=0.1, paths=64)
    import numpy as np

    assert np.shares_memory(r.to_frame()["cost"].to_numpy(), r.samples.cost)


def test_the_cost_figures_are_in_every_view_of_a_report(p4d):
    # One list (cost_figure_fields in gputco/results/report.hpp) for JSON, summary() and evaluate_batch.
    import json

    from gputco._cost import FIGURES

    assert FIGURES[:3] == ["total", "npv", "annual_discount_rate"] and FIGURES[-1] == "break_even_month"
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.months(36))  # breaks even in month 15
    mix = gputco.Mix([(0.5, gputco.Reserved(term_years=1, payment="all_upfront")), (0.5, gputco.OnDemand())])
    report = gputco.evaluate(mix, demand, p4d, annual_discount_rate=0.07)
    summary, written = report.summary(), json.loads(report.to_json())
    batch = gputco.evaluate_batch([mix], demand, p4d, annual_discount_rate=0.07)
    summary_figures = [key for key in summary if key in FIGURES]
    assert summary_figures == FIGURES
    assert list(batch.columns[1:1 + len(FIGURES)]) == FIGURES
    for name in FIGURES:
        assert summary[name] is not None, name  # every figure applies here
        assert summary[name] == getattr(report, name) == written[name] == batch[name].iloc[0], name
    assert isinstance(summary["break_even_month"], int) and summary["annual_discount_rate"] == 0.07
