import gc
import weakref

import numpy as np
import pandas as pd
import pytest

import gputco

H3 = gputco.Horizon.years(3)


def test_horizon():
    assert H3.month_count == 36 and H3.hour_count == 26280 and H3.hours == 26280.0
    assert gputco.Horizon.months(36) == H3


def test_gpus_per_hour_is_a_read_only_view_that_keeps_the_profile_alive():
    profile = gputco.DemandProfile.linear_growth(4, 16, H3)
    view = profile.gpus_per_hour
    assert view.dtype == np.float64 and view.shape == (26280,)
    assert not view.flags.writeable and not view.flags.owndata
    assert np.shares_memory(view, profile.gpus_per_hour)  # the same memory every time, no copy
    with pytest.raises(ValueError):
        view[0] = 99.0
    assert view[0] == 4.0 and view[-1] == 16.0
    ref = weakref.ref(profile)
    del profile
    gc.collect()
    assert ref() is not None  # the view holds it
    assert view.sum() == pytest.approx(26280 * 10.0)
    del view
    gc.collect()
    assert ref() is None


def test_hourly_from_numpy_pandas_and_lists():
    values = np.resize(np.r_[np.zeros(8), np.full(16, 2.0)], 8760)
    for source in (values, pd.Series(values), values.astype(np.float32), list(values)):
        profile = gputco.DemandProfile.hourly(source)
        assert profile.horizon == gputco.Horizon.years(1)
        np.testing.assert_array_equal(profile.gpus_per_hour, values)
    with pytest.raises(ValueError, match=r"^demand\.gpus_per_hour\[3\] = -1: must be finite and >= 0$"):
        gputco.DemandProfile.hourly(np.r_[np.ones(3), -1.0, np.ones(726)])
    with pytest.raises(ValueError, match=r"^demand\.gpus_per_hour\.ndim = 2: must be 1$"):
        gputco.DemandProfile.hourly(np.ones((730, 2)))


def test_patterns_steps_and_totals():
    profile = gputco.DemandProfile.constant(10, H3).with_weekly_pattern([1, 1, 1, 1, 1, 0.5, 0.5])
    assert profile.peak_gpus() == 10 and profile.mean_gpus() < 10
    daily = gputco.DemandProfile.constant(2, gputco.Horizon.months(1)).with_daily_pattern(
        np.r_[np.zeros(8), np.ones(16)])
    busy_hours = np.count_nonzero(np.arange(730) % 24 >= 8)
    assert daily.total_gpu_hours() == pytest.approx(2 * busy_hours)
    steps = gputco.DemandProfile.steps([(0, 2), gputco.DemandStep(12, 4), (24, 8)], H3)
    assert steps.total_gpu_hours() == pytest.approx(8760 * (2 + 4 + 8))
    assert steps.scaled(0.5).total_gpu_hours() == pytest.approx(8760 * 7)
    growth = gputco.DemandProfile.compound_growth(4, 1.0, gputco.Horizon.years(2))
    assert growth.gpus_per_hour[8760] == pytest.approx(8.0)
    assert len(growth) == growth.hours == 17520
