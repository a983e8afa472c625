"""The stochastic price model from Python: simulation into PricePaths, the maximum-likelihood fit, and
fitting a GPU family to the stored price history (docs/models.md, section 12)."""
import math
import pathlib

import numpy as np
import pytest

import gputco
from gputco import prices

HISTORY = pathlib.Path(__file__).resolve().parents[2] / "data" / "price_history"


def test_fit_recovers_simulated_parameters_within_four_standard_errors():
    truth = gputco.LogPriceProcess(reversion=0.1, volatility=0.03, drift=-0.003, jump_rate=0.08, jump_mean=-0.1,
                                   jump_sd=0.12)
    x = gputco.simulate_log_prices(truth, 48, 60, 21)
    assert x.shape == (48, 60)
    fit = gputco.fit_log_price_process([list(x[:, j]) for j in range(x.shape[1])])
    assert fit.transitions == 60 * 47
    for name in ("reversion", "volatility", "drift", "jump_rate", "jump_mean", "jump_sd"):
        estimate, se = getattr(fit.process, name), getattr(fit.standard_error, name)
        assert math.isfinite(se) and se > 0, name
        assert abs(estimate - getattr(truth, name)) <= 4 * se, (name, estimate, se)


def test_simulated_paths_are_price_paths_and_do_not_depend_on_threads():
    d = gputco.PriceDynamics(on_demand=gputco.LogPriceProcess(volatility=0.02, jump_rate=0.1, jump_mean=0.05, jump_sd=0.1),
                             spot_spread=gputco.LogPriceProcess(reversion=0.3, volatility=0.1), spot_correlation=0.4,
                             reserved_3y_spread=gputco.LogPriceProcess(drift=-0.01))
    one = gputco.simulate_price_paths(d, gputco.Horizon.years(2), 500, 3, term_years=3, threads=1)
    two = gputco.simulate_price_paths(d, gputco.Horizon.years(2), 500, 3, term_years=3, threads=2)
    assert isinstance(one, gputco._core.PricePaths)
    assert one.on_demand.shape == (24, 500)
    assert np.array_equal(one.on_demand, two.on_demand) and np.array_equal(one.spot, two.spot)
    assert np.all(one.on_demand[0] == 1.0)
    np.testing.assert_allclose(np.log(one.reserved[23] / one.on_demand[23]), -0.23, rtol=1e-12)
    # Prices move both ways.
    assert (one.on_demand[23] > 1.05).any() and (one.on_demand[23] < 0.95).any()


def test_bad_parameters_are_value_errors_to_the_letter():
    with pytest.raises(ValueError, match=r"^LogPriceProcess\.volatility = -1: must be finite and >= 0$"):
        gputco.LogPriceProcess(volatility=-1)
    with pytest.raises(ValueError, match=r"^term_years = 2: must be 1 or 3 \(reserved is that term's factor\) or 0 "
                                         r"\(both: reserved the 1-year, reserved_3y the 3-year\)$"):
        gputco.simulate_price_paths(gputco.PriceDynamics(), gputco.Horizon.years(1), 10, 1, term_years=2)
    with pytest.raises(ValueError, match=r"^series \(monthly transitions\) = 1: must hold at least 8 monthly transitions to fit$"):
        gputco.fit_log_price_process([[0.0, 0.1]])
    assert gputco.implied_forward_hourly(2.0, 1.5) == 1.25


def test_fit_family_from_the_stored_history():
    records = prices.load_price_history(str(HISTORY))
    assert {r.gpu for r in records} >= {"A100", "H100", "L4"}
    assert all(r.source.strip() for r in records)
    fit = prices.fit_family(str(HISTORY), "A100")
    assert fit.on_demand.transitions > 100 and fit.spot_spread.transitions > 100
    assert fit.dynamics.on_demand.jump_rate > 0
    # The past only: fewer transitions before 2024.
    early = prices.fit_family(str(HISTORY), "A100", until="2024-01")
    assert early.on_demand.transitions < fit.on_demand.transitions
    # Fitted paths go straight into the plan engine.
    paths = gputco.simulate_price_paths(fit.dynamics, gputco.Horizon.years(3), 100, 1, term_years=1)
    assert paths.spot.shape == (36, 100) and np.isfinite(paths.spot).all()


def test_fit_command_prints_the_table(capsys):
    assert prices.main(["fit", str(HISTORY), "--gpu", "L4"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("component")
    assert "spot_spread" in out and "spot_correlation" in out
    assert prices.main(["fit", str(HISTORY), "--gpu", "L4", "--until", "2025-13"]) == 2
    assert capsys.readouterr().err == (
        'error: until = "2025-13": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists\n')


def test_parameter_uncertainty_carried_into_paths():
    truth = gputco.LogPriceProcess(reversion=0.1, volatility=0.03, drift=-0.003)
    x = gputco.simulate_log_prices(truth, 48, 40, 5)
    series = [list(x[:, j]) for j in range(x.shape[1])]
    fits = gputco.fit_by_period(series, [0] * len(series), 24, jumps=False, fixed_reversion=0.1)
    assert len(fits) == 2
    assert fits[0].covariance.shape == (6, 6)
    assert fits[0].covariance[2, 2] == pytest.approx(fits[0].standard_error.drift ** 2, rel=1e-12)
    draws = gputco.draw_processes(fits, 100, 3)
    assert len(draws) == 100 and len({round(p.drift, 12) for p in draws}) == 100
    paths = gputco.simulate_log_prices_per_path(draws, 13, 9)
    assert paths.shape == (13, 100)
    with pytest.raises(ValueError, match=r"^fits = 0: must hold at least one fit$"):
        gputco.draw_processes([], 3, 1)


def test_both_terms_give_a_3_year_factor_of_its_own():
    d = gputco.PriceDynamics(on_demand=gputco.LogPriceProcess(volatility=0.02),
                             reserved_1y_spread=gputco.LogPriceProcess(drift=-0.01),
                             reserved_3y_spread=gputco.LogPriceProcess(drift=-0.02))
    both = gputco.simulate_price_paths(d, gputco.Horizon.years(1), 5, 3, term_years=0)
    one = gputco.simulate_price_paths(d, gputco.Horizon.years(1), 5, 3, term_years=1)
    assert np.array_equal(both.reserved, one.reserved)
    assert one.reserved_3y.size == 0
    assert both.reserved_3y.shape == (12, 5)
    assert np.allclose(both.reserved_3y[11] / both.on_demand[11], math.exp(-0.22), rtol=1e-12)


def test_fitted_family_with_parameter_uncertainty_per_future():
    records = gputco.read_price_history_csv(str(HISTORY / "gcp_cyclenerd.csv"))
    fit = gputco.fit_price_dynamics(records, "A100")
    sets = gputco.draw_dynamics(fit, 200, 7)
    assert len(sets) == 200
    paths = gputco.simulate_price_paths_per_future(sets, gputco.Horizon.years(1), 200, 3, term_years=0)
    assert paths.on_demand.shape == (12, 200) and paths.reserved_3y.shape == (12, 200)
    assert np.all(paths.spot > 0)
    with pytest.raises(ValueError, match=r"^per_future = 0: must hold at least one PriceDynamics$"):
        gputco.simulate_price_paths_per_future([], gputco.Horizon.years(1), 10, 1)
