"""Scenario files from Python: the published JSON Schema accepts every example and every written
scenario, the Python loader gives the C++ loader's messages, and sweeps give the same DataFrame on
threads and on a Dask LocalCluster."""
import copy
import json
import pathlib

import jsonschema
import pandas as pd
import pytest
import yaml

from gputco import _core

ROOT = pathlib.Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples" / "scenarios").glob("*.yaml"))
SCHEMA = json.loads((ROOT / "schema" / "scenario-v1.json").read_text())


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_schema_accepts_every_example_and_its_written_form(path):
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.validate(yaml.safe_load(path.read_text()), SCHEMA)
    written = _core._scenario_canonical(path.read_text(), str(path))
    jsonschema.validate(yaml.safe_load(written), SCHEMA)
    # reads back to itself (written beside the example, so that the files it names resolve)
    assert _core._scenario_canonical(written, str(path.parent / "written.yaml")) == written


def test_schema_names_the_models_of_the_throughput_table(gputco):
    # a workload's model is checked by the loader against the built-in table; the schema lists the same
    assert SCHEMA["$defs"]["workload"]["properties"]["model"]["enum"] == gputco.ThroughputTable.builtin().models()


@pytest.mark.parametrize("change, rule", [
    (("demand", "gpus", "eight"), "type"),
    (("demand", "colour", 1), "additionalProperties"),
    (("horizon_months", None, 0), "minimum"),
])
def test_schema_and_loader_reject_the_same_mistakes(change, rule):
    scenario = yaml.safe_load((ROOT / "examples/scenarios/a100_three_year.yaml").read_text())
    key, sub, value = change
    if sub is None:
        scenario[key] = value
    else:
        scenario[key][sub] = value
    with pytest.raises(jsonschema.ValidationError) as e:
        jsonschema.validate(scenario, SCHEMA)
    assert e.value.validator == rule
    with pytest.raises(ValueError):
        _core._scenario_canonical(json.dumps(scenario), "s.json")


def test_schema_accepts_held_commitments_changes_and_held_savings_plans():
    # A plan's changes (and a convertible commitment's kind), a recommend section's held Savings Plans and
    # the changes the recommender may make: the schema accepts the file and what to_yaml writes of it.
    text = """
version: 1
name: held and changed
horizon_months: 24
offering: {provider: aws, instance_type: p4d.24xlarge, region: us-east-1}
demand: {kind: constant, gpus: 8}
plans:
  - name: exchanged
    commitments: [{count: 1, unit: instances, term_years: 1, payment: all_upfront, kind: standard}]
    held: [{count: 8, start_month: -12, end_month: 24, hourly_per_gpu: 1.0, upfront_per_gpu: 8760, kind: convertible}]
    changes:
      - {kind: exchange, held: 0, month: 6, into: {count: 2, unit: instances, term_years: 3, payment: all_upfront}}
      - {kind: resale, commitment: 0, month: 3, price: 500}
recommend:
  commitments: [{term_years: 1, payment: all_upfront}]
  held: [{count: 8, start_month: -12, end_month: 24, hourly_per_gpu: 1.0, upfront_per_gpu: 8760}]
  held_savings_plans: [{commitment_per_hour: 16, type: aws_compute, term_years: 1, payment: no_upfront,
                        start_month: -6, rate_per_gpu_hour: 2.0}]
  changes: {resale_price_share: 0.5, exchange_into: [{term_years: 3, payment: all_upfront}], refund: true}
"""
    jsonschema.validate(yaml.safe_load(text), SCHEMA)
    written = _core._scenario_canonical(text, "held.yaml")
    jsonschema.validate(yaml.safe_load(written), SCHEMA)
    assert "held_savings_plans" in written and "resale_price_share: 0.5" in written
    bad = yaml.safe_load(text)
    bad["recommend"]["held_savings_plans"][0]["start_month"] = 0
    with pytest.raises(jsonschema.ValidationError) as e:
        jsonschema.validate(bad, SCHEMA)
    assert e.value.validator == "maximum"
    with pytest.raises(ValueError, match=r"recommend\.held_savings_plans\[0\]\.start_month = 0: must be in "
                                         r"\[-1000000, -1\] \(bought before the horizon\)$"):
        _core._scenario_canonical(yaml.safe_dump(bad), "held.yaml")


