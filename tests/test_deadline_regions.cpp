#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/engines/deadline_regions.hpp"
#include "deadline_schedules.hpp"

using gputco::DeadlineJob;
using gputco::DeadlinePolicy;
using gputco::InvalidInput;
using gputco::MarkovAvailability;
using gputco::RegionPolicy;
using gputco::SpotAvailability;
using gputco::SpotRegion;
using gputco::TickDecision;

using gputco::test::trace;

namespace {

constexpr double on_demand_price = 3.0;
constexpr RegionPolicy region_policies[] = {RegionPolicy::skypilot_failover, RegionPolicy::skypilot_eager_next_region,
                                            RegionPolicy::uniform_progress};

std::string letters(const gputco::MultiRegionResult& r) {
    std::string s;
    for (std::size_t k = 0; k < r.run.decisions.size(); ++k) {
        const TickDecision d = r.run.decisions[k];
        s += d == TickDecision::on_demand ? 'O' : d == TickDecision::none ? 'N' : static_cast<char>('A' + r.region[k]);
    }
    return s;
}

}  // namespace

TEST_CASE("hand traces: FAILOVER returns to the region it lost, EAGER_NEXT_REGION moves on") {
    // C0 = 4, R0 = 12, d = 1. Region A ($1/h) up at k0, k1 and from k4; region B ($1.5/h) up from k4.
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 12, .changeover_hours = 1};
    const std::vector<SpotRegion> regions{{"a", trace({1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}), 1.0},
                                          {"b", trace({0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1}), 1.5}};
    // FAILOVER: k0 the cheapest region A, launch; k1 done 1; k2 A preempted, no region up, slack
    // 10 - 3 = 7 > 2d: idle; k3 idle; k4 A (the region it lost) is back: launch there, k5..k7 done 2..4.
    // 6 ticks in A x $1 = $6.
    const auto f = simulate_multi_region(job, regions, RegionPolicy::skypilot_failover, on_demand_price);
    CHECK(letters(f) == "AANNAAAA");
    CHECK(f.run.cost == 6);
    CHECK(f.moves == 0);
    CHECK(f.run.preemptions == 1);
    // EAGER_NEXT_REGION: at k4 it avoids the region it lost while another has capacity: B.
    // 2 ticks in A x $1 + 4 ticks in B x $1.5 = $8.
    const auto e = simulate_multi_region(job, regions, RegionPolicy::skypilot_eager_next_region, on_demand_price);
    CHECK(letters(e) == "AANNBBBB");
    CHECK(e.run.cost == 8);
    CHECK(e.moves == 1);
    // Uniform Progress, ep(t) = t / 3: k2 preempted, cp 1 >= ep(2) = 2/3: idle; k3 cp 1 = ep(3): idle;
    // k4 the cheapest region with spot, A: as FAILOVER, $6.
    const auto u = simulate_multi_region(job, regions, RegionPolicy::uniform_progress, on_demand_price);
    CHECK(letters(u) == "AANNAAAA");
    CHECK(u.run.cost == 6);
    // The optimum: 4 ticks of work and one changeover at $1 at least; A from k4 does it: $5.
    CHECK(omniscient_multi_region_cost(job, regions, on_demand_price) == 5);
}

TEST_CASE("hand traces: a preempted job moves to another region that has spot at once") {
    // C0 = 3, R0 = 10, d = 1. A ($1) up k0..k2, B ($2) up k2..k9. Every policy: k0 A launch, k1 done 1,
    // k2 done 2 (A still up), k3 A preempted, B has spot: launch in B, k4 done 3. 3 x $1 + 2 x $2 = $7.
    const DeadlineJob job{.compute_hours = 3, .deadline_hours = 10, .changeover_hours = 1};
    const std::vector<SpotRegion> regions{{"a", trace({1, 1, 1, 0, 0, 0, 0, 0, 0, 0}), 1.0},
                                          {"b", trace({0, 0, 1, 1, 1, 1, 1, 1, 1, 1}), 2.0}};
    for (const RegionPolicy policy : region_policies) {
        CAPTURE(to_string(policy));
        const auto r = simulate_multi_region(job, regions, policy, on_demand_price);
        CHECK(letters(r) == "AAABB");
        CHECK(r.run.cost == 7);
        CHECK(r.moves == 1);
        CHECK(r.run.changeovers == 2);
        CHECK(r.run.spot_hours == 5);
    }
}

