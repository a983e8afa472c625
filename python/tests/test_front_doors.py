"""One answer whichever way you ask: the gputco command, the Python package and the library agree on
the same input (issue 24's seven disagreements as regressions, and the columns of each result)."""
import csv
import io
import json
import math
import os
import pathlib
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from test_cli import command

ROOT = pathlib.Path(__file__).resolve().parents[2]


def run(*args, stdin=None, check=True):
    result = subprocess.run([command(), *map(str, args)], input=stdin, capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


HOURLY_ROW = {"provider": "test", "region": "r1", "instance_type": "hourly", "gpu": "A100-40GB",
              "gpus_per_instance": 1, "on_demand_hourly": 4.0, "spot_hourly": 1.5, "billing_increment_seconds": 3600,
              "source": {"name": "test", "as_of": "2025-01"}}


def spot_scenario(**job):
    return {"version": 1, "name": "spot", "horizon_months": 1, "seed": 3,
            "offering": {"provider": "test", "instance_type": "hourly", "region": "r1"},
            "demand": {"kind": "constant", "gpus": 1},
            "catalog": {"offerings": [HOURLY_ROW]},
            "spot_jobs": [{"name": "job", "work_hours": 10, "checkpoint_write_hours": 0.05, "paths": 4000, **job}]}


def test_issue_24_2_a_scenario_spot_job_is_billed_as_simulate_spot_with_the_offering(gputco, tmp_path):
    s = spot_scenario(checkpoint_interval_hours=1, mtbf_hours=3)
    from_file = gputco.run_spot_jobs(s)
    offering = gputco.Catalog.from_json(json.dumps({"gpus": [], "offerings": [HOURLY_ROW]})).offering("test", "hourly")
    direct = gputco.simulate_spot(10, 3, 1, 0.05, paths=4000, seed=3, offering=offering)
    assert from_file["cost_mean"][0] == direct.cost.mean
    assert from_file["billing_increment_hours"][0] == 1.0
    continuous = gputco.simulate_spot(10, 3, 1, 0.05, paths=4000, seed=3, offering=offering, billing_increment_hours=0)
    assert direct.cost.mean > continuous.cost.mean + 4 * continuous.cost.standard_error
    # and the command says the same
    path = tmp_path / "spot.json"
    path.write_text(json.dumps(s))
    out = json.loads(run("run", path, "--format", "json").stdout)
    assert out["spot_jobs"][0]["cost_mean"] == direct.cost.mean


def test_issue_24_1_an_empty_plan_pays_the_on_demand_gpu_hours_evaluate_pays(gputco, catalog):
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.months(3))
    d = gputco.evaluate_plan(gputco.Plan([]), gputco.DemandFutures.from_profile(demand), p4d)
    r = gputco.evaluate(gputco.OnDemand(), demand, p4d, units="gpus")
    assert r.to_frame()["on_demand_paid_gpu_hours"].iloc[0] == 5840
    assert d.to_frame_months()["on_demand_paid_gpu_hours"].iloc[0] == 5840 if hasattr(d, "to_frame_months") else True
    assert d.mean_months[0].on_demand_paid_gpu_hours == 5840


def test_issue_24_4_an_nvl72_rack_loads_in_a_scenario_as_in_catalog_json(gputco):
    row = dict(HOURLY_ROW, gpus_per_instance=72, on_demand_hourly=288.0, spot_hourly=108.0)
    assert gputco.Catalog.from_json(json.dumps({"gpus": [], "offerings": [row]})).offerings[0].gpus_per_instance == 72
    s = spot_scenario(mtbf_hours=3)
    s["catalog"]["offerings"] = [row]
    assert len(gputco.run_spot_jobs(s)) == 1
    row["gpus_per_instance"] = 1025
    with pytest.raises(ValueError, match=r"gpus_per_instance = 1025: must be in \[1, 1024\]$"):
        gputco.Catalog.from_json(json.dumps({"gpus": [], "offerings": [row]}))
    with pytest.raises(ValueError, match=r"catalog.offerings\[0\].gpus_per_instance = 1025: must be in \[1, 1024\]$"):
        gputco.run_spot_jobs(s)


