"""Cost per unit of work from Python: the same figures as the C++ tests, DataFrames, errors, a plot."""
import math

import pytest
from hypothesis import given, settings, strategies as st

import gputco

CSV = "name_gpu,num_gpu,watt,price,mymodel\nA10,1,150,3125,100\nV100 16GB,1,,,150\nA100 80GB SXM4,1,,,400\n"


@pytest.fixture(scope="module")
def table():
    return gputco.ThroughputTable.from_csv(CSV, precision="mixed", source="my benchmark", as_of="2026-11")


@pytest.fixture(scope="module")
def job():
    # 3.6e6 units x 2 epochs = 7.2e6 units: 20 h on the A10 (100/s), 5 h on the A100 (400/s).
    return gputco.Workload(model="mymodel", work_per_epoch=3.6e6, epochs=2, name="mine")


def test_builtin_table_and_frame():
    table = gputco.ThroughputTable.builtin()
    row = table.find("A100 80GB SXM4", 8, "mixed", "resnet50")
    assert row.per_second == 11439 and row.source.as_of == "2025-12"
    frame = gputco.throughput_frame()
    assert len(frame) == len(table)
    assert set(frame["precision"]) == {"fp32", "mixed"}
    assert "resnet50" in table.models()


def test_rank_offerings_on_the_builtin_catalog(job, table):
    catalog = gputco.catalog()
    mine = gputco.ThroughputTable.builtin().overridden_by(table)
    # Every price, however old: the seeds' CNY list prices are undated (the default leaves them out, below).
    frame = gputco.rank_offerings(job, catalog, mine, spot=False, owned=False, include_stale_prices=True)
    assert list(frame.columns) == gputco._work.RANKING_COLUMNS
    assert frame["cost_per_run"].is_monotonic_increasing
    # The cheapest on-demand A10 in the catalog, by hand: 20 h x its hourly price (no rounding: whole seconds).
    a10 = [o for o in catalog.offerings if o.gpu == "A10" and o.currency == "USD"]
    best = min(20 * o.on_demand_hourly for o in a10)
    a10_rows = frame[(frame["catalog_gpu"] == "A10") & (frame["buying"] == "on_demand")]
    assert a10_rows["cost_per_run"].min() == pytest.approx(best)
    assert frame.attrs["currency"] == "USD" and frame.attrs["unit"] == "units"
    # CNY list prices are converted at the built-in ECB cross rate (USD per CNY = 1.0705 / 7.7748).
    gn7 = frame[frame["instance_type"] == "GN7"]  # 2.8 CNY/h, a T4: an estimate, so not ranked here
    assert gn7.empty
    # gn6i (8.5 CNY/h) is a T4 too; Tencent's GN10Xp (12 CNY/h, a V100 32 GB: proxied by the V100) is ranked.
    assert frame[frame["instance_type"] == "gn6i"].empty
    gn10 = frame[(frame["instance_type"] == "GN10Xp") & (frame["buying"] == "on_demand")].iloc[0]
    assert gn10["price_per_hour"] == pytest.approx(12 * 1.0705 / 7.7748)
    assert "prices converted from CNY" in gn10["note"]
    # By default the ranking runs on today's prices: undated and year-old prices are left out, each with
    # its age, and counted; RunPod's saved file is undated, so none of its rows is ranked.
    fresh = gputco.rank_offerings(job, catalog, mine, spot=False, owned=False, prices_as_of="2026-12-05")
    assert fresh.attrs["max_price_age_days"] == gputco.STALE_PRICE_AGE_DAYS == 365
    assert fresh.attrs["prices_as_of"] == "2026-12-05"
    aged = [(k, r) for k, r in fresh.attrs["skipped"] if "price-age limit" in r]
    assert len(aged) == fresh.attrs["stale_left_out"] > 0
    assert ("tencent/cn-unspecified/GN10Xp", "price undated: its source gives no date, so it is left out as if older "
            "than the price-age limit of 365 days (include_stale_prices ranks it)") in aged
    assert fresh[fresh["provider"] == "runpod"].empty and fresh[fresh["instance_type"] == "GN10Xp"].empty
    raw = gputco.rank_offerings_raw(job, catalog, mine, spot=False, owned=False, prices_as_of="2026-12-05")
    assert all(not r.stale and r.price_age_days is not None and r.price_age_days <= 365 for r in raw.rows
               if r.provider != "owned")


