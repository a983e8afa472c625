// Serving: the omniscient lower bound, N replicas at the cheapest price on offer in each tick.
#include <cstdint>
#include <limits>

#include "gputco/engines/serving.hpp"
#include "serving_checks.hpp"

namespace gputco {

ServingResult serving_lower_bound(const std::vector<SpotRegion>& zones, const ServingConfig& config) {
    const std::size_t ticks = serving_detail::check_zones(zones, config);
    const std::size_t n = config.target_replicas;
    std::vector<std::size_t> spot_ticks(zones.size(), 0);
    std::size_t od_ticks = 0;
    for (std::size_t t = 0; t < ticks; ++t) {
        // Cheapest zone with capacity; on-demand if none is cheaper (spot wins a tie).
        std::size_t best = zones.size();
        double best_price = std::numeric_limits<double>::infinity();
        for (std::size_t z = 0; z < zones.size(); ++z) {
            if (zones[z].availability.available[t] && zones[z].spot_price_per_hour < best_price) {
                best = z;
                best_price = zones[z].spot_price_per_hour;
            }
        }
        if (best < zones.size() && best_price <= config.on_demand_price_per_hour) spot_ticks[best] += n;
        else od_ticks += n;
    }
    ServingResult result;
    result.ready_histogram.assign(n + 1, 0);
    result.ready_histogram[n] = ticks;
    if (config.record_ready) result.ready.assign(ticks, static_cast<std::uint32_t>(n));
    serving_detail::finish_result(result, zones, config, spot_ticks, od_ticks, ticks, ticks);
    return result;
}

}  // namespace gputco