TEST_CASE("one region: the multi-region policies are the single-region ones") {
    // SkyPilot's strategies run the authors' Greedy rules; multi-region UP is Uniform Progress.
    for (const double changeover : {0.0, 1.0, 2.0}) {
        const DeadlineJob job{.compute_hours = 12, .deadline_hours = 20 + changeover, .changeover_hours = changeover};
        for (std::uint64_t seed = 0; seed < 60; ++seed) {
            const auto t = SpotAvailability::markov({.mean_up_hours = 3, .mean_down_hours = 2}, job.deadline_ticks(), 1.0, seed);
            const std::vector<SpotRegion> one{{"only", t, 0.9731}};
            CAPTURE(seed);
            for (const RegionPolicy policy : region_policies) {
                const DeadlinePolicy same = policy == RegionPolicy::uniform_progress ? DeadlinePolicy::uniform_progress
                                                                                      : DeadlinePolicy::greedy;
                const auto m = simulate_multi_region(job, one, policy, 3.06);
                const auto s = simulate_deadline(job, t, same, 0.9731, 3.06);
                CHECK(m.run.decisions == s.decisions);
                CHECK(m.run.cost == s.cost);
                CHECK(m.moves == 0);
            }
            CHECK(omniscient_multi_region_cost(job, one, 3.06) == omniscient_cost(job, t, 0.9731, 3.06));
        }
    }
}

TEST_CASE("the multi-region optimum equals the best of all 4^K schedules over two regions") {
    // Every pair of 5-tick traces, two shapes of job, region B dearer than A.
    for (const auto& [compute, changeover] : {std::pair{2L, 1L}, std::pair{3L, 0L}}) {
        const DeadlineJob job{.compute_hours = double(compute), .deadline_hours = 5, .changeover_hours = double(changeover)};
        for (unsigned bits = 0; bits < (1u << 10); ++bits) {
            std::vector<bool> a(5), b(5);
            for (unsigned k = 0; k < 5; ++k) {
                a[k] = (bits >> k) & 1u;
                b[k] = (bits >> (k + 5)) & 1u;
            }
            const std::vector<SpotRegion> regions{{"a", trace(a), 1.0}, {"b", trace(b), 1.5}};
            CAPTURE(bits);
            CHECK(omniscient_multi_region_cost(job, regions, on_demand_price) == gputco::test::brute_force_optimum(regions, on_demand_price, compute, changeover));
        }
    }
}

TEST_CASE("every multi-region policy meets every feasible deadline; the optimum bounds them") {
    std::size_t runs = 0;
    for (const double changeover : {0.0, 1.0, 3.0}) {
        for (const double slack : {0.0, 2.0, 10.0}) {
            const DeadlineJob job{.compute_hours = 10, .deadline_hours = 10 + changeover + slack, .changeover_hours = changeover};
            for (std::uint64_t seed = 0; seed < 30; ++seed) {
                std::vector<SpotRegion> regions;
                for (std::uint64_t r = 0; r < 3; ++r)
                    regions.push_back({std::string(1, static_cast<char>('a' + r)),
                                       SpotAvailability::markov({.mean_up_hours = 2, .mean_down_hours = 3},
                                                                job.deadline_ticks(), 1.0, 100 * seed + r),
                                       0.9 + 0.1 * double(r)});
                const double best = omniscient_multi_region_cost(job, regions, 3.06);
                // Spot anywhere can only help: at most the best single region's optimum.
                for (const auto& region : regions)
                    CHECK(best <= omniscient_cost(job, region.availability, region.spot_price_per_hour, 3.06) + 1e-9);
                for (const RegionPolicy policy : region_policies) {
                    CAPTURE(to_string(policy));
                    CAPTURE(seed);
                    const auto r = simulate_multi_region(job, regions, policy, 3.06);
                    CHECK(r.run.met_deadline);
                    CHECK(r.run.cost >= best - 1e-9);
                    CHECK(r.run.spot_hours + r.run.on_demand_hours + r.run.idle_hours == r.run.finish_hours);
                    for (std::size_t k = 0; k < r.region.size(); ++k) {
                        // Spot only where it is available; a region only for spot.
                        if (r.run.decisions[k] == TickDecision::spot)
                            CHECK(regions[std::size_t(r.region[k])].availability.available[k]);
                        else
                            CHECK(r.region[k] == -1);
                    }
                    ++runs;
                }
            }
        }
    }
    CHECK(runs == 3 * 3 * 30 * 3);
}

