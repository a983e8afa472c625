"""The gputco command, run as a user runs it: every example scenario through `gputco run`, its JSON
checked against the library's numbers; `compare` on two hand-made scenarios; exit codes."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))


def command() -> str:
    """The build tree's command under ctest; otherwise the one pip installed beside this Python."""
    build = os.environ.get("GPUTCO_BUILD_DIR")
    candidates = [pathlib.Path(build) / "src" / "cli" / "gputco"] if build else []
    candidates.append(pathlib.Path(sys.executable).parent / "gputco")
    for c in candidates:
        if c.is_file():
            return str(c)
    found = shutil.which("gputco")
    assert found, "the gputco command is neither built nor installed"
    return found


def gputco_cmd(*args, check=True):
    result = subprocess.run([command(), *map(str, args)], capture_output=True, text=True, timeout=300)
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_run_json_matches_the_library(gputco, path):
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)
    expected = gputco.run_scenario(path)
    assert [r["strategy"] for r in out["strategies"]] == list(expected["strategy"])
    for row, (_, want) in zip(out["strategies"], expected.iterrows()):
        for key, value in row.items():
            if key in ("strategy", "currency"):
                assert value == want[key]
            elif value is None:  # no break-even for all on-demand: null in JSON, NaN in the DataFrame
                assert want[key] != want[key]
            else:  # the same number, every digit
                assert value == want[key]


@pytest.mark.parametrize("fmt", ["table", "csv", "markdown"])
def test_every_format_runs_every_example(fmt):
    for path in EXAMPLES:
        out = gputco_cmd("run", path, "--format", fmt).stdout
        report = json.loads(gputco_cmd("run", path, "--format", "json").stdout)
        # each format (CSV: strategies, else plans, else spot jobs, else deadline jobs, else services,
        # else workloads, else LLM training runs, else LLM services) names every row
        rows = (report["strategies"] or report["plans"] or report["spot_jobs"] or report["deadline_jobs"]
                or report.get("services") or report["workloads"] or report.get("llm_training")
                or report.get("llm_serving"))
        assert rows and all(next(iter(r.values())) in out for r in rows)


def test_a100_scenario_prints_the_example_programs_figures():
    # examples/a100_three_year_savings: 52.0% saved by the 3-year reservation, break-even at 48.0%
    # utilisation, 36.4% (= 70% × 52%) by the 70/30 mix.
    rows = {r["strategy"]: r for r in
            json.loads(gputco_cmd("run", ROOT / "examples/scenarios/a100_three_year.yaml", "--format", "json")
                       .stdout)["strategies"]}
    assert rows["reserved 3y (52% off)"]["savings_fraction"] == pytest.approx(0.52, abs=1e-12)
    assert rows["reserved 3y (52% off)"]["break_even_utilisation"] == pytest.approx(0.48, abs=1e-12)
    assert rows["70% reserved + 30% on-demand"]["savings_fraction"] == pytest.approx(0.364, abs=1e-12)


def hand_made(tmp_path, name, gpus, discount):
    path = tmp_path / name
    path.write_text(f"""version: 1
name: {name}
horizon_months: 12
units: gpus
offering: {{provider: azure, instance_type: Standard_ND96asr_v4, region: eastus}}
demand: {{kind: constant, gpus: {gpus}}}
strategies:
  - name: on-demand
    on_demand: {{}}
  - name: reserved
    reserved: {{term_years: 1, payment: no_upfront, discount: {discount}}}
""")
    return path


def test_compare_two_hand_made_scenarios(tmp_path, catalog):
    before = hand_made(tmp_path, "before.yaml", 4, 0.3)
    after = hand_made(tmp_path, "after.yaml", 6, 0.4)
    rows = {r["strategy"]: r for r in json.loads(gputco_cmd("compare", before, after, "--format", "json").stdout)}
    p = catalog.offering("azure", "Standard_ND96asr_v4", "eastus").on_demand_per_gpu_hour()
    hours = 12 * 730
    # on demand: 4 → 6 GPUs for 8,760 h at p per GPU-hour
    assert rows["on-demand"]["total_change"] == pytest.approx(2 * hours * p, abs=1e-6)
    # reserved, no upfront, 1 year: 4 × 0.7 p → 6 × 0.6 p per hour
    assert rows["reserved"]["total_change"] == pytest.approx((6 * 0.6 - 4 * 0.7) * hours * p, abs=1e-6)
    assert rows["reserved"]["npv_change"] == rows["reserved"]["total_change"]  # rate 0: NPV = total
    assert rows["reserved"]["p95_change"] == rows["reserved"]["total_change"]  # no spot: no spread


