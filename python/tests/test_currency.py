import datetime

import pytest
from hypothesis import given, settings, strategies as st

import gputco


def test_builtin_rates_and_cross_rate():
    fx = gputco.ExchangeRates.builtin()
    assert fx.rate("EUR", "USD", "2024-07-01") == 1.0705
    # 1 CNY = 1.0705 / 7.7748 USD through EUR
    assert fx.rate("CNY", "USD", datetime.date(2025, 1, 1)) == pytest.approx(1.0705 / 7.7748, rel=1e-15)
    assert "ECB" in fx.describe("CNY", "USD", "2025-01-01")


def test_mixing_currencies_raises_value_error():
    with pytest.raises(ValueError, match=r"^money.currency = \"CNY\": cannot add to an amount in USD"):
        gputco.Money(1, "USD") + gputco.Money(2, "CNY")
    with pytest.raises(ValueError, match="cannot compare with an amount in EUR"):
        gputco.Money(1, "EUR") < gputco.Money(2, "USD")
    assert gputco.Money(1, "EUR") + gputco.Money(2, "EUR") == gputco.Money(3, "EUR")


def test_no_rate_before_the_table():
    with pytest.raises(ValueError, match=r"^currency = \"CNY\": no exchange rate to USD in force at 2017-11-12"):
        gputco.ExchangeRates.builtin().rate("CNY", "USD", "2017-11-12")
    with pytest.raises(ValueError, match="must be an ISO date"):
        gputco.ExchangeRates.builtin().rate("CNY", "USD", "2025-02-30")


def test_user_table_picks_the_rate_in_force():
    src = gputco.Source("test", "2024")
    fx = gputco.ExchangeRates([
        gputco.ExchangeRate(from_currency="EUR", to_currency="USD", rate=1.1, date="2024-01-01", source=src),
        gputco.ExchangeRate(from_currency="EUR", to_currency="USD", rate=1.2, date="2024-07-01", source=src),
    ])
    assert fx.rate("EUR", "USD", "2024-06-30") == 1.1
    assert fx.rate("EUR", "USD", "2024-07-01") == 1.2
    assert fx.convert(gputco.Money(10, "USD"), "EUR", "2024-08-01").amount == pytest.approx(10 / 1.2)


@settings(derandomize=True, max_examples=200)
@given(amount=st.floats(min_value=0, max_value=1e9), currency=st.sampled_from(["USD", "EUR", "CNY"]),
       to=st.sampled_from(["USD", "EUR", "CNY"]))
def test_round_trip_conversion(amount, currency, to):
    fx = gputco.ExchangeRates.builtin()
    there = fx.convert(gputco.Money(amount, currency), to, "2025-06-01")
    back = fx.convert(there, currency, "2025-06-01")
    assert back.currency == currency
    assert back.amount == pytest.approx(amount, rel=1e-12, abs=1e-12)
