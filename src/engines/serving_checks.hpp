#pragma once
// What the serving files share: the checks of zones against a config, and a run's counts before prices.
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

/// One run's counts before prices: the result's price-free figures (histogram, launches, preemptions,
/// per-tick series) and the replica-ticks its money figures follow from. The tick loop reads a price
/// only to order zones of different prices (SpotHedge), so zones that share one spot price give the
/// same counts at any price and any on-demand price: a caller may count once and price many times.
struct ServingTally {
    ServingResult result;                 ///< money figures still zero
    std::vector<std::size_t> spot_ticks;  ///< replica-ticks per zone
    std::size_t on_demand_ticks = 0;
    std::size_t ticks = 0;
    std::size_t ticks_meeting_target = 0;
};

/// The tick loop of simulate_serving (zones and config checked); `on_demand` null: always available.
ServingTally tally_serving(const std::vector<SpotRegion>& zones, const ServingConfig& config, ServingPolicy policy,
                           const SpotAvailability* on_demand = nullptr);
/// tally_serving for several configs that share the spot side of the tick loop: the same spot fleet
/// (N + E − on_demand_base), N, launch and notice, differing in how the fleet is split into extra spot
/// and on-demand base. The spot side, which never reads the on-demand replicas, runs once for all; each
/// tally is bit for bit tally_serving's (on-demand always available).
std::vector<ServingTally> tally_shared_fleet(const std::vector<SpotRegion>& zones,
                                             const std::vector<ServingConfig>& configs, ServingPolicy policy);
/// The tally at the zones' and config's prices (finish_result): what simulate_serving returns.
ServingResult priced(ServingTally tally, const std::vector<SpotRegion>& zones, const ServingConfig& config);

/// choose_serving_plan's candidates (policy-major, then E, then base), each counted on the zones,
/// after the same checks; the result's money figures are left to plan_from_tallies.
std::vector<ServingTally> tally_candidates(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                                           const ServingSearch& search);
/// choose_serving_plan from the candidates' tallies, priced at these zones and config; without the
/// lower bound. The tallies may come from other zones with the same traces whose prices order the
/// zones the same way (one spot price for all, say).
/// Checks the search, zones and config as choose_serving_plan does.
ServingPlan plan_from_tallies(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                              const ServingSearch& search, const std::vector<ServingTally>& tallies);

}  // namespace gputco::serving_detail
