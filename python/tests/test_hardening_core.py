"""Hostile inputs to demand futures, demand models, deadline policies and traces, each exactly as it
was reported: now a clear error in the library's words, or a sound answer."""
import math

import pytest

import gputco


def test_demand_future_indices_are_checked():
    futures = gputco.DemandFutures.generate(gputco.DemandModel(8), gputco.Horizon.years(3), 10, 1)
    assert futures.gpu_hours(9, 35) == pytest.approx(8 * 730)
    with pytest.raises(ValueError, match=r"^month = 36: must be in \[0, 36\) \(the horizon's months\)$"):
        futures.gpu_hours(0, 36)
    with pytest.raises(ValueError, match=r"^month = -1: must be in \[0, 36\) \(the horizon's months\)$"):
        futures.gpu_hours(0, -1)
    with pytest.raises(ValueError, match=r"^future = 10: must be < 10 \(the number of futures\)$"):
        futures.gpu_hours(10, 0)
    with pytest.raises(ValueError, match=r"^future = 10: must be < 10 \(the number of futures\)$"):
        futures.profile(10)


def test_expected_level_checks_the_month():
    model = gputco.DemandModel(8, monthly_log_growth=0.02, seasonality=[1.0] * 12)
    assert gputco.expected_level(model, 600) == pytest.approx(8 * math.exp(0.02 * 600))
    with pytest.raises(ValueError, match=r"^month = -1: must be in \[0, 1200\) \(the longest horizon's months\)$"):
        gputco.expected_level(model, -1)
    with pytest.raises(ValueError, match=r"^month = 1000000000: must be in \[0, 1200\)"):
        gputco.expected_level(model, 10**9)


def test_demand_models_that_would_not_stay_finite_are_errors_naming_the_parameter():
    three, century = gputco.Horizon.years(3), gputco.Horizon.years(100)
    with pytest.raises(ValueError, match=r"^demand_model\.monthly_log_growth = 10: must be in \[-1, 1\]$"):
        gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_growth=10), three, 10, 1)
    with pytest.raises(ValueError, match=r"^demand_model\.monthly_log_volatility = 100: must be <= 1$"):
        gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_volatility=100), three, 10, 1)
    with pytest.raises(ValueError, match=r"^demand_model\.monthly_log_growth = 0\.7: must keep demand within 1e\+09 "
                                         r"GPUs: .* reaches inf GPUs in month 1199$"):
        gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_growth=0.7), century, 10, 1)
    futures = gputco.DemandFutures.generate(gputco.DemandModel(8, monthly_log_growth=0.7), gputco.Horizon.years(2), 10, 1)
    assert all(math.isfinite(x) for row in futures.levels for x in row)
