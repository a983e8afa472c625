#include <doctest/doctest.h>

#include <random>

#include "gputco/catalog/currency.hpp"

using namespace gputco;

namespace {

ExchangeRate rate(const char* from, const char* to, double value, const char* date) {
    return ExchangeRate{from, to, value, Date::parse(date), Source{"test table", date}};
}

}  // namespace

TEST_CASE("Money: arithmetic and comparison within one currency") {
    CHECK((Money{1.5, "USD"} + Money{2.25, "USD"}) == Money{3.75, "USD"});
    CHECK((Money{5, "EUR"} - Money{2, "EUR"}) == Money{3, "EUR"});
    CHECK((Money{1, "CNY"} < Money{2, "CNY"}));
    CHECK((Money{1, "CNY"} != Money{1, "USD"}));  // equality is not an exchange: different values
}

TEST_CASE("Money: mixing currencies without a rate is an error") {
    CHECK_THROWS_WITH_AS((Money{1, "USD"} + Money{2, "CNY"}),
                         "money.currency = \"CNY\": cannot add to an amount in USD without an exchange "
                         "rate (convert it first)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS((Money{1, "USD"} - Money{2, "EUR"}),
                         "money.currency = \"EUR\": cannot subtract from an amount in USD without an "
                         "exchange rate (convert it first)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS((void)(Money{1, "EUR"} < Money{2, "USD"}),
                         "money.currency = \"USD\": cannot compare with an amount in EUR without an "
                         "exchange rate (convert it first)",
                         InvalidInput);
}

TEST_CASE("ExchangeRate validation names the field") {
    CHECK_THROWS_WITH_AS(ExchangeRates({rate("usd", "EUR", 1, "2024")}),
                         "rates[0].from = \"usd\": must be a three-letter upper-case ISO 4217 code", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates({rate("USD", "USD", 1, "2024")}),
                         "rates[0].to = \"USD\": must differ from `from`", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates({rate("USD", "EUR", 0, "2024")}),
                         "rates[0].rate = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(
        ExchangeRates({rate("USD", "EUR", 0.9, "2024-01-02"), rate("EUR", "USD", 1.1, "2024-01-02")}),
        "rates[1].date = \"2024-01-02\": a second EUR/USD rate on the same date", InvalidInput);
}

TEST_CASE("The rate in force at a date: before, on, between and after the dated entries") {
    const ExchangeRates fx({rate("EUR", "USD", 1.10, "2024-01-01"), rate("EUR", "USD", 1.20, "2024-07-01"),
                            rate("EUR", "CNY", 7.80, "2024-01-01")});
    CHECK_THROWS_WITH_AS(fx.rate("EUR", "USD", Date::parse("2023-12-31")),
                         "currency = \"EUR\": no exchange rate to USD in force at 2023-12-31 (known: EUR/CNY "
                         "from 2024-01-01, EUR/USD from 2024-01-01, EUR/USD from 2024-07-01)",
                         InvalidInput);
    CHECK(fx.rate("EUR", "USD", Date::parse("2024-01-01")) == 1.10);
    CHECK(fx.rate("EUR", "USD", Date::parse("2024-06-30")) == 1.10);
    CHECK(fx.rate("EUR", "USD", Date::parse("2024-07-01")) == 1.20);
    CHECK(fx.rate("EUR", "USD", Date::parse("2030")) == 1.20);
    // The reverse reads the same entry: 1 / 1.2.
    CHECK(fx.rate("USD", "EUR", Date::parse("2024-08")) == doctest::Approx(1 / 1.20).epsilon(1e-15));
    // A cross rate through EUR: 1 CNY = (1 / 7.80) EUR = 1.20 / 7.80 USD after July.
    const RateQuote q = fx.quote("CNY", "USD", Date::parse("2024-08"));
    CHECK(q.rate == doctest::Approx(1.20 / 7.80).epsilon(1e-15));
    REQUIRE(q.legs.size() == 2);
    CHECK(q.legs[0].to == "CNY");
    CHECK(q.legs[1].date == Date{2024, 7, 1});
    CHECK(fx.rate("JPY", "JPY", Date::parse("1999")) == 1.0);
    CHECK_THROWS_WITH_AS(fx.rate("JPY", "USD", Date::parse("2025")),
                         "currency = \"JPY\": no exchange rate to USD in force at 2025-01-01 (known: EUR/CNY "
                         "from 2024-01-01, EUR/USD from 2024-01-01, EUR/USD from 2024-07-01)",
                         InvalidInput);
}

