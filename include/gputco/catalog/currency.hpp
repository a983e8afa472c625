#pragma once
// Money in more than one currency. Amounts carry their currency; adding or comparing amounts in
// different currencies is an error, and conversion happens only on request, through a dated table of
// exchange rates whose every entry names its source.
//
//   const ExchangeRates& fx = ExchangeRates::builtin();
//   Money usd = fx.convert(Money{100, "CNY"}, "USD", Date::parse("2024-07-01"));
//   Offering in_usd = fx.convert(catalog.offering("alibaba", "gn6i"), "USD", Date::parse("2025-01-01"));
#include <compare>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/date.hpp"

namespace gputco {

/// An amount of money in one currency (ISO 4217 code, e.g. "USD", "EUR", "CNY").
struct Money {
    double amount = 0;
    std::string currency = "USD";

    bool operator==(const Money&) const = default;
    /// Orders amounts of one currency; throws InvalidInput for two currencies (no rate is implied).
    std::partial_ordering operator<=>(const Money& other) const;
};

/// Sum and difference of amounts in one currency; throws InvalidInput naming both currencies otherwise.
Money operator+(const Money& a, const Money& b);
Money operator-(const Money& a, const Money& b);
/// Throws InvalidInput unless a and b have the same currency; `what` names the operation.
void require_same_currency(const Money& a, const Money& b, std::string_view what);

/// One exchange rate: `rate` units of `to` buy one unit of `from`, in force from `date` until the
/// table's next rate of the same pair.
struct ExchangeRate {
    std::string from;  ///< e.g. "EUR"
    std::string to;    ///< e.g. "USD"
    double rate = 0;   ///< units of `to` per unit of `from`
    Date date;
    Source source;

    /// Throws InvalidInput naming the first field that breaks a rule (three-letter upper-case codes,
    /// from != to, rate finite and > 0, non-empty source). `field` prefixes the names.
    void validate(std::string_view field = "rate") const;
    bool operator==(const ExchangeRate&) const = default;
};

/// A rate found for a pair at a date, with the table entries it was made from: one (direct or
/// inverted) or two (a cross rate through a third currency, e.g. CNY → EUR → USD).
struct RateQuote {
    double rate = 1;                 ///< units of `to` per unit of `from`
    std::vector<ExchangeRate> legs;  ///< empty when from == to
    /// "ECB euro reference rates 2024-06-28: 1 EUR = 1.0705 USD; ..." for report notes.
    std::string describe() const;
};

/// A dated table of exchange rates. Values, immutable once built; safe to share between threads.
class ExchangeRates {
public:
    ExchangeRates() = default;
    /// Validates every rate and rejects two rates of the same pair on the same date.
    explicit ExchangeRates(std::vector<ExchangeRate> rates);

    /// The table compiled into the library (see docs/catalog.md for the sources).
    static const ExchangeRates& builtin();
    /// The rates of the European Central Bank's reference-rate CSV: a header "Date,USD,JPY,..." then one
    /// row per day, units of each currency per EUR, "N/A" where there is none. The daily file
    /// (eurofxref.csv) dates its row "28 June 2024" and puts a space after each comma; the history file
    /// (eurofxref-hist.csv) writes ISO dates. Every rate gets `source` with its row's date. Every error
    /// names `file` and line (and column or currency): a rate that is not finite and > 0, a second row
    /// of one date, a currency twice in the header or EUR itself.
    static ExchangeRates from_ecb_csv(std::string_view text, std::string_view file = "eurofxref.csv");

    /// This table with `other`'s rates added; a rate of the same pair and date is replaced by `other`'s.
    ExchangeRates merged_with(const ExchangeRates& other) const;

    const std::vector<ExchangeRate>& rates() const { return rates_; }

    /// The rate from → to in force at `date`: the latest rate of the pair dated on or before `date`,
    /// read either way (1 / rate for the reverse), else a cross rate through one third currency with
    /// both legs in force at `date`. The same currency gives 1. Throws InvalidInput
    /// ("currency = \"CNY\": no exchange rate to EUR in force at 2017-01-01 (...)") when there is none.
    RateQuote quote(std::string_view from, std::string_view to, const Date& date) const;
    double rate(std::string_view from, std::string_view to, const Date& date) const {
        return quote(from, to, date).rate;
    }

    /// `money` in `to_currency` at the rate in force at `date`.
    Money convert(const Money& money, std::string_view to_currency, const Date& date) const;
    /// Every price of `offering` in `to_currency` (Offering::converted) at the rate in force at
    /// `date`; its notes name the rate's source.
    Offering convert(const Offering& offering, std::string_view to_currency, const Date& date) const;

    bool operator==(const ExchangeRates&) const = default;

private:
    const ExchangeRate* latest(std::string_view from, std::string_view to, const Date& date) const;
    std::vector<ExchangeRate> rates_;
};

}  // namespace gputco
