// Serving on spot: the tick loop and the three policies (rules in serving.hpp and docs/models.md).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/engines/serving.hpp"
#include "serving_checks.hpp"

namespace gputco {

namespace {

using Tick = std::int64_t;

// Replicas of one kind as their launch ticks, oldest first: launches are appended in time order and
// only the youngest are released, so the vector stays sorted and the ready ones are a prefix. A run
// asks at each tick in turn, so the prefix only grows between releases: kept, not searched for.
struct Replicas {
    std::vector<Tick> launched;
    std::size_t ready_count = 0;  // launched[0, ready_count) were ready at the last tick asked
    std::size_t size() const { return launched.size(); }
    void launch(Tick at) { launched.push_back(at); }
    void release_youngest() {
        launched.pop_back();
        ready_count = std::min(ready_count, launched.size());
    }
    void clear() {
        launched.clear();
        ready_count = 0;
    }
    // Those launched at or before t − launch_ticks; t never smaller than at the last call.
    std::size_t ready(Tick t, Tick launch_ticks) {
        while (ready_count < launched.size() && launched[ready_count] <= t - launch_ticks) ++ready_count;
        return ready_count;
    }
};

// The spot side of a run: the zones' fleet and SpotHedge's state. It never reads the on-demand
// replicas, so runs that share the spot fleet (N + E − base), the policy and the zones share it:
// tally_shared_fleet steps it once for all of them.
class SpotSide {
public:
    SpotSide(const std::vector<SpotRegion>& zones, const ServingConfig& config, ServingPolicy policy, std::size_t ticks)
        : spot_ticks(zones.size(), 0), zones_(zones), policy_(policy), ticks_(ticks), spot_(zones.size()),
          active_(zones.size(), true), doomed_(zones.size(), false), next_down_(zones.size(), 0),
          launch_ticks_(static_cast<Tick>(config.launch_ticks())), notice_ticks_(config.notice_ticks()),
          target_(config.spot_replicas()) {
        candidates_.reserve(zones.size());
        // static spread: zone z's share of the spot fleet, dealt round robin.
        for (std::size_t z = 0; z < zones.size(); ++z)
            quota_.push_back(target_ / zones.size() + (z < target_ % zones.size() ? 1 : 0));
    }

    // Tick t: preemptions, notices, placement, then the tick's bill and ready replicas.
    void step(std::size_t t) {
        const Tick now = static_cast<Tick>(t);
        preempt(t);
        mark_doomed(t);
        if (policy_ == ServingPolicy::spot_hedge) place_hedged(now);
        else place_evenly(now);
        ready = 0;
        ready_live = 0;
        for (std::size_t z = 0; z < zones_.size(); ++z) {
            spot_ticks[z] += spot_[z].size();
            const std::size_t r = spot_[z].ready(now, launch_ticks_);
            ready += r;
            if (!doomed_[z]) ready_live += r;
        }
    }

    std::size_t ready = 0;       ///< ready spot replicas at the last tick stepped
    std::size_t ready_live = 0;  ///< of them, those in zones no notice has doomed
    std::vector<std::size_t> spot_ticks;
    std::size_t launches = 0;
    std::size_t preemptions = 0;

private:
    bool has_capacity(std::size_t z, std::size_t t) const { return zones_[z].availability.available[t]; }

    // A launch at tick 0 is the warm first fleet: ready at once.
    Tick launch_tick(Tick now) {
        if (now == 0) return -launch_ticks_;
        ++launches;
        return now;
    }

    void preempt(std::size_t t) {
        for (std::size_t z = 0; z < zones_.size(); ++z) {
            if (has_capacity(z, t)) continue;
            preemptions += spot_[z].size();
            if (spot_[z].size() > 0) active_[z] = false;
            spot_[z].clear();
        }
    }

    // With a notice, a zone that loses capacity within it is known now; SpotHedge counts that as a
    // preemption of the zone. next_down_[z], the first tick after t without capacity in z, only moves
    // forward: O(ticks) per zone in all, no memory per tick.
    void mark_doomed(std::size_t t) {
        for (std::size_t z = 0; z < zones_.size(); ++z) {
            doomed_[z] = false;
            if (notice_ticks_ == 0 || !has_capacity(z, t)) continue;
            std::size_t& next = next_down_[z];
            if (next <= t) next = t + 1;
            while (next < ticks_ && next <= t + notice_ticks_ && has_capacity(z, next)) ++next;
            doomed_[z] = next < ticks_ && next <= t + notice_ticks_;
            if (doomed_[z] && spot_[z].size() > 0) active_[z] = false;
        }
    }

