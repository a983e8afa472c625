"""Ctrl-C stops the long calls that used to ignore it: a CVaR-limited recommend (inside CBC's LPs), a
frontier of CVaR limits, the single-region deadline optimum and a huge spot run's sample allocation.
Each input below runs for many seconds when left alone; each must stop within 1 CPU-second of Ctrl-C (stopped_by_ctrl_c)."""
import pytest

import gputco
from test_cancellation import stopped_by_ctrl_c

# A Ctrl-C swallowed anywhere on the way (e.g. reported as unraisable by a progress bar) fails the test.
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")


@pytest.fixture(scope="module")
def cvar_case():
    p4d = gputco.catalog().offering("aws", "p4d.24xlarge", "us-east-1")
    model = gputco.DemandModel(8, monthly_log_growth=0.01, monthly_log_volatility=0.2,
                               events=[gputco.DemandEvent(gpus=8, probability=0.6, first_month=0, last_month=11)])
    futures = gputco.DemandFutures.generate(model, gputco.Horizon.years(3), 2000, 1)
    return futures, p4d, gputco.recommend_plan(futures, p4d).in_sample.total.cvar95  # without a limit: fast


def test_a_cvar_limited_recommend_stops_on_ctrl_c(cvar_case):
    # A spot option dearer than on demand makes what spot serves a concave cost: the CVaR limit is then
    # written out in full, one row per future with binaries per month (the slow programme; a limit on
    # convex costs is solved by cuts in well under a second).
    futures, p4d, cvar = cvar_case
    dear_spot = gputco.SpotOption("dearer than on demand", price_per_gpu_hour=6.0)
    assert stopped_by_ctrl_c(lambda: gputco.recommend_plan(futures, p4d, spot=[dear_spot], cvar95_limit=cvar * 0.97,
                                                           time_limit_seconds=120)) < 1.0


def test_a_frontier_of_cvar_limits_stops_on_ctrl_c(cvar_case):
    futures, p4d, cvar = cvar_case
    limits = [cvar * f for f in (0.95, 0.96, 0.97, 0.98, 0.99)]
    assert stopped_by_ctrl_c(lambda: gputco.recommend(futures, p4d, cvar95_limits=limits,
                                                      time_limit_seconds=120)) < 1.0


def test_the_deadline_optimum_stops_on_ctrl_c():
    # 40,000 ticks x 20,000 compute ticks: minutes when left alone.
    job = gputco.DeadlineJob(compute_hours=20_000, deadline_hours=40_000)
    trace = gputco.SpotAvailability.markov(gputco.MarkovAvailability(), ticks=40_000, seed=1)
    assert stopped_by_ctrl_c(lambda: gputco.omniscient_cost(job, trace, 0.9731, 3.06)) < 1.0


def test_a_huge_spot_run_stops_on_ctrl_c_while_it_allocates():
    # 10^8 paths: 4.8 GB of samples, faulted in by steps with Ctrl-C asked between them.
    call = lambda: gputco.simulate_spot(work_hours=100, mtbf_hours=10, checkpoint_interval_hours=1,
                                        checkpoint_write_hours=0.05, restart_hours=0.1, paths=100_000_000)
    assert stopped_by_ctrl_c(call) < 1.0