def test_issue_24_5_a_weibull_job_without_an_interval_gives_the_same_run_everywhere(gputco):
    s = spot_scenario(interruptions={"weibull": {"shape": 0.7, "scale_hours": 5}}, price_per_gpu_hour=1.5)
    from_file = gputco.run_spot_jobs(s)
    offering = gputco.Catalog.from_json(json.dumps({"gpus": [], "offerings": [HOURLY_ROW]})).offering("test", "hourly")
    direct = gputco.simulate_spot(10, checkpoint_write_hours=0.05, paths=4000, seed=3, model=gputco.Weibull(0.7, 5),
                                  offering=offering, price_per_hour=1.5)
    tau = gputco.checkpoint_interval_or_default(0, 0.05, gputco.Weibull(0.7, 5))
    assert tau == pytest.approx(gputco.optimal_checkpoint_interval(0.05, 5 * math.gamma(1 + 1 / 0.7)), rel=1e-14)
    assert from_file["checkpoint_interval_hours"][0] == tau
    assert from_file["cost_mean"][0] == direct.cost.mean


def test_issue_24_6_catalog_matches_as_query_does_and_ranks_in_one_currency(gputco, catalog):
    # T4: offered in USD and in CNY (alibaba gn6i, tencent GN7, the seeds' list prices).
    out = json.loads(run("catalog", "--gpu", "T4", "--rates-date", "2025-06-01", "--format", "json").stdout)
    expected = catalog.query(gpu="T4", sort_currency="USD", date="2025-06-01")
    assert len(out) == len(expected) >= 8
    assert [r["instance_type"] for r in out] == list(expected["instance_type"])
    ranked = [r["ranked_per_gpu_hour"] for r in out]
    assert ranked == sorted(ranked) and {r["ranked_currency"] for r in out} == {"USD"}
    cny = [r for r in out if r["currency"] == "CNY"]
    assert cny and all("CNY" in r["conversion"] for r in cny)  # the rate used, with its source and date
    lower = json.loads(run("catalog", "--gpu", "t4", "--rates-date", "2025-06-01", "--format", "json").stdout)
    assert lower == out
    table = run("catalog", "--gpu", "T4", "--rates-date", "2025-06-01").stdout
    assert table.startswith("Ranked in USD at the rates in force on 2025-06-01\n")


def test_issue_24_7_mix_rounding_has_one_default_and_the_report_says_it(gputco, catalog, tmp_path):
    nd96 = catalog.offering("azure", "Standard_ND96asr_v4", "eastus")
    mix = gputco.Mix([(0.7, gputco.Reserved(term_years=3, payment="all_upfront", reservation_discount=0.52)), (0.3, gputco.OnDemand())])
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.months(36))
    notebook = gputco.evaluate(mix, demand, nd96, units="gpus")
    s = {"version": 1, "name": "t", "horizon_months": 36, "units": "gpus",
         "offering": {"provider": "azure", "instance_type": "Standard_ND96asr_v4", "region": "eastus"},
         "demand": {"kind": "constant", "gpus": 8},
         "strategies": [{"name": "70/30", "mix": {"tranches": [
             {"fraction": 0.7, "reserved": {"term_years": 3, "payment": "all_upfront", "discount": 0.52}},
             {"fraction": 0.3, "on_demand": {}}]}}]}
    from_file = gputco.run_scenario(s)
    assert from_file["savings_fraction"][0] == notebook.savings_fraction == pytest.approx(0.39, abs=5e-4)
    assert "mix shares of the fleet rounded: nearest (to whole GPUs, or whole instances)" in notebook.assumptions
    fractional = gputco.Mix(list(mix.tranches), rounding="none")
    assert gputco.evaluate(fractional, demand, nd96, units="gpus").savings_fraction == pytest.approx(0.364, abs=5e-4)
    path = tmp_path / "mix.yaml"
    path.write_text(json.dumps(s))
    assert "Bought in: gpus; mix shares rounded: nearest (70/30)\n" in run("run", path).stdout


# --- The columns of each result: the command's CSV and JSON, Python's frame, the same numbers -----

