// Serving: the search for the cheapest configuration that meets an availability target.
#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/engines/serving.hpp"
#include "serving_checks.hpp"
#include "../core/parallel_for.hpp"

namespace gputco {

namespace serving_detail {

namespace {

// The search's rules and the largest candidate's limits (every candidate is within them if it is).
void check_search(const std::vector<SpotRegion>& zones, const ServingConfig& config, const ServingSearch& search) {
    require(!search.policies.empty(), "search.policies.size", 0, "must be >= 1");
    require(search.availability_target > 0 && search.availability_target <= 1, "search.availability_target",
            search.availability_target, "must be in (0, 1]");
    require(search.max_on_demand_base <= config.target_replicas, "search.max_on_demand_base",
            search.max_on_demand_base, fmt::format("must be <= target_replicas = {}", config.target_replicas));
    ServingConfig largest = config;
    largest.extra_spot = search.max_extra;
    largest.on_demand_base = search.max_on_demand_base;
    check_zones(zones, largest);
}

// Policy-major, then E, then base; the figures still empty.
std::vector<ServingCandidate> candidates_of(const ServingSearch& search) {
    std::vector<ServingCandidate> out;
    for (const ServingPolicy policy : search.policies)
        for (std::size_t extra = 0; extra <= search.max_extra; ++extra)
            for (std::size_t base = 0; base <= search.max_on_demand_base; ++base)
                out.push_back({.policy = policy, .extra_spot = extra, .on_demand_base = base});
    return out;
}

ServingConfig config_of(const ServingConfig& config, const ServingCandidate& candidate) {
    ServingConfig c = config;
    c.extra_spot = candidate.extra_spot;
    c.on_demand_base = candidate.on_demand_base;
    c.record_ready = false;
    return c;
}

}  // namespace

std::vector<ServingTally> tally_candidates(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                                           const ServingSearch& search) {
    check_search(zones, config, search);
    const std::vector<ServingCandidate> candidates = candidates_of(search);
    // Candidates of one policy with the same spot fleet, N + E − base (E and base one higher, say),
    // differ only on the on-demand side: their spot side runs once (tally_shared_fleet). Groups in
    // the candidates' order.
    std::vector<std::vector<std::size_t>> groups;
    std::map<std::pair<ServingPolicy, std::size_t>, std::size_t> group_of;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
        const auto key = std::pair(candidates[i].policy, config_of(config, candidates[i]).spot_replicas());
        const auto [found, added] = group_of.emplace(key, groups.size());
        if (added) groups.emplace_back();
        groups[found->second].push_back(i);
    }
    std::vector<ServingTally> tallies(candidates.size());
    detail::parallel_for(groups.size(), search.threads, [&](std::size_t g) {
        std::vector<ServingConfig> configs;
        for (const std::size_t i : groups[g]) configs.push_back(config_of(config, candidates[i]));
        auto group_tallies = tally_shared_fleet(zones, configs, candidates[groups[g].front()].policy);
        for (std::size_t j = 0; j < groups[g].size(); ++j) tallies[groups[g][j]] = std::move(group_tallies[j]);
    });
    return tallies;
}

ServingPlan plan_from_tallies(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                              const ServingSearch& search, const std::vector<ServingTally>& tallies) {
    check_search(zones, config, search);
    ServingPlan plan;
    plan.candidates = candidates_of(search);
    require(tallies.size() == plan.candidates.size(), "tallies.size", tallies.size(),
            fmt::format("must equal the search's {} candidates", plan.candidates.size()));
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) {
        auto& candidate = plan.candidates[i];
        candidate.result = priced(tallies[i], zones, config_of(config, candidate));
        candidate.meets_target = candidate.result.availability >= search.availability_target;
        if (candidate.meets_target && (!plan.best || candidate.result.cost < plan.candidates[*plan.best].result.cost))
            plan.best = i;
    }
    return plan;
}

}  // namespace serving_detail

ServingPlan choose_serving_plan(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                                const ServingSearch& search) {
    ServingPlan plan =
        serving_detail::plan_from_tallies(zones, config, search, serving_detail::tally_candidates(zones, config, search));
    ServingConfig quiet = config;
    quiet.record_ready = false;
    plan.lower_bound = serving_lower_bound(zones, quiet);
    return plan;
}

std::vector<std::size_t> serving_frontier(const ServingPlan& plan) {
    const auto& c = plan.candidates;
    std::vector<std::size_t> order(c.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    // Cheapest first; among equal costs the most available, then the first.
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (c[a].result.cost != c[b].result.cost) return c[a].result.cost < c[b].result.cost;
        return c[a].result.availability > c[b].result.availability;
    });
    std::vector<std::size_t> frontier;
    for (const std::size_t i : order)
        if (frontier.empty() || c[i].result.availability > c[frontier.back()].result.availability) frontier.push_back(i);
    return frontier;
}

}  // namespace gputco
