// The spot instrument (spot.hpp).
#include "spot.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "../pricing.hpp"
#include "gputco/core/limits.hpp"

namespace gputco::instruments {

PricedSpot price_spot(const SpotShare& s, std::size_t i, Naming naming, const Offering& offering,
                      double region_factor, int horizon) {
    const std::string field = naming == Naming::mix ? std::string("spot")
                              : i == 0              ? std::string("plan.spot")
                                                    : fmt::format("plan.more_spot[{}]", i - 1);
    require(!offering.reservation_only, field, offering.key(),
            "is sold only through capacity blocks or reservations: it has no spot capacity");
    PricedSpot spot;
    spot.gpus = naming == Naming::mix ? s.gpus : require_at_most(field + ".gpus", s.gpus, limits::max_gpus);
    spot.price_per_gpu_hour = pricing::spot_price(field + ".price_per_gpu_hour", s.price_per_gpu_hour, offering,
                                                  region_factor);
    pricing::check_spot_terms(field, s.overhead, s.availability);
    spot.overhead = s.overhead;
    spot.availability = s.availability;
    for (std::size_t k = 0; k < s.overhead_samples.size(); ++k) {
        const double o = s.overhead_samples[k];
        const std::string name = fmt::format("{}.overhead_samples[{}]", field, k);
        require(std::isfinite(o) && o >= 1.0, name, o, "must be finite and >= 1 (billed per useful hour)");
        require(o <= SpotTranche::max_overhead, name, o, fmt::format("must be <= {:g}", SpotTranche::max_overhead));
    }
    spot.overhead_samples = s.overhead_samples;
    std::sort(spot.overhead_samples.begin(), spot.overhead_samples.end());
    spot.overheads.assign(std::size_t(horizon), s.overhead);
    spot.availabilities.assign(std::size_t(horizon), s.availability);
    for (std::size_t k = 0; k < s.periods.size(); ++k) {
        const SpotPeriod& p = s.periods[k];
        const std::string name = fmt::format("{}.periods[{}]", field, k);
        const int after = k == 0 ? -1 : s.periods[k - 1].first_month;
        require(p.first_month > after && p.first_month < horizon, name + ".first_month", p.first_month,
                fmt::format("must be in ({}, {}) (after the previous period, inside the horizon)", after, horizon));
        pricing::check_spot_terms(name, p.overhead, p.availability);
        std::fill(spot.overheads.begin() + p.first_month, spot.overheads.end(), p.overhead);
        std::fill(spot.availabilities.begin() + p.first_month, spot.availabilities.end(), p.availability);
    }
    return spot;
}

std::string describe_spot(const PricedSpot& s, const std::string& c) {
    return fmt::format("spot {:g} GPUs at {:.4f} {}/GPU-h, overhead {:.4f} billed h per useful h, "
                       "available {:.0f}% of hours (the rest on-demand)",
                       s.gpus, s.price_per_gpu_hour, c, s.overhead, 100.0 * s.availability);
}

}  // namespace gputco::instruments