def test_validate_and_exit_codes(tmp_path):
    assert gputco_cmd("validate", *EXAMPLES).stdout.count(": ok") == len(EXAMPLES)
    bad = tmp_path / "bad.yaml"
    bad.write_text(hand_made(tmp_path, "x.yaml", 4, 0.3).read_text().replace("term_years: 1", "term_years: 2"))
    result = gputco_cmd("validate", bad, check=False)
    # line 11 is '    reserved: {term_years: 2, ...': the value is at column 4 + 10 + 1 + 12 + 1 = 28
    assert result.returncode == 2
    assert result.stderr.strip() == f"{bad}:11:28: strategies[1].reserved.term_years = 2: must be 1 or 3"
    assert gputco_cmd("run", tmp_path / "missing.yaml", check=False).returncode == 2
    assert gputco_cmd("run", check=False).returncode == 2  # a usage error
    assert gputco_cmd("--help").returncode == 0


def test_catalog_filters_and_sorts_by_price_per_gpu_hour(catalog):
    rows = json.loads(gputco_cmd("catalog", "--gpu", "A100-40GB", "--format", "json").stdout)
    assert rows and all(r["gpu"] == "A100-40GB" for r in rows)
    prices = [r["ranked_per_gpu_hour"] for r in rows]  # in one currency (USD)
    assert prices == sorted(prices)
    every = json.loads(gputco_cmd("catalog", "--gpu", "A100-40GB", "--every-region", "--format", "json").stdout)
    assert len(every) == len(catalog.find(gpu="A100-40GB"))
    # By default each instance type in its cheapest regions only (the catalog lists every region).
    from gputco import _core
    kept = _core.cheapest_region_per_instance(_core.query_offerings(catalog, gpu="A100-40GB"))
    assert sorted((r["provider"], r["region"], r["instance_type"]) for r in rows) == sorted(
        (o.provider, o.region, o.instance_type) for o in kept)
    assert len(rows) < len(every)
    one = json.loads(gputco_cmd("catalog", "--gpu", "A100-40GB", "--region", "westeurope", "--format", "json").stdout)
    assert one and {r["region"] for r in one} == {"westeurope"}


def test_spot_from_flags_matches_the_library(gputco):
    out = json.loads(gputco_cmd("spot", "--work-hours", 100, "--mtbf-hours", 20, "--price", 1.5,
                                "--checkpoint-write-hours", 0.1, "--paths", 4000, "--seed", 3,
                                "--format", "json").stdout)[0]
    tau = gputco.optimal_checkpoint_interval(0.1, 20)
    r = gputco.simulate_spot(work_hours=100, mtbf_hours=20, checkpoint_write_hours=0.1,
                             checkpoint_interval_hours=tau, price_per_hour=1.5, paths=4000, seed=3)
    assert out["cost_mean"] == pytest.approx(r.cost.mean, abs=0.005)
    assert out["checkpoint_interval_hours"] == pytest.approx(tau, abs=0.5e-4)


