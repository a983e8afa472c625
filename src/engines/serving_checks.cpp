// Serving: the config's rules, the zones' checks and the loop the Monte Carlo and the search share.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <thread>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "serving_checks.hpp"

namespace gputco {

namespace {

// hours / tick as a whole number of ticks (relative 1e-9), or fail naming the field.
std::size_t whole_ticks(std::string_view field, double hours, double tick_hours) {
    const double ratio = hours / tick_hours;
    const double rounded = std::round(ratio);
    require(std::abs(ratio - rounded) <= 1e-9 * std::max(1.0, ratio), field, hours,
            fmt::format("must be a whole number of ticks (tick_hours = {:g})", tick_hours));
    return static_cast<std::size_t>(rounded);
}

}  // namespace

ServingPolicy parse_serving_policy(std::string_view name, std::string_view field) {
    return parse<ServingPolicy>(name, field);
}

std::vector<ServingPolicy> all_serving_policies() {
    std::vector<ServingPolicy> out;
    for (const auto& entry : EnumText<ServingPolicy>::names) out.push_back(entry.first);
    return out;
}

void ServingConfig::validate() const {
    require(target_replicas >= 1, "serving.target_replicas", target_replicas, "must be >= 1");
    require(on_demand_base <= target_replicas, "serving.on_demand_base", on_demand_base,
            fmt::format("must be <= target_replicas = {}", target_replicas));
    require(target_replicas + extra_spot + on_demand_base <= ServingLimits::max_replicas,
            "serving.extra_spot", extra_spot,
            fmt::format("must keep target_replicas + extra_spot + on_demand_base <= {}", ServingLimits::max_replicas));
    require_positive("serving.on_demand_price_per_hour", on_demand_price_per_hour);
    require_duration("serving.tick_hours", tick_hours);
    require_non_negative("serving.launch_hours", launch_hours);
    require_non_negative("serving.notice_hours", notice_hours);
    whole_ticks("serving.launch_hours", launch_hours, tick_hours);
    whole_ticks("serving.notice_hours", notice_hours, tick_hours);
}

std::size_t ServingConfig::launch_ticks() const { return whole_ticks("serving.launch_hours", launch_hours, tick_hours); }
std::size_t ServingConfig::notice_ticks() const { return whole_ticks("serving.notice_hours", notice_hours, tick_hours); }

namespace serving_detail {

std::size_t check_zones(const std::vector<SpotRegion>& zones, const ServingConfig& config) {
    config.validate();
    require(!zones.empty(), "zones.size", 0, "must be >= 1");
    require(zones.size() <= ServingLimits::max_zones, "zones.size", zones.size(),
            fmt::format("must be <= {}", ServingLimits::max_zones));
    const std::size_t ticks = zones[0].availability.ticks();
    require(ticks > 0, "zones[0].availability.ticks", 0, "must be > 0");
    for (std::size_t i = 0; i < zones.size(); ++i) {
        const auto& zone = zones[i];
        require_positive(fmt::format("zones[{}].spot_price_per_hour", i), zone.spot_price_per_hour);
        require(zone.availability.ticks() == ticks, fmt::format("zones[{}].availability.ticks", i),
                zone.availability.ticks(), fmt::format("must equal zones[0]'s {}", ticks));
        const double stated = zone.availability.tick_hours;
        require(stated == 0 || std::abs(stated - config.tick_hours) <= 1e-9 * config.tick_hours,
                fmt::format("zones[{}].availability.tick_hours", i), stated,
                fmt::format("must equal serving.tick_hours = {:g} (resample the trace first)", config.tick_hours));
    }
    return ticks;
}

void finish_result(ServingResult& result, const std::vector<SpotRegion>& zones, const ServingConfig& config,
                   const std::vector<std::size_t>& spot_ticks, std::size_t on_demand_ticks, std::size_t ticks,
                   std::size_t ticks_meeting_target) {
    const double h = config.tick_hours;
    double spot_cost = 0;
    std::size_t all_spot_ticks = 0;
    for (std::size_t z = 0; z < zones.size(); ++z) {
        spot_cost += static_cast<double>(spot_ticks[z]) * h * zones[z].spot_price_per_hour;
        all_spot_ticks += spot_ticks[z];
    }
    result.spot_hours = static_cast<double>(all_spot_ticks) * h;
    result.on_demand_hours = static_cast<double>(on_demand_ticks) * h;
    result.cost = spot_cost + result.on_demand_hours * config.on_demand_price_per_hour;
    result.hours = static_cast<double>(ticks) * h;
    result.on_demand_only_cost =
        static_cast<double>(config.target_replicas) * result.hours * config.on_demand_price_per_hour;
    result.saving = 1.0 - result.cost / result.on_demand_only_cost;
    result.availability = static_cast<double>(ticks_meeting_target) / static_cast<double>(ticks);
}

}  // namespace serving_detail
}  // namespace gputco
