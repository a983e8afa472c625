#pragma once
// The on-demand instrument: what takes every hour no other tier serves, paid per GPU-hour or per
// whole instance each hour (Plan::billing). Its price rule is here; the credits it earns (free hours,
// on-demand discount) are in pricing.hpp (add_credits_and_total).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/strategy/strategy.hpp"

namespace gputco::instruments {

/// The month fields on demand writes (plan_core.hpp's price_tiers), in every plan: it takes the rest.
inline constexpr std::array<std::string_view, 3> on_demand_columns{"on_demand", "on_demand_gpu_hours",
                                                                    "on_demand_paid_gpu_hours"};
/// The fields every month writes whatever the plan holds: its index, the demand served, the credits
/// (free hours and the on-demand discount on on-demand spend, vouchers on all cloud spend) and the total.
inline constexpr std::array<std::string_view, 4> month_columns{"month", "used_gpu_hours", "credits", "total"};

/// GPU-hours paid for when an hour's load x (mean GPUs in use over the hour) runs on instances of g
/// GPUs: floor(x) GPUs run all hour in ceil(floor(x) / g) whole instances, and the part-hour GPU
/// rides in a part-filled one or, when all are full, starts one more for its part of the hour.
/// Continuous and non-decreasing in x, >= x, and exactly x when g = 1.
inline double paid_for_hour(double x, double g) {
    // Floor by truncation (x >= 0) and whole-number division in doubles (exact for whole numbers below
    // 2^52): floor and ceil are library calls on baseline x86-64 and integer division is slow.
    constexpr double exact_integers = 4503599627370496.0;  // 2^52
    if (x >= exact_integers) return g * std::ceil(std::floor(x) / g);  // beyond any real fleet: exact, not fast
    const double full = double(static_cast<std::int64_t>(x));
    const double below = double(static_cast<std::int64_t>(full / g));  // floor(full / g)
    const double instances = full > below * g ? below + 1 : below;
    return g * instances + (full == g * instances ? g * (x - full) : 0.0);
}

/// Ramps (instances any hour reaches) beyond which one pass over the month's hours is cheaper than
/// two binary searches per ramp.
inline constexpr double max_ramps = 32;

/// S(high) − S(low) of a month (S the GPU-hours served up to a capacity), 0 unless high > low.
template <class Month>
double served_between(const Month& month, double low, double high) {
    if (!(high > low)) return 0.0;
    return month.served_up_to(high) - month.served_up_to(low);
}

/// GPU-hours paid in a month by the tier holding the GPUs from `low` to `high` (high may be +inf),
/// whose load each hour is x = clamp(d − low, 0, high − low). Paid per GPU when g = 1; per whole
/// instance of g GPUs otherwise: paid_for_hour(x) = g Σ_k min(max(x − k g, 0), 1), one unit ramp at
/// each whole instance, and the sum over the hours of the ramp at k g is S(low + k g + 1) − S(low + k g)
/// (each capped at `high`). `Month` is a demand month of the plan core (plan_core.hpp).
template <class Month>
double paid_between(const Month& month, double low, double high, int gpus_per_unit) {
    if (gpus_per_unit == 1) return served_between(month, low, high);
    const double top = std::min(high, month.peak());  // no hour's load reaches above the peak
    if (!(top > low)) return 0.0;
    const double g = gpus_per_unit;
    const double ramps = std::ceil((top - low) / g);
    if (ramps > max_ramps) {
        const auto hours = month.sorted();
        const double level = month.level();
        const double offset = month.offset();  // a month moved by a dated window (windows.hpp); else 0
        const double width = high - low;
        double paid = 0;
        for (auto s = std::upper_bound(hours.begin(), hours.end(), low / level,
                                       [level, low, offset](double, double h) { return level * h + offset > low; });
             s != hours.end(); ++s) {
            paid += paid_for_hour(std::min(level * *s + offset - low, width), g);
        }
        return paid;
    }
    const auto at = [&](double offset) { return offset >= high - low ? high : low + offset; };
    double paid = 0;
    for (double k = 0; k < ramps; ++k) paid += served_between(month, at(k * g), at(k * g + 1));
    return g * paid;
}

/// The report's line on the on-demand price.
std::vector<std::string> on_demand_assumptions(const Offering& offering, double on_demand_per_gpu_hour,
                                               double region_factor);

}  // namespace gputco::instruments