def test_ctrl_c_stops_a_long_simulation_cleanly():
    import signal
    import time

    p = subprocess.Popen([command(), "spot", "--work-hours", "1000000", "--mtbf-hours", "5", "--price", "1",
                          "--checkpoint-write-hours", "0.1", "--paths", "1000000"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # the run takes tens of seconds; stop it in the middle
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130, (out, err)
    assert err.strip() == "gputco: stopped" and out == ""


def test_compare_fail_above_exits_3_naming_each_figure_beyond_its_limit(tmp_path):
    before = hand_made(tmp_path, "before.yaml", 4, 0.3)
    after = hand_made(tmp_path, "after.yaml", 6, 0.3)  # 4 → 6 GPUs: every figure of both strategies +50%
    rows = {r["strategy"]: r for r in json.loads(gputco_cmd("compare", before, after, "--format", "json").stdout)}
    od = rows["on-demand"]
    # within the limits: 60% and an amount above the largest change
    assert gputco_cmd("compare", before, after, "--fail-above", "60%").returncode == 0
    assert gputco_cmd("compare", before, after, "--fail-above", od["total_change"] + 1).returncode == 0
    # beyond: 40% of each figure; only the P95 limit given, so only P95 is named (both strategies)
    result = gputco_cmd("compare", before, after, "--fail-above", "p95:40%", check=False)
    assert result.returncode == 3
    lines = result.stderr.strip().splitlines()
    assert lines == [f"gputco: {s}: p95 moved by +{rows[s]['p95_change']:.2f} (+50.00%), beyond the limit 40%"
                     for s in ("on-demand", "reserved")]
    # an amount: the on-demand total moved by more than 1000, the table is still printed
    result = gputco_cmd("compare", before, after, "--fail-above", "total:1000", check=False)
    assert result.returncode == 3 and "on-demand" in result.stdout
    assert result.stderr.count("total moved by") == 2 and "npv" not in result.stderr
    # the same file on both sides moves nothing, even at a zero limit
    assert gputco_cmd("compare", before, before, "--fail-above", "0", "--fail-above", "0%").returncode == 0


@pytest.mark.parametrize("limit", ["abc", "x:5", "-1", "5%%", "total:", "nan"])
def test_compare_fail_above_rejects_a_malformed_limit(tmp_path, limit):
    before = hand_made(tmp_path, "before.yaml", 4, 0.3)
    result = gputco_cmd("compare", before, before, "--fail-above", limit, check=False)
    assert result.returncode == 2
    assert result.stderr.strip() == (f'gputco: --fail-above = "{limit}": must be an amount (500) or a percentage '
                                     "(2.5%), >= 0, optionally after total:, npv: or p95:")


def test_run_prints_the_plans_of_the_plan_example_as_the_library_computes_them(gputco):
    path = ROOT / "examples/scenarios/plans_under_uncertain_demand.yaml"
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)
    assert out["strategies"] == [] and out["spot_jobs"] == []
    expected = gputco.run_plans(path)
    assert [r["plan"] for r in out["plans"]] == ["on-demand", "3y on the base fleet", "ladder"]
    for row, (_, want) in zip(out["plans"], expected.iterrows()):
        assert row["futures"] == want["futures"] == 2000
        assert list(row) == list(expected.columns)  # one list of columns, declared in the library
        for key in ("total_mean", "npv_mean", "total_p95", "total_cvar95", "regret_mean", "best_fraction"):
            assert row[key] == want[key]  # the same number, every digit
    # the CSV of a scenario with plans only is the plan table
    csv = gputco_cmd("run", path, "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("plan,currency,futures,total_mean") and len(csv) == 4


def test_compare_covers_plans_by_name(tmp_path):
    text = (ROOT / "examples/scenarios/plans_under_uncertain_demand.yaml").read_text()
    before, after = tmp_path / "before.yaml", tmp_path / "after.yaml"
    before.write_text(text)
    after.write_text(text.replace("probability: 0.5", "probability: 0.9"))  # the project is likelier
    rows = {r["strategy"]: r for r in json.loads(gputco_cmd("compare", before, after, "--format", "json").stdout)}
    assert set(rows) == {"plan on-demand", "plan 3y on the base fleet", "plan ladder"}
    assert all(r["total_change"] > 0 for r in rows.values())  # more demand in every plan
    assert gputco_cmd("compare", before, after, "--fail-above", "total:0.1%", check=False).returncode == 3


def test_run_prints_each_interruption_models_spot_job_as_the_library_simulates_it(gputco):
    path = ROOT / "examples/scenarios/spot_interruption_models.yaml"
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)["spot_jobs"]
    expected = gputco.run_spot_jobs(path)
    assert [r["job"] for r in out] == list(expected["job"])
    for row, (_, want) in zip(out, expected.iterrows()):
        assert row["seed"] == want["seed"]
        assert row["cost_mean"] == pytest.approx(want["cost_mean"], abs=0.005)
        assert row["cost_p95"] == pytest.approx(want["cost_p95"], abs=0.005)
        assert row["wall_hours_mean"] == pytest.approx(want["wall_hours_mean"], abs=0.5e-4)


@pytest.mark.parametrize("name", ["spot_training_job.yaml", "plans_under_uncertain_demand.yaml",
                                  "deadline_job.yaml", "resnet50_cost_per_run.yaml"])
def test_no_progress_bar_when_stderr_is_not_a_terminal(name):
    result = gputco_cmd("run", ROOT / "examples/scenarios" / name)
    assert result.stderr == ""  # captured: a pipe, so nothing but errors would go there


def stderr_on_a_terminal(*args):
    """Runs the command with stderr on a pseudo-terminal: (completed process, what the terminal got)."""
    import pty

    main, secondary = pty.openpty()
    try:
        p = subprocess.run([command(), *map(str, args)], stdout=subprocess.PIPE, stderr=secondary, text=True,
                           timeout=300)
        os.close(secondary)
        secondary = None
        err = b""
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal is closed once the command has exited
                break
            if not chunk:
                break
            err += chunk
    finally:
        if secondary is not None:
            os.close(secondary)
        os.close(main)
    return p, err.decode()


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.parametrize("name, last", [
    ("plans_under_uncertain_demand.yaml", "plans  [##############################]  100%  6,000/6,000 futures"),
    ("deadline_job.yaml", "deadline job train-48h  [##############################]  100%  1,000/1,000 traces"),
])
def test_plans_and_deadline_jobs_draw_the_same_bar_on_a_terminal(name, last):
    p, text = stderr_on_a_terminal("run", ROOT / "examples/scenarios" / name)
    assert p.returncode == 0
    # the finished bar, then the line cleared; the report itself is on stdout, without control characters
    assert text.endswith(last + "\x1b[K\r\x1b[K")
    assert "\x1b" not in p.stdout


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
def test_progress_bar_on_a_terminal_ends_at_100_percent_and_clears_its_line():
    p, text = stderr_on_a_terminal("spot", "--work-hours", "2000", "--mtbf-hours", "5", "--price", "1",
                                   "--checkpoint-write-hours", "0.1", "--paths", "200000", "--seed", "1")
    assert p.returncode == 0
    # the last drawing is the finished bar, then the line is cleared; the report itself is on stdout
    assert text.endswith("spot job spot  [##############################]  100%  200,000/200,000 paths\x1b[K\r\x1b[K")
    assert p.stdout.startswith("job ") and "\x1b" not in p.stdout


def test_run_prints_the_deadline_policies_as_the_library_computes_them(gputco):
    path = ROOT / "examples/scenarios/deadline_job.yaml"
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)["deadline_jobs"]
    expected = gputco.run_deadline_jobs(path)
    assert [r["policy"] for r in out] == ["greedy", "uniform_progress", "on_demand_only", "omniscient"]
    assert [r["policy"] for r in out] == list(expected["policy"])
    for row, (_, want) in zip(out, expected.iterrows()):
        assert list(row) == list(expected.columns)  # one list of columns, declared in the library
        for key in ("cost_mean", "cost_standard_error", "cost_p95", "deadline_miss_probability"):
            assert row[key] == want[key]  # the same number, every digit
    assert out[2]["cost_mean"] == pytest.approx(149.94, abs=1e-9)  # on demand: (48 + 1) h × $3.06


