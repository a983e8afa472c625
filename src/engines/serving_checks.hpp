#pragma once
// What the serving files share: the checks of zones against a config, and a deterministic parallel loop.
#include <cstddef>
#include <functional>
#include <vector>

#include "gputco/engines/serving.hpp"

namespace gputco::serving_detail {

/// Throws InvalidInput for no zones, too many, bad prices, traces of different lengths or of another
/// tick than config.tick_hours, or a bad config. Returns the number of ticks.
std::size_t check_zones(const std::vector<SpotRegion>& zones, const ServingConfig& config);

/// Calls body(i) for i in [0, count) on `threads` workers (0 = all cores). Each i writes only its own
/// slot, so results do not depend on the thread count; the exception of the lowest failing i is rethrown.
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

/// The result's figures that follow from its counts: cost, baseline, saving, availability, hours.
void finish_result(ServingResult& result, const std::vector<SpotRegion>& zones, const ServingConfig& config,
                   const std::vector<std::size_t>& spot_ticks, std::size_t on_demand_ticks, std::size_t ticks,
                   std::size_t ticks_meeting_target);

}  // namespace gputco::serving_detail