def test_python_sees_the_loaders_message(gputco, tmp_path):
    path = tmp_path / "plan.yaml"
    path.write_text((ROOT / "examples/scenarios/a100_three_year.yaml").read_text().replace("gpus: 8", "gpus: -8"))
    with pytest.raises(ValueError, match=r"^.*plan\.yaml:14:9: demand\.gpus = -8: must be >= 0$"):
        gputco.load_scenario(path)


def test_sweep_grid_is_the_cartesian_product_with_the_librarys_numbers(gputco):
    s = gputco.load_scenario(ROOT / "examples/scenarios/a100_three_year.yaml")
    df = gputco.sweep(s, {"demand.gpus": [4, 8], "strategies[1].reserved.reservation_discount": [0.3, 0.52]},
                      outputs=("total", "savings_fraction"))
    assert list(df["demand.gpus"]) == [4, 4, 8, 8]
    assert list(df["strategies[1].reserved.reservation_discount"]) == [0.3, 0.52, 0.3, 0.52]
    # a reservation at discount d saves d whatever the demand
    assert df["savings_fraction[reserved 3y (52% off)]"].to_numpy() == pytest.approx([0.3, 0.52, 0.3, 0.52])
    one = dict(s)
    one["demand"] = dict(s["demand"], gpus=4)
    assert df["total[on-demand]"].iloc[0] == gputco.run_scenario(one)["total"].iloc[0]


def test_sweep_errors_name_the_field(gputco):
    s = gputco.load_scenario(ROOT / "examples/scenarios/a100_three_year.yaml")
    with pytest.raises(ValueError, match=r"demand\.gpus = -1: must be >= 0"):
        gputco.sweep(s, {"demand.gpus": [-1]})
    with pytest.raises(ValueError, match=r"^strategies\[7\]\.reserved\.discount = 0\.1: no such field"):
        gputco.sweep(s, {"strategies[7].reserved.discount": [0.1]})


def test_latin_hypercube_puts_one_point_in_each_stratum(gputco):
    points = gputco.latin_hypercube({"a": (0.0, 1.0), "b": (10.0, 20.0)}, 50, seed=1)
    for column, (low, high) in enumerate([(0.0, 1.0), (10.0, 20.0)]):
        strata = sorted(int((p[column] - low) / (high - low) * 50) for p in points)
        assert strata == list(range(50))
    assert points == gputco.latin_hypercube({"a": (0.0, 1.0), "b": (10.0, 20.0)}, 50, seed=1)


def test_same_seed_same_dataframe_on_threads_and_on_a_local_dask_cluster(gputco):
    distributed = pytest.importorskip("distributed")
    s = gputco.load_scenario(ROOT / "examples/scenarios/spot_training_job.yaml")
    s["spot_jobs"][0]["paths"] = 2000  # short: the test checks sameness, not precision
    grid = {"demand.gpus": (8.0, 32.0), "spot_jobs[0].mtbf_hours": (6.0, 48.0)}
    local = gputco.sweep(s, grid, samples=12, seed=5, chunk_size=3, threads=2)
    again = gputco.sweep(s, grid, samples=12, seed=5, chunk_size=5, threads=1)
    pd.testing.assert_frame_equal(local, again, check_exact=True)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        remote = gputco.sweep(s, grid, client=client, samples=12, seed=5, chunk_size=4)
    pd.testing.assert_frame_equal(local, remote, check_exact=True)
    assert len(local) == 12 and "p95[40% reserved 1y + 60% spot]" in local


