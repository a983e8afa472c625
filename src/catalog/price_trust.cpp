// Price ages and cross-source checks (see price_trust.hpp).
#include "gputco/catalog/price_trust.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

#include <fmt/format.h>

namespace gputco {
namespace {

/// The start of the period "YYYY", "YYYY-MM", "YYYY-MM-DD" or "YYYY-H1"/"YYYY-H2" names.
std::optional<Date> period_start(std::string_view text) {
    if (Date::is_date(text)) return Date::parse(text);
    int year = 0;
    if (text.size() < 4 || std::from_chars(text.data(), text.data() + 4, year).ec != std::errc{}) return std::nullopt;
    if (year < 1970 || year > 9999) return std::nullopt;
    const std::string_view rest = text.substr(4);
    if (rest.empty()) return Date{year, 1, 1};
    if (rest == "-H1") return Date{year, 1, 1};
    if (rest == "-H2") return Date{year, 7, 1};
    int month = 0;
    if (rest.size() == 3 && rest[0] == '-' &&
        std::from_chars(rest.data() + 1, rest.data() + 3, month).ec == std::errc{} && month >= 1 && month <= 12)
        return Date{year, month, 1};
    return std::nullopt;
}

}  // namespace

std::optional<Date> price_date(const Offering& offering) {
    const std::optional<Date> read = period_start(offering.source.as_of);
    if (offering.effective_from && read) return std::max(*offering.effective_from, *read);
    return offering.effective_from ? offering.effective_from : read;
}

std::optional<long long> price_age_days(const Offering& offering, const Date& at) {
    const auto date = price_date(offering);
    if (!date) return std::nullopt;
    return at.days_since_epoch() - date->days_since_epoch();
}

bool is_stale(const Offering& offering, const Date& at, long long max_age_days) {
    const auto age = price_age_days(offering, at);
    return !age || *age > max_age_days;
}

std::string describe_price_age(const Offering& offering, const Date& at) {
    const auto date = price_date(offering);
    if (!date) return "undated";
    return fmt::format("dated {}, {} days old on {}", date->iso(), at.days_since_epoch() - date->days_since_epoch(), at.iso());
}

std::string PriceDisagreement::message() const {
    const Source& kept = used == "first" ? first_source : second_source;
    return fmt::format("{}: {:.6g} ({}, {}) and {:.6g} ({}, {}) differ by {:.1f}% (more than {:g}%); using {:.6g} ({}, {})", key, first,
                       first_source.name, first_source.as_of, second, second_source.name, second_source.as_of,
                       100 * relative, 100 * price_disagreement_tolerance, used == "first" ? first : second, kept.name,
                       kept.as_of);
}

std::vector<PriceDisagreement> cross_check(const Catalog& first, const Catalog& second, double tolerance) {
    require_non_negative("tolerance", tolerance);
    // Second's offerings by provider/region/instance_type, each zone's row and the zone-less one.
    std::map<std::tuple<std::string, std::string, std::string>, std::vector<const Offering*>> by_key;
    for (const Offering& o : second.offerings()) by_key[{o.provider, o.region, o.instance_type}].push_back(&o);
    std::vector<PriceDisagreement> out;
    for (const Offering& a : first.offerings()) {
        const auto it = by_key.find({a.provider, a.region, a.instance_type});
        if (it == by_key.end()) continue;
        for (const Offering* b : it->second) {
            if (!a.zone.empty() && !b->zone.empty() && a.zone != b->zone) continue;
            if (a.currency != b->currency) continue;
            const double low = std::min(a.on_demand_hourly, b->on_demand_hourly);
            const double diff = std::abs(a.on_demand_hourly - b->on_demand_hourly);
            if (!(diff > tolerance * low)) continue;
            PriceDisagreement d;
            d.key = a.key() + (a.zone.empty() && !b->zone.empty() ? "/" + b->zone : "");
            d.first = a.on_demand_hourly;
            d.second = b->on_demand_hourly;
            d.first_source = a.source;
            d.second_source = b->source;
            d.relative = low > 0 ? diff / low : INFINITY;
            const auto da = price_date(a), db = price_date(*b);
            d.used = (db && (!da || *db > *da)) ? "second" : "first";
            out.push_back(std::move(d));
        }
    }
    return out;
}

}  // namespace gputco