def test_run_prints_the_cost_per_run_of_each_workload_as_the_library_ranks_it(gputco):
    path = ROOT / "examples/scenarios/resnet50_cost_per_run.yaml"
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)
    assert out["strategies"] == [] and out["plans"] == []
    rows = out["workloads"]
    expected = gputco.run_workloads(path)
    assert len(rows) == len(expected) == 9  # 3 offerings × on demand, spot, the cheapest reservation
    for row, (_, want) in zip(rows, expected.iterrows()):
        for key in ("workload", "provider", "instance_type", "buying", "currency"):
            assert row[key] == want[key]
        assert list(row) == list(expected.columns)
        for key in ("cost_per_epoch", "cost_per_run", "cost_per_run_p95", "run_hours", "run_hours_p95",
                    "cost_per_million", "probability_within_deadline"):
            assert row[key] == want[key]  # the same number, every digit
    # By hand: 1,281,167 images × 90 epochs / 11,439 images/s (8× A100, mixed) = 10,079.99 s, billed
    # as 10,080 s = 2.8 h (AWS and GCP by the second, Azure by the minute): × $21.96 = $61.49 on p4d (after
    # AWS's June 2025 cut),
    # × $27.197 = $76.15 on ND96asr_v4, × $29.38708 = $82.28 on a2-highgpu-8g.
    on_demand = {r["instance_type"]: r for r in rows if r["buying"] == "on_demand"}
    assert on_demand["p4d.24xlarge"]["cost_per_run"] == pytest.approx(2.8 * 21.96, abs=1e-9)
    assert on_demand["Standard_ND96asr_v4"]["cost_per_run"] == pytest.approx(76.15, abs=0.005)
    assert on_demand["a2-highgpu-8g"]["cost_per_run"] == pytest.approx(82.28, abs=0.005)
    assert on_demand["p4d.24xlarge"]["run_hours"] == pytest.approx(10079.99 / 3600, abs=1e-5)
    # the CSV of a scenario with workloads only is the workload table
    csv = gputco_cmd("run", path, "--format", "csv").stdout.splitlines()
    assert csv[0].startswith("workload,provider,region,instance_type") and len(csv) == 10