def random_scenario(seed):
    rng = np.random.default_rng(seed)
    gpus = int(rng.integers(1, 17))
    first = float(rng.choice([0.3, 0.5, 0.7]))
    return {
        "version": 1, "name": f"random {seed} \"quoted\"", "horizon_months": int(rng.integers(6, 25)),
        "seed": int(rng.integers(0, 1000)),
        "offering": {"provider": "aws", "instance_type": "p4d.24xlarge", "region": "us-east-1"},
        "demand": {"kind": "constant", "gpus": gpus},
        "spot_jobs": [{"name": "job", "work_hours": float(rng.uniform(5, 50)), "mtbf_hours": float(rng.uniform(2, 30)),
                       "checkpoint_write_hours": 0.05, "paths": 2048}],
        "strategies": [{"name": "od", "on_demand": {}},
                       {"name": "mix", "mix": {"tranches": [
                           {"fraction": first, "reserved": {"term_years": 1, "payment": "all_upfront"}},
                           {"fraction": round(1 - first, 10), "on_demand": {}}]}}],
        "plans": [{"name": "on demand", "commitments": []},
                  {"name": "1y", "commitments": [{"count": gpus, "term_years": 1, "payment": "all_upfront"}]}],
    }


def same(cli_value, frame_value):
    if cli_value is None or cli_value == "":
        return frame_value is None or frame_value != frame_value
    if isinstance(frame_value, str):
        return cli_value == frame_value
    return float(cli_value) == float(frame_value)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_command_and_python_give_the_same_columns_and_numbers(gputco, tmp_path, seed):
    s = random_scenario(seed)
    path = tmp_path / "s.json"
    path.write_text(json.dumps(s))
    out = json.loads(run("run", path, "--format", "json").stdout)  # valid JSON, though the name has a quote
    assert out["scenario"] == s["name"]
    frames = {"strategies": gputco.run_scenario(s), "spot_jobs": gputco.run_spot_jobs(s), "plans": gputco.run_plans(s)}
    for key, df in frames.items():
        rows = out[key]
        assert len(rows) == len(df) >= 1
        for row, (_, want) in zip(rows, df.iterrows()):
            if key == "strategies":  # the scenario's outputs pick among the strategy columns
                assert list(row) == [c for c in df.columns if c in row]
            else:
                assert list(row) == list(df.columns), key
            for column, value in row.items():
                assert same(value, want[column]), (key, column, value, want[column])
    # CSV: the first table (strategies), every digit
    table = list(csv.DictReader(io.StringIO(run("run", path, "--format", "csv").stdout)))
    for row, (_, want) in zip(table, frames["strategies"].iterrows()):
        for column, value in row.items():
            assert same(value, want[column]), (column, value, want[column])
    # A sweep point: the library's sweep point columns for every strategy and plan, the command's numbers
    sweep = gputco.sweep(s, {"demand.gpus": [s["demand"]["gpus"]]}, outputs=gputco.SWEEP_OUTPUTS)
    declared = [name for name, _unit, _dtype in gputco._core._columns("sweep_points")]
    assert declared[0] == "name" and list(gputco.SWEEP_OUTPUTS) == declared[1:]
    rows = [r["strategy"] for r in out["strategies"]] + [f"plan {p['plan']}" for p in out["plans"]]
    assert list(sweep.columns) == ["demand.gpus", *(f"{o}[{r}]" for r in rows for o in declared[1:])]
    point = sweep.iloc[0]
    for row in out["strategies"]:
        for column in row.keys() - {"strategy", "currency"}:
            assert same(row[column], point[f"{column}[{row['strategy']}]"]), (row["strategy"], column)
    for plan in out["plans"]:
        for output, column in [("total", "total_mean"), ("npv", "npv_mean"), ("standard_error", "total_standard_error"),
                               *((stat, f"total_{stat}") for stat in ("p5", "p50", "p95", "cvar95"))]:
            assert same(plan[column], point[f"{output}[plan {plan['plan']}]"]), (plan["plan"], output)
        assert math.isnan(point[f"savings[plan {plan['plan']}]"])  # a strategy's figure, none for a plan
    for r in gputco._core._run_sweep_point(json.dumps(s), str(path)):  # the C++ rows, as rendered
        for output in declared[1:]:
            assert same(r[output], point[f"{output}[{r['name']}]"]), (r["name"], output)


def test_statistics_are_named_one_way(gputco):
    assert "cost_standard_error" in gputco.run_spot_jobs.__globals__["SPOT_JOBS_VIEW"].names
    for view in ("SPOT_JOBS_VIEW", "PLANS_VIEW", "DEADLINE_JOBS_VIEW"):
        names = gputco.run_spot_jobs.__globals__[view].names
        assert not [n for n in names if "std_error" in n or n.endswith("_stderr")], view


# --- The command as users expect ----------------------------------------------------------------

