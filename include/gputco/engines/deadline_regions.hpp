#pragma once
// A deadline job that may run spot in several regions or zones, each with its own availability trace
// and spot price, and on-demand (always available) at one price. Same tick model as deadline.hpp;
// moving to another region is a launch like any other and costs the changeover d.
//
//   const std::vector<SpotRegion> regions{{"us-east-1a", trace_a, 0.9731}, {"us-west-2b", trace_b, 1.10}};
//   const MultiRegionResult r = simulate_multi_region(job, regions, RegionPolicy::uniform_progress, 3.06);
//   r.run.cost; r.region;   // per tick, the region of the spot instance, -1 for none or on-demand
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/core/cancel.hpp"
#include "gputco/engines/deadline.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

struct SpotRegion {
    std::string name;               ///< for reports, e.g. "us-east-1a"
    SpotAvailability availability;  ///< must cover the deadline, in the job's ticks
    double spot_price_per_hour = 0;  ///< finite and > 0
};

enum class RegionPolicy {
    /// SkyPilot managed-job recovery FAILOVER: after a preemption, relaunch in the same region if it
    /// has capacity, else in the cheapest other region that has; while waiting, try the last region
    /// first. The first launch goes to the cheapest available region.
    skypilot_failover,
    /// SkyPilot EAGER_NEXT_REGION: after a preemption, move at once to the cheapest other region with
    /// capacity; the preempted region is tried last while waiting.
    skypilot_eager_next_region,
    /// Uniform Progress (the authors' rules, deadline.hpp) with "spot available" meaning any region:
    /// a spot instance stays in its region until preempted; a launch goes to the cheapest region with
    /// capacity.
    uniform_progress,
};
// SkyPilot's strategies know no deadline; both run here with the authors' Greedy deadline rules
// (on-demand once slack <= 2d while idle) so that they meet it, and idle otherwise while no region
// has spot. In whole ticks a preempted region has no spot in the tick it preempts, so the two differ
// in which region they try first while waiting and in where they go when several have capacity.

template <>
struct EnumText<RegionPolicy> {
    static constexpr std::array<EnumName<RegionPolicy>, 3> names{{
        {RegionPolicy::skypilot_failover, "skypilot_failover"},
        {RegionPolicy::skypilot_eager_next_region, "skypilot_eager_next_region"},
        {RegionPolicy::uniform_progress, "uniform_progress"},
    }};
};
inline std::string_view to_string(RegionPolicy policy) { return to_text(policy); }
/// "skypilot_failover", "skypilot_eager_next_region" or "uniform_progress".
RegionPolicy parse_region_policy(std::string_view name, std::string_view field = "policy");

struct MultiRegionResult {
    DeadlineResult run;  ///< costs at each region's spot price; spot_available = any region available
    std::vector<std::int32_t> region;  ///< per tick: the spot instance's region index, -1 otherwise
    std::size_t moves = 0;             ///< spot launches in a region other than the last spot region
};

/// Runs `policy` over the regions' traces. Throws InvalidInput for no regions, a trace that does not
/// cover the deadline or is in other ticks, or a price that is not finite and > 0 (named
/// regions[i].spot_price_per_hour).
MultiRegionResult simulate_multi_region(const DeadlineJob& job, const std::vector<SpotRegion>& regions,
                                        RegionPolicy policy, double on_demand_price_per_hour);

/// Exact least cost knowing every region's trace, by dynamic programming over (tick, compute done,
/// instance and its region, changeover left): time O(K C (R (d + 1) + d + 2) (R + 2)) and memory
/// 2 C (R (d + 1) + d + 2) doubles for K deadline ticks, C compute ticks, R regions and d changeover
/// ticks. Limits, checked before any work: at most 16 regions, at most 2e7 states per tick (320 MB)
/// and 1e11 state updates; beyond them use coarser ticks. Equal to omniscient_cost() for one region.
/// `should_stop` is called once per 2^20 states visited (at most about 2e7 updates, a few tens of
/// milliseconds); true throws Cancelled.
double omniscient_multi_region_cost(const DeadlineJob& job, const std::vector<SpotRegion>& regions,
                                    double on_demand_price_per_hour, const StopCheck& should_stop = {});

}  // namespace gputco
