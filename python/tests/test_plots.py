"""Every plot renders to PNG with the Agg backend (no display) and returns its Axes."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import gputco  # noqa: E402
from gputco import plots  # noqa: E402

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _png(ax, path):
    ax.figure.savefig(path)
    plt.close(ax.figure)
    data = path.read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 5000


@pytest.fixture(scope="module")
def p4d(catalog):
    # docs/models.md's p4d figures (61.9% off for 3 years) are priced before AWS's June 2025 cut.
    return catalog.offering("aws", "p4d.24xlarge").price_at("2025-05-31")


def test_cumulative_cost(p4d, tmp_path):
    demand = gputco.DemandProfile.constant(8, gputco.Horizon.years(3))
    reports = [gputco.evaluate(s, demand, p4d) for s in
               (gputco.OnDemand(), gputco.Reserved(term_years=3, payment="all_upfront"))]
    ax = plots.plot_cumulative_cost(reports)
    assert [line.get_label() for line in ax.get_lines()] == [r.strategy for r in reports]
    _png(ax, tmp_path / "cumulative.png")
    fig, axes = plt.subplots(1, 2)
    assert plots.plot_cumulative_cost({"mine": reports[0]}, ax=axes[1]) is axes[1]
    plt.close(fig)


def test_spot_distribution(tmp_path):
    result = gputco.simulate_spot(500, 24, 2, 0.1, 0.2, paths=4096, seed=2)
    ax = plots.plot_spot_distribution(result, column="wall_hours")
    assert len(ax.get_lines()) == 5  # mean and four quantiles
    _png(ax, tmp_path / "spot.png")
    with pytest.raises(ValueError, match='^column = "price": must be one of wall_hours, billed_hours, cost, '):
        plots.plot_spot_distribution(result, column="price")


def test_savings_vs_utilisation(p4d, tmp_path):
    ax = plots.plot_savings_vs_utilisation(
        {"3y": gputco.Reserved(term_years=3, payment="all_upfront"),
         "70/30": gputco.Mix([(0.7, gputco.Reserved(term_years=3, payment="all_upfront")), (0.3, gputco.OnDemand())])},
        p4d, utilisations=[0.2, 0.5, 1.0], horizon=gputco.Horizon.years(3), units="gpus")
    full = ax.get_lines()[0].get_ydata()[-1]
    assert full == pytest.approx(61.9, abs=0.1)  # fully used 3-year reservation
    _png(ax, tmp_path / "savings.png")
    # In whole 8-GPU instances 10 GPUs reserve round(10 / 8) = 1 instance and put the other 2 GPUs on a
    # whole on-demand instance; the baseline pays 2 instances: savings 8 × 61.9% / 16 = 30.9%.
    whole = plots.plot_savings_vs_utilisation(gputco.Reserved(term_years=3, payment="all_upfront"), p4d,
                                              utilisations=[1.0], horizon=gputco.Horizon.years(3))
    assert whole.get_lines()[0].get_ydata()[-1] == pytest.approx(61.9 / 2, abs=0.1)


def test_import_does_not_load_matplotlib():
    import subprocess
    import sys

    code = "import sys, gputco, gputco.plots; print('matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"


def test_deadline_decisions(tmp_path):
    job = gputco.DeadlineJob(compute_hours=3, deadline_hours=9, changeover_hours=1)
    trace = gputco.SpotAvailability([1, 0, 1, 1, 0, 1, 0, 1, 1])
    r = gputco.simulate_deadline(job, trace, "uniform_progress", 0.9731, 3.06)
    ax = plots.plot_deadline_decisions(r, job)
    assert ax.get_title() == "cost 13.21, finished at 5 h"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert {"spot", "on-demand", "spot available", "compute done (h)", "expected progress ep(t)", "deadline"} <= set(labels)
    _png(ax, tmp_path / "deadline.png")
    regions = [gputco.SpotRegion("a", trace, 0.9731),
               gputco.SpotRegion("b", gputco.SpotAvailability([0, 1, 1, 1, 1, 1, 1, 1, 1]), 1.2)]
    m = gputco.simulate_multi_region(job, regions, "skypilot_eager_next_region", 3.06)
    ax = plots.plot_deadline_decisions(m, job, region_names=["a", "b"])
    assert {t.get_text() for t in ax.texts} <= {"a", "b"} and ax.texts
    _png(ax, tmp_path / "regions.png")


def test_ready_replicas(tmp_path):
    zones = [gputco.SpotRegion("a", gputco.SpotAvailability([1] * 10 + [0] * 5 + [1] * 5), 1.0),
             gputco.SpotRegion("b", gputco.SpotAvailability([1] * 20), 1.2)]
    runs = {p: gputco.simulate_serving(zones, p, target_replicas=2, on_demand_price_per_hour=3.0, launch_hours=2)
            for p in gputco.serving_policies()}
    ax = plots.plot_ready_replicas(runs, target_replicas=2)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[-1] == "N = 2"
    assert labels[0] == f"static_spread: {100 * runs['static_spread'].availability:.2f}% with >= N, " \
                        f"cost {runs['static_spread'].cost:,.0f}"
    # One step line per run, through its ready counts.
    assert [list(line.get_ydata()) for line in ax.get_lines()[:3]] == [list(r.ready) for r in runs.values()]
    _png(ax, tmp_path / "ready.png")


def test_frontier_points_are_the_frames(tmp_path):
    frontier = pd.DataFrame({"cvar95_limit": [3.0, 2.5, 1.0], "feasible": [True, True, False],
                             "mean": [1.0, 1.2, 0.0], "cvar95": [2.9, 2.5, 0.0], "p95": [2.0, 2.1, 0.0],
                             "plan": ["a", "b", ""], "held_out_mean": [1.05, 1.21, float("nan")],
                             "held_out_cvar95": [3.0, 2.6, float("nan")]})
    ax = plots.plot_frontier(frontier)
    fitted, held_out = ax.get_lines()[:2]
    assert fitted.get_xydata().tolist() == [[2.9, 1.0], [2.5, 1.2]]
    assert held_out.get_xydata().tolist() == [[3.0, 1.05], [2.6, 1.21]]
    assert [line.get_xdata()[0] for line in ax.get_lines()[2:]] == [1.0]  # the limit no plan met
    _png(ax, tmp_path / "frontier.png")
    ax = plots.plot_frontier(frontier.drop(columns=["held_out_mean", "held_out_cvar95"]), risk="p95")
    assert ax.get_lines()[0].get_xydata().tolist() == [[2.0, 1.0], [2.1, 1.2]]
    plt.close(ax.figure)
    with pytest.raises(ValueError, match=r'^risk = "var": must be "cvar95" or "p95"$'):
        plots.plot_frontier(frontier, risk="var")


def test_frontier_of_a_real_recommendation(gputco_model_futures, p4d):
    train, fresh = gputco_model_futures
    free = gputco.recommend_plan(train, p4d, review_months=12)
    limits = [free.in_sample.total.cvar95 * f for f in (1.01, 0.99, 1e-3)]
    r = gputco.recommend(train, p4d, held_out=fresh, review_months=12, cvar95_limits=limits)
    ax = plots.plot_frontier(r.frontier)
    ok = r.frontier[r.frontier["feasible"]]
    assert ax.get_lines()[0].get_xydata().tolist() == ok[["cvar95", "mean"]].to_numpy().tolist()
    assert ax.get_lines()[1].get_xydata().tolist() == ok[["held_out_cvar95", "held_out_mean"]].to_numpy().tolist()
    plt.close(ax.figure)


@pytest.fixture(scope="module")
def gputco_model_futures():
    model = gputco.DemandModel(8, monthly_log_growth=0.01, monthly_log_volatility=0.1,
                               events=[gputco.DemandEvent(gpus=8, probability=0.6, first_month=0, last_month=11)])
    return (gputco.DemandFutures.generate(model, gputco.Horizon.years(2), 40, 4),
            gputco.DemandFutures.generate(model, gputco.Horizon.years(2), 200, 5))