    // static_spread and even_spread_fallback: refill each zone's quota while it has capacity.
    void place_evenly(Tick now) {
        for (std::size_t z = 0; z < zones_.size(); ++z) {
            if (!has_capacity(z, static_cast<std::size_t>(now))) continue;
            while (spot_[z].size() < quota_[z]) spot_[z].launch(launch_tick(now));
        }
    }

    // SpotHedge's dynamic placement: keep N + E live spot replicas, each new one in the active zone
    // with capacity holding the fewest, then the cheapest, then the first.
    void place_hedged(Tick now) {
        const auto t = static_cast<std::size_t>(now);
        std::size_t live = 0;
        for (std::size_t z = 0; z < zones_.size(); ++z)
            if (!doomed_[z]) live += spot_[z].size();
        auto order = [&](std::size_t a, std::size_t b) {
            return std::tuple(spot_[a].size(), zones_[a].spot_price_per_hour, a) <
                   std::tuple(spot_[b].size(), zones_[b].spot_price_per_hour, b);
        };
        std::vector<std::size_t>& candidates = candidates_;  // a member: no allocation per tick
        for (; live < target_; ++live) {
            std::optional<std::size_t> chosen;
            for (const bool from_active : {true, false}) {
                candidates.clear();
                for (std::size_t z = 0; z < zones_.size(); ++z)
                    if (active_[z] == from_active) candidates.push_back(z);
                std::sort(candidates.begin(), candidates.end(), order);
                for (const std::size_t z : candidates) {
                    if (has_capacity(z, t) && !doomed_[z]) {
                        chosen = z;
                        break;
                    }
                    active_[z] = false;  // a failed launch marks the zone preempted
                }
                if (chosen) break;
            }
            if (!chosen) return;  // no zone has capacity this tick
            active_[*chosen] = true;
            spot_[*chosen].launch(launch_tick(now));
        }
    }

    const std::vector<SpotRegion>& zones_;
    ServingPolicy policy_;
    std::size_t ticks_;
    std::vector<Replicas> spot_;
    std::vector<bool> active_;  // SpotHedge: active (true) or preempted zone
    std::vector<bool> doomed_;
    std::vector<std::size_t> quota_;
    std::vector<std::size_t> next_down_;  // per zone: a tick after t, <= the first without capacity
    std::vector<std::size_t> candidates_;  // place_hedged's zones in order, kept between ticks
    Tick launch_ticks_;
    std::size_t notice_ticks_;
    std::size_t target_;  // the spot fleet, N + E − base
};

// The on-demand side: the static base, and for the fallback policies enough to cover the shortfall of
// the ready live spot replicas; released youngest first (those still launching before those serving).
class OnDemandSide {
public:
    OnDemandSide(const ServingConfig& config, ServingPolicy policy, const SpotAvailability* on_demand)
        : base_(config.on_demand_base), target_replicas_(config.target_replicas),
          fallback_(policy != ServingPolicy::static_spread), on_demand_(on_demand),
          launch_ticks_(static_cast<Tick>(config.launch_ticks())) {}

    // The tick's on-demand replicas given the spot side's; returns how many are ready.
    std::size_t step(Tick now, std::size_t spot_ready_live) {
        std::size_t target = base_;
        if (fallback_ && spot_ready_live < target_replicas_) target = std::max(target, target_replicas_ - spot_ready_live);
        // No on-demand capacity this tick: the launches wait for the next.
        const bool capacity = !on_demand_ || on_demand_->available[static_cast<std::size_t>(now)];
        while (capacity && od_.size() < target) od_.launch(launch_tick(now));
        while (od_.size() > target) od_.release_youngest();
        ticks += od_.size();
        return od_.ready(now, launch_ticks_);
    }

    std::size_t ticks = 0;  ///< billed on-demand replica-ticks
    std::size_t launches = 0;

private:
    Tick launch_tick(Tick now) {
        if (now == 0) return -launch_ticks_;
        ++launches;
        return now;
    }

