"""Properties that must hold for every input, checked over a thousand hostile inputs each (Hypothesis,
derandomized so every run tries the same examples):

- no call crashes the process or runs past a few seconds;
- every number returned is finite;
- every error is ValueError or TypeError in the library's form "<field> = <value>: <rule>";
- evaluate() and simulate_spot() from 8 Python threads at once equal the serial results.
"""
from __future__ import annotations

import json
import math
import re
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gputco

EXAMPLES = settings(max_examples=1000, derandomize=True, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# "<field> = <value>: <rule>" (a field may hold a user's JSON key, so any text before " = ").
MESSAGE = re.compile(r"^\S.* = .*: \S.*", re.DOTALL)

# Numbers a spreadsheet or a script can produce by mistake.
EDGE_FLOATS = [0.0, -0.0, 5e-324, 1e-300, 1e-12, 0.5, 1.0, 1.5, 2.0, 24.0, 1e6, 1e9, 1e12, 1e15, 1e300, 1e308,
               -1.0, -1e308, math.inf, -math.inf, math.nan]
EDGE_INTS = [0, 1, -1, 2, 3, 12, 100, 101, 1200, 1201, 2**31 - 1, 2**31, -(2**31), 2**63, 2**64, -(2**70)]
floats = st.one_of(st.sampled_from(EDGE_FLOATS), st.floats(allow_nan=True, allow_infinity=True),
                   st.floats(min_value=0, max_value=100))
ints = st.one_of(st.sampled_from(EDGE_INTS), st.integers(min_value=-(2**70), max_value=2**70),
                 st.integers(min_value=0, max_value=40))
wrong_types = st.one_of(st.none(), st.text(max_size=4), st.binary(max_size=4), st.lists(st.integers(), max_size=2),
                        st.just(object()), st.just({"a": 1}))
numbers = st.one_of(floats, ints, wrong_types)
whole = st.one_of(ints, floats, wrong_types)

OFFERING = gputco.catalog().offering("azure", "Standard_ND96asr_v4")


def check_error(error: Exception) -> None:
    """Errors are ValueError or TypeError in the library's own form."""
    assert type(error) in (ValueError, TypeError), f"{type(error).__name__}: {error}"
    assert MESSAGE.match(str(error)), f"{type(error).__name__} not in the library's form: {error}"


def finite_numbers(value, path="result"):
    """Every float reachable from a result (numbers, arrays, the library's value types) is finite."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, (int, float)):
        assert math.isfinite(value), f"{path} = {value}"
        return
    if isinstance(value, np.ndarray):
        assert np.isfinite(value).all(), f"{path} has non-finite entries"
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            finite_numbers(item, f"{path}[{i}]")
        return
    if isinstance(value, gputco.CostReport):
        for name in ("total", "npv", "used_gpu_hours", "reserved_utilisation", "owned_utilisation",
                     "baseline_total", "savings", "savings_fraction", "break_even_utilisation",
                     "effective_cost_per_used_gpu_hour"):
            finite_numbers(getattr(value, name), f"{path}.{name}")
        # None, never NaN or infinity, when (almost) no GPU-hour is used: below 1e-12 GPU-hours a cost per
        # used hour does not apply (F1, F16).
        assert (value.effective_cost_per_used_gpu_hour is None) == (value.used_gpu_hours < 1e-12), path
        for i, month in enumerate(value.months):
            finite_numbers(month.total, f"{path}.months[{i}].total")
        return
    if isinstance(value, gputco.DemandProfile):
        finite_numbers([value.peak_gpus(), value.mean_gpus(), value.total_gpu_hours()], path)
        return
    if isinstance(value, gputco.ExpectedSpotTime):
        finite_numbers([value.billed_hours, value.wall_hours, value.interruptions], path)
        return
    if isinstance(value, gputco.ReservationAdvice):
        finite_numbers([value.reserved_gpus, value.critical_fraction, value.demand_covered_fraction,
                        value.effective_reserved_rate, value.on_demand_rate], path)
        finite_numbers(value.report, f"{path}.report")
        return
    if isinstance(value, gputco.Horizon):
        finite_numbers([value.month_count, value.hours], path)
        return


def call(function, *args, **kwargs):
    """Calls `function`; a result must be finite, an error must be the library's."""
    try:
        result = function(*args, **kwargs)
    except (ValueError, TypeError) as error:
        check_error(error)
        return None
    finite_numbers(result)
    return result


# --- demand and horizons --------------------------------------------------------------------------------

@EXAMPLES
@given(n=whole, kind=st.sampled_from(["years", "months"]))
def test_horizons(n, kind):
    call(getattr(gputco.Horizon, kind), n)


horizons = st.integers(min_value=1, max_value=1200).map(gputco.Horizon.months)
small_horizons = st.integers(min_value=1, max_value=36).map(gputco.Horizon.months)


@EXAMPLES
@given(a=numbers, b=numbers, horizon=small_horizons, kind=st.sampled_from(["constant", "linear", "compound"]))
def test_demand_shapes(a, b, horizon, kind):
    if kind == "constant":
        call(gputco.DemandProfile.constant, a, horizon)
    elif kind == "linear":
        call(gputco.DemandProfile.linear_growth, a, b, horizon)
    else:
        call(gputco.DemandProfile.compound_growth, a, b, horizon)


step = st.one_of(st.tuples(whole, numbers), st.builds(lambda m, g: (m, g), ints, floats), wrong_types)


@EXAMPLES
@given(steps=st.lists(step, max_size=4), months=st.integers(min_value=1, max_value=48), start=st.booleans())
def test_demand_steps(steps, months, start):
    if start:
        steps = [(0, 1.0)] + steps  # mostly past the first-step rule, on to the later steps
    call(gputco.DemandProfile.steps, steps, gputco.Horizon.months(months))


@EXAMPLES
@given(values=st.lists(floats, min_size=1, max_size=5), factor=numbers, pattern=st.lists(numbers, max_size=25))
def test_demand_series_patterns_and_scaling(values, factor, pattern):
    series = np.resize(np.array(values, dtype=float), 730)
    demand = call(gputco.DemandProfile.hourly, series)
    base = demand if demand is not None else gputco.DemandProfile.constant(3, gputco.Horizon.months(1))
    call(base.scaled, factor)
    call(base.with_daily_pattern, pattern)
    call(base.with_weekly_pattern, pattern)


# --- strategies and the cost engine ---------------------------------------------------------------------

owned = st.builds(lambda capex, life, residual, watts, pue, power, staff: dict(
    capex_per_gpu=capex, life_years=life, residual_fraction=residual, watts_per_gpu=watts, pue=pue,
    electricity_per_kwh=power, staff_per_month=staff), numbers, whole, numbers, numbers, numbers, numbers, numbers)


def build(constructor, **kwargs):
    """A strategy object, or None when its own constructor rejects the input (checked like any call)."""
    return call(constructor, **kwargs)


@EXAMPLES
@given(kind=st.sampled_from(["on_demand", "reserved", "owned", "mix", "spot"]), owned_args=owned,
       discount=numbers, term=whole, fraction=numbers, fleet=numbers, overhead=numbers, price=numbers,
       plan=numbers, free=numbers, voucher=numbers, region=numbers, rate=numbers,
       gpus=st.one_of(floats, st.floats(min_value=0, max_value=1e9)), horizon=horizons)
def test_evaluate_is_finite_or_a_clear_error(kind, owned_args, discount, term, fraction, fleet, overhead, price,
                                             plan, free, voucher, region, rate, gpus, horizon):
    demand = call(gputco.DemandProfile.constant, gpus, horizon)
    if demand is None:
        return
    if kind == "on_demand":
        strategy = gputco.OnDemand()
    elif kind == "reserved":
        strategy = build(gputco.Reserved, term_years=term, reservation_discount=discount)
    elif kind == "owned":
        strategy = build(gputco.Owned, **owned_args)
    else:
        tranche = (build(gputco.SpotTranche, price_per_gpu_hour=price, overhead=overhead) if kind == "spot"
                   else build(gputco.Reserved, term_years=3, reservation_discount=discount))
        if tranche is None:
            return
        rest = 1.0 - fraction if isinstance(fraction, float) and math.isfinite(fraction) else 0.5
        strategy = build(gputco.Mix, tranches=[(fraction, tranche), (rest, gputco.OnDemand())], fleet_gpus=fleet)
    if strategy is None:
        return
    discounts = build(gputco.Discounts, on_demand_discount=plan, free_gpu_hours=free, voucher_price_factor=voucher,
                      region_price_factor=region)
    if discounts is None:
        return
    call(gputco.evaluate, strategy, demand, OFFERING, discounts=discounts, annual_discount_rate=rate)


@EXAMPLES
@given(gpus=st.one_of(floats, st.floats(min_value=0, max_value=1e9)), discount=numbers, term=whole,
       horizon=horizons)
def test_optimal_reservation(gpus, discount, term, horizon):
    demand = call(gputco.DemandProfile.constant, gpus, horizon)
    reserved = build(gputco.Reserved, term_years=term, reservation_discount=discount)
    if demand is not None and reserved is not None:
        call(gputco.optimal_reservation, demand, OFFERING, reserved)


# --- checkpoint closed forms and interruption helpers -----------------------------------------------------

@EXAMPLES
@given(work=numbers, interval=numbers, write=numbers, restart=numbers, mtbf=numbers, wait=numbers)
def test_expected_spot_time(work, interval, write, restart, mtbf, wait):
    call(gputco.expected_spot_time, work, interval, write, restart, mtbf, capacity_wait_hours=wait)


@EXAMPLES
@given(write=numbers, mtbf=numbers, method=st.one_of(st.sampled_from(["young", "daly", "exact"]), wrong_types),
       fraction=numbers, work=numbers, interval=numbers)
def test_checkpoint_interval_and_mtbf_helpers(write, mtbf, method, fraction, work, interval):
    call(gputco.optimal_checkpoint_interval, write, mtbf, method=method)
    call(gputco.mtbf_from_monthly_interruption_fraction, fraction)
    call(gputco.segment_count, work, interval)


# --- the catalog's JSON loader -------------------------------------------------------------------------

VALID_ROW = {"provider": "p", "region": "r", "instance_type": "x", "gpu": "T4", "on_demand_hourly": 1.5,
             "source": {"name": "s", "as_of": "2026"}}
json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
              st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)),
    lambda children: st.one_of(st.lists(children, max_size=3), st.dictionaries(st.text(max_size=6), children,
                                                                                 max_size=3)),
    max_leaves=10)


