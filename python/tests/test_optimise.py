"""optimal_reservation: the newsvendor reservation level, checked against a brute-force search."""
import numpy as np
import pytest

import gputco


def _offering(per_gpu_hour: float) -> gputco.Offering:
    return gputco.Offering(provider="testcloud", instance_type="gpu1", gpu="A100-40GB",
                           on_demand_hourly=per_gpu_hour, region="test-1",
                           source=gputco.Source(name="hand-made test offering", as_of="2026-01"))


def test_reserves_up_to_the_critical_quantile_and_beats_every_other_count():
    # 0..10 GPUs for equally many hours of one year.
    demand = gputco.DemandProfile.hourly(np.arange(8760, dtype=float) % 11)
    offering = _offering(3.0)
    reserved = gputco.Reserved(term_years=1, reservation_discount=0.52)
    advice = gputco.optimal_reservation(demand, offering, reserved)
    # c_r / p = 0.48, so reserve up to the 52nd percentile: F(5) = 6/11 = 0.545 >= 0.52 > F(4) = 5/11.
    assert advice.critical_fraction == pytest.approx(0.52)
    assert advice.reserved_gpus == 5
    totals = [gputco.evaluate(gputco.Mix([(1.0, reserved)], fleet_gpus=float(r), rounding="none"),
                              demand, offering).total for r in range(11)]
    assert advice.report.total == pytest.approx(min(totals))
    assert int(np.argmin(totals)) == 5


def test_bad_reservation_is_a_value_error():
    demand = gputco.DemandProfile.constant(2, gputco.Horizon.years(1))
    with pytest.raises(ValueError, match=r"^reserved\.reservation_discount = 1\.5: must be in \[0, 1\)$"):
        gputco.optimal_reservation(demand, _offering(1.0), gputco.Reserved(term_years=1, reservation_discount=1.5))


def test_mix_rounding_decides_the_reserved_count():
    demand = gputco.DemandProfile.constant(4, gputco.Horizon.years(1))
    offering = _offering(3.2)
    tranches = [(0.7, gputco.Reserved(term_years=1, reservation_discount=0.5)), (0.3, gputco.OnDemand())]
    # round(0.7 x 4) = 3 reserved at 1.60 + 1 on demand at 3.20 = 8.00 $/h; down: 2 + 2 = 9.60 $/h.
    assert gputco.evaluate(gputco.Mix(tranches), demand, offering).total == pytest.approx(8.0 * 8760)
    assert gputco.evaluate(gputco.Mix(tranches, rounding="down"), demand, offering).total == pytest.approx(9.6 * 8760)
    # fractional: 2.8 x 1.60 + 1.2 x 3.20 = 8.32 $/h
    assert gputco.evaluate(gputco.Mix(tranches, rounding="none"), demand, offering).total == pytest.approx(8.32 * 8760)
    assert gputco.Mix(tranches, rounding="up").rounding == "up"
    with pytest.raises(ValueError, match=r'^mix\.rounding = "sideways": must be one of nearest, down, up, none$'):
        gputco.Mix(tranches, rounding="sideways")


def test_advice_compares_with_the_on_demand_price_paid():
    # c_r = 0.6 × 3.00 = 1.80 per GPU-hour; with a 50% on-demand discount on-demand costs 1.50: reserve nothing.
    demand = gputco.DemandProfile.hourly(np.arange(8760, dtype=float) % 11)
    offering = _offering(3.0)
    reserved = gputco.Reserved(term_years=1, reservation_discount=0.4)
    advice = gputco.optimal_reservation(demand, offering, reserved, discounts=gputco.Discounts(on_demand_discount=0.5))
    assert advice.on_demand_rate == pytest.approx(1.5)
    assert advice.reserved_gpus == 0
    assert advice.report.total == pytest.approx(advice.report.baseline_total)


def test_advice_in_whole_instances():
    eight = gputco.Offering(provider="testcloud", instance_type="gpu8", gpu="A100-40GB", gpus_per_instance=8,
                            on_demand_hourly=24.0, region="test-1",
                            source=gputco.Source(name="hand-made test offering", as_of="2026-01"))
    demand = gputco.DemandProfile.constant(20, gputco.Horizon.years(1))
    reserved = gputco.Reserved(term_years=1, reservation_discount=0.4)
    whole = gputco.optimal_reservation(demand, eight, reserved)
    assert whole.gpus_per_unit == 8 and whole.reserved_gpus % 8 == 0
    # 20 GPUs all year: 2 instances reserved (16 GPUs) + 4 GPUs on a whole on-demand instance costs
    # 16 × 0.6 × 3 + 8 × 3 = 52.8 per hour; 3 instances 24 × 1.8 = 43.2 per hour: reserve 3.
    assert whole.reserved_gpus == 24
    single = gputco.optimal_reservation(demand, eight, reserved, units="gpus")
    assert single.gpus_per_unit == 1 and single.reserved_gpus == 20
    with pytest.raises(ValueError, match='^units = "pieces": must be one of instances, gpus$'):
        gputco.optimal_reservation(demand, eight, reserved, units="pieces")
