#pragma once
// How far to trust a price: its age, and whether two sources agree on it. A planner told "H100 at
// $2.95" needs to know that figure is from last month and that another file says $3.20.
//
//   const auto age = price_age_days(offering, Date{2026, 12, 5});   // 97
//   for (const PriceDisagreement& d : cross_check(cyclenerd, skypilot)) ...   // > 10% apart
#include <optional>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"

namespace gputco {

/// Prices older than this at the date asked are flagged stale (rankings, `gputco catalog`). A year:
/// GPU list prices moved 25-45% within a year in 2025-26 (AWS's June 2025 cut, Lambda's rises).
inline constexpr int stale_price_age_days = 365;

/// Two sources disagree on an offering when their on-demand prices differ by more than this fraction
/// of the lower one.
inline constexpr double price_disagreement_tolerance = 0.10;

/// The last date an offering's listed prices are known true: the later of effective_from and the
/// start of the period its source.as_of names ("2026-11-09", "2026-08" → 2026-08-01, "2025-H1" →
/// 2025-01-01, "2023" → 2023-01-01), so an age is never understated and a price in force since 2025
/// but read again in 2026 is 2026's; nullopt when neither is dated.
std::optional<Date> price_date(const Offering& offering);

/// Whole days from price_date(offering) to `at` (negative when the price is dated after `at`);
/// nullopt when undated.
std::optional<long long> price_age_days(const Offering& offering, const Date& at);

/// Stale: older than `max_age_days` at `at`, or of unknown date.
bool is_stale(const Offering& offering, const Date& at, long long max_age_days = stale_price_age_days);
/// The price's age in words for a reason or a note: "undated" or "dated 2025-06-01, 552 days old on
/// 2026-12-05".
std::string describe_price_age(const Offering& offering, const Date& at);

/// One offering priced differently by two sources.
struct PriceDisagreement {
    std::string key;           ///< provider/region/instance_type (the zone, when one side has one, appended)
    double first = 0, second = 0;  ///< on-demand per instance-hour, each in its own currency (the same)
    Source first_source, second_source;
    double relative = 0;       ///< |first − second| / min(first, second)
    std::string used;          ///< "first" or "second": the newer price (price_date), the first on a tie
    std::string message() const;
};

/// The offerings of `first` and `second` with the same provider, region and instance type (a zone's
/// row of one matches the zone-less row of the other) and the same currency whose on-demand prices
/// differ by more than `tolerance` (a fraction of the lower price). Throws InvalidInput for a
/// tolerance that is not finite and >= 0.
std::vector<PriceDisagreement> cross_check(const Catalog& first, const Catalog& second,
                                           double tolerance = price_disagreement_tolerance);

}  // namespace gputco