@EXAMPLES
@given(field=st.sampled_from(sorted(VALID_ROW) + ["reserved", "spot_hourly", "gpus_per_instance", "extra"]),
       value=json_values, raw=st.sampled_from(["", "1e400", "-1e400", "[" * 40, "\"\\ud800\"", "{\"a\":1,\"a\":2}"]))
def test_catalog_rows_with_any_value(field, value, raw):
    row = dict(VALID_ROW, **{field: value})
    call(gputco.Catalog.from_json, json.dumps({"offerings": [row]}))
    if raw:
        text = json.dumps({"offerings": [dict(VALID_ROW, on_demand_hourly=0)]}).replace("0}", raw + "}", 1)
        call(gputco.Catalog.from_json, text)


@EXAMPLES
@given(text=st.one_of(st.text(max_size=60), st.binary(max_size=60),
                      json_values.map(json.dumps), st.builds(lambda n: "[" * n + "]" * n, st.integers(0, 20000))))
def test_catalog_from_any_text(text):
    call(gputco.Catalog.from_json, text)


# --- the spot Monte Carlo: argument checking and bounded valid runs -----------------------------------------

@EXAMPLES
@given(work=st.one_of(numbers, st.floats(min_value=1, max_value=1000)),
       mtbf=st.one_of(numbers, st.floats(min_value=1, max_value=1000)),
       interval_per_mtbf=st.floats(min_value=0.01, max_value=5), paths=st.one_of(st.integers(1, 2048), wrong_types),
       seed=st.one_of(st.integers(0, 2**64 - 1), wrong_types))
