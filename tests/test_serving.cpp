#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/serving.hpp"

using gputco::InvalidInput;
using gputco::MarkovAvailability;
using gputco::ServingConfig;
using gputco::ServingPolicy;
using gputco::ServingResult;
using gputco::SpotAvailability;
using gputco::SpotRegion;

namespace {

SpotAvailability flags(const std::string& bits) {
    SpotAvailability a;
    for (const char c : bits) a.available.push_back(c == '1');
    return a;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

const char* const real_zones[] = {"us-east-1c", "us-east-2a", "us-west-2a"};

std::string real_path(const std::string& zone) {
    return std::string(GPUTCO_SOURCE_DIR) + "/tests/data/spot_traces_aws_2023_02_15/" + zone + "_v100_1.json";
}

std::vector<SpotRegion> real_trace_zones(double price) {
    std::vector<SpotRegion> zones;
    for (const char* zone : real_zones) {
        zones.push_back({zone,
                         SpotAvailability::from_json(read_text(real_path(zone)),
                                                     {.values = gputco::TraceValues::available_nodes, .nodes_needed = 1}),
                         price});
    }
    return zones;
}

// Random zones: Markov traces of one length, prices equal or not.
std::vector<SpotRegion> random_zones(gputco::Xoshiro256pp& rng, std::size_t ticks, bool equal_prices) {
    const std::size_t count = 1 + rng() % 4;
    std::vector<SpotRegion> zones;
    for (std::size_t z = 0; z < count; ++z) {
        const MarkovAvailability process{.mean_up_hours = 1.0 + static_cast<double>(rng() % 12),
                                         .mean_down_hours = 1.0 + static_cast<double>(rng() % 6)};
        const double price = equal_prices ? 1.0 : 0.5 + static_cast<double>(rng() % 100) / 50.0;
        zones.push_back({"z" + std::to_string(z), SpotAvailability::markov(process, ticks, 1.0, rng()), price});
    }
    return zones;
}

void check_consistent(const ServingResult& r, std::size_t ticks, std::size_t n) {
    CHECK(std::accumulate(r.ready_histogram.begin(), r.ready_histogram.end(), std::size_t{0}) == ticks);
    std::size_t meeting = 0;
    for (std::size_t k = n; k < r.ready_histogram.size(); ++k) meeting += r.ready_histogram[k];
    CHECK(r.availability == doctest::Approx(static_cast<double>(meeting) / static_cast<double>(ticks)));
    CHECK(r.saving == doctest::Approx(1.0 - r.cost / r.on_demand_only_cost));
}

}  // namespace

TEST_CASE("serving inputs are named") {
    const auto t = SpotAvailability::always_available(8);
    const ServingConfig ok{.target_replicas = 2, .on_demand_price_per_hour = 3.0};
    CHECK_THROWS_WITH_AS(simulate_serving({}, ok, ServingPolicy::spot_hedge), "zones.size = 0: must be >= 1",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_serving({{"a", t, 1.0}, {"b", t, 0.0}}, ok, ServingPolicy::spot_hedge),
                         "zones[1].spot_price_per_hour = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(
        simulate_serving({{"a", t, 1.0}, {"b", SpotAvailability::always_available(7), 1.0}}, ok,
                         ServingPolicy::static_spread),
        "zones[1].availability.ticks = 7: must equal zones[0]'s 8", InvalidInput);
    SpotAvailability fine = t;
    fine.tick_hours = 0.5;
    CHECK_THROWS_WITH_AS(simulate_serving({{"a", fine, 1.0}}, ok, ServingPolicy::spot_hedge),
                         "zones[0].availability.tick_hours = 0.5: must equal serving.tick_hours = 1 (resample the "
                         "trace first)",
                         InvalidInput);
    ServingConfig bad = ok;
    bad.target_replicas = 0;
    CHECK_THROWS_WITH_AS(bad.validate(), "serving.target_replicas = 0: must be >= 1", InvalidInput);
    bad = ok;
    bad.on_demand_base = 3;
    CHECK_THROWS_WITH_AS(bad.validate(), "serving.on_demand_base = 3: must be <= target_replicas = 2", InvalidInput);
    bad = ok;
    bad.tick_hours = 0.1;
    bad.launch_hours = 0.15;
    CHECK_THROWS_WITH_AS(bad.validate(), "serving.launch_hours = 0.15: must be a whole number of ticks (tick_hours = 0.1)",
                         InvalidInput);
    bad = ok;
    bad.notice_hours = -1;
    CHECK_THROWS_WITH_AS(bad.validate(), "serving.notice_hours = -1: must be finite and >= 0", InvalidInput);
    bad = ok;
    bad.extra_spot = 10'000;
    CHECK_THROWS_WITH_AS(bad.validate(),
                         "serving.extra_spot = 10000: must keep target_replicas + extra_spot + on_demand_base <= 10000",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::parse_serving_policy("hedge"),
                         "policy = \"hedge\": must be one of static_spread, even_spread_fallback, spot_hedge",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::generate_zone_availability({{.up = gputco::PriceDriven{}}}, 0, 10, 1, 1),
                         "processes[0].up = \"price_driven\": must be a Poisson, Weibull or lifetime Trace model",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::generate_zone_availability({{}}, 1.5, 10, 1, 1),
                         "correlation = 1.5: must be in [0, 1]", InvalidInput);
}

TEST_CASE("a launch delay without notice leaves a gap; a notice as long as the delay closes it") {
    // One zone, down in ticks 10-14; N = 2, spot $1, on-demand $3, 2-tick launch.
    const std::string bits = "11111111110000011111";
    const std::vector<SpotRegion> zones{{"a", flags(bits), 1.0}};
    ServingConfig config{.target_replicas = 2, .on_demand_price_per_hour = 3.0, .launch_hours = 2};
    const auto late = simulate_serving(zones, config, ServingPolicy::even_spread_fallback);
    // Spot in ticks 0-9 and 15-19 (30 replica-ticks); on-demand launched at 10, ready at 12, released at
    // 17 when the spot relaunched at 15 is ready: 7 ticks x 2.
    CHECK(late.spot_hours == 30);
    CHECK(late.on_demand_hours == 14);
    CHECK(late.cost == 30 + 14 * 3.0);
    CHECK(late.availability == doctest::Approx(18.0 / 20.0));
    CHECK(late.ready_histogram == std::vector<std::size_t>{2, 0, 18});
    CHECK(late.preemptions == 2);
    CHECK(late.launches == 4);
    CHECK(late.on_demand_only_cost == 2 * 20 * 3.0);
    config.notice_hours = 2;
    const auto warned = simulate_serving(zones, config, ServingPolicy::even_spread_fallback);
    // The notice at tick 8 starts on-demand then: ready at 10, held to 16.
    CHECK(warned.on_demand_hours == 18);
    CHECK(warned.cost == 30 + 18 * 3.0);
    CHECK(warned.availability == 1.0);
    CHECK(warned.ready == std::vector<std::uint32_t>(20, 2));
    // Spot only: the zone's outage plus the relaunch delay, 7 ticks with none ready.
    const auto spot_only = simulate_serving(zones, config, ServingPolicy::static_spread);
    CHECK(spot_only.on_demand_hours == 0);
    CHECK(spot_only.ready_histogram == std::vector<std::size_t>{7, 0, 13});
}

TEST_CASE("SpotHedge prefers zones that kept capacity and spreads over them") {
    // Zone a is lost at tick 2; zone b stays; zone c is never available. N = 2, E = 1, no delay.
    const std::vector<SpotRegion> zones{
        {"a", flags("110000"), 1.0}, {"b", flags("111111"), 1.0}, {"c", flags("000000"), 0.5}};
    const ServingConfig config{.target_replicas = 2, .extra_spot = 1, .on_demand_price_per_hour = 3.0};
    const auto r = simulate_serving(zones, config, ServingPolicy::spot_hedge);
    // Ticks 0-1: c fails (no capacity), then a, b, a (fewest first, then the first). Tick 2: a's two
    // are lost; c and a are preempted zones, so all three go to b.
    CHECK(r.preemptions == 2);
    CHECK(r.spot_hours == 3 * 6);
    CHECK(r.on_demand_hours == 0);
    CHECK(r.availability == 1.0);
    const auto even = simulate_serving(zones, config, ServingPolicy::static_spread);
    // Even spread gives each zone one: from tick 2 only b's one is ready.
    CHECK(even.ready == std::vector<std::uint32_t>{2, 2, 1, 1, 1, 1});
}

TEST_CASE("SpotHedge: a preempted zone that takes a launch is active again") {
    // Tick 0: b fails, both replicas go to a. Tick 1: a is lost, nothing has capacity. Tick 2: a takes
    // the first launch and is active again, so it takes the second too (b, still preempted, is not
    // tried). Tick 3: a is lost with both.
    const std::vector<SpotRegion> zones{{"a", flags("1010"), 1.0}, {"b", flags("0011"), 1.0}};
    const ServingConfig config{.target_replicas = 2, .on_demand_price_per_hour = 3.0};
    const auto r = simulate_serving(zones, config, ServingPolicy::spot_hedge);
    CHECK(r.preemptions == 4);
    CHECK(r.spot_hours == 6);
    CHECK(r.cost == 6 + 2 * 3.0);
    CHECK(r.availability == 1.0);
}

TEST_CASE("instant re-placement: the policies and the bound equal a direct count, over random traces") {
    gputco::Xoshiro256pp rng(2025);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t ticks = 1 + rng() % 200;
        const bool equal_prices = trial % 2 == 0;
        const auto zones = random_zones(rng, ticks, equal_prices);
        const ServingConfig config{.target_replicas = 1 + rng() % 5, .extra_spot = rng() % 3,
                                   .on_demand_base = 0, .on_demand_price_per_hour = 1.0 + static_cast<double>(rng() % 4)};
        const std::size_t n = config.target_replicas;
        const std::size_t e = config.extra_spot;
        // The bound: N replicas at the cheapest price on offer each tick.
        double bound = 0;
        for (std::size_t t = 0; t < ticks; ++t) {
            double cheapest = config.on_demand_price_per_hour;
            for (const auto& z : zones)
                if (z.availability.available[t]) cheapest = std::min(cheapest, z.spot_price_per_hour);
            bound += static_cast<double>(n) * cheapest;
        }
        const auto lower = serving_lower_bound(zones, config);
        CHECK(lower.cost == doctest::Approx(bound).epsilon(1e-12));
        CHECK(lower.availability == 1.0);
        // SpotHedge with equal prices: N + E spot while any zone has capacity, else N on-demand.
        if (equal_prices) {
            double hedge = 0;
            for (std::size_t t = 0; t < ticks; ++t) {
                bool any = false;
                for (const auto& z : zones) any = any || z.availability.available[t];
                hedge += any ? static_cast<double>(n + e) : static_cast<double>(n) * config.on_demand_price_per_hour;
            }
            const auto r = simulate_serving(zones, config, ServingPolicy::spot_hedge);
            CHECK(r.cost == doctest::Approx(hedge).epsilon(1e-12));
            CHECK(r.availability == 1.0);
            if (e == 0 && config.on_demand_price_per_hour >= 1.0) CHECK(r.cost == doctest::Approx(lower.cost).epsilon(1e-12));
        }
        // Even spread: zone z holds its round-robin share while it has capacity; on-demand tops up.
        double even_cost = 0;
        double static_cost = 0;
        std::size_t static_meeting = 0;
        for (std::size_t t = 0; t < ticks; ++t) {
            std::size_t spot = 0;
            for (std::size_t z = 0; z < zones.size(); ++z) {
                const std::size_t share = (n + e) / zones.size() + (z < (n + e) % zones.size() ? 1 : 0);
                if (zones[z].availability.available[t]) {
                    spot += share;
                    even_cost += static_cast<double>(share) * zones[z].spot_price_per_hour;
                    static_cost += static_cast<double>(share) * zones[z].spot_price_per_hour;
                }
            }
            even_cost += static_cast<double>(n > spot ? n - spot : 0) * config.on_demand_price_per_hour;
            static_meeting += spot >= n ? 1 : 0;
        }
        const auto even = simulate_serving(zones, config, ServingPolicy::even_spread_fallback);
        CHECK(even.cost == doctest::Approx(even_cost).epsilon(1e-12));
        CHECK(even.availability == 1.0);
        const auto spread = simulate_serving(zones, config, ServingPolicy::static_spread);
        CHECK(spread.availability == doctest::Approx(static_cast<double>(static_meeting) / static_cast<double>(ticks)));
        CHECK(spread.cost == doctest::Approx(static_cost).epsilon(1e-12));
        check_consistent(spread, ticks, n);
        check_consistent(even, ticks, n);
    }
}

