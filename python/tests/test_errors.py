"""gputco.InvalidInput reaches Python as ValueError with exactly the library's message."""
import pytest

import gputco


def test_invalid_input_is_value_error_with_same_message():
    message = "reserved.fraction = 1.4: must be in [0, 1] — ünïcode kept"
    with pytest.raises(ValueError) as info:
        gputco._core._raise_invalid_input(message)
    assert str(info.value) == message
    assert type(info.value) is ValueError


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: gputco.expected_spot_time(-1, 2, 0.1, 0.1, 24), "job.work_hours = -1: must be finite and > 0"),
        (lambda: gputco.Job(work_hours=10, checkpoint_interval_hours=0),
         "job.checkpoint_interval_hours = 0: must be finite and > 0"),
        (lambda: gputco.optimal_checkpoint_interval(0.1, 24, method="best"),
         'method = "best": must be one of young, daly, exact'),
        (lambda: gputco.Reserved(payment="monthly"),
         'reserved.payment = "monthly": must be one of no_upfront, partial_upfront, all_upfront'),
        (lambda: gputco.Reserved(renewal="maybe"), 'reserved.renewal = "maybe": must be one of renew, lapse'),
        (lambda: gputco.Horizon.years(0), "horizon.years = 0: must be > 0"),
        (lambda: gputco.evaluate(gputco.OnDemand(), gputco.DemandProfile.constant(1, gputco.Horizon.months(1)),
                                 gputco.Catalog.builtin().offerings[0], annual_discount_rate=5),
         "annual_discount_rate = 5: must be in [-0.5, 1] (a fraction a year: 0.05 for 5%)"),
        (lambda: gputco.Discounts(region_price_factor=1e-300), "discounts.region_price_factor = 1e-300: must be >= 0.001"),
        (lambda: gputco.DemandProfile.hourly([1.0] * 100),
         "demand.hours = 100: must be a positive multiple of 730 (whole months)"),
        (lambda: gputco.DemandProfile.constant(1, gputco.Horizon.months(1)).with_daily_pattern([1.0] * 23),
         "demand.daily_pattern.size = 23: must be 24"),
        (lambda: gputco.Discounts(voucher_price_factor=1.5),
         "discounts.voucher_price_factor = 1.5: must be in (0, 1]"),
        (lambda: gputco.simulate_spot(100, checkpoint_interval_hours=1), "mtbf_hours = None: required unless model is given"),
        (lambda: gputco.simulate_spot(100, 24, 1, paths=0), None),
    ],
)
def test_messages_to_the_letter(call, message):
    with pytest.raises(ValueError) as info:
        call()
    if message is not None:
        assert str(info.value) == message
    else:
        assert str(info.value).startswith("options.paths = 0: ")


def test_mix_fraction_error_names_the_tranche(catalog):
    demand = gputco.DemandProfile.constant(4, gputco.Horizon.years(1))
    offering = catalog.offering("aws", "p4d.24xlarge")
    with pytest.raises(ValueError, match=r"^mix\.tranches\[0\]\.fraction = 1\.4: must be in \[0, 1\]$"):
        gputco.evaluate(gputco.Mix([(1.4, gputco.OnDemand())]), demand, offering)


def test_unknown_catalog_entry_is_value_error(catalog):
    with pytest.raises(ValueError, match="provider"):
        catalog.offering("nosuchcloud", "x")
    with pytest.raises(ValueError, match=r'^gpu = "Z9000": unknown GPU'):
        catalog.gpu("Z9000")


def test_wrong_type_stays_type_error():
    with pytest.raises(TypeError):
        gputco.optimal_checkpoint_interval("a lot", 24)
