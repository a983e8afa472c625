// A scenario's services on spot: the spec as the serving engine takes it.
#include "gputco/scenario/scenario.hpp"

namespace gputco {

std::vector<SpotRegion> ServiceSpec::regions() const {
    std::vector<SpotRegion> out;
    for (const ServiceZoneSpec& z : zones) out.push_back({z.name, z.availability, z.spot_price_per_hour});
    return out;
}

ServingConfig ServiceSpec::config(double on_demand_price) const {
    ServingConfig c{.target_replicas = replicas, .on_demand_price_per_hour = on_demand_price,
                    .launch_hours = launch_hours, .notice_hours = notice_hours, .record_ready = false};
    // The traces' tick (a zone without a stated tick keeps the default).
    if (!zones.empty() && zones[0].availability.tick_hours > 0) c.tick_hours = zones[0].availability.tick_hours;
    return c;
}

}  // namespace gputco
