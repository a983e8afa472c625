#pragma once
// Serving on spot across zones: keep N replicas of a service ready at least cost, with spot replicas
// spread over zones (each with its availability trace and spot price), extra spot replicas E and
// on-demand fallback. Rules and sources in docs/models.md, "Serving on spot".
//
//   const std::vector<SpotRegion> zones{{"us-east-1c", trace_c, 0.918}, {"us-west-2a", trace_w, 0.918}};
//   const ServingConfig config{.target_replicas = 4, .extra_spot = 1, .on_demand_price_per_hour = 3.06,
//                              .launch_hours = 0.1, .tick_hours = 0.05};
//   const ServingResult r = simulate_serving(zones, config, ServingPolicy::spot_hedge);
//   r.availability; r.cost; r.saving;   // share of ticks with >= N ready, $ and 1 - cost / all on-demand
//
// Model, in whole ticks of config.tick_hours:
// - A zone with spot capacity in tick t (its trace says available) hosts any number of replicas; a
//   zone without capacity preempts every spot replica in it at the start of the tick.
// - On-demand is always available, unless an on-demand trace says otherwise (the overload below):
//   then an on-demand launch in a tick without capacity does not happen and is tried again next tick.
// - A launched replica is billed from its launch tick and ready launch_hours later; at tick 0 the
//   first fleet is ready at once (the service starts warm), as is the all-on-demand baseline.
// - With a notice of k ticks the policy sees a zone's loss k ticks ahead: it launches replacements
//   then (and SpotHedge marks the zone preempted), while the doomed replicas serve until lost.
// - Every replica alive in a tick, launching or ready, is billed the whole tick at its price.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "gputco/core/enum_text.hpp"
#include "gputco/engines/capacity_risk.hpp"     // OnDemandCapacity
#include "gputco/engines/deadline_regions.hpp"  // SpotRegion: a zone's name, trace and spot price
#include "gputco/engines/interruption.hpp"

namespace gputco {

enum class ServingPolicy {
    /// Spot only: N + E − on_demand_base replicas spread evenly over the zones (zone i gets the i-th
    /// share of a round-robin deal); a lost replica is relaunched in its own zone when that zone has
    /// capacity. on_demand_base replicas of on-demand run throughout (0 = none), in place of as many
    /// spot replicas.
    static_spread,
    /// static_spread's spot replicas plus dynamic on-demand fallback: on-demand replicas =
    /// max(on_demand_base, N - ready live spot replicas), on-demand being released (those still
    /// launching first) when spot is back.
    even_spread_fallback,
    /// SpotHedge (SkyServe, EuroSys 2025): N + E − on_demand_base spot replicas placed dynamically. Zones are active or
    /// preempted; a preemption (or its notice) marks the zone preempted; a new spot replica goes to the
    /// active zone with capacity holding the fewest replicas (then the cheapest, then the first); a
    /// launch into an active zone without capacity fails and marks it preempted; when no active zone
    /// has capacity the preempted zones are tried in the same order and a success makes the zone
    /// active again. On-demand fallback as even_spread_fallback.
    spot_hedge,
};

template <>
struct EnumText<ServingPolicy> {
    static constexpr std::array<EnumName<ServingPolicy>, 3> names{{
        {ServingPolicy::static_spread, "static_spread"},
        {ServingPolicy::even_spread_fallback, "even_spread_fallback"},
        {ServingPolicy::spot_hedge, "spot_hedge"},
    }};
};
inline std::string_view to_string(ServingPolicy policy) { return to_text(policy); }
/// "static_spread", "even_spread_fallback" or "spot_hedge"; throws InvalidInput naming `field`.
ServingPolicy parse_serving_policy(std::string_view name, std::string_view field = "policy");
/// Every policy, in the order of the enumeration.
std::vector<ServingPolicy> all_serving_policies();

struct ServingConfig {
    std::size_t target_replicas = 1;     ///< N: replicas the service needs ready, >= 1
    std::size_t extra_spot = 0;          ///< E: spot replicas over N
    std::size_t on_demand_base = 0;      ///< on-demand replicas kept throughout, <= N, part of the N
    double on_demand_price_per_hour = 0;  ///< finite and > 0
    double launch_hours = 0;             ///< launch + warm-up delay, whole ticks, >= 0
    double notice_hours = 0;             ///< preemption notice (AWS 2 min, GCP 30 s), whole ticks, >= 0
    double tick_hours = 1;               ///< decision step, > 0; a trace with a stated tick must match
    bool record_ready = true;            ///< keep the per-tick ready count (for plots)

