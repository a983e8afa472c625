#pragma once
// What the serving files share: the checks of zones against a config.
#include <cstddef>
#include <vector>

#include "gputco/engines/serving.hpp"

namespace gputco::serving_detail {

/// Throws InvalidInput for no zones, too many, bad prices, traces of different lengths or of another
/// tick than config.tick_hours, or a bad config. Returns the number of ticks.
std::size_t check_zones(const std::vector<SpotRegion>& zones, const ServingConfig& config);

/// The result's figures that follow from its counts: cost, baseline, saving, availability, hours.
void finish_result(ServingResult& result, const std::vector<SpotRegion>& zones, const ServingConfig& config,
                   const std::vector<std::size_t>& spot_ticks, std::size_t on_demand_ticks, std::size_t ticks,
                   std::size_t ticks_meeting_target);

}  // namespace gputco::serving_detail