def test_version_and_python_m_gputco():
    version = run("--version").stdout.strip()
    assert version.startswith("gputco ") and version.split()[1][0].isdigit()
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "gputco", "--help"], capture_output=True, text=True, env=env,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert "run" in out.stdout and "catalog" in out.stdout
    out = subprocess.run([sys.executable, "-m", "gputco", "--version"], capture_output=True, text=True, env=env)
    assert out.stdout.strip() == version


def test_run_takes_several_files_and_standard_input():
    files = sorted((ROOT / "examples" / "scenarios").glob("a100*.yaml"))[:1] + \
        sorted((ROOT / "examples" / "scenarios").glob("spot_training*.yaml"))
    out = json.loads(run("run", *files, "--format", "json").stdout)
    assert [d["file"] for d in out] == [str(f) for f in files]
    one = json.loads(run("run", "-", "--format", "json", stdin=files[0].read_text()).stdout)
    assert one["strategies"] == out[0]["strategies"]


def test_a_failed_write_to_stdout_is_an_error():
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        result = subprocess.run([command(), "catalog", "--gpu", "A100"], stdout=full, stderr=subprocess.PIPE, text=True)
    assert result.returncode == 1
    assert "cannot write to standard output" in result.stderr


def test_validate_reports_every_error_in_file_order(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("version: 1\nname: t\nhorizon_months: 0\n"
                    "offering: {provider: aws, instance_type: p4d.24xlarge}\n"
                    "demand: {kind: sideways}\nstrategies: [{name: od, on_demand: {}}]\n")
    result = run("validate", path, check=False)
    assert result.returncode == 2
    lines = result.stderr.strip().split("\n")
    assert len(lines) == 2
    assert lines[0].startswith(f"{path}:3:") and "horizon_months = 0: must be in [1, 600]" in lines[0]
    assert lines[1].startswith(f"{path}:5:") and "demand.kind" in lines[1]


def test_validate_reports_every_error_inside_a_key_too(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("version: 1\nname: t\nhorizon_months: 0\n"
                    "offering: {provider: aws, instance_type: p4d.24xlarge}\n"
                    "demand: {kind: constant, gpus: -2, scale: -1, typo: 3}\n"
                    "spot_jobs:\n"
                    "  - {name: a, work_hours: -5, mtbf_hours: 0, checkpoint_write_hours: 0.1}\n"
                    "  - {name: b, work_hours: 10, mtbf_hours: 5, checkpoint_write_hours: 0.1, paths: 0}\n"
                    "outputs: [total, p96]\n")
    result = run("validate", path, check=False)
    assert result.returncode == 2
    assert result.stderr.strip().split("\n") == [
        f"{path}:3:17: horizon_months = 0: must be in [1, 600]",
        f"{path}:5:32: demand.gpus = -2: must be >= 0",
        f"{path}:5:43: demand.scale = -1: must be >= 0",
        f"{path}:5:47: demand.typo = 3: unknown key (allowed: kind, gpus, start_gpus, end_gpus, annual_growth_rate, "
        "steps, daily_pattern, weekly_pattern, scale)",
        f"{path}:7:27: spot_jobs[0].work_hours = -5: must be in [1e-09, 1e+09] hours",
        f"{path}:7:43: spot_jobs[0].mtbf_hours = 0: must be in [1e-09, 1e+30] hours",
        f"{path}:8:82: spot_jobs[1].paths = 0: must be in [1, 10000000]",
        f'{path}:9:18: outputs[1] = "p96": must be one of total, npv, savings, savings_fraction, baseline_total, '
        'cost_per_used_gpu_hour, break_even_utilisation, p95; did you mean "p95"?',
    ]
    # Python's loader raises the same lines
    import gputco

    with pytest.raises(ValueError) as e:
        gputco.load_scenario(path)
    assert str(e.value) == result.stderr.strip()


def test_spot_runs_with_the_flags_its_help_marks_required():
    help_text = run("spot", "--help").stdout
    required = [line.split()[0] for line in help_text.splitlines() if "REQUIRED" in line]
    assert sorted(required) == ["--mtbf-hours", "--price", "--work-hours"]
    assert "--paths UINT=20000" in help_text and "FLOAT=0 REQUIRED" not in help_text  # defaults shown
    out = json.loads(run("spot", "--work-hours", "10", "--mtbf-hours", "5", "--price", "2", "--paths", "1024",
                         "--checkpoint-write-hours", "0.1", "--format", "json").stdout)
    assert out[0]["paths"] == 1024 and out[0]["cost_mean"] > 20


# --- Python as users expect ----------------------------------------------------------------------

def test_plots_is_an_attribute_after_import_gputco():
    code = "import gputco; print(gputco.plots.__name__)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "gputco.plots"


def test_main_results_render_as_html(gputco, catalog):
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.months(3))
    report = gputco.evaluate(gputco.OnDemand(), demand, p4d)
    assert "<table" in report._repr_html_() and f"{report.total:,.2f}" in report._repr_html_()
    spot = gputco.simulate_spot(10, 5, 1, paths=1024)
    assert "<table" in spot._repr_html_()
    d = gputco.evaluate_plan(gputco.Plan([]), gputco.DemandFutures.from_profile(demand), p4d)
    assert "<table" in d._repr_html_()


def test_str_of_a_named_plan_says_what_it_buys(gputco):
    plan = gputco.Plan([gputco.Commitment(8, term_years=3, payment="all_upfront")], name="base")
    assert str(plan) == "base: 3y all_upfront × 8 GPUs @0 + on-demand"
    assert str(gputco.Plan([])) == "on-demand"


def test_recommend_baselines_honour_the_commitment_options(gputco, catalog):
    # p5.48xlarge lists no reservation price: the commitment's discount is the only price of a term
    p5 = catalog.offering("aws", "p5.48xlarge", "us-east-1")
    assert not p5.reserved
    model = gputco.DemandModel(8, monthly_log_volatility=0.05)
    fitted = gputco.DemandFutures.generate(model, gputco.Horizon.years(1), 50, 1)
    history = gputco.DemandProfile.constant(8, gputco.Horizon.months(2))
    option = gputco.CommitmentOption(1, "all_upfront", reservation_discount=0.40)
    r = gputco.recommend(fitted, p5, history=history, commitments=[option])
    plan = gputco.recommend_plan(fitted, p5, commitments=[option]).plan
    assert str(r.plan) == str(plan)
    assert "all on demand" in list(r.baselines.index)
    assert any(name.startswith("newsvendor") for name in r.baselines.index)
    # the baselines' reservations cost what the plan's do: 40% off on-demand
    priced = gputco.offering_for_baselines(p5, option)
    reserved = priced.reserved_price(1, "all_upfront")
    assert reserved.upfront == pytest.approx(0.6 * p5.on_demand_hourly * 8760)


def test_infeasible_frontier_points_are_nan_with_a_reason(gputco, catalog):
    p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    model = gputco.DemandModel(8, monthly_log_volatility=0.05)
    fitted = gputco.DemandFutures.generate(model, gputco.Horizon.months(12), 30, 1)
    r = gputco.recommend(fitted, p4d, cvar95_limits=[1.0, 1e9])
    infeasible = r.frontier[~r.frontier["feasible"]]
    assert len(infeasible) == 1
    assert infeasible[["mean", "cvar95", "p95"]].isna().all(axis=None)
    assert infeasible["reason"].iloc[0].startswith("limits.cvar95 = 1: no plan meets it")
    assert r.frontier[r.frontier["feasible"]]["reason"].iloc[0] == ""


def test_a_sweep_varies_a_mix_split_with_the_other_share_following(gputco):
    s = gputco.load_scenario(ROOT / "examples" / "scenarios" / "a100_three_year.yaml")
    df = gputco.sweep(s, {"strategies[2].mix.tranches[0].fraction": [0.5, 0.7, 0.9]})
    on_demand = df["total[on-demand]"].to_numpy()
    savings = 1 - df["total[70% reserved + 30% on-demand]"].to_numpy() / on_demand
    assert savings == pytest.approx([0.5 * 0.52, 0.7 * 0.52, 0.9 * 0.52], abs=1e-9)


def test_the_savings_plot_says_which_view_it_uses(gputco, catalog):
    matplotlib = pytest.importorskip("matplotlib")

    matplotlib.use("Agg")
    nd96 = catalog.offering("azure", "Standard_ND96asr_v4", "eastus")
    reserved = gputco.Reserved(term_years=3, payment="all_upfront", reservation_discount=0.52)
    ax = gputco.plots.plot_savings_vs_utilisation(reserved, nd96, utilisations=[0.3, 1.0], gpus=8, units="gpus")
    assert ax.get_title().endswith("bought in single GPUs")
    ax = gputco.plots.plot_savings_vs_utilisation(reserved, nd96, utilisations=[0.3, 1.0], gpus=8)
    assert ax.get_title().endswith("bought in whole instances of 8 GPUs")


def test_an_error_inside_a_sweep_names_the_file_and_the_point(gputco):
    path = ROOT / "examples" / "scenarios" / "a100_three_year.yaml"
    with pytest.raises(ValueError) as e:
        gputco.sweep(path, {"strategies[1].reserved.reservation_discount": [0.5, 1.5]})
    assert str(e.value) == (f"{path}, sweep point strategies[1].reserved.reservation_discount = 1.5: "
                            "strategies[1].reserved.reservation_discount = 1.5: must be in [0, 1)")


def test_a_sweep_reports_progress_through_tqdm_when_it_is_installed(gputco, monkeypatch):
    import types

    calls = []

    class Bar:
        def __init__(self, total, desc, unit, disable):
            calls.append(("new", total, desc, unit, disable))

        def update(self, n=1):
            calls.append(("update", n))

        def close(self):
            calls.append(("close",))

    fake = types.ModuleType("tqdm.auto")
    fake.tqdm = Bar
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", fake)
    s = gputco.load_scenario(ROOT / "examples" / "scenarios" / "a100_three_year.yaml")
    gputco.sweep(s, {"strategies[2].mix.tranches[0].fraction": [0.5, 0.6, 0.7, 0.8]}, chunk_size=1)
    assert calls[0] == ("new", 4, "sweep", "points", None)  # None: tqdm shows it on a terminal or in Jupyter only
    assert sum(c[1] for c in calls if c[0] == "update") == 4
    assert calls[-1] == ("close",)


class FakeBar:
    """tqdm.auto.tqdm as the long calls use it, recording its calls (a bar that always shows)."""
    calls: list = []

    def __init__(self, total, desc, unit, disable):
        FakeBar.calls.append(("new", total, desc, unit, disable))

    def update(self, n=1):
        FakeBar.calls.append(("update", n))

    def close(self):
        FakeBar.calls.append(("close",))


def with_fake_tqdm(monkeypatch, on: bool):
    """tqdm.auto as FakeBar (on) or not importable (off: the calls run without a bar)."""
    import types

    FakeBar.calls = []
    fake = types.ModuleType("tqdm.auto")
    fake.tqdm = FakeBar
    monkeypatch.setitem(sys.modules, "tqdm", types.ModuleType("tqdm"))
    monkeypatch.setitem(sys.modules, "tqdm.auto", fake if on else None)


def bars(calls):
    """Each bar's (total, desc, unit, disable, units updated, closed)."""
    out = []
    for call in calls:
        if call[0] == "new":
            out.append([*call[1:], 0, False])
        elif call[0] == "update":
            out[-1][4] += call[1]
        else:
            out[-1][5] = True
    return [tuple(b) for b in out]


def test_rank_offerings_shows_progress_over_the_offerings_and_gives_the_same_ranking(gputco, catalog, monkeypatch):
    workload = gputco.Workload(model="resnet50", work_per_epoch=1_281_167, epochs=2, name="ResNet-50")
    with_fake_tqdm(monkeypatch, on=True)
    shown = gputco.rank_offerings(workload, paths=2000, seed=3)
    # Each instance type in its cheapest regions among today's prices (the catalog lists every region; prices
    # older than the limit or undated are left out first); the owned machines: one step.
    today = shown.attrs["prices_as_of"]
    fresh = [r.offering for r in gputco._core.rank_by_gpu_hour_price(catalog.offerings, "USD", gputco.ExchangeRates.builtin(),
                                                                      today) if not r.stale]
    steps = len(gputco._core.cheapest_region_per_instance(fresh)) + 1
    assert bars(FakeBar.calls) == [(steps, "rank_offerings", "offerings", None, steps, True)]
    with_fake_tqdm(monkeypatch, on=False)
    pd.testing.assert_frame_equal(shown, gputco.rank_offerings(workload, paths=2000, seed=3), check_exact=True)
    assert FakeBar.calls == []
    # cheapest_within goes through the same call, with the same bar
    with_fake_tqdm(monkeypatch, on=True)
    gputco.cheapest_within(workload, 100.0, paths=2000, seed=3, spot=False)
    assert bars(FakeBar.calls)[0][1:3] == ("rank_offerings", "offerings")


def test_recommend_shows_progress_over_the_futures_and_gives_the_same_study(gputco, catalog, monkeypatch):
    offering = catalog.offering("aws", "p4d.24xlarge", "us-east-1")
    fitted = gputco.DemandFutures.generate(gputco.DemandModel(16, monthly_log_volatility=0.1), gputco.Horizon.years(1),
                                          40, 1)
    held_out = gputco.DemandFutures.generate(gputco.DemandModel(16, monthly_log_volatility=0.1),
                                            gputco.Horizon.years(1), 60, 2)
    history = gputco.DemandProfile.constant(16, gputco.Horizon.months(2))
    with_fake_tqdm(monkeypatch, on=True)
    shown = gputco.recommend(fitted, offering, held_out=held_out, history=history)
    drawn = bars(FakeBar.calls)
    assert drawn and all(b[1:4] == ("recommend", "futures", None) and b[4] == b[0] and b[5] for b in drawn)
    assert 60 in [b[0] for b in drawn]  # the judgement on the held-out futures has its bar
    with_fake_tqdm(monkeypatch, on=False)
    quiet = gputco.recommend(fitted, offering, held_out=held_out, history=history)
    assert FakeBar.calls == []
    for table in ("summary", "baselines", "frontier", "distribution"):
        timed = [c for c in getattr(shown, table).columns if c.endswith("_seconds")]  # the solver's clock
        pd.testing.assert_frame_equal(getattr(shown, table).drop(columns=timed), getattr(quiet, table).drop(columns=timed),
                                      check_exact=True)


def test_long_calls_are_silent_when_not_on_a_terminal(gputco, catalog, capfd):
    pytest.importorskip("tqdm")  # the real tqdm: disable=None draws nothing where stderr is not a terminal
    workload = gputco.Workload(model="resnet50", work_per_epoch=1_281_167, epochs=2, name="ResNet-50")
    gputco.rank_offerings(workload, paths=2000, seed=3)
    fitted = gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_volatility=0.1), gputco.Horizon.years(1),
                                          20, 1)
    gputco.recommend(fitted, catalog.offering("aws", "p4d.24xlarge", "us-east-1"), held_out=fitted)
    s = gputco.load_scenario(ROOT / "examples" / "scenarios" / "a100_three_year.yaml")
    gputco.sweep(s, {"strategies[2].mix.tranches[0].fraction": [0.5, 0.7]})
    captured = capfd.readouterr()
    assert captured.err == "" and captured.out == ""


