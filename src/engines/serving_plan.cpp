// Serving: the search for the cheapest configuration that meets an availability target.
#include <algorithm>
#include <numeric>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/engines/serving.hpp"
#include "serving_checks.hpp"
#include "../core/parallel_for.hpp"

namespace gputco {

ServingPlan choose_serving_plan(const std::vector<SpotRegion>& zones, const ServingConfig& config,
                                const ServingSearch& search) {
    require(!search.policies.empty(), "search.policies.size", 0, "must be >= 1");
    require(search.availability_target > 0 && search.availability_target <= 1, "search.availability_target",
            search.availability_target, "must be in (0, 1]");
    require(search.max_on_demand_base <= config.target_replicas, "search.max_on_demand_base",
            search.max_on_demand_base, fmt::format("must be <= target_replicas = {}", config.target_replicas));
    ServingConfig largest = config;
    largest.extra_spot = search.max_extra;
    largest.on_demand_base = search.max_on_demand_base;
    serving_detail::check_zones(zones, largest);  // every candidate is within the limits if the largest is

    ServingPlan plan;
    for (const ServingPolicy policy : search.policies)
        for (std::size_t extra = 0; extra <= search.max_extra; ++extra)
            for (std::size_t base = 0; base <= search.max_on_demand_base; ++base)
                plan.candidates.push_back({.policy = policy, .extra_spot = extra, .on_demand_base = base});
    detail::parallel_for(plan.candidates.size(), search.threads, [&](std::size_t i) {
        auto& candidate = plan.candidates[i];
        ServingConfig c = config;
        c.extra_spot = candidate.extra_spot;
        c.on_demand_base = candidate.on_demand_base;
        c.record_ready = false;
        candidate.result = simulate_serving(zones, c, candidate.policy);
        candidate.meets_target = candidate.result.availability >= search.availability_target;
    });
    for (std::size_t i = 0; i < plan.candidates.size(); ++i) {
        const auto& candidate = plan.candidates[i];
        if (candidate.meets_target && (!plan.best || candidate.result.cost < plan.candidates[*plan.best].result.cost))
            plan.best = i;
    }
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