    std::size_t base_;
    std::size_t target_replicas_;
    bool fallback_;
    const SpotAvailability* on_demand_;  // null: on-demand always available
    Tick launch_ticks_;
    Replicas od_;
};

// A run's count of ready replicas per tick: the histogram, the ticks meeting N, the series if recorded.
struct ReadyCount {
    ReadyCount(const ServingConfig& config, std::size_t ticks)
        : target(config.target_replicas), record(config.record_ready) {
        if (record) result.ready.reserve(ticks);
    }
    void add(std::size_t ready) {
        if (ready >= result.ready_histogram.size()) result.ready_histogram.resize(ready + 1, 0);
        ++result.ready_histogram[ready];
        if (ready >= target) ++meeting;
        if (record) result.ready.push_back(static_cast<std::uint32_t>(ready));
    }
    std::size_t target;
    bool record;
    std::size_t meeting = 0;
    ServingResult result;
};

// The tick loop for configs that share the spot side (the caller checked them): the spot side steps
// once per tick, each config's on-demand side and count after it, as one run would.
std::vector<serving_detail::ServingTally> run_serving(const std::vector<SpotRegion>& zones,
                                                      const std::vector<ServingConfig>& configs, ServingPolicy policy,
                                                      std::size_t ticks, const SpotAvailability* on_demand) {
    SpotSide spot(zones, configs.front(), policy, ticks);
    std::vector<OnDemandSide> od;
    std::vector<ReadyCount> counts;
    for (const ServingConfig& config : configs) {
        od.emplace_back(config, policy, on_demand);
        counts.emplace_back(config, ticks);
    }
    for (std::size_t t = 0; t < ticks; ++t) {
        spot.step(t);
        for (std::size_t i = 0; i < configs.size(); ++i)
            counts[i].add(spot.ready + od[i].step(static_cast<Tick>(t), spot.ready_live));
    }
    std::vector<serving_detail::ServingTally> out;
    for (std::size_t i = 0; i < configs.size(); ++i) {
        ServingResult& result = counts[i].result;
        result.launches = spot.launches + od[i].launches;
        result.preemptions = spot.preemptions;
        out.push_back({.result = std::move(result),
                       .spot_ticks = spot.spot_ticks,
                       .on_demand_ticks = od[i].ticks,
                       .ticks = ticks,
                       .ticks_meeting_target = counts[i].meeting});
    }
    return out;
}

}  // namespace

namespace serving_detail {

ServingTally tally_serving(const std::vector<SpotRegion>& zones, const ServingConfig& config, ServingPolicy policy,
                           const SpotAvailability* on_demand) {
    const std::size_t ticks = check_zones(zones, config);
    if (on_demand) {
        require(on_demand->ticks() == ticks, "on_demand.ticks", on_demand->ticks(),
                fmt::format("must equal zones[0]'s {}", ticks));
        const double stated = on_demand->tick_hours;
        require(stated == 0 || std::abs(stated - config.tick_hours) <= 1e-9 * config.tick_hours, "on_demand.tick_hours",
                stated,
                fmt::format("must equal serving.tick_hours = {:g} (resample the trace first)", config.tick_hours));
    }
    return std::move(run_serving(zones, {config}, policy, ticks, on_demand).front());
}

std::vector<ServingTally> tally_shared_fleet(const std::vector<SpotRegion>& zones,
                                             const std::vector<ServingConfig>& configs, ServingPolicy policy) {
    require(!configs.empty(), "configs.size", 0, "must be >= 1");
    const std::size_t ticks = check_zones(zones, configs.front());
    for (std::size_t i = 1; i < configs.size(); ++i) {
        check_zones(zones, configs[i]);
        const ServingConfig& a = configs.front();
        const ServingConfig& b = configs[i];
        require(b.spot_replicas() == a.spot_replicas() && b.target_replicas == a.target_replicas &&
                    b.launch_ticks() == a.launch_ticks() && b.notice_ticks() == a.notice_ticks(),
                fmt::format("configs[{}].spot_replicas", i), b.spot_replicas(),
                fmt::format("must share configs[0]'s spot fleet ({} replicas, N = {}, same launch and notice)",
                            a.spot_replicas(), a.target_replicas));
    }
    return run_serving(zones, configs, policy, ticks, nullptr);
}

ServingResult priced(ServingTally tally, const std::vector<SpotRegion>& zones, const ServingConfig& config) {
    finish_result(tally.result, zones, config, tally.spot_ticks, tally.on_demand_ticks, tally.ticks,
                  tally.ticks_meeting_target);
    return std::move(tally.result);
}

}  // namespace serving_detail

ServingResult simulate_serving(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                               ServingPolicy policy) {
    return serving_detail::priced(serving_detail::tally_serving(zones, config, policy), zones, config);
}

ServingResult simulate_serving(const std::vector<SpotRegion>& zones, const SpotAvailability& on_demand,
                               const ServingConfig& config, ServingPolicy policy) {
    return serving_detail::priced(serving_detail::tally_serving(zones, config, policy, &on_demand), zones, config);
}

}  // namespace gputco