def test_ctrl_c_during_the_first_bars_import_leaves_no_half_imported_package(gputco, monkeypatch, tmp_path):
    # A stand-in for tqdm.auto imports a package that meets Ctrl-C halfway through its __init__, after one
    # submodule (as a Ctrl-C landing inside tqdm.auto's `import asyncio` does). Without the clean-up the
    # finished submodule stays in sys.modules without its package, and the package's next import fails
    # (first.NAMES: a NameError, as asyncio's was).
    from gputco import _progress

    (tmp_path / "tqdm").mkdir()
    (tmp_path / "tqdm" / "__init__.py").write_text("")
    (tmp_path / "tqdm" / "auto.py").write_text("import half_loaded\n")
    (tmp_path / "half_loaded").mkdir()
    (tmp_path / "half_loaded" / "__init__.py").write_text("from .first import *\nfrom .second import *\n"
                                                          "ALL = first.NAMES + second.NAMES\n")
    (tmp_path / "half_loaded" / "first.py").write_text("NAMES = ['a']\n")
    (tmp_path / "half_loaded" / "second.py").write_text(
        "import os\nif os.environ.get('HALF_LOADED_STOP'):\n    raise KeyboardInterrupt\nNAMES = ['b']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in [n for n in sys.modules if n.split(".")[0] == "tqdm"]:  # the real one, put back afterwards
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setenv("HALF_LOADED_STOP", "1")
    try:
        with pytest.raises(KeyboardInterrupt):
            _progress.progress(3, "sweep", "points")
        assert not [n for n in sys.modules if n.split(".")[0] in ("half_loaded", "tqdm")]
        monkeypatch.delenv("HALF_LOADED_STOP")
        import half_loaded  # whole again

        assert half_loaded.ALL == ["a", "b"]
    finally:
        for name in [n for n in sys.modules if n.split(".")[0] in ("half_loaded", "tqdm")]:
            del sys.modules[name]