def test_tornado_and_heat_map(gputco):
    s = gputco.load_scenario(ROOT / "examples/scenarios/ladder_uncertain_growth.yaml")
    t = gputco.tornado(s, {"demand.annual_growth_rate": (0.1, 0.7), "discounts.on_demand_discount": (0.0, 0.2)},
                       strategy="on-demand")
    assert list(t["field"]) == ["demand.annual_growth_rate", "discounts.on_demand_discount"] or t["swing"].is_monotonic_decreasing
    assert t["swing"].is_monotonic_decreasing
    # a 20% on-demand discount takes 20% off an all on-demand bill
    row = t.set_index("field").loc["discounts.on_demand_discount"]
    assert row["total_at_high"] == pytest.approx(0.8 * row["total_at_low"], rel=1e-12)
    h = gputco.heat_map(s, ("demand.annual_growth_rate", [0.0, 0.4]), ("demand.start_gpus", [8, 16]),
                        strategy="on-demand")
    assert h.shape == (2, 2)
    assert h.loc[16, 0.0] == pytest.approx(2 * h.loc[8, 0.0], rel=1e-12)  # twice the GPUs, twice the bill
    gputco.plot_tornado(t)
    gputco.plot_heat_map(h)


def test_sweep_reaches_plan_and_futures_fields():
    import gputco

    s = gputco.load_scenario(ROOT / "examples/scenarios/plans_under_uncertain_demand.yaml")
    s["futures"]["count"] = 200
    df = gputco.sweep(s, {"plans[1].commitments[0].count": [0, 1, 2], "futures.monthly_log_growth": [0.0, 0.03]})
    assert len(df) == 6
    # a commitment of 0 instances is on demand: the same total as the on-demand plan, in each future
    zero = df[df["plans[1].commitments[0].count"] == 0]
    assert (zero["total[plan 3y on the base fleet]"] == zero["total[plan on-demand]"]).all()
    # the sweep's figures are run_plans' figures for that point
    s["plans"][1]["commitments"][0]["count"] = 2
    s["futures"]["monthly_log_growth"] = 0.03
    row = df[(df["plans[1].commitments[0].count"] == 2) & (df["futures.monthly_log_growth"] == 0.03)].iloc[0]
    assert row["p95[plan 3y on the base fleet]"] == gputco.run_plans(s)["total_p95"][1]


def test_runs_and_sweeps_take_a_fitted_price_model():
    import gputco
    from gputco import prices

    fitted = prices.fit_family(str(ROOT / "data" / "price_history"), "A100").dynamics
    s = gputco.load_scenario(ROOT / "examples/scenarios/plans_under_uncertain_demand.yaml")
    s["futures"]["count"] = 200
    still = gputco.run_plans(s)
    s["price_model"] = fitted  # the PriceDynamics object itself
    moving = gputco.run_plans(s)
    assert (moving["total_p95"] != still["total_p95"]).all()  # the plans are priced under its paths
    # the same as the model's mapping written into the dict, every number as fitted
    mapping = yaml.safe_load(_core._price_model_yaml(fitted))["price_model"]
    assert mapping["on_demand"]["volatility"] == fitted.on_demand.volatility
    assert mapping["reserved_1y_spread"]["jump_rate"] == fitted.reserved_1y_spread.jump_rate
    assert mapping["spot_correlation"] == fitted.spot_correlation
    written = {**s, "price_model": mapping}
    pd.testing.assert_frame_equal(gputco.run_plans(written), moving)
    # a sweep over plan fields and the fitted model's own fields, each point run_plans' figures
    df = gputco.sweep(s, {"plans[1].commitments[0].count": [0, 2],
                          "price_model.on_demand.volatility": [fitted.on_demand.volatility, 0.0]})
    assert len(df) == 4
    assert isinstance(s["price_model"], gputco.PriceDynamics)  # the caller's dict is left as it was
    row = df[(df["plans[1].commitments[0].count"] == 2)
             & (df["price_model.on_demand.volatility"] == fitted.on_demand.volatility)].iloc[0]
    written["plans"] = copy.deepcopy(s["plans"])
    written["plans"][1]["commitments"][0]["count"] = 2
    assert row["p95[plan 3y on the base fleet]"] == gputco.run_plans(written)["total_p95"][1]
    calm = df[(df["plans[1].commitments[0].count"] == 2) & (df["price_model.on_demand.volatility"] == 0.0)].iloc[0]
    assert calm["p95[plan 3y on the base fleet]"] != row["p95[plan 3y on the base fleet]"]
