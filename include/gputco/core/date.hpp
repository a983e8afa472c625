#pragma once
// A calendar date (proleptic Gregorian), for dated prices and exchange rates. Parsed from ISO text:
// "2025-06-01", or "2025-06" and "2025" meaning the first day of that month or year.
#include <compare>
#include <string>
#include <string_view>

namespace gputco {

struct Date {
    int year = 1970;
    int month = 1;  ///< 1..12
    int day = 1;    ///< 1..days in the month

    /// Throws InvalidInput("<field> = \"<text>\": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY")
    /// for anything else, or for a month or day that does not exist (2025-02-29).
    static Date parse(std::string_view text, std::string_view field = "date");
    /// True when `text` parses (no exception), for fields that may hold "undated" or "2025-H1".
    static bool is_date(std::string_view text);
    /// Days since 1970-01-01 (negative before).
    long long days_since_epoch() const;
    /// The date `days` days after 1970-01-01 (the inverse of days_since_epoch).
    static Date from_days_since_epoch(long long days);
    /// Today's date in UTC, by the system clock: the default date prices are aged at. The environment
    /// variable GPUTCO_TODAY (an ISO date), when set and not empty, stands for the clock, so a ranking
    /// or report can be re-run as of the day it was first made (the test suites pin it); a value that
    /// is not a date throws InvalidInput naming GPUTCO_TODAY.
    static Date today();
    /// "YYYY-MM-DD".
    std::string iso() const;

    auto operator<=>(const Date&) const = default;
    bool operator==(const Date&) const = default;
};

/// "YYYY-MM-DDTHH:MM:SSZ" of `seconds` since 1970-01-01 UTC, as FOCUS writes a time.
std::string iso_utc(long long seconds);

}  // namespace gputco