def test_bill_and_recommend_from_a_gzipped_bill_give_pythons_answer(gputco, tmp_path):
    """`gputco bill` and `gputco recommend --bill` read a .csv.gz export in C++ and give the same tables
    and the same recommendation, figure for figure, as gputco.read_focus and recommend_from_bill."""
    import gzip
    from test_bills import write_bill
    plain = tmp_path / "generated.csv"
    write_bill(plain, 2 * 730, seed=7)
    packed = tmp_path / "generated.csv.gz"
    packed.write_bytes(gzip.compress(plain.read_bytes()))
    bill = gputco.read_focus(packed)

    shown = json.loads(gputco_cmd("bill", packed, "--format", "json").stdout)
    assert shown["file"] == str(packed) and shown["currency"] == "USD"
    for row in shown["figures"]:
        for column, value in row.items():
            expected = bill.figures.loc[row["scope"], column] if column != "scope" else row["scope"]
            assert value == expected or (value is None and expected != expected), (row["scope"], column)
    assert [s["gpu_hours"] for s in shown["series"]] == list(bill.series["gpu_hours"])

    out = json.loads(gputco_cmd("recommend", "--bill", packed, "--offering", "aws/p4d.24xlarge/us-east-1",
                                "--horizon-months", 12, "--futures", 30, "--held-out", 40, "--seed", 3,
                                "--commitment", "1y:all_upfront", "--review-months", 12, "--format", "json").stdout)
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    plan = gputco.recommend_from_bill(bill, p4d, horizon_months=12, futures=30, held_out=40, seed=3,
                                      commitments=[gputco.CommitmentOption(term_years=1, payment="all_upfront")],
                                      review_months=12)
    summary = plan.result.summary.reset_index().iloc[0]
    for column in ("plan", "held_out_mean", "held_out_p95", "commitment_utilisation", "coverage",
                   "effective_savings_rate", "held_out_prices"):
        assert out["summary"][column] == summary[column], column
    assert [b["plan"] for b in out["baselines"]] == list(plan.result.baselines.index)
    assert [b["mean"] for b in out["baselines"]] == list(plan.result.baselines["mean"])
    assert out["history_months"] == 2
    # P(capacity when needed): on demand missing 5% of the time, at least 99.9% of GPU-hours assured.
    assert out["summary"]["in_sample_capacity_assurance"] == 1.0
    assured = json.loads(gputco_cmd("recommend", "--bill", packed, "--offering", "aws/p4d.24xlarge/us-east-1",
                                    "--horizon-months", 12, "--futures", 30, "--held-out", 40, "--seed", 3,
                                    "--commitment", "1y:all_upfront", "--review-months", 12, "--capacity-assurance",
                                    0.999, "--on-demand-unavailable", 0.05, "--format", "json").stdout)
    assert assured["summary"]["in_sample_capacity_assurance"] >= 0.999
    assert assured["summary"]["in_sample_mean"] >= out["summary"]["in_sample_mean"]
    bad = gputco_cmd("recommend", "--bill", packed, "--offering", "aws/p4d.24xlarge/us-east-1",
                     "--capacity-assurance", 1.5, check=False)
    assert bad.stderr == "gputco: limits.capacity_assurance = 1.5: must be in [0, 1]\n"

    bad = gputco_cmd("recommend", "--bill", packed, "--offering", "aws", check=False)
    assert bad.returncode == 2
    assert bad.stderr == ('gputco: --offering = "aws": must be provider/instance_type or '
                          'provider/instance_type/region, e.g. aws/p4d.24xlarge/us-east-1\n')
    bad = gputco_cmd("recommend", "--bill", packed, "--offering", "aws/p4d.24xlarge", "--commitment", "1:all",
                     check=False)
    assert bad.stderr == ('gputco: --commitment = "1:all": must be <years>y:<payment>, e.g. 1y:all_upfront or '
                          '3y:no_upfront\n')


