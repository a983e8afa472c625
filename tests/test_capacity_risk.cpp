#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/capacity_risk.hpp"

using gputco::DeadlineJob;
using gputco::DeadlinePolicy;
using gputco::InvalidInput;
using gputco::OnDemandCapacity;
using gputco::SpotAvailability;

namespace {

SpotAvailability flags(const std::vector<int>& bits) {
    SpotAvailability a;
    for (const int b : bits) a.available.push_back(b != 0);
    return a;
}

}  // namespace

TEST_CASE("with on-demand always there the policies run as simulate_deadline, tick for tick") {
    gputco::Xoshiro256pp rng(5);
    for (int trial = 0; trial < 200; ++trial) {
        const double d = static_cast<double>(rng() % 3);
        const double c = 1 + static_cast<double>(rng() % 12);
        const DeadlineJob job{.compute_hours = c, .deadline_hours = c + d + static_cast<double>(rng() % 10),
                              .changeover_hours = d};
        const auto spot = SpotAvailability::markov({.mean_up_hours = 1 + static_cast<double>(rng() % 6),
                                                    .mean_down_hours = 1 + static_cast<double>(rng() % 4)},
                                                   job.deadline_ticks(), 1.0, rng());
        const auto always = SpotAvailability::always_available(job.deadline_ticks());
        for (const auto policy : gputco::all_deadline_policies()) {
            const auto a = gputco::simulate_deadline(job, spot, policy, 1.0, 3.0);
            const auto b = gputco::simulate_deadline_with_capacity(job, spot, always, policy, 1.0, 3.0);
            CHECK(a.cost == b.cost);
            CHECK(a.decisions == b.decisions);
            CHECK(a.finish_hours == b.finish_hours);
            CHECK(b.met_deadline);
        }
    }
}

TEST_CASE("a failover that finds no on-demand idles and misses the deadline") {
    // Greedy, d = 0, C0 = 4, R0 = 6, spot never: on-demand at slack 0 (tick 2), none until tick 3, then
    // four ticks: finished at 7 h, one late.
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 6};
    const auto r = gputco::simulate_deadline_with_capacity(job, flags({0, 0, 0, 0, 0, 0}), flags({0, 0, 0, 1, 1, 1}),
                                                           DeadlinePolicy::greedy, 1.0, 3.0);
    CHECK(r.finish_hours == 7);
    CHECK(!r.met_deadline);
    CHECK(r.on_demand_hours == 4);
    CHECK(r.idle_hours == 3);
    CHECK(r.cost == 12);
    // A running on-demand instance is not taken back when capacity goes.
    const auto kept = gputco::simulate_deadline_with_capacity(job, flags({0, 0, 0, 0, 0, 0}), flags({1, 1, 1, 0, 0, 0}),
                                                              DeadlinePolicy::greedy, 1.0, 3.0);
    CHECK(kept.finish_hours == 6);
    CHECK(kept.met_deadline);
}

TEST_CASE("on-demand only without slack meets the deadline with the probability of capacity at once") {
    // R0 = C0 + d: the job meets its deadline only if its first launch, at tick 0, finds capacity, which
    // the stationary start gives with probability 1 - u.
    const DeadlineJob job{.compute_hours = 6, .deadline_hours = 7, .changeover_hours = 1};
    const OnDemandCapacity capacity{.unavailable_share = 0.2, .mean_wait_hours = 2, .source = "assumption"};
    const std::size_t paths = 4000;
    const auto risk = gputco::deadline_capacity_risk(job, {.mean_up_hours = 5, .mean_down_hours = 2}, capacity,
                                                     DeadlinePolicy::on_demand_only, 1.0, 3.0,
                                                     {.paths = paths, .seed = 3});
    const double p = 0.8;
    CHECK(std::abs(risk.deadline_met_probability - p) <= 4 * std::sqrt(p * (1 - p) / paths));
    CHECK(risk.capacity_found_probability == risk.deadline_met_probability);
    // No risk: every policy meets every deadline.
    for (const auto policy : gputco::all_deadline_policies()) {
        const auto none = gputco::deadline_capacity_risk(
            {.compute_hours = 10, .deadline_hours = 16, .changeover_hours = 1}, {.mean_up_hours = 5, .mean_down_hours = 2},
            {.unavailable_share = 0}, policy, 1.0, 3.0, {.paths = 200});
        CHECK(none.deadline_met_probability == 1.0);
        CHECK(none.capacity_found_probability == 1.0);
    }
}

TEST_CASE("capacity inputs are named") {
    CHECK_THROWS_WITH_AS((OnDemandCapacity{.unavailable_share = 1}.validate()),
                         "capacity.unavailable_share = 1: must be in [0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS((OnDemandCapacity{.unavailable_share = 0.1, .mean_wait_hours = 0}.validate()),
                         "capacity.mean_wait_hours = 0: must be finite and > 0", InvalidInput);
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 6};
    CHECK_THROWS_WITH_AS(gputco::simulate_deadline_with_capacity(job, flags({0, 0, 0, 0, 0, 0}), flags({1, 1}),
                                                                 DeadlinePolicy::greedy, 1.0, 3.0),
                         "on_demand.ticks = 2: must cover the deadline, >= 6 ticks", InvalidInput);
}