TEST_CASE("Converting there and back returns the amount, for many seeded amounts and dates") {
    const ExchangeRates& fx = ExchangeRates::builtin();
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> amount(0, 1e6);
    std::uniform_int_distribution<int> day(0, 2000);
    for (int i = 0; i < 500; ++i) {
        const Money m{amount(rng), i % 3 == 0 ? "CNY" : (i % 3 == 1 ? "EUR" : "USD")};
        const Date d{2024 + day(rng) / 366, 6, 28};  // every date on or after the table's
        const char* to = i % 2 == 0 ? "USD" : "CNY";
        const Money there = fx.convert(m, to, d);
        const Money back = fx.convert(there, m.currency, d);
        CHECK(back.currency == m.currency);
        CHECK(back.amount == doctest::Approx(m.amount).epsilon(1e-12));
    }
}

TEST_CASE("Built-in table: ECB reference rates of 2024-06-28") {
    const ExchangeRates& fx = ExchangeRates::builtin();
    const Date d{2024, 7, 15};
    CHECK(fx.rate("EUR", "USD", d) == 1.0705);
    CHECK(fx.rate("EUR", "CNY", d) == 7.7748);
    // 8.5 CNY/h in USD: 8.5 x 1.0705 / 7.7748 = 9.09925 / 7.7748 = 1.1703516...
    CHECK(fx.convert(Money{8.5, "CNY"}, "USD", d).amount == doctest::Approx(8.5 * 1.0705 / 7.7748));
    CHECK(fx.convert(Money{8.5, "CNY"}, "USD", d).amount == doctest::Approx(1.1703516).epsilon(1e-7));
    for (const ExchangeRate& r : fx.rates()) CHECK(r.source.name.find("ECB") != std::string::npos);
    CHECK_THROWS_AS(fx.rate("CNY", "USD", Date{2017, 11, 12}), InvalidInput);
}

TEST_CASE("Converting an offering names the rate's source") {
    Offering o;
    o.provider = "alibaba";
    o.region = "cn-beijing";
    o.instance_type = "gn6i";
    o.gpu = "T4";
    o.currency = "CNY";
    o.on_demand_hourly = 8.5;
    o.spot_hourly = 2.0;
    o.source = {"seed", "undated"};
    const Offering usd = ExchangeRates::builtin().convert(o, "USD", Date{2025, 1, 1});
    CHECK(usd.currency == "USD");
    CHECK(usd.on_demand_hourly == doctest::Approx(8.5 * 1.0705 / 7.7748));
    CHECK(*usd.spot_hourly == doctest::Approx(2.0 * 1.0705 / 7.7748));
    CHECK(usd.notes.find("ECB euro foreign exchange reference rates") != std::string::npos);
}

TEST_CASE("ECB CSV: rates per EUR, N/A skipped, errors name file and line") {
    const std::string csv =
        "Date,USD,JPY,CNY,\n"
        "2024-06-28,1.0705,171.94,7.7748,\n"
        "2024-06-27,1.0699,171.53,N/A,\n";
    const ExchangeRates fx = ExchangeRates::from_ecb_csv(csv, "eurofxref-hist.csv");
    CHECK(fx.rates().size() == 5);
    CHECK(fx.rate("EUR", "JPY", Date{2024, 6, 27}) == 171.53);
    CHECK(fx.rate("EUR", "USD", Date{2024, 6, 28}) == 1.0705);
    CHECK_THROWS_AS(fx.rate("EUR", "CNY", Date{2024, 6, 27}), InvalidInput);
    CHECK(fx.rates()[0].source.as_of == "2024-06-28");
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,abc,\n", "x.csv"),
                         "x.csv:2: USD = \"abc\": must be a number or N/A", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,1.1,2.2,\n", "x.csv"),
                         "x.csv:2 = 3: fields on the line, the header has 2", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Day,USD,\n", "x.csv"),
                         "x.csv:1: column 1 = \"Day\": must be \"Date\" (the ECB reference-rate CSV header)",
                         InvalidInput);
    const ExchangeRates merged = ExchangeRates::builtin().merged_with(fx);
    CHECK(merged.rates().size() == 5);  // the two 2024-06-28 rates replaced by the file's
}