def test_catalog_shows_kind_and_age_flags_stale_prices_and_warns_when_a_file_disagrees(tmp_path):
    out = json.loads(gputco_cmd("catalog", "--gpu", "H200", "--rates-date", "2026-12-05", "--format", "json").stdout)
    assert {r["kind"] for r in out} >= {"hyperscaler", "neocloud"}
    # hyperstack.cloud's page of 2026-08-26: 101 days old, not stale; Nebius's page read 2026-10-07: 59 days;
    # RunPod's page of 2026-09-08 (one price in every region): 88 days.
    hyperstack = [r for r in out if r["provider"] == "hyperstack" and r["region"] == "global"]
    assert hyperstack and all(r["price_age_days"] == 101 and r["stale"] == "" for r in hyperstack)
    nebius = [r for r in out if r["provider"] == "nebius"]
    assert nebius and all(r["price_age_days"] == 59 and r["stale"] == "" for r in nebius)
    runpod = [r for r in out if r["provider"] == "runpod"]
    # One row per type (its cheapest region): the 1/2/4/8-GPU H200 at 4.59 per GPU-hour.
    assert len(runpod) == 4 and all(r["price_age_days"] == 88 and r["stale"] == "" for r in runpod)
    neo = json.loads(gputco_cmd("catalog", "--provider-kind", "neocloud", "--format", "json").stdout)
    assert neo and {r["kind"] for r in neo} == {"neocloud"}
    table = gputco_cmd("catalog", "--gpu", "T4", "--rates-date", "2026-12-05").stdout
    assert "prices are stale: older than 365 days on 2026-12-05, or undated" in table
    # A file's row 2x the built-in p5.48xlarge: a warning naming both sources and the one used.
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps({"offerings": [{
        "provider": "aws", "region": "us-east-1", "instance_type": "p5.48xlarge", "gpu": "H100", "gpus_per_instance": 8,
        "on_demand_hourly": 110.08, "source": {"name": "my quote", "as_of": "2026-12-01"}}]}))
    result = gputco_cmd("catalog", "--gpu", "H100", "--catalog", mine, "--format", "json")
    assert result.stderr == ("gputco: warning: aws/us-east-1/p5.48xlarge: 55.04 (AWS News Blog, 'Announcing up to 45% "
                             "price reduction for Amazon EC2 NVIDIA GPU-accelerated instances' (-44% on demand); price: AWS "
                             "EC2 On-Demand pricing as recorded by datareceipts/data-receipts 109-gpu-pricing/"
                             "hyperscalers.json, 2026-11-09) and 110.08 (my quote, 2026-12-01) differ by 100.0% (more than "
                             "10%); using 110.08 (my quote, 2026-12-01) (the file's row replaces the built-in one)\n")
    # Listed in its cheapest region: AWS sells p5.48xlarge at the built-in 55.04 elsewhere too; us-east-1
    # has the file's price.
    assert [r["on_demand_per_gpu_hour"] for r in json.loads(result.stdout) if r["instance_type"] == "p5.48xlarge"] == [6.88]
    by_region = gputco_cmd("catalog", "--gpu", "H100", "--catalog", mine, "--region", "us-east-1", "--format", "json")
    assert [r["on_demand_per_gpu_hour"] for r in json.loads(by_region.stdout)
            if r["instance_type"] == "p5.48xlarge"] == [13.76]