TEST_CASE("with launch delays and notices, no policy that always has N ready beats the bound") {
    gputco::Xoshiro256pp rng(77);
    for (int trial = 0; trial < 300; ++trial) {
        const std::size_t ticks = 1 + rng() % 150;
        const auto zones = random_zones(rng, ticks, trial % 3 == 0);
        const ServingConfig config{.target_replicas = 1 + rng() % 4, .extra_spot = rng() % 3,
                                   .on_demand_base = 0, .on_demand_price_per_hour = 1.0 + static_cast<double>(rng() % 4),
                                   .launch_hours = static_cast<double>(rng() % 4),
                                   .notice_hours = static_cast<double>(rng() % 4)};
        const double bound = serving_lower_bound(zones, config).cost;
        for (const auto policy : gputco::all_serving_policies()) {
            const auto r = simulate_serving(zones, config, policy);
            check_consistent(r, ticks, config.target_replicas);
            if (r.availability == 1.0) CHECK(r.cost >= bound * (1 - 1e-12));
            CHECK(r.ready.size() == ticks);
        }
    }
}

TEST_CASE("the real three-zone trace: each zone's share, worked out from the text") {
    for (const char* zone : real_zones) {
        // Independent count: the numbers of the "data" array, 0 or 1.
        const std::string text = read_text(real_path(zone));
        const auto open = text.find('[', text.find("\"data\""));
        const auto close = text.find(']', open);
        std::size_t ones = 0;
        std::size_t values = 0;
        for (std::size_t i = open + 1; i < close; ++i) {
            if (text[i] == '0' || text[i] == '1') {
                ++values;
                ones += text[i] == '1';
            }
        }
        const auto trace = SpotAvailability::from_json(text, {.values = gputco::TraceValues::available_nodes, .nodes_needed = 1});
        CHECK(trace.ticks() == values);
        CHECK(trace.available_ticks() == ones);
        CHECK(trace.tick_hours == doctest::Approx(195.0 / 3600.0));
    }
    const auto zones = real_trace_zones(0.918);
    CHECK(zones[0].availability.ticks() == 20158);
    // Shares rounded, as docs and tests/data's note state them.
    CHECK(std::round(1000.0 * static_cast<double>(zones[0].availability.available_ticks()) / 20158.0) == 467);
    CHECK(std::round(1000.0 * static_cast<double>(zones[1].availability.available_ticks()) / 20158.0) == 759);
    CHECK(std::round(1000.0 * static_cast<double>(zones[2].availability.available_ticks()) / 20158.0) == 883);
    // Instant re-placement: SpotHedge with E = 0 is the bound, tick for tick.
    const ServingConfig config{.target_replicas = 4, .on_demand_price_per_hour = 3.06, .tick_hours = 195.0 / 3600.0};
    const auto hedge = simulate_serving(zones, config, ServingPolicy::spot_hedge);
    const auto bound = serving_lower_bound(zones, config);
    CHECK(hedge.cost == doctest::Approx(bound.cost).epsilon(1e-12));
    CHECK(hedge.availability == 1.0);
}