TEST_CASE("ECB daily CSV (eurofxref.csv): dates as 28 June 2024, spaces after commas, a trailing comma") {
    // The layout of the ECB's daily file: "Date, USD, JPY, ..., " then one row "<day> <Month> <year>, ...".
    // Rates of 2024-06-28 as in the built-in table (eurofxref-daily.xml of that day).
    const std::string daily =
        "Date, USD, JPY, CNY, \r\n"
        "28 June 2024, 1.0705, 171.94, 7.7748, \r\n";
    const ExchangeRates fx = ExchangeRates::from_ecb_csv(daily, "eurofxref.csv");
    REQUIRE(fx.rates().size() == 3);
    CHECK(fx.rates()[0].date == Date{2024, 6, 28});
    CHECK(fx.rate("EUR", "USD", Date{2024, 6, 28}) == 1.0705);
    CHECK(fx.rate("EUR", "CNY", Date{2024, 6, 28}) == 7.7748);
    CHECK(fx.rates()[0].source.as_of == "2024-06-28");
    // A day with a leading zero, as the file writes days before the 10th.
    CHECK(ExchangeRates::from_ecb_csv("Date, USD, \n03 June 2021, 1.2187, \n").rates().at(0).date == Date{2021, 6, 3});
    CHECK(ExchangeRates::from_ecb_csv("Date, USD, \n3 June 2021, 1.2187, \n").rates().at(0).date == Date{2021, 6, 3});
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date, USD, \n31 June 2024, 1.07, \n", "eurofxref.csv"),
                         "eurofxref.csv:2: Date = \"31 June 2024\": must be a date that exists, as YYYY-MM-DD "
                         "(eurofxref-hist.csv) or as 28 June 2024 (eurofxref.csv)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date, USD, \n28 Juni 2024, 1.07, \n", "eurofxref.csv"),
                         "eurofxref.csv:2: Date = \"28 Juni 2024\": must be a date that exists, as YYYY-MM-DD "
                         "(eurofxref-hist.csv) or as 28 June 2024 (eurofxref.csv)",
                         InvalidInput);
}

TEST_CASE("ECB CSV: every error names the file and line, also those the rate table would find") {
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,0,\n", "x.csv"),
                         "x.csv:2: USD = \"0\": must be a finite rate > 0 (units per EUR)", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,-1.07,\n", "x.csv"),
                         "x.csv:2: USD = \"-1.07\": must be a finite rate > 0 (units per EUR)", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,nan,\n", "x.csv"),
                         "x.csv:2: USD = \"nan\": must be a finite rate > 0 (units per EUR)", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,inf,\n", "x.csv"),
                         "x.csv:2: USD = \"inf\": must be a finite rate > 0 (units per EUR)", InvalidInput);
    // The same day twice, once in each form: the second row names the first.
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,\n2024-06-28,1.07,\n28 June 2024,1.08,\n", "x.csv"),
                         "x.csv:3: Date = \"28 June 2024\": a second row of the same date (line 2)", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,USD,JPY,USD,\n", "x.csv"),
                         "x.csv:1: column 4 = \"USD\": appears twice (also column 2)", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,EUR,\n", "x.csv"),
                         "x.csv:1: column 2 = \"EUR\": must not be EUR (the rates are per EUR)", InvalidInput);
    CHECK_THROWS_WITH_AS(ExchangeRates::from_ecb_csv("Date,usd,\n", "x.csv"),
                         "x.csv:1: column 2 = \"usd\": must be a three-letter upper-case ISO 4217 code", InvalidInput);
}