def test_simulate_spot_poisson(work, mtbf, interval_per_mtbf, paths, seed):
    # Valid runs are kept small (the spot engine's own limits on huge paths and events are its tests').
    interval = mtbf * interval_per_mtbf if isinstance(mtbf, float) and 1 <= mtbf <= 1000 else 2.0
    result = call(gputco.simulate_spot, work, mtbf, interval, 0.05, 0.1, price_per_hour=1.0, paths=paths, seed=seed,
                  threads=1)
    if result is not None:
        finite_numbers([result.cost.mean, result.billed_hours.mean, result.wall_hours.mean], "spot")
        finite_numbers(result.samples.cost, "spot.samples.cost")


# --- wrong types name their parameter -------------------------------------------------------------------------

@pytest.mark.parametrize("function, kwargs, message", [
    (gputco.simulate_spot, dict(work_hours="x", mtbf_hours=24), "work_hours = 'x': must be a number, not str"),
    (gputco.Horizon.years, dict(n=1.5), "n = 1.5: must be a whole number, not float"),
    (gputco.Horizon.months, dict(n=2**31), "n = 2147483648: must be a whole number in the range of this "
                                          "parameter's type, not int"),
    (gputco.Owned, dict(capex_per_gpu=None), "capex_per_gpu = None: must be a number, not NoneType"),
    (gputco.evaluate, dict(strategy="reserved", demand=None, offering=OFFERING),
     "strategy = 'reserved': must be a gputco.OnDemand or a gputco.Reserved or a gputco.Owned or a gputco.Mix, "
     "not str"),
    (gputco.DemandProfile.steps, dict(steps=[(0, 1), ("a", 2)], horizon=gputco.Horizon.months(3)),
     "demand.steps[1].start_month = 'a': must be a whole number in the range of int, not str"),
    (gputco.DemandProfile.steps, dict(steps=[5], horizon=gputco.Horizon.months(3)),
     "demand.steps[0] = 5: must be a DemandStep or a (start_month, gpus) pair, not int"),
    (gputco.Mix, dict(tranches=[(0.5, "spot"), (0.5, gputco.OnDemand())]),
     "mix.tranches[0].kind = 'spot': must be Reserved, Owned, SpotTranche or OnDemand, not str"),
])
def test_wrong_types_are_type_errors_naming_the_parameter(function, kwargs, message):
    with pytest.raises(TypeError) as info:
        function(**kwargs)
    assert str(info.value) == message