def test_catalog_lists_a_share_per_whole_gpu_hour():
    # azure.csv: Standard_NV12ads_A10_v5 in eastus, a third of an A10 (A10/3) at 0.908 $/h, so one whole
    # A10-hour costs 3 x 0.908 = 2.724 $ (spot 3 x 0.167798 = 0.503394), the unit the ranked column uses.
    rows = json.loads(gputco_cmd("catalog", "--provider", "azure", "--region", "eastus", "--rates-date", "2026-12-05",
                                 "--format", "json").stdout)
    third = [r for r in rows if r["instance_type"] == "Standard_NV12ads_A10_v5"]
    assert len(third) == 1 and third[0]["gpu"] == "A10/3"
    assert third[0]["on_demand_per_gpu_hour"] == pytest.approx(2.724, rel=1e-12)
    assert third[0]["spot_per_gpu_hour"] == pytest.approx(0.503394, rel=1e-12)
    # Every row, share or whole card: the offering's own per-GPU-hour price is the ranked one (all USD here).
    assert all(r["on_demand_per_gpu_hour"] == pytest.approx(r["ranked_per_gpu_hour"], rel=1e-12) for r in rows)


def test_catalog_spread_is_the_library_spread(catalog):
    out = json.loads(gputco_cmd("catalog", "--spread", "--rates-date", "2026-12-05", "--format", "json").stdout)
    by_gpu = {r["gpu"]: r for r in out}
    frame = catalog.price_spread(date="2026-12-05").set_index("gpu")
    assert set(by_gpu) == set(frame.index)
    for gpu, row in by_gpu.items():
        assert (row["min_per_gpu_hour"], row["median_per_gpu_hour"], row["max_per_gpu_hour"]) == tuple(
            frame.loc[gpu, ["min", "median", "max"]])
    assert by_gpu["H100"]["cheapest"] == "vast/Florida, US, NA/1x-H100_SXM-32-65536"  # a host's ask, vast/vms.csv


def test_csv_gives_every_table_of_a_scenario_one_blank_line_apart():
    """A scenario with LLM training and serving: both tables in CSV, as in the table format, each with its
    header and the rows the JSON has; the first table is the one CSV printed alone before."""
    import csv
    import io
    path = ROOT / "examples" / "scenarios" / "llm_fine_tune_and_serve.yaml"
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)
    text = gputco_cmd("run", path, "--format", "csv").stdout
    tables = [list(csv.DictReader(io.StringIO(part))) for part in text.strip("\n").split("\n\n")]
    assert len(tables) == 2
    for table, key in zip(tables, ("llm_training", "llm_serving")):
        assert len(table) == len(out[key]) >= 1
        assert list(table[0]) == list(out[key][0])
        assert [r[key] for r in table] == [r[key] for r in out[key]]
        assert [r["buying"] for r in table] == [r["buying"] for r in out[key]]
    # the training run lists capacity_block: AWS p5.48xlarge has a block rate, so a block row is there
    assert "capacity_block" in {r["buying"] for r in tables[0]}


def test_run_answers_the_recommend_section_as_python_does(gputco):
    """The recommend example: gputco run's JSON and CSV give gputco.run_recommend's plans compared, to
    every digit (one C++ study behind both)."""
    import csv
    import io
    path = ROOT / "examples" / "scenarios" / "recommend_under_uncertain_demand.yaml"
    out = json.loads(gputco_cmd("run", path, "--format", "json").stdout)["recommend"]
    want = gputco.run_recommend(path)
    assert out["summary"]["buys"] == want.summary["buys"].iloc[0]
    assert [r["plan"] for r in out["baselines"]] == list(want.baselines.index)
    for row in out["baselines"]:
        for key in ("mean", "p95", "cvar95"):
            assert row[key] == want.baselines.loc[row["plan"], key]
    assert len(out["frontier"]) == len(want.frontier) == 3
    tables = gputco_cmd("run", path, "--format", "csv").stdout.strip("\n").split("\n\n")
    assert len(tables) == 4  # the plans, then the study: summary, the plans compared, the frontier
    compared = list(csv.DictReader(io.StringIO(tables[2])))
    assert [r["plan"] for r in compared] == [r["plan"] for r in out["baselines"]]