TEST_CASE("multi-region inputs and limits are named") {
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 8, .changeover_hours = 1};
    const auto t = SpotAvailability::always_available(8);
    CHECK_THROWS_WITH_AS(simulate_multi_region(job, {}, RegionPolicy::uniform_progress, 3.0),
                         "regions.size = 0: must be >= 1", InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_multi_region(job, {{"a", t, 1.0}, {"b", t, -1.0}}, RegionPolicy::uniform_progress, 3.0),
                         "regions[1].spot_price_per_hour = -1: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_multi_region(job, {{"a", SpotAvailability::always_available(7), 1.0}},
                                               RegionPolicy::uniform_progress, 3.0),
                         "regions[0].availability.ticks = 7: must cover the deadline, >= 8 ticks", InvalidInput);
    SpotAvailability half = SpotAvailability::always_available(16);
    half.tick_hours = 0.5;
    CHECK_THROWS_WITH_AS(simulate_multi_region(job, {{"a", half, 1.0}}, RegionPolicy::skypilot_failover, 3.0),
                         "regions[0].availability.tick_hours = 0.5: must equal deadline_job.tick_hours = 1 (resample "
                         "the trace with resampled())",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_multi_region(job, {{"a", t, 1.0}}, RegionPolicy::uniform_progress, 0.0),
                         "on_demand_price_per_hour = 0: must be finite and > 0", InvalidInput);
    // The optimum's limits fail before any work: 17 regions; 1e5 compute ticks x (1 + 2 x 101) states.
    CHECK_THROWS_WITH_AS(omniscient_multi_region_cost(job, std::vector<SpotRegion>(17, {"a", t, 1.0}), 3.0),
                         "regions.size = 17: must be at most 16 for the exact optimum", InvalidInput);
    const DeadlineJob wide{.compute_hours = 100000, .deadline_hours = 100200, .changeover_hours = 100};
    CHECK_THROWS_WITH_AS(omniscient_multi_region_cost(wide, {{"a", SpotAvailability::always_available(100200), 1.0}}, 3.0),
                         "deadline_job.compute_hours = 100000: gives 2.03e+07 states per tick (compute ticks x (1 + "
                         "(regions + 1) x (changeover ticks + 1))), more than 2e7 for the exact optimum: use coarser ticks",
                         InvalidInput);
    // 2e4 x 203 = 4.06e6 states, x 3e4 ticks x (1 + 2) actions = 3.65e11 updates.
    const DeadlineJob big{.compute_hours = 20000, .deadline_hours = 30000, .changeover_hours = 100};
    CHECK_THROWS_WITH_AS(omniscient_multi_region_cost(big, {{"a", SpotAvailability::always_available(30000), 1.0}}, 3.0),
                         "deadline_job.deadline_hours = 30000: gives 3.65e+11 state updates, more than 1e11 for the "
                         "exact optimum: use coarser ticks",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::parse_region_policy("FAILOVER"),
                         "policy = \"FAILOVER\": must be one of skypilot_failover, skypilot_eager_next_region, "
                         "uniform_progress",
                         InvalidInput);
    for (const RegionPolicy p : region_policies) CHECK(gputco::parse_region_policy(to_string(p)) == p);
}

TEST_CASE("the multi-region optimum can be cancelled; a check that never stops changes nothing") {
    // 700 ticks x 600 compute ticks x 7 slots (idle, 2 regions and on-demand with 1 changeover tick)
    // = 2.94e6 states visited: a check at 2^20 and at 2^21 states.
    const DeadlineJob job{.compute_hours = 600, .deadline_hours = 700, .changeover_hours = 1};
    std::vector<SpotRegion> regions;
    for (std::uint64_t r = 0; r < 2; ++r)
        regions.push_back({std::string(1, static_cast<char>('a' + r)),
                           SpotAvailability::markov({.mean_up_hours = 5, .mean_down_hours = 3}, 700, 1.0, 7 + r),
                           0.9 + 0.1 * double(r)});
    int calls = 0;
    CHECK_THROWS_WITH_AS(omniscient_multi_region_cost(job, regions, 3.06, [&] { return ++calls == 2; }),
                         "omniscient_multi_region_cost: stopped", gputco::Cancelled);
    CHECK(calls == 2);
    int asked = 0;
    const double watched = omniscient_multi_region_cost(job, regions, 3.06, [&] { return ++asked < 0; });
    CHECK(asked == 2);
    CHECK(watched == omniscient_multi_region_cost(job, regions, 3.06));
}