TEST_CASE("generated zones: the long-run share of capacity is the closed form, within 4 standard errors") {
    // Up periods Exp(mean 10 h), down Exp(mean 2 h), rounded up to 0.1 h ticks: geometric in ticks with
    // means 1 / (1 - exp(-h / mean)); the share is E[up] / (E[up] + E[down]).
    const double h = 0.1;
    const double up = 1 / (1 - std::exp(-h / 10.0));
    const double down = 1 / (1 - std::exp(-h / 2.0));
    const double expected = up / (up + down);
    const std::size_t paths = 200;
    std::vector<double> shares;
    for (std::size_t i = 0; i < paths; ++i) {
        const auto traces = gputco::generate_zone_availability(
            {{.up = gputco::Poisson{.mtbf_hours = 10}, .mean_down_hours = 2}}, 0, 20'000, h, 1000 + i);
        shares.push_back(static_cast<double>(traces[0].available_ticks()) / 20'000.0);
    }
    const double mean = std::accumulate(shares.begin(), shares.end(), 0.0) / paths;
    double var = 0;
    for (const double s : shares) var += (s - mean) * (s - mean);
    const double se = std::sqrt(var / (paths - 1) / paths);
    CHECK(std::abs(mean - expected) <= 4 * se);
}

TEST_CASE("generated zones with correlation 1: a zone losing capacity takes every other zone's") {
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const std::vector<gputco::ZoneProcess> processes(
            3, {.up = gputco::Weibull{.shape = 0.8, .scale_hours = 5}, .mean_down_hours = 1});
        const auto traces = gputco::generate_zone_availability(processes, 1.0, 2000, 0.25, seed);
        for (std::size_t t = 1; t < 2000; ++t) {
            for (std::size_t z = 0; z < 3; ++z) {
                if (!(traces[z].available[t - 1] && !traces[z].available[t])) continue;
                for (std::size_t o = 0; o < 3; ++o) CHECK(!traces[o].available[t]);
            }
        }
    }
    // Independent zones do not all go down together every time.
    const std::vector<gputco::ZoneProcess> processes(3, {.up = gputco::Poisson{.mtbf_hours = 5}, .mean_down_hours = 1});
    const auto traces = gputco::generate_zone_availability(processes, 0.0, 2000, 0.25, 3);
    std::size_t alone = 0;
    for (std::size_t t = 1; t < 2000; ++t)
        if (traces[0].available[t - 1] && !traces[0].available[t] && (traces[1].available[t] || traces[2].available[t])) ++alone;
    CHECK(alone > 0);
}

TEST_CASE("the Monte Carlo and the search give the same figures on any number of threads") {
    const std::vector<SpotRegion> names{{"a", {}, 0.9}, {"b", {}, 1.0}, {"c", {}, 1.1}};
    const std::vector<gputco::ZoneProcess> processes{{.up = gputco::Poisson{.mtbf_hours = 8}, .mean_down_hours = 2},
                                                     {.up = gputco::Weibull{.shape = 0.7, .scale_hours = 6}, .mean_down_hours = 1},
                                                     {.up = gputco::Poisson{.mtbf_hours = 20}, .mean_down_hours = 4}};
    const ServingConfig config{.target_replicas = 3, .extra_spot = 1, .on_demand_price_per_hour = 3.0,
                               .launch_hours = 0.5, .notice_hours = 0.25, .tick_hours = 0.25};
    gputco::ServingMonteCarlo mc{.paths = 24, .ticks = 2000, .seed = 9, .correlation = 0.3, .threads = 1};
    const auto one = simulate_serving_paths(names, processes, config, ServingPolicy::spot_hedge, mc);
    mc.threads = 3;
    const auto three = simulate_serving_paths(names, processes, config, ServingPolicy::spot_hedge, mc);
    REQUIRE(one.paths.size() == 24);
    for (std::size_t i = 0; i < 24; ++i) {
        CHECK(one.paths[i].cost == three.paths[i].cost);
        CHECK(one.paths[i].ready_histogram == three.paths[i].ready_histogram);
    }
    CHECK(one.mean_cost == three.mean_cost);
    CHECK(one.lower_bound_mean_cost <= one.mean_cost);
    // Path i is the run on generate_zone_availability(seed splitmix64(9 + i)).
    auto traces = gputco::generate_zone_availability(processes, 0.3, 2000, 0.25, gputco::splitmix64(9 + 5));
    auto zones = names;
    for (std::size_t z = 0; z < 3; ++z) zones[z].availability = traces[z];
    CHECK(simulate_serving(zones, config, ServingPolicy::spot_hedge).cost == one.paths[5].cost);

    const gputco::ServingSearch search{.max_extra = 3, .max_on_demand_base = 1, .availability_target = 0.99, .threads = 1};
    const auto plan1 = choose_serving_plan(zones, config, search);
    const auto plan3 = choose_serving_plan(zones, config, {.max_extra = 3, .max_on_demand_base = 1,
                                                           .availability_target = 0.99, .threads = 3});
    REQUIRE(plan1.candidates.size() == 3 * 4 * 2);
    CHECK(plan1.best == plan3.best);
    for (std::size_t i = 0; i < plan1.candidates.size(); ++i)
        CHECK(plan1.candidates[i].result.cost == plan3.candidates[i].result.cost);
}

TEST_CASE("the chosen plan is the cheapest candidate meeting the target, over random traces") {
    gputco::Xoshiro256pp rng(11);
    for (int trial = 0; trial < 40; ++trial) {
        const std::size_t ticks = 50 + rng() % 200;
        const auto zones = random_zones(rng, ticks, false);
        const ServingConfig config{.target_replicas = 1 + rng() % 3, .on_demand_price_per_hour = 3.0,
                                   .launch_hours = static_cast<double>(rng() % 3)};
        const gputco::ServingSearch search{.max_extra = 2, .max_on_demand_base = config.target_replicas,
                                           .availability_target = 0.95};
        const auto plan = choose_serving_plan(zones, config, search);
        for (const auto& c : plan.candidates) {
            ServingConfig each = config;
            each.extra_spot = c.extra_spot;
            each.on_demand_base = c.on_demand_base;
            const auto r = simulate_serving(zones, each, c.policy);
            CHECK(r.cost == c.result.cost);
            CHECK(c.meets_target == (r.availability >= 0.95));
            if (c.meets_target) {
                REQUIRE(plan.best.has_value());
                CHECK(plan.candidates[*plan.best].result.cost <= c.result.cost);
            }
        }
        // With a base of N on-demand every tick has N ready, so some candidate always meets the target.
        REQUIRE(plan.best.has_value());
        CHECK(plan.candidates[*plan.best].meets_target);
        CHECK(plan.lower_bound.cost == serving_lower_bound(zones, config).cost);
    }
    CHECK_THROWS_WITH_AS(gputco::choose_serving_plan({{"a", flags("1"), 1.0}}, {.target_replicas = 1, .on_demand_price_per_hour = 1},
                                             {.availability_target = 0}),
                         "search.availability_target = 0: must be in (0, 1]", InvalidInput);
}

TEST_CASE("the search's candidates equal their runs alone in every figure, over random traces with notices") {
    // The search runs the spot side once for candidates that share a spot fleet (N + E - base): each
    // candidate must still be exactly simulate_serving with its own E and base.
    gputco::Xoshiro256pp rng(23);
    for (int trial = 0; trial < 60; ++trial) {
        const std::size_t ticks = 50 + rng() % 300;
        const auto zones = random_zones(rng, ticks, trial % 2 == 0);
        const ServingConfig config{.target_replicas = 1 + rng() % 7, .on_demand_price_per_hour = 3.0,
                                   .launch_hours = static_cast<double>(rng() % 3),
                                   .notice_hours = static_cast<double>(rng() % 3)};
        const gputco::ServingSearch search{.max_extra = rng() % 4, .max_on_demand_base = config.target_replicas,
                                           .availability_target = 0.9, .threads = static_cast<unsigned>(1 + trial % 3)};
        const auto plan = choose_serving_plan(zones, config, search);
        REQUIRE(plan.candidates.size() == 3 * (search.max_extra + 1) * (config.target_replicas + 1));
        for (const auto& c : plan.candidates) {
            ServingConfig each = config;
            each.extra_spot = c.extra_spot;
            each.on_demand_base = c.on_demand_base;
            const auto r = simulate_serving(zones, each, c.policy);
            CAPTURE(trial);
            CAPTURE(c.extra_spot);
            CAPTURE(c.on_demand_base);
            CHECK(c.result.ready_histogram == r.ready_histogram);
            CHECK(c.result.launches == r.launches);
            CHECK(c.result.preemptions == r.preemptions);
            CHECK(c.result.spot_hours == r.spot_hours);
            CHECK(c.result.on_demand_hours == r.on_demand_hours);
            CHECK(c.result.cost == r.cost);
            CHECK(c.result.availability == r.availability);
            CHECK(c.result.saving == r.saving);
        }
    }
}

TEST_CASE("a fallback that finds no on-demand waits for it") {
    // One zone down in ticks 10-14, N = 2, no launch delay; on-demand has no capacity in ticks 10-11, so
    // the fallback starts at 12: two ticks with none ready, on-demand for ticks 12-14 only.
    const std::vector<SpotRegion> zones{{"a", flags("11111111110000011111"), 1.0}};
    const ServingConfig config{.target_replicas = 2, .on_demand_price_per_hour = 3.0};
    const auto r = simulate_serving(zones, flags("11111111110011111111"), config, ServingPolicy::even_spread_fallback);
    CHECK(r.on_demand_hours == 6);
    CHECK(r.cost == 30 + 6 * 3.0);
    CHECK(r.ready_histogram == std::vector<std::size_t>{2, 0, 18});
    // A running on-demand replica is not taken back when capacity goes.
    const auto kept = simulate_serving(zones, flags("11111111111000000000"), config, ServingPolicy::even_spread_fallback);
    CHECK(kept.availability == 1.0);
    CHECK(kept.on_demand_hours == 10);
    CHECK_THROWS_WITH_AS(simulate_serving(zones, flags("1"), config, ServingPolicy::spot_hedge),
                         "on_demand.ticks = 1: must equal zones[0]'s 20", InvalidInput);
}

TEST_CASE("with on-demand always there the on-demand trace changes nothing, over random traces") {
    gputco::Xoshiro256pp rng(8);
    for (int trial = 0; trial < 100; ++trial) {
        const std::size_t ticks = 1 + rng() % 120;
        const auto zones = random_zones(rng, ticks, false);
        const ServingConfig config{.target_replicas = 1 + rng() % 4, .extra_spot = rng() % 2, .on_demand_base = rng() % 2,
                                   .on_demand_price_per_hour = 3.0, .launch_hours = static_cast<double>(rng() % 3),
                                   .notice_hours = static_cast<double>(rng() % 3)};
        const auto always = SpotAvailability::always_available(ticks);
        for (const auto policy : gputco::all_serving_policies()) {
            const auto a = simulate_serving(zones, config, policy);
            const auto b = simulate_serving(zones, always, config, policy);
            CHECK(a.cost == b.cost);
            CHECK(a.ready == b.ready);
        }
        // Less on-demand capacity never buys more on-demand hours for the fallback with no delay.
        const auto od = SpotAvailability::markov({.mean_up_hours = 5, .mean_down_hours = 2}, ticks, 1.0, rng());
        ServingConfig instant = config;
        instant.launch_hours = 0;
        instant.notice_hours = 0;
        const auto full = simulate_serving(zones, instant, ServingPolicy::even_spread_fallback);
        const auto scarce = simulate_serving(zones, od, instant, ServingPolicy::even_spread_fallback);
        CHECK(scarce.availability <= full.availability);
    }
    // The Monte Carlo with capacity risk: availability falls, and it is the same on any thread count.
    const std::vector<SpotRegion> names{{"a", {}, 0.9}, {"b", {}, 1.0}};
    const std::vector<gputco::ZoneProcess> processes(2, {.up = gputco::Poisson{.mtbf_hours = 6}, .mean_down_hours = 2});
    const ServingConfig config{.target_replicas = 2, .on_demand_price_per_hour = 3.0, .launch_hours = 1};
    gputco::ServingMonteCarlo mc{.paths = 20, .ticks = 500, .seed = 4, .correlation = 0.5};
    const auto sure = simulate_serving_paths(names, processes, config, ServingPolicy::spot_hedge, mc);
    mc.on_demand_capacity = gputco::OnDemandCapacity{.unavailable_share = 0.3, .mean_wait_hours = 3};
    const auto risky = simulate_serving_paths(names, processes, config, ServingPolicy::spot_hedge, mc);
    mc.threads = 2;
    const auto risky2 = simulate_serving_paths(names, processes, config, ServingPolicy::spot_hedge, mc);
    CHECK(risky.mean_availability < sure.mean_availability);
    CHECK(risky.mean_cost == risky2.mean_cost);
}

TEST_CASE("the frontier of cost against availability holds the cheapest candidate for every target") {
    gputco::Xoshiro256pp rng(21);
    for (int trial = 0; trial < 40; ++trial) {
        const std::size_t ticks = 30 + rng() % 150;
        const auto zones = random_zones(rng, ticks, false);
        const ServingConfig config{.target_replicas = 1 + rng() % 3, .on_demand_price_per_hour = 3.0,
                                   .launch_hours = static_cast<double>(rng() % 3)};
        const auto plan = choose_serving_plan(zones, config, {.max_extra = 2, .max_on_demand_base = config.target_replicas});
        const auto frontier = gputco::serving_frontier(plan);
        REQUIRE(!frontier.empty());
        for (std::size_t k = 1; k < frontier.size(); ++k) {
            const auto& a = plan.candidates[frontier[k - 1]].result;
            const auto& b = plan.candidates[frontier[k]].result;
            CHECK(a.cost <= b.cost);
            CHECK(a.availability < b.availability);
        }
        // Every candidate's availability as a target: the cheapest meeting it, by brute force, is on it.
        for (const auto& target : plan.candidates) {
            double cheapest = 1e300;
            for (const auto& c : plan.candidates)
                if (c.result.availability >= target.result.availability) cheapest = std::min(cheapest, c.result.cost);
            bool found = false;
            for (const std::size_t i : frontier)
                found = found || (plan.candidates[i].result.availability >= target.result.availability &&
                                  plan.candidates[i].result.cost == cheapest);
            CHECK(found);
        }
    }
}

TEST_CASE("the on-demand base is part of the N replicas, not beside them (SkyServe's base_ondemand_fallback_replicas)") {
    // Two zones always up at $1/h, on demand $4/h, N = 4, 10 one-hour ticks. A base of 4 on demand
    // leaves no spot: 4 × 10 × $4 = $160, all on demand exactly (it cost $200 when the 4 spot replicas
    // ran beside the base). A base of 1 with E = 1: 4 − 1 + 1 = 4 spot, 4 × 10 × $1 + 1 × 10 × $4 = $80
    // (was $90 with 5 spot).
    const std::vector<SpotRegion> zones{{"a", flags("1111111111"), 1.0}, {"b", flags("1111111111"), 1.0}};
    for (const auto policy : gputco::all_serving_policies()) {
        CAPTURE(gputco::to_string(policy));
        const ServingConfig all_base{.target_replicas = 4, .extra_spot = 0, .on_demand_base = 4,
                                     .on_demand_price_per_hour = 4.0};
        const ServingResult r = simulate_serving(zones, all_base, policy);
        CHECK(r.cost == 160.0);
        CHECK(r.saving == 0.0);
        CHECK(r.spot_hours == 0.0);
        CHECK(r.availability == 1.0);
        const ServingConfig one_base{.target_replicas = 4, .extra_spot = 1, .on_demand_base = 1,
                                     .on_demand_price_per_hour = 4.0};
        const ServingResult s = simulate_serving(zones, one_base, policy);
        CHECK(s.cost == 80.0);
        CHECK(s.spot_hours == 40.0);
        CHECK(s.on_demand_hours == 10.0);
    }
}