    /// Throws InvalidInput naming the first bad field, e.g.
    /// "serving.launch_hours = 0.15: must be a whole number of ticks (tick_hours = 0.1)".
    void validate() const;
    std::size_t launch_ticks() const;
    std::size_t notice_ticks() const;
    /// The spot fleet: N + E − on_demand_base. The base is part of the N replicas, not beside them
    /// (SkyServe: `base_ondemand_fallback_replicas` of the replicas run on on-demand, the rest on spot).
    std::size_t spot_replicas() const { return target_replicas + extra_spot - on_demand_base; }
};

/// Limits on a serving run, checked before any work.
struct ServingLimits {
    static constexpr std::size_t max_zones = 64;
    static constexpr std::size_t max_replicas = 10'000;  ///< N + E + on-demand base
};

struct ServingResult {
    double cost = 0;                 ///< spot hours x each zone's price + on-demand hours x on-demand price
    double on_demand_only_cost = 0;  ///< N on-demand replicas for every tick
    double saving = 0;               ///< 1 - cost / on_demand_only_cost
    double spot_hours = 0;           ///< billed replica-hours of spot (launching ones included)
    double on_demand_hours = 0;      ///< billed replica-hours of on-demand
    double hours = 0;                ///< length of the run: ticks x tick_hours
    double availability = 0;         ///< share of ticks with >= N ready replicas
    /// ready_histogram[k] = ticks with exactly k ready replicas (size = most ready + 1).
    std::vector<std::size_t> ready_histogram;
    std::size_t launches = 0;     ///< replica launches after tick 0 (spot and on-demand)
    std::size_t preemptions = 0;  ///< spot replicas lost
    std::vector<std::uint32_t> ready;  ///< per tick, if config.record_ready
};

/// Runs `policy` over the zones' traces (all the same length, at least one tick; the run lasts that
/// long). Throws InvalidInput for no zones, more than max_zones, traces of different lengths or of
/// another tick, a spot price not finite and > 0 (named zones[i].spot_price_per_hour), or a bad config.
ServingResult simulate_serving(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                               ServingPolicy policy);
/// The same with on-demand capacity only where `on_demand` says (same length as the zones' traces, and
/// the same tick): the fallback may find none. Running on-demand replicas are not taken back. With
/// on-demand available in every tick it is the run above.
ServingResult simulate_serving(const std::vector<SpotRegion>& zones, const SpotAvailability& on_demand,
                               const ServingConfig& config, ServingPolicy policy);

/// The omniscient lower bound: in every tick, N replicas at the cheapest price on offer in that tick
/// (on-demand, or the spot price of a zone with capacity). Knowing the trace, no schedule that keeps
/// >= N ready in every tick costs less; with launch_hours = 0 it is reached exactly (ready = N always).
/// E, the on-demand base and the notice play no part; on-demand counts as always available.
ServingResult serving_lower_bound(const std::vector<SpotRegion>& zones, const ServingConfig& config);

/// How a zone's spot capacity comes and goes when no trace is given: capacity lasts an up period drawn
/// from `up` (Poisson, Weibull or a lifetime Trace; a PriceDriven model is refused; its provider rules
/// are not used: set ServingConfig::notice_hours), then is gone for an exponential down period of
/// mean `mean_down_hours`. Periods are rounded up to whole ticks (at least one).
struct ZoneProcess {
    InterruptionModel up = Poisson{.mtbf_hours = 24};
    double mean_down_hours = 1;  ///< finite and > 0
};

/// Generated availability of each zone over `ticks` ticks of `tick_hours`, from Xoshiro256pp streams
/// seeded by `seed`: the same seed gives the same traces everywhere. With `correlation` rho in [0, 1],
/// each time a zone's capacity ends, every other zone that has capacity loses it in the same tick
/// with probability rho (a provider-wide shortage); it then draws its own down period.
std::vector<SpotAvailability> generate_zone_availability(const std::vector<ZoneProcess>& processes,
                                                         double correlation, std::size_t ticks,
                                                         double tick_hours, std::uint64_t seed);

struct ServingMonteCarlo {
    std::size_t paths = 100;  ///< generated sets of zone traces, > 0
    std::size_t ticks = 0;    ///< length of each path in ticks, > 0
    std::uint64_t seed = 0;
    double correlation = 0;  ///< see generate_zone_availability
    unsigned threads = 1;    ///< workers; 0 = all cores. Results do not depend on it.
    /// On-demand that may not be there: path i's on-demand trace from capacity.process() with seed
    /// splitmix64(splitmix64(seed + i)). None: always available.
    std::optional<OnDemandCapacity> on_demand_capacity;
};

struct ServingPathsResult {
    std::vector<ServingResult> paths;  ///< in path order (per-tick series dropped)
    double mean_cost = 0;
    double mean_availability = 0;
    double mean_saving = 0;
    double lower_bound_mean_cost = 0;  ///< serving_lower_bound on the same paths
};

/// Monte Carlo over generated zone traces: path i's traces come from seed splitmix64(seed + i), so a
/// seed gives the same result on any number of threads. `names_and_prices` gives each zone's name and
/// spot price (its availability is ignored); `processes` the zones' capacity processes, one per zone.
ServingPathsResult simulate_serving_paths(const std::vector<SpotRegion>& names_and_prices,
                                          const std::vector<ZoneProcess>& processes, const ServingConfig& config,
                                          ServingPolicy policy, const ServingMonteCarlo& options);

/// The search of choose_serving_plan: every policy x E in [0, max_extra] x on-demand base in
/// [0, max_on_demand_base].
struct ServingSearch {
    std::vector<ServingPolicy> policies = all_serving_policies();
    std::size_t max_extra = 4;
    std::size_t max_on_demand_base = 0;
    double availability_target = 0.999;  ///< share of ticks with >= N ready, in (0, 1]
    unsigned threads = 1;                ///< 0 = all cores; results do not depend on it
};

struct ServingCandidate {
    ServingPolicy policy = ServingPolicy::static_spread;
    std::size_t extra_spot = 0;
    std::size_t on_demand_base = 0;
    ServingResult result;  ///< without the per-tick series
    bool meets_target = false;
};

struct ServingPlan {
    std::vector<ServingCandidate> candidates;  ///< policy-major, then E, then base
    std::optional<std::size_t> best;  ///< cheapest candidate meeting the target (ties: the first)
    ServingResult lower_bound;        ///< serving_lower_bound on the same traces
};

/// The cheapest configuration meeting `search.availability_target` on the zones' traces, with every
/// candidate's figures. config.extra_spot and config.on_demand_base are replaced by the search's.
ServingPlan choose_serving_plan(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                                const ServingSearch& search);

/// Price against assurance: the indices of the candidates on the frontier of cost against availability,
/// cheapest first, each strictly more available than the one before, and none beaten by another
/// candidate that is as available and cheaper (ties: the first). For any target, the cheapest
/// candidate meeting it is on the frontier.
std::vector<std::size_t> serving_frontier(const ServingPlan& plan);

}  // namespace gputco
