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
// only the youngest are released, so the vector stays sorted and the ready ones are a prefix.
struct Replicas {
    std::vector<Tick> launched;
    std::size_t size() const { return launched.size(); }
    std::size_t ready(Tick t, Tick launch_ticks) const {
        return static_cast<std::size_t>(
            std::upper_bound(launched.begin(), launched.end(), t - launch_ticks) - launched.begin());
    }
};

class ServingRun {
public:
    ServingRun(const std::vector<SpotRegion>& zones, const ServingConfig& config, ServingPolicy policy,
               std::size_t ticks, const SpotAvailability* on_demand)
        : zones_(zones), config_(config), policy_(policy), ticks_(ticks), on_demand_(on_demand), spot_(zones.size()),
          spot_ticks_(zones.size(), 0), active_(zones.size(), true), doomed_(zones.size(), false),
          launch_ticks_(static_cast<Tick>(config.launch_ticks())), notice_ticks_(config.notice_ticks()) {
        next_down_.assign(zones.size(), 0);
        candidates_.reserve(zones.size());
        // static spread: zone z's share of the spot fleet, dealt round robin.
        const std::size_t spot_target = config.spot_replicas();
        for (std::size_t z = 0; z < zones.size(); ++z)
            quota_.push_back(spot_target / zones.size() + (z < spot_target % zones.size() ? 1 : 0));
        if (config.record_ready) result_.ready.reserve(ticks);
    }

    serving_detail::ServingTally run() {
        std::size_t meeting = 0;
        for (std::size_t t = 0; t < ticks_; ++t) {
            const Tick now = static_cast<Tick>(t);
            preempt(t);
            mark_doomed(t);
            if (policy_ == ServingPolicy::spot_hedge) place_hedged(now);
            else place_evenly(now);
            set_on_demand(now);
            // Bill and count.
            std::size_t ready = od_.ready(now, launch_ticks_);
            for (std::size_t z = 0; z < zones_.size(); ++z) {
                spot_ticks_[z] += spot_[z].size();
                ready += spot_[z].ready(now, launch_ticks_);
            }
            od_ticks_ += od_.size();
            if (ready >= result_.ready_histogram.size()) result_.ready_histogram.resize(ready + 1, 0);
            ++result_.ready_histogram[ready];
            if (ready >= config_.target_replicas) ++meeting;
            if (config_.record_ready) result_.ready.push_back(static_cast<std::uint32_t>(ready));
        }
        return {.result = std::move(result_),
                .spot_ticks = std::move(spot_ticks_),
                .on_demand_ticks = od_ticks_,
                .ticks = ticks_,
                .ticks_meeting_target = meeting};
    }

private:
    bool has_capacity(std::size_t z, std::size_t t) const { return zones_[z].availability.available[t]; }

    // A launch at tick 0 is the warm first fleet: ready at once.
    Tick launch_tick(Tick now) {
        if (now == 0) return -launch_ticks_;
        ++result_.launches;
        return now;
    }

    void preempt(std::size_t t) {
        for (std::size_t z = 0; z < zones_.size(); ++z) {
            if (has_capacity(z, t)) continue;
            result_.preemptions += spot_[z].size();
            if (spot_[z].size() > 0) active_[z] = false;
            spot_[z].launched.clear();
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
            while (spot_[z].size() < quota_[z]) spot_[z].launched.push_back(launch_tick(now));
        }
    }

    // SpotHedge's dynamic placement: keep N + E live spot replicas, each new one in the active zone
    // with capacity holding the fewest, then the cheapest, then the first.
    void place_hedged(Tick now) {
        const auto t = static_cast<std::size_t>(now);
        std::size_t live = 0;
        for (std::size_t z = 0; z < zones_.size(); ++z)
            if (!doomed_[z]) live += spot_[z].size();
        const std::size_t target = config_.spot_replicas();
        auto order = [&](std::size_t a, std::size_t b) {
            return std::tuple(spot_[a].size(), zones_[a].spot_price_per_hour, a) <
                   std::tuple(spot_[b].size(), zones_[b].spot_price_per_hour, b);
        };
        std::vector<std::size_t>& candidates = candidates_;  // a member: no allocation per tick
        for (; live < target; ++live) {
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
            spot_[*chosen].launched.push_back(launch_tick(now));
        }
    }

    // On-demand: the static base, and for the fallback policies enough to cover the ready live spot
    // replicas' shortfall; released youngest first (those still launching before those serving).
    void set_on_demand(Tick now) {
        std::size_t target = config_.on_demand_base;
        if (policy_ != ServingPolicy::static_spread) {
            std::size_t ready_spot = 0;
            for (std::size_t z = 0; z < zones_.size(); ++z)
                if (!doomed_[z]) ready_spot += spot_[z].ready(now, launch_ticks_);
            if (ready_spot < config_.target_replicas) target = std::max(target, config_.target_replicas - ready_spot);
        }
        // No on-demand capacity this tick: the launches wait for the next.
        const bool od_capacity = !on_demand_ || on_demand_->available[static_cast<std::size_t>(now)];
        while (od_capacity && od_.size() < target) od_.launched.push_back(launch_tick(now));
        while (od_.size() > target) od_.launched.pop_back();
    }

    const std::vector<SpotRegion>& zones_;
    const ServingConfig& config_;
    ServingPolicy policy_;
    std::size_t ticks_;
    const SpotAvailability* on_demand_;  // null: on-demand always available
    std::vector<Replicas> spot_;
    Replicas od_;
    std::vector<std::size_t> spot_ticks_;
    std::size_t od_ticks_ = 0;
    std::vector<bool> active_;  // SpotHedge: active (true) or preempted zone
    std::vector<bool> doomed_;
    std::vector<std::size_t> quota_;
    std::vector<std::size_t> next_down_;  // per zone: a tick after t, <= the first without capacity
    std::vector<std::size_t> candidates_;  // place_hedged's zones in order, kept between ticks
    Tick launch_ticks_;
    std::size_t notice_ticks_;
    ServingResult result_;
};

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
    return ServingRun(zones, config, policy, ticks, on_demand).run();
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
