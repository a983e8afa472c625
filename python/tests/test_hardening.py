"""The hostile inputs that used to crash, hang or return NaN, each exactly as it was reported: now a
clear error in the library's words, or a finite answer, and the process lives."""
import _thread
import json
import math
import threading

import pytest

import gputco

A100 = gputco.catalog().offering("azure", "Standard_ND96asr_v4")


def test_a_step_after_the_horizon_is_an_error_not_a_heap_overflow():
    with pytest.raises(ValueError, match=r"^demand\.steps\[1\]\.start_month = 4: must be < horizon months \(3\)$"):
        gputco.DemandProfile.steps([(0, 1.0), (4, 2.0)], gputco.Horizon.months(3))


def test_month_counts_cannot_overflow():
    with pytest.raises(ValueError, match=r"^horizon\.years = 2147483647: must be <= 100$"):
        gputco.Horizon.years(2**31 - 1)
    with pytest.raises(ValueError, match=r"^demand\.steps\[1\]\.start_month = 2147483647: must be < horizon months"):
        gputco.DemandProfile.steps([gputco.DemandStep(0, 1.0), gputco.DemandStep(start_month=2**31 - 1, gpus=1.0)],
                                   gputco.Horizon.months(3))


def test_deeply_nested_json_is_refused_without_a_stack_overflow():
    text = '{"gpus": ' + "[" * 100_000 + "]" * 100_000 + "}"
    with pytest.raises(ValueError, match=r"^catalog json depth = 33: must be at most 32 nested objects/arrays$"):
        gputco.Catalog.from_json(text)


def test_huge_demand_is_refused_and_the_largest_allowed_is_advised_at_once():
    with pytest.raises(ValueError, match=r"^demand\.gpus = 10000000000: must be <= 1e\+09$"):
        gputco.DemandProfile.constant(1e10, gputco.Horizon.years(1))
    demand = gputco.DemandProfile.constant(1e9, gputco.Horizon.years(1))
    advice = gputco.optimal_reservation(demand, A100, gputco.Reserved(term_years=1, reservation_discount=0.3))
    assert advice.reserved_gpus == 1e9
    assert math.isfinite(advice.report.total)


def test_a_100_mb_catalog_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(100 * 2**20)  # sparse: 100 MiB without writing them
    with pytest.raises(ValueError, match=r'^catalog file = ".*huge\.json": is 104857600 bytes; must be at most '
                                         r"16777216 \(16 MiB\)$"):
        gputco.Catalog.from_json_file(path)


def test_no_nan_or_infinity_from_huge_numbers():
    with pytest.raises(ValueError, match=r"^demand\.gpus = 1e\+308: must be <= 1e\+09$"):
        gputco.DemandProfile.constant(1e308, gputco.Horizon.years(1))
    with pytest.raises(ValueError, match=r"^job\.checkpoint_interval_hours = 1e\+308: must be in \[1e-09, 1e\+09\] "
                                         r"hours$"):
        gputco.expected_spot_time(200, 1e308, 0.1, 0.25, 20)
    with pytest.raises(ValueError, match=r"^owned\.capex_per_gpu = 1e\+308: must be <= 1e\+12$"):
        gputco.Owned(capex_per_gpu=1e308)
    with pytest.raises(ValueError, match=r"^monthly_interruption_fraction = 5e-324: must be >= 7\.3e-28 \(an MTBF of "
                                         r"at most 1e\+30 hours\)$"):
        gputco.mtbf_from_monthly_interruption_fraction(5e-324)


def test_a_valid_job_with_one_segment_has_a_finite_expectation_and_runs():
    # interval 1e5 h > work 200 h: one segment. Was NaN, so simulate_spot said "expects -nan interruptions".
    t = gputco.expected_spot_time(200, 1e5, 0.1, 0.25, 20)
    assert t.interruptions == pytest.approx(math.exp(0.0125) * math.expm1(10.005), rel=1e-12)
    assert math.isfinite(t.wall_hours)


def test_parser_errors_are_the_librarys_own():
    with pytest.raises(ValueError, match=r"""^catalog json = "\{"version": 1e400\}": not valid JSON \(number overflow """
                                         r"parsing '1e400'\)$"):
        gputco.Catalog.from_json('{"version": 1e400}')
    with pytest.raises(ValueError, match=r'^catalog json key = "gpus": appears twice in one object$'):
        gputco.Catalog.from_json('{"gpus": [], "gpus": []}')


def test_wrong_type_names_the_parameter():
    result = gputco.simulate_spot(100, 24, 2, paths=1024, seed=1)
    with pytest.raises(TypeError, match=r"^job = 'x': must be a Job or a number of work hours, not str$"):
        gputco.spot_tranche(result, job="x")


def test_messages_never_cut_a_character_in_half():
    with pytest.raises(ValueError) as info:
        gputco.Catalog.from_json("a" * 39 + "é")
    assert str(info.value).startswith('catalog json = "' + "a" * 39 + '...": not valid JSON')


def test_ctrl_c_stops_a_large_catalog_while_it_loads():
    row = {"provider": "p", "region": "r", "gpu": "T4", "on_demand_hourly": 1.5,
           "source": {"name": "s", "as_of": "2026"}}
    text = json.dumps({"offerings": [dict(row, instance_type=f"x{i}") for i in range(90_000)]})  # ~12 MiB, seconds
    loaded = None
    timer = threading.Timer(0.05, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        loaded = gputco.Catalog.from_json(text)
    timer.join()
    assert loaded is None  # stopped inside the call, not after it returned
    assert len(gputco.Catalog.from_json(json.dumps({"offerings": [dict(row, instance_type="y")]})).offerings) == 1
