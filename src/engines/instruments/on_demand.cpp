// The on-demand instrument's text (on_demand.hpp).
#include "on_demand.hpp"

#include <fmt/format.h>

namespace gputco::instruments {

std::vector<std::string> on_demand_assumptions(const Offering& offering, double on_demand_per_gpu_hour,
                                               double region_factor) {
    std::vector<std::string> lines;
    const auto& c = offering.currency;
    lines.push_back(fmt::format("on-demand {:.4f} {}/GPU-h (instance {:.4f} {}/h{})", on_demand_per_gpu_hour, c,
                                offering.on_demand_hourly, c,
                                region_factor != 1.0 ? fmt::format(", region factor {:g}", region_factor)
                                                     : std::string()));
    return lines;
}

}  // namespace gputco::instruments