def test_spot_tranche_job_of_wrong_type():
    result = gputco.simulate_spot(100, 24, 2, paths=1024, seed=1)
    with pytest.raises(TypeError, match=r"^job = 'x': must be a Job or a number of work hours, not str$"):
        gputco.spot_tranche(result, job="x")


def test_bytes_arguments_give_str_messages():
    with pytest.raises(ValueError) as info:
        gputco.Catalog.from_json(b"\xff\xfe{}")
    assert str(info.value).startswith('catalog json = "\\xFF\\xFE{}": not valid JSON')
    with pytest.raises(ValueError, match=r'^source\.name = "a\\xFF": must be valid UTF-8 text$'):
        gputco.Source(name=b"a\xff", as_of="2026")


# --- 8 Python threads at once ----------------------------------------------------------------------------------

def test_evaluate_and_simulate_spot_from_eight_threads_equal_serial_results():
    demand = gputco.DemandProfile.linear_growth(2, 40, gputco.Horizon.years(3)).with_weekly_pattern(
        [1, 1, 1, 1, 1, 0.4, 0.3])
    strategies = [gputco.OnDemand(), gputco.Reserved(term_years=1, reservation_discount=0.35),
                  gputco.Mix([(0.6, gputco.Reserved(term_years=3, reservation_discount=0.5)), (0.4, gputco.OnDemand())]),
                  gputco.Owned(capex_per_gpu=25_000, colocation_per_gpu_month=150)]

    def evaluate(i):
        report = gputco.evaluate(strategies[i % 4], demand, OFFERING, annual_discount_rate=0.01 * (i % 5))
        return report.total, report.npv, report.savings, [m.total for m in report.months]

    def simulate(i):
        r = gputco.simulate_spot(500, 24, 2, 0.1, 0.2, price_per_hour=1.3, paths=4096, seed=i, threads=1 + i % 2)
        return r.cost.mean, np.array(r.samples.cost), np.array(r.samples.wall_hours)

    tasks = 32
    serial_reports = [evaluate(i) for i in range(tasks)]
    serial_runs = [simulate(i) for i in range(tasks)]
    with ThreadPoolExecutor(max_workers=8) as pool:
        reports = list(pool.map(evaluate, range(tasks)))
        runs = list(pool.map(simulate, range(tasks)))
    assert reports == serial_reports  # bit for bit
    for (mean, cost, wall), (serial_mean, serial_cost, serial_wall) in zip(runs, serial_runs):
        assert mean == serial_mean
        np.testing.assert_array_equal(cost, serial_cost)
        np.testing.assert_array_equal(wall, serial_wall)