def test_resnet_on_spot_and_the_frontier_plot(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from gputco import plots

    resnet = gputco.Workload(model="resnet50", work_per_epoch=1_281_167, epochs=90, name="ResNet-50")
    frame = gputco.rank_offerings(resnet, paths=2048)
    spot = frame[frame["buying"] == "spot"]
    assert len(spot) > 10
    assert (spot["run_hours"] >= spot["hours_per_epoch"] * 90 - 1e-9).all()
    ax = plots.plot_cost_vs_time(frame)
    path = tmp_path / "frontier.png"
    ax.figure.savefig(path)
    plt.close(ax.figure)
    assert path.read_bytes().startswith(b"\x89PNG")
    raw = gputco.rank_offerings_raw(resnet, paths=2048)
    frontier = raw.frontier()
    assert all(a.run_hours <= b.run_hours and a.cost_per_run > b.cost_per_run for a, b in zip(frontier, frontier[1:]))


def test_cheapest_within(job, table):
    # Two offerings of the built-in catalog: an A10 (20 h for this job) and an 8xA100 80GB, measured at
    # 3,000 units/s: 7.2e6 / 3,000 = 2,400 s = 0.667 h.
    table = gputco.ThroughputTable.from_csv(CSV + "8x A100 80GB SXM4,8,,,3000\n", precision="mixed", source="mine")
    keep = ("alibaba/ap-northeast-1/ecs.gn7i-c8g1.2xlarge", "aws/us-east-1/p4de.24xlarge")
    catalog = gputco.Catalog([g for g in gputco.catalog().gpus if g.name in ("A10", "A100-80GB")],
                             [o for o in gputco.catalog().offerings if o.key in keep])
    # The Alibaba row is undated: ranked only with include_stale_prices.
    best = gputco.cheapest_within(job, 10, 0.95, catalog, table, owned=False, reserved=False, spot=False,
                                  include_stale_prices=True)
    assert best is not None and best["instance_type"] == "p4de.24xlarge"
    assert best["run_hours"] == pytest.approx(2 / 3)
    assert gputco.cheapest_within(job, 0.1, 0.95, catalog, table, owned=False, include_stale_prices=True) is None
    with pytest.raises(ValueError, match=r"^probability = 0: must be in \(0, 1\]$"):
        gputco.cheapest_within(job, 10, 0.0)


def test_errors_are_value_errors_with_the_library_text(job, table):
    with pytest.raises(ValueError, match=r"^throughput.rows\[0\].mymodel = -5: must be finite and > 0$"):
        gputco.ThroughputTable.from_csv("name_gpu,num_gpu,mymodel\nA10,1,-5\n", precision="mixed", source="x")
    with pytest.raises(ValueError, match=r"^throughput.header = \"name_gpu,mymodel\": needs the column num_gpu$"):
        gputco.ThroughputTable.from_csv("name_gpu,mymodel\nA10,5\n", precision="mixed", source="x")
    with pytest.raises(ValueError, match=r"^throughput.rows\[0\].name_gpu = \"Z80\": unknown GPU"):
        gputco.ThroughputTable.from_csv("name_gpu,num_gpu,mymodel\nZ80,1,5\n", precision="mixed", source="x")
    big = gputco.Workload(model="mymodel", work_per_epoch=1, memory_gb=500)
    with pytest.raises(ValueError, match=r"^workload.memory_gb = 500: fits no GPU of the catalog \(the largest, B300, has 288 GB\)$"):
        gputco.rank_offerings(big, throughput=table)
    with pytest.raises(ValueError, match=r"^workload.epochs = 0: must be finite and > 0$"):
        gputco.Workload(model="mymodel", work_per_epoch=1, epochs=0)
    with pytest.raises(ValueError, match=r"^workload.precision = \"int4\": must be"):
        gputco.Workload(model="mymodel", work_per_epoch=1, precision="int4")


def test_seed_audit_frame():
    audit = gputco.seed_audit()
    assert len(audit) == 7
    assert set(audit["verdict"]) <= {"consistent", "inconsistent", "not measured"}
    amp = audit.iloc[0]
    assert amp["seed_figure"] == 2.3 and amp["measured_figure"] == pytest.approx(152 / 75)


def test_scaling_and_matches():
    curve = gputco.scaling_curve(gputco.ThroughputTable.builtin(), "RTX A6000", "mixed", "resnet50")
    assert curve.alpha == pytest.approx(2 * 916 / 1775 - 1)
    got = gputco.throughput_at(gputco.ThroughputTable.builtin(), "RTX A6000", "mixed", "resnet50", 4)
    assert not got["measured"] and got["per_second"] == pytest.approx(curve.throughput(4))
    assert gputco.match_gpu("A100-40GB").kind == "proxy"
    mine = gputco.GpuMatch("T4", "measured", "RTX 3090", "my runs")
    assert gputco.match_gpu("T4", [mine]).benchmark_gpu == "RTX 3090"
    assert gputco.training_memory_gb(340e6, 16, 6) == pytest.approx(11.44)


@settings(derandomize=True, max_examples=40, deadline=None)
@given(work=st.floats(1e3, 1e9), epochs=st.floats(0.5, 50), utilisation=st.floats(0.2, 1.0),
       precision=st.sampled_from(["fp32", "mixed"]))
def test_cost_identities_hold_for_any_workload(work, epochs, utilisation, precision):
    w = gputco.Workload(model="resnet50", work_per_epoch=work, epochs=epochs, utilisation=utilisation,
                        precision=precision)
    frame = gputco.rank_offerings(w, spot=False)
    assert frame["cost_per_run"].is_monotonic_increasing
    assert ((frame["cost_per_epoch"] * epochs - frame["cost_per_run"]).abs() <= 1e-9 * frame["cost_per_run"]).all()
    total = work * epochs
    assert ((frame["hours_per_epoch"] * epochs * frame["throughput_per_second"] * 3600 - total).abs()
            <= 1e-9 * total).all()
    od = frame[frame["buying"] == "on_demand"]
    # Billing rounds up, except within a relative 1e-9 above a whole increment (the spot engine's rule).
    assert (od["cost_per_run"] >= od["run_hours"] * od["price_per_hour"] * (1 - 1e-9)).all()
    assert math.isfinite(frame["cost_per_million"].max())


def test_choose_gpu_example_agrees_with_python():
    """The example's --json ranking is the library's: the same rows and numbers from Python."""
    import json
    import os
    import pathlib
    import subprocess

    build = os.environ.get("GPUTCO_BUILD_DIR")
    program = pathlib.Path(build or "", "examples", "choose_gpu")
    if not build or not program.exists():
        pytest.skip("needs the built example (GPUTCO_BUILD_DIR)")
    out = json.loads(subprocess.run([str(program), "--json"], check=True, capture_output=True, text=True).stdout)
    resnet = out["jobs"][0]
    w = gputco.Workload(model="resnet50", work_per_epoch=resnet["work_per_epoch"], epochs=resnet["epochs"],
                        memory_gb=resnet["memory_gb"])
    frame = gputco.rank_offerings(w, reserved=False, owned=False, deadline_hours=resnet["deadline_hours"],
                                  prices_as_of=resnet["prices_as_of"])
    assert len(frame) == len(resnet["rows"])
    # The same price-age limit, stated once in the library: the example and Python leave out the same offerings.
    assert resnet["max_price_age_days"] == frame.attrs["max_price_age_days"] == gputco.STALE_PRICE_AGE_DAYS
    assert resnet["stale_left_out"] == frame.attrs["stale_left_out"] > 0
    costs = [r["cost_per_run"] for r in resnet["rows"]]
    assert costs == sorted(costs)
    assert [r["instance_type"] for r in resnet["rows"]] == list(frame["instance_type"])
    assert costs == list(frame["cost_per_run"])  # the JSON library writes each double exactly
    assert resnet["rows"][0]["provider"] in {o.provider for o in gputco.catalog().offerings}
    assert [a["claim"] for a in out["seed_audit"]] == list(gputco.seed_audit()["claim"])
