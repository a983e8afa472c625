#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gputco/engines/deadline.hpp"
#include "deadline_schedules.hpp"
#include "gputco/core/error.hpp"

using gputco::DeadlineJob;
using gputco::DeadlinePolicy;
using gputco::InvalidInput;
using gputco::MarkovAvailability;
using gputco::SpotAvailability;
using gputco::TickDecision;
using gputco::Cancelled;

using gputco::test::trace;

namespace {

// The paper's benchmark instance, p3.2xlarge (per hour).
constexpr double p3_on_demand = 3.06;
constexpr double p3_spot = 0.9701;

// Round prices for hand arithmetic: spot $1 per tick-hour, on-demand $3.
constexpr double spot = 1.0;
constexpr double on_demand = 3.0;

constexpr DeadlinePolicy all_policies[] = {DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress,
                                           DeadlinePolicy::on_demand_only, DeadlinePolicy::greedy_simple,
                                           DeadlinePolicy::uniform_progress_prose};

// "SSNNOOOO": one letter per tick (S spot, O on-demand, N none), for readable checks of the log.
std::string letters(const std::vector<TickDecision>& decisions) {
    std::string s;
    for (TickDecision d : decisions) s += d == TickDecision::spot ? 'S' : d == TickDecision::on_demand ? 'O' : 'N';
    return s;
}

}  // namespace

TEST_CASE("the paper's reference prices: a 48 h job on p3.2xlarge") {
    const DeadlineJob job{.compute_hours = 48, .deadline_hours = 72, .changeover_hours = 0, .tick_hours = 1};
    const auto always = SpotAvailability::always_available(72);
    // 48 h x $3.06 = $146.88 on demand.
    const auto od = simulate_deadline(job, always, DeadlinePolicy::on_demand_only, p3_spot, p3_on_demand);
    CHECK(od.cost == doctest::Approx(146.88).epsilon(1e-12));
    CHECK(od.on_demand_hours == 48);
    CHECK(od.finish_hours == 48);
    // Spot always there, no overhead: both policies run 48 h of spot, 48 x $0.9701 = $46.5648.
    for (DeadlinePolicy policy : {DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress}) {
        CAPTURE(to_string(policy));
        const auto r = simulate_deadline(job, always, policy, p3_spot, p3_on_demand);
        CHECK(r.cost == doctest::Approx(46.5648).epsilon(1e-12));
        CHECK(r.spot_hours == 48);
        CHECK(r.on_demand_hours == 0);
        CHECK(r.changeovers == 1);
        CHECK(r.met_deadline);
    }
    CHECK(omniscient_cost(job, always, p3_spot, p3_on_demand) == doctest::Approx(46.5648).epsilon(1e-12));
}

TEST_CASE("the issue's reproduction: C0 = 3 h, R0 = 9 h, d = 1 h, spot 1,0,1,1,0,1,0,1,1") {
    const DeadlineJob job{.compute_hours = 3, .deadline_hours = 9, .changeover_hours = 1};
    const auto t = trace({1, 0, 1, 1, 0, 1, 0, 1, 1});
    constexpr double spot_price = 0.9731;  // the authors' code
    // Uniform Progress, ep(t) = t / 3: k0 slack 6 > 2d, spot launch (no progress). k1 preempted; idle,
    // cp 0 < ep(1): on-demand launch (changeover). k2 spot is back but cp 0 <= ep(4) = 4/3: stay, done
    // 1; k3 cp 1 <= ep(5) = 5/3: stay, done 2; k4 no spot: stay, done 3. Finish at 5 h.
    // 1 spot h x $0.9731 + 4 on-demand h x $3.06 = $0.9731 + $12.24 = $13.2131.
    const auto u = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, spot_price, p3_on_demand);
    CHECK(letters(u.decisions) == "SOOOO");
    CHECK(u.cost == doctest::Approx(13.2131).epsilon(1e-12));
    CHECK(std::round(u.cost * 100) / 100 == 13.21);
    CHECK(u.finish_hours == 5);
    // The prose variant (this library's first Uniform Progress): k4 cp 2 = ep(6), not behind, leaves
    // on-demand; no spot, cp 2 >= ep(4): idle; k5 spot launch; k6 preempted, slack 3 - 1 = 2 <= 2d:
    // on-demand for good, k6 changeover, k7 done 3. Finish at 8 h.
    // 2 spot h x $0.9731 + 5 on-demand h x $3.06 = $1.9462 + $15.30 = $17.2462.
    const auto p = simulate_deadline(job, t, DeadlinePolicy::uniform_progress_prose, spot_price, p3_on_demand);
    CHECK(letters(p.decisions) == "SOOONSOO");
    CHECK(p.cost == doctest::Approx(17.2462).epsilon(1e-12));
    CHECK(p.finish_hours == 8);
    // Greedy (authors'): k0 spot launch; k1 preempted, slack 5 > 2d, idle; k2 spot launch; k3 done 1;
    // k4 preempted, slack 5 - 2 = 3 > 2d, idle; k5 slack 2 <= 2d: on-demand, k5 changeover, k6, k7 done
    // 2, 3. 3 spot h x $0.9731 + 3 on-demand h x $3.06 = $2.9193 + $9.18 = $12.0993.
    const auto g = simulate_deadline(job, t, DeadlinePolicy::greedy, spot_price, p3_on_demand);
    CHECK(letters(g.decisions) == "SNSSNOOO");
    CHECK(g.cost == doctest::Approx(12.0993).epsilon(1e-12));
    CHECK(g.met_deadline);
}

TEST_CASE("d = 0: Greedy and Uniform Progress go back to spot after on-demand, the variants stay on it") {
    // C0 = 3, R0 = 4, spot 0,0,1,1. Greedy: k0 slack 1 > 0, no spot, idle; k1 slack 0: on-demand, done
    // 1; k2 spot available and switching is free: spot, done 2; k3 spot, done 3. $3 + 2 x $1 = $5.
    const DeadlineJob job{.compute_hours = 3, .deadline_hours = 4, .changeover_hours = 0};
    const auto t = trace({0, 0, 1, 1});
    const auto g = simulate_deadline(job, t, DeadlinePolicy::greedy, spot, on_demand);
    CHECK(letters(g.decisions) == "NOSS");
    CHECK(g.cost == 5);
    CHECK(g.met_deadline);
    // Uniform Progress as the authors' code runs it at d = 0: at slack 0 available spot is as safe as
    // on-demand, so k2 and k3 run spot, as Greedy's do.
    const auto u = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, spot, on_demand);
    CHECK(letters(u.decisions) == "NOSS");
    CHECK(u.cost == 5);
    // greedy_simple and the prose Uniform Progress commit at slack 0 (k1) and stay on demand: 3 x $3 = $9.
    CHECK(letters(simulate_deadline(job, t, DeadlinePolicy::greedy_simple, spot, on_demand).decisions) == "NOOO");
    const auto prose = simulate_deadline(job, t, DeadlinePolicy::uniform_progress_prose, spot, on_demand);
    CHECK(letters(prose.decisions) == "NOOO");
    CHECK(prose.cost == 9);
}

TEST_CASE("d = 0, slack 0, spot always there: Uniform Progress runs spot as Greedy does") {
    const DeadlineJob job{.compute_hours = 11, .deadline_hours = 11, .changeover_hours = 0};
    const auto r = simulate_deadline(job, SpotAvailability::always_available(11), DeadlinePolicy::uniform_progress, 0.9731,
                                     3.06);
    CHECK(r.cost == doctest::Approx(11 * 0.9731).epsilon(1e-12));  // $10.7041, not all on-demand's $33.66
    CHECK(letters(r.decisions) == "SSSSSSSSSSS");
    CHECK(r.met_deadline);
}

TEST_CASE("d = 0 over random traces: Uniform Progress runs every available tick at slack 0 on spot, costs between "
          "Greedy (the optimum there) and all on-demand, and equals Greedy when spot is always there") {
    std::mt19937_64 rng(34);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int trial = 0; trial < 2000; ++trial) {
        const auto compute = static_cast<long long>(1 + rng() % 40), deadline = compute + static_cast<long long>(rng() % 20);
        const DeadlineJob job{.compute_hours = double(compute), .deadline_hours = double(deadline), .changeover_hours = 0};
        const double up_share = unit(rng);
        std::vector<bool> ticks(static_cast<std::size_t>(deadline));
        for (std::size_t k = 0; k < ticks.size(); ++k) ticks[k] = trial % 4 == 0 || unit(rng) < up_share;
        const SpotAvailability t{ticks};
        CAPTURE(trial);
        const auto u = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, p3_spot, p3_on_demand);
        const auto g = simulate_deadline(job, t, DeadlinePolicy::greedy, p3_spot, p3_on_demand);
        // At d = 0 Greedy is optimal: it runs spot on every available tick and on-demand only once slack
        // is gone, so it pays on-demand for max(0, C - available ticks) ticks and nothing can pay less.
        CHECK(g.cost == doctest::Approx(omniscient_cost(job, t, p3_spot, p3_on_demand)).epsilon(1e-12));
        CHECK(u.met_deadline);
        CHECK(u.cost >= g.cost - 1e-9);
        CHECK(u.cost <= double(compute) * p3_on_demand + 1e-9);
        if (trial % 4 == 0) CHECK(u.cost == doctest::Approx(g.cost).epsilon(1e-12));  // spot always there
        // Slack at the start of tick k is (K - k) - (C - done); at 0, available spot must run.
        double done = 0;
        for (std::size_t k = 0; k < u.decisions.size(); ++k) {
            const double slack = double(deadline - static_cast<long long>(k)) - (double(compute) - done);
            if (slack <= 0 && ticks[k]) CHECK(u.decisions[k] == TickDecision::spot);
            done = u.progress_hours[k];
        }
    }
}

TEST_CASE("hand trace 1,1,0,0,1,1,1,1,1,1 with d = 1 tick: C0 = 4, R0 = 10") {
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 10, .changeover_hours = 1};
    const auto t = trace({1, 1, 0, 0, 1, 1, 1, 1, 1, 1});

    SUBCASE("greedy") {
        // k0 launch spot (changeover), k1 spot: done 1. k2 preempted; slack 8 - 3 = 5 > 2d: idle,
        // k3 idle (slack 4 > 2d). k4 relaunch spot (changeover), k5..k7 done 2, 3, 4: finish at 8 h.
        // 6 spot ticks x $1 = $6; 2 launches, 1 preemption, 2 h idle.
        const auto r = simulate_deadline(job, t, DeadlinePolicy::greedy, spot, on_demand);
        CHECK(letters(r.decisions) == "SSNNSSSS");
        CHECK(r.cost == 6);
        CHECK(r.spot_hours == 6);
        CHECK(r.on_demand_hours == 0);
        CHECK(r.idle_hours == 2);
        CHECK(r.changeovers == 2);
        CHECK(r.preemptions == 1);
        CHECK(r.finish_hours == 8);
        CHECK(r.met_deadline);
        CHECK(r.progress_hours == std::vector<double>{0, 1, 1, 1, 1, 2, 3, 4});
        CHECK(r.spot_available == std::vector<bool>{1, 1, 0, 0, 1, 1, 1, 1});
    }
    SUBCASE("uniform progress") {
        // ep(t) = 0.4 t. k0, k1 as greedy: done 1. k2 preempted, idle: cp 1 >= ep(2) = 0.8, stay idle.
        // k3: cp 1 < ep(3) = 1.2 -> on-demand (changeover). On on-demand stay while cp < ep(t + 2):
        // k4 cp 1 < 2.4, k5 cp 2 < 2.8, k6 cp 3 < 3.2 -> done 2, 3, 4: finish at 7 h.
        // 2 spot ticks x $1 + 4 on-demand ticks x $3 = $14.
        const auto r = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, spot, on_demand);
        CHECK(letters(r.decisions) == "SSNOOOO");
        CHECK(r.cost == 14);
        CHECK(r.spot_hours == 2);
        CHECK(r.on_demand_hours == 4);
        CHECK(r.idle_hours == 1);
        CHECK(r.changeovers == 2);
        CHECK(r.finish_hours == 7);
        CHECK(r.met_deadline);
    }
    SUBCASE("on demand only and the omniscient optimum") {
        // (4 + 1) ticks x $3 = $15.
        CHECK(simulate_deadline(job, t, DeadlinePolicy::on_demand_only, spot, on_demand).cost == 15);
        // Best: launch spot at k4 (changeover), work k5..k8: 5 spot ticks = $5; no schedule has fewer
        // than 4 ticks of work plus 1 changeover, at $1 or more each.
        CHECK(omniscient_cost(job, t, spot, on_demand) == 5);
    }
}

TEST_CASE("hand trace 1,1,0,0,1,1,1,1 with d = 1 tick: C0 = 4, R0 = 8, decisions at the boundaries") {
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 8, .changeover_hours = 1};
    const auto t = trace({1, 1, 0, 0, 1, 1, 1, 1});
    // Greedy (authors'): k0 slack 8 - 4 = 4 > 2d, spot launch; k1 done 1; k2 preempted, idle, slack
    // 6 - 3 = 3 > 2d, no spot: idle; k3 slack 5 - 3 = 2 <= 2d: on-demand, k3 changeover, k4..k6 done
    // 2..4, finish at 7 h. 2 x $1 + 4 x $3 = $14.
    const auto g = simulate_deadline(job, t, DeadlinePolicy::greedy, spot, on_demand);
    CHECK(letters(g.decisions) == "SSNOOOO");
    CHECK(g.cost == 14);
    CHECK(g.finish_hours == 7);
    CHECK(g.met_deadline);
    // greedy_simple waits one tick longer, to slack <= d: k3 slack 2 > 1 idle; k4 slack 1: on-demand
    // for good (spot is back, but it has committed), k4 changeover, k5..k7 done 2..4: finish exactly
    // at the deadline, 2 x $1 + 4 x $3 = $14.
    const auto gs = simulate_deadline(job, t, DeadlinePolicy::greedy_simple, spot, on_demand);
    CHECK(letters(gs.decisions) == "SSNNOOOO");
    CHECK(gs.cost == 14);
    CHECK(gs.finish_hours == 8);
    CHECK(gs.met_deadline);
    // Uniform Progress, ep(t) = t / 2: k2 preempted with cp 1 = ep(2): on schedule, not behind, idle.
    // k3: time left 5 <= work 3 + 2d: safety net, on-demand for good; k3 changeover, k4..k6 done 2..4.
    // 2 x $1 + 4 x $3 = $14, finishing at 7 h.
    const auto u = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, spot, on_demand);
    CHECK(letters(u.decisions) == "SSNOOOO");
    CHECK(u.cost == 14);
    CHECK(u.finish_hours == 7);
}

TEST_CASE("hand trace 1,0,0,0,0,0,1,1,1,1 with d = 1 tick: Uniform Progress catches up early, Greedy waits") {
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 10, .changeover_hours = 1};
    const auto t = trace({1, 0, 0, 0, 0, 0, 1, 1, 1, 1});
    // Greedy (authors'): k0 spot launch, no progress. k1..k3 idle (slack 9 - 4 .. 7 - 4 > 2d). k4:
    // slack 6 - 4 = 2 <= 2d, on-demand: k4 changeover, k5..k8 done 1..4, finish at 9 h.
    // $1 + 5 x $3 = $16, though spot came back at k6.
    const auto g = simulate_deadline(job, t, DeadlinePolicy::greedy, spot, on_demand);
    CHECK(letters(g.decisions) == "SNNNOOOOO");
    CHECK(g.cost == 16);
    CHECK(g.finish_hours == 9);
    CHECK(g.met_deadline);
    // greedy_simple waits to slack <= d: on-demand from k5, finishing at 10 h, exactly the deadline.
    const auto gs = simulate_deadline(job, t, DeadlinePolicy::greedy_simple, spot, on_demand);
    CHECK(letters(gs.decisions) == "SNNNNOOOOO");
    CHECK(gs.cost == 16);
    CHECK(gs.finish_hours == 10);
    // Uniform progress, ep(t) = 0.4 t: k0 spot launch. k1 preempted, cp 0 < ep(1) = 0.4: on-demand
    // (changeover); rule 3 keeps it while spot is unavailable: k2..k5 done 1..4, finish at 6 h.
    // $1 + 5 x $3 = $16: here staying costs a tick more than the prose variant's idling.
    const auto u = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, spot, on_demand);
    CHECK(letters(u.decisions) == "SOOOOO");
    CHECK(u.cost == 16);
    CHECK(u.changeovers == 2);
    CHECK(u.finish_hours == 6);
    // The prose variant leaves on-demand at k5 (cp 3 >= ep(7) = 2.8); no spot, cp 3 >= ep(5) = 2:
    // idle; k6 spot launch, k7 done 4. 3 spot ticks x $1 + 4 on-demand ticks x $3 = $15.
    const auto p = simulate_deadline(job, t, DeadlinePolicy::uniform_progress_prose, spot, on_demand);
    CHECK(letters(p.decisions) == "SOOOONSS");
    CHECK(p.cost == 15);
    CHECK(p.changeovers == 3);
    CHECK(p.finish_hours == 8);
    // Omniscient: spot k6..k9 gives at most 3 ticks of work after its changeover, so one tick of work
    // on demand (plus its changeover) is unavoidable: 2 x $3 + 4 x $1 = $10.
    CHECK(omniscient_cost(job, t, spot, on_demand) == 10);
}

TEST_CASE("a new launch replaces the changeover left, it does not add to it") {
    // C0 = 2, d = 2, R0 = 5. greedy_simple: k0 spot launch (2 ticks of changeover, 1 left after k0). k1: time
    // left 4 <= work 2 + d 2: on-demand, whose changeover (2) replaces the 1 left: k1, k2 changeover,
    // k3, k4 work: finish at 5 h. Stacked overheads (1 + 2) would finish at 6 h, after the deadline.
    const DeadlineJob job{.compute_hours = 2, .deadline_hours = 5, .changeover_hours = 2};
    const auto r = simulate_deadline(job, trace({1, 1, 1, 1, 1}), DeadlinePolicy::greedy_simple, spot, on_demand);
    CHECK(letters(r.decisions) == "SOOOO");
    CHECK(r.finish_hours == 5);
    CHECK(r.met_deadline);
    CHECK(r.cost == 1 + 4 * 3);
    // The authors' Greedy never starts that spot instance: slack 5 - 2 = 3 <= 2d = 4 at k0, on-demand
    // at once, 2 ticks of changeover and 2 of work: 4 x $3 = $12.
    const auto g = simulate_deadline(job, trace({1, 1, 1, 1, 1}), DeadlinePolicy::greedy, spot, on_demand);
    CHECK(letters(g.decisions) == "OOOO");
    CHECK(g.cost == 12);
}

TEST_CASE("fractional hours in finer ticks: 1.5 h of compute, 0.25 h changeover in 0.25 h ticks") {
    // 6 ticks of work, 1 of changeover, spot always there: 7 ticks x 0.25 h = 1.75 h of spot.
    const DeadlineJob job{.compute_hours = 1.5, .deadline_hours = 3, .changeover_hours = 0.25, .tick_hours = 0.25};
    const auto r = simulate_deadline(job, SpotAvailability::always_available(12), DeadlinePolicy::greedy, p3_spot,
                                     p3_on_demand);
    CHECK(r.spot_hours == 1.75);
    CHECK(r.finish_hours == 1.75);
    CHECK(r.cost == doctest::Approx(1.75 * p3_spot).epsilon(1e-12));
}

TEST_CASE("omniscient_cost equals the best of all 3^K schedules on small traces") {
    // Every trace of 7 ticks, for two shapes of job.
    for (const auto& [compute, changeover] : {std::pair{3L, 1L}, std::pair{2L, 2L}}) {
        const DeadlineJob job{.compute_hours = double(compute), .deadline_hours = 7,
                              .changeover_hours = double(changeover)};
        for (unsigned bits = 0; bits < (1u << 7); ++bits) {
            std::vector<bool> available(7);
            for (unsigned k = 0; k < 7; ++k) available[k] = (bits >> k) & 1u;
            CAPTURE(bits);
            CHECK(omniscient_cost(job, SpotAvailability{available}, spot, on_demand) ==
                  gputco::test::brute_force_optimum({{"a", trace(available), spot}}, on_demand, compute, changeover));
        }
    }
}

TEST_CASE("both policies meet every feasible deadline over many generated traces, and the bounds hold") {
    // Jobs from the tightest deadline (C0 + d) to a loose one, changeovers from none to long, and
    // availability from flickering (1-tick periods) to mostly up.
    const MarkovAvailability processes[] = {{.mean_up_hours = 1, .mean_down_hours = 1},
                                            {.mean_up_hours = 3, .mean_down_hours = 5},
                                            {.mean_up_hours = 12, .mean_down_hours = 2}};
    std::size_t runs = 0;
    for (double compute : {1.0, 7.0, 24.0}) {
        for (double changeover : {0.0, 1.0, 3.0}) {
            for (double slack : {0.0, 1.0, 5.0, 30.0}) {
                const DeadlineJob job{.compute_hours = compute, .deadline_hours = compute + changeover + slack,
                                      .changeover_hours = changeover};
                for (const auto& process : processes) {
                    for (std::uint64_t seed = 0; seed < 40; ++seed) {
                        const auto t = SpotAvailability::markov(process, job.deadline_ticks(), 1.0, seed);
                        const double best = omniscient_cost(job, t, p3_spot, p3_on_demand);
                        CHECK(best >= compute * p3_spot - 1e-9);  // nothing beats all-spot without changeovers
                        for (DeadlinePolicy policy : all_policies) {
                            const auto r = simulate_deadline(job, t, policy, p3_spot, p3_on_demand);
                            CAPTURE(to_string(policy));
                            CAPTURE(compute);
                            CAPTURE(changeover);
                            CAPTURE(slack);
                            CAPTURE(seed);
                            CHECK(r.met_deadline);
                            CHECK(r.finish_hours <= job.deadline_hours);
                            CHECK(r.cost >= best - 1e-9);
                            CHECK(r.cost >= compute * p3_spot);  // the spot-only lower bound
                            // The log accounts for every billed and idle hour.
                            CHECK(r.decisions.size() == static_cast<std::size_t>(r.finish_hours));
                            CHECK(r.spot_hours + r.on_demand_hours + r.idle_hours == r.finish_hours);
                            CHECK(r.progress_hours.back() == compute);
                            // Without changeovers every billed tick is progress, so no policy pays more
                            // than on-demand only (C0 x on-demand price).
                            if (changeover == 0) CHECK(r.cost <= compute * p3_on_demand + 1e-9);
                            ++runs;
                        }
                    }
                }
            }
        }
    }
    CHECK(runs == 3 * 3 * 4 * 3 * 40 * 5);
}

TEST_CASE("with changeovers a spot policy can cost more than on-demand only on a flickering trace") {
    // Spot up every other tick, C0 = 4, R0 = 10, d = 1. Uniform Progress, ep(t) = 0.4 t: k0 spot launch
    // (no progress); k1 preempted, cp 0 < 0.4: on-demand, k1 changeover; it stays (rule 3: k2 cp 0 <=
    // ep(4) = 1.6, k3 no spot, k4 cp 2 <= ep(6) = 2.4, k5 no spot), done 1..4 at k2..k5.
    // $1 + 5 x $3 = $16 > on-demand only (4 + 1) x $3 = $15: the rules trade a bounded loss on such
    // traces for savings on typical ones (next test).
    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 10, .changeover_hours = 1};
    const auto t = trace({1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
    const auto u = simulate_deadline(job, t, DeadlinePolicy::uniform_progress, spot, on_demand);
    CHECK(letters(u.decisions) == "SOOOOO");
    CHECK(u.cost == 16);
    CHECK(u.met_deadline);
    // The prose variant loses more: k5 leaves on-demand (3 >= ep(7) = 2.8), no spot, idle; k6 spot
    // launch; k7 preempted, slack 3 - 1 = 2 <= 2d: on-demand for good, k7 changeover, k8 done 4.
    // 2 x $1 + 6 x $3 = $20.
    const auto p = simulate_deadline(job, t, DeadlinePolicy::uniform_progress_prose, spot, on_demand);
    CHECK(letters(p.decisions) == "SOOOONSOO");
    CHECK(p.cost == 20);
    CHECK(p.met_deadline);
    CHECK(simulate_deadline(job, t, DeadlinePolicy::on_demand_only, spot, on_demand).cost == 15);
}

TEST_CASE("Monte Carlo: both policies save against on-demand only and stay above the omniscient optimum") {
    // 48 h job, 72 h deadline, 1 h changeover; spot up 10 h / down 3 h on average.
    const DeadlineJob job{.compute_hours = 48, .deadline_hours = 72, .changeover_hours = 1};
    const MarkovAvailability process{.mean_up_hours = 10, .mean_down_hours = 3};
    const auto c = compare_deadline_policies(job, process, p3_spot, p3_on_demand,
                                             {.paths = 400, .seed = 7, .omniscient = true});
    REQUIRE(c.policies.size() == 3);
    REQUIRE(c.omniscient_cost.has_value());
    const auto& greedy = c.policies[0];
    const auto& up = c.policies[1];
    const auto& od = c.policies[2];
    CHECK(greedy.policy == DeadlinePolicy::greedy);
    CHECK(up.policy == DeadlinePolicy::uniform_progress);
    CHECK(greedy.deadline_miss_probability == 0);
    CHECK(up.deadline_miss_probability == 0);
    CHECK(od.cost.mean == doctest::Approx(49 * p3_on_demand));  // (48 + 1) x $3.06, every path
    CHECK(od.cost.min == od.cost.max);
    CHECK(up.cost.ci_high < od.cost.mean);
    CHECK(greedy.cost.ci_high < od.cost.mean);
    CHECK(c.omniscient_cost->mean <= std::min(up.cost.mean, greedy.cost.mean));
    CHECK(c.omniscient_cost->min >= 48 * p3_spot);
    CHECK(up.cost.count == 400);
    CHECK(up.cost_samples.size() == 400);
}

TEST_CASE("generated traces: deterministic for a seed, with the asked-for means") {
    const MarkovAvailability process{.mean_up_hours = 6, .mean_down_hours = 2};
    const auto a = SpotAvailability::markov(process, 200'000, 0.5, 99);
    const auto b = SpotAvailability::markov(process, 200'000, 0.5, 99);
    const auto c = SpotAvailability::markov(process, 200'000, 0.5, 100);
    CHECK(a.available == b.available);
    CHECK(a.available != c.available);
    // Up share 6 / 8 = 0.75; a binomial-scale tolerance widened for the runs' correlation.
    const double share = double(a.available_ticks()) / double(a.ticks());
    CHECK(share == doctest::Approx(0.75).epsilon(0.02));
    // Mean up period: 6 h = 12 ticks of 0.5 h.
    std::size_t up_runs = 0;
    for (std::size_t k = 0; k < a.ticks(); ++k)
        if (a.available[k] && (k == 0 || !a.available[k - 1])) ++up_runs;
    CHECK(double(a.available_ticks()) / double(up_runs) == doctest::Approx(12).epsilon(0.05));

    const DeadlineJob job{.compute_hours = 10, .deadline_hours = 16, .changeover_hours = 1};
    const auto x = compare_deadline_policies(job, process, p3_spot, p3_on_demand, {.paths = 50, .seed = 3});
    const auto y = compare_deadline_policies(job, process, p3_spot, p3_on_demand, {.paths = 50, .seed = 3});
    const auto z = compare_deadline_policies(job, process, p3_spot, p3_on_demand, {.paths = 50, .seed = 4});
    for (std::size_t i = 0; i < 3; ++i) CHECK(x.policies[i].cost_samples == y.policies[i].cost_samples);
    CHECK(x.policies[0].cost_samples != z.policies[0].cost_samples);
    // Path i depends on (seed, i) only: the first 20 paths of a 50-path run are a 20-path run.
    const auto first = compare_deadline_policies(job, process, p3_spot, p3_on_demand, {.paths = 20, .seed = 3});
    CHECK(std::equal(first.policies[1].cost_samples.begin(), first.policies[1].cost_samples.end(),
                     x.policies[1].cost_samples.begin()));
}

TEST_CASE("trace text: 0/1 lines or CSV rows, comments and a header") {
    CHECK(SpotAvailability::from_text("1\n0\n\n# maintenance window\n1\n").available == std::vector<bool>{1, 0, 1});
    CHECK(SpotAvailability::from_text("time,available\r\n0,1\r\n1, 0\r\n2,1").available ==
          std::vector<bool>{1, 0, 1});
    CHECK_THROWS_WITH_AS(SpotAvailability::from_text("1\nx\n"), "availability line 2 = \"x\": must be 0 or 1",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_text("0,1\n1,yes\n"), "availability line 2 = \"1,yes\": must be 0 or 1",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_text("# nothing\n"), "availability.ticks = 0: must be > 0",
                         InvalidInput);
    CHECK(SpotAvailability::always_available(3).available_ticks() == 3);
}

TEST_CASE("invalid input is named, valued and explained") {
    const auto t = SpotAvailability::always_available(10);
    const auto run = [&t](DeadlineJob job) {
        return simulate_deadline(job, t, DeadlinePolicy::greedy, spot, on_demand);
    };
    CHECK_THROWS_WITH_AS(run({.compute_hours = -1, .deadline_hours = 10}),
                         "deadline_job.compute_hours = -1: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4, .deadline_hours = std::nan("")}),
                         "deadline_job.deadline_hours = nan: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4, .deadline_hours = 10, .changeover_hours = -0.5}),
                         "deadline_job.changeover_hours = -0.5: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4, .deadline_hours = 10, .tick_hours = 0}),
                         "deadline_job.tick_hours = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4.5, .deadline_hours = 10}),
                         "deadline_job.compute_hours = 4.5: must be a whole number of ticks (tick_hours = 1)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4, .deadline_hours = 10, .changeover_hours = 0.2}),
                         "deadline_job.changeover_hours = 0.2: must be a whole number of ticks (tick_hours = 1)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4, .deadline_hours = 2e8, .tick_hours = 0.1}),
                         "deadline_job.deadline_hours = 200000000: must be at most 1e9 ticks (tick_hours = 0.1)",
                         InvalidInput);
    // Durations and prices within the library's ranges, so a cost stays finite (found by fuzzing:
    // 1.65e40 h at 2e272 per hour cost infinity).
    CHECK_THROWS_WITH_AS(run({.compute_hours = 1.65e40, .deadline_hours = 1.65e40, .tick_hours = 1.65e40}),
                         "deadline_job.compute_hours = 1.65e+40: must be in [1e-09, 1e+09] hours", InvalidInput);
    CHECK_THROWS_WITH_AS(run({.compute_hours = 4, .deadline_hours = 10, .changeover_hours = 2e9}),
                         "deadline_job.changeover_hours = 2000000000: must be <= 1e+09", InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_deadline({.compute_hours = 4, .deadline_hours = 10}, t, DeadlinePolicy::greedy,
                                           spot, 2e272),
                         "on_demand_price_per_hour = 2e+272: must be <= 1e+12", InvalidInput);
    // Deadline shorter than compute + changeover: infeasible even on demand.
    CHECK_THROWS_WITH_AS(
        run({.compute_hours = 8, .deadline_hours = 8, .changeover_hours = 1}),
        "deadline_job.deadline_hours = 8: must be >= compute_hours + changeover_hours = 9 (infeasible even on demand)",
        InvalidInput);
    // 0.3 h in 0.1 h ticks is not exactly 3 in binary, and is accepted.
    CHECK_NOTHROW(DeadlineJob{.compute_hours = 0.3, .deadline_hours = 0.7, .changeover_hours = 0.1, .tick_hours = 0.1}
                      .validate());

    const DeadlineJob job{.compute_hours = 4, .deadline_hours = 10};
    CHECK_THROWS_WITH_AS(simulate_deadline(job, t, DeadlinePolicy::greedy, -1, on_demand),
                         "spot_price_per_hour = -1: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(omniscient_cost(job, t, spot, 0), "on_demand_price_per_hour = 0: must be finite and > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_deadline(job, SpotAvailability::always_available(9), DeadlinePolicy::greedy, spot,
                                           on_demand),
                         "availability.ticks = 9: must cover the deadline, >= 10 ticks", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::markov({.mean_up_hours = 0.5, .mean_down_hours = 2}, 10, 1.0, 0),
                         "markov.mean_up_hours = 0.5: must be >= tick_hours = 1", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::markov({.mean_up_hours = 5, .mean_down_hours = std::nan("")}, 10, 1.0, 0),
                         "markov.mean_down_hours = nan: must be >= tick_hours = 1", InvalidInput);
    CHECK_THROWS_WITH_AS(compare_deadline_policies(job, {}, spot, on_demand, {.paths = 0}),
                         "options.paths = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(compare_deadline_policies(job, {}, spot, on_demand, {.confidence = 1}),
                         "options.confidence = 1: must be in (0, 1)", InvalidInput);
}

TEST_CASE("names of policies and decisions") {
    CHECK(to_string(DeadlinePolicy::greedy) == "greedy");
    CHECK(to_string(DeadlinePolicy::uniform_progress) == "uniform_progress");
    CHECK(to_string(DeadlinePolicy::on_demand_only) == "on_demand_only");
    CHECK(to_string(TickDecision::none) == "none");
    CHECK(to_string(TickDecision::spot) == "spot");
    CHECK(to_string(TickDecision::on_demand) == "on_demand");
}

namespace {

std::string read_file(const std::string& path) {
    std::ifstream in(path);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<bool> flags(const SpotAvailability& a) { return a.available; }

// The authors' traces count instances; a one-instance job needs one.
const gputco::TraceReadOptions one_instance{.values = gputco::TraceValues::available_nodes, .nodes_needed = 1};

}  // namespace

TEST_CASE("the authors' JSON trace format: gap_seconds and instance counts") {
    const auto t = SpotAvailability::from_json(
        R"({"metadata": {"gap_seconds": 1800, "zone": "x"}, "data": [0, 3, 1, 0, 2.0]})", one_instance);
    CHECK(t.tick_hours == 0.5);  // 1800 s
    CHECK(flags(t) == std::vector<bool>{0, 1, 1, 0, 1});  // any count > 0 is available

    // The hand-made test trace (tests/data), 72 hourly ticks.
    const auto a = SpotAvailability::from_json(read_file(std::string(GPUTCO_SOURCE_DIR) +
                                                         "/tests/data/deadline_trace_zone_a.json"),
                                               one_instance);
    CHECK(a.tick_hours == 1);
    CHECK(a.ticks() == 72);
    CHECK(a.available_ticks() == 44);  // 72 ticks minus 28 zeros, counted in the file

    using gputco::InvalidInput;
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json("{"), doctest::Contains("trace = "), InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json("[1, 0]"),
                         "trace = \"array\": must be a JSON object with metadata and data", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"data": [1]})"),
                         "trace.metadata = \"missing\": must be an object with gap_seconds", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {}, "data": [1]})"),
                         "trace.metadata.gap_seconds = \"missing\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 0}, "data": [1]})"),
                         "trace.metadata.gap_seconds = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}})"),
                         "trace.data = \"missing\": must be an array of instance counts", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}, "data": []})"),
                         "trace.data.size = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}, "data": [1, 0, 0, -1]})"),
                         "trace.data[3] = \"-1\": must be a whole number >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}, "data": [1.5]})"),
                         "trace.data[0] = \"1.5\": must be a whole number >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}, "data": [true]})"),
                         "trace.data[0] = \"true\": must be a whole number >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}, "data": [1, [0]]})"),
                         "trace.data[1] = \"[...]\": must be a whole number >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": "60"}, "data": [1]})"),
                         "trace.metadata.gap_seconds = \"\"60\"\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": [600], "data": [1]})"),
                         "trace.metadata = \"array\": must be an object with gap_seconds", InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 60}, "data": 5})"),
                         "trace.data = \"number\": must be an array of instance counts", InvalidInput);
    // Other keys, however nested, are skipped; only the top-level data and metadata.gap_seconds count.
    const auto nested = SpotAvailability::from_json(
        R"({"other": {"data": [0, 0], "metadata": {"gap_seconds": 1}}, "data": [1, 0],
            "metadata": {"zone": "x", "extra": {"gap_seconds": 5, "list": [1, 2]}, "gap_seconds": 600}})",
        one_instance);
    CHECK(flags(nested) == std::vector<bool>{1, 0});
    CHECK(nested.tick_hours == doctest::Approx(600.0 / 3600).epsilon(1e-15));
}

TEST_CASE("windows and resampling between tick lengths") {
    SpotAvailability t{{1, 1, 1, 0, 0, 1, 1, 0}, 0.5};
    const auto w = t.window(2, 4);
    CHECK(flags(w) == std::vector<bool>{1, 0, 0, 1});
    CHECK(w.tick_hours == 0.5);
    CHECK_THROWS_WITH_AS(t.window(6, 3), "window.start = 6: must leave length = 3 ticks inside the trace of 8",
                         gputco::InvalidInput);
    CHECK_THROWS_WITH_AS(t.window(0, 0), "window.length = 0: must be > 0", gputco::InvalidInput);

    // Finer: every 0.5 h tick becomes five 0.1 h ticks (0.5 / 0.1 is 4.999... in binary: tolerated).
    const auto fine = t.resampled(0.1);
    CHECK(fine.ticks() == 40);
    CHECK(fine.tick_hours == 0.1);
    for (std::size_t k = 0; k < 40; ++k) CHECK(fine.available[k] == t.available[k / 5]);
    // Coarser: 1 h = two 0.5 h ticks, available only if both are: (1,1) (1,0) (0,1) (1,0).
    CHECK(flags(t.resampled(1.0)) == std::vector<bool>{1, 0, 0, 0});
    // 1.5 h = three ticks; the trailing two ticks do not fill one and are dropped: (1,1,1) (0,0,1).
    CHECK(flags(t.resampled(1.5)) == std::vector<bool>{1, 0});
    // Back and forth: finer then coarser is the identity.
    CHECK(flags(fine.resampled(0.5)) == flags(t));

    CHECK_THROWS_WITH_AS(t.resampled(0.3), "tick_hours = 0.3: must divide or be a whole multiple of the trace's tick_hours = 0.5",
                         gputco::InvalidInput);
    const SpotAvailability unstated{{true, false}};
    CHECK_THROWS_WITH_AS(unstated.resampled(1.0),
                         "availability.tick_hours = 0: must be stated (> 0) to resample: set it or read the trace with from_json",
                         gputco::InvalidInput);
    // Bounded before any allocation: 8 ticks x 5e7 = 4e8 > 1e8.
    CHECK_THROWS_WITH_AS(t.resampled(1e-8), "tick_hours = 1e-08: gives more than 100000000 ticks for a trace of 8 ticks of 0.5 h",
                         gputco::InvalidInput);

    // A changeover that is not whole trace ticks: the longest common tick.
    CHECK(gputco::common_tick_hours(1.0, 0.2) == doctest::Approx(0.2).epsilon(1e-12));
    CHECK(gputco::common_tick_hours(1.0, 0.05) == doctest::Approx(0.05).epsilon(1e-12));
    CHECK(gputco::common_tick_hours(1.0, 0.0) == 1.0);
    CHECK(gputco::common_tick_hours(1.0, 3.0) == 1.0);
    // 10-minute ticks and a 0.2 h (12-minute) changeover: 2-minute ticks, 1/30 h.
    CHECK(gputco::common_tick_hours(1.0 / 6, 0.2) == doctest::Approx(1.0 / 30).epsilon(1e-12));

    // A stated tick must be the job's.
    const DeadlineJob job{.compute_hours = 1, .deadline_hours = 3, .changeover_hours = 0, .tick_hours = 1};
    CHECK_THROWS_WITH_AS(simulate_deadline(job, t, DeadlinePolicy::greedy, spot, on_demand),
                         "availability.tick_hours = 0.5: must equal deadline_job.tick_hours = 1 (resample the trace "
                         "with resampled())",
                         gputco::InvalidInput);
    CHECK(simulate_deadline(job, t.resampled(1.0), DeadlinePolicy::greedy, spot, on_demand).met_deadline);
}

TEST_CASE("a deadline job's costs as a spot tranche of a plan") {
    // C0 = 10 h at spot $2/h: $20 all on spot. Costs $20, $25, $30 -> overheads 1, 1.25, 1.5, mean 1.25.
    const DeadlineJob job{.compute_hours = 10, .deadline_hours = 20, .changeover_hours = 1};
    const auto tranche = gputco::deadline_tranche({20, 25, 30}, job, 2.0);
    CHECK(tranche.price_per_gpu_hour == 2.0);
    CHECK(tranche.overhead == doctest::Approx(1.25).epsilon(1e-15));
    CHECK(tranche.overhead_samples == std::vector<double>{1.0, 1.25, 1.5});
    CHECK(tranche.availability == 1.0);
    CHECK_THROWS_WITH_AS(gputco::deadline_tranche({20, 19}, job, 2.0),
                         "cost_samples[1] = 19: must be >= compute_hours x spot_price_per_hour = 20",
                         gputco::InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::deadline_tranche({}, job, 2.0), "cost_samples.size = 0: must be >= 1",
                         gputco::InvalidInput);
    // From a Monte Carlo run: the tranche's mean overhead is the mean cost over C0 x spot price.
    const auto c = compare_deadline_policies(job, MarkovAvailability{.mean_up_hours = 5, .mean_down_hours = 2},
                                             p3_spot, p3_on_demand, {.paths = 200, .seed = 3},
                                             {DeadlinePolicy::uniform_progress});
    const auto t = gputco::deadline_tranche(c.policies[0].cost_samples, job, p3_spot);
    CHECK(t.overhead == doctest::Approx(c.policies[0].cost.mean / (10 * p3_spot)).epsilon(1e-12));
}

TEST_CASE("compare_deadline_policies stops when should_stop says so") {
    const DeadlineJob job{.compute_hours = 48, .deadline_hours = 72, .changeover_hours = 1};
    gputco::DeadlineSimulationOptions options{.paths = 1000000, .seed = 1};
    int calls = 0;
    options.should_stop = [&calls] { return ++calls >= 1; };
    CHECK_THROWS_AS(compare_deadline_policies(job, MarkovAvailability{}, p3_spot, p3_on_demand, options), Cancelled);
    CHECK(calls == 1);
}

TEST_CASE("policy names parse back") {
    for (const DeadlinePolicy p : gputco::all_deadline_policies()) CHECK(gputco::parse_deadline_policy(to_string(p)) == p);
    CHECK_THROWS_WITH_AS(gputco::parse_deadline_policy("up", "policies[1]"),
                         "policies[1] = \"up\": must be one of greedy, uniform_progress, on_demand_only, greedy_simple, "
                         "uniform_progress_prose",
                         gputco::InvalidInput);
}

TEST_CASE("a JSON trace is read in the layout the file or the caller states, and says which") {
    using gputco::TraceReadOptions;
    using gputco::TraceValues;
    const std::string counts = R"({"metadata": {"gap_seconds": 3600}, "data": [16, 3, 0, 16, 15]})";
    // Nothing says what 16 means: an error, not "any node up is available".
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(counts),
                         "trace.metadata.values = \"missing\": the file does not say what a value means: pass values = "
                         "available (one node, 1 = available), available_nodes (a count of nodes, with nodes_needed) "
                         "or preempted (one node, 1 = preempted)",
                         InvalidInput);
    // Read as one node, a count is an error.
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(counts, {.values = TraceValues::available}),
                         "trace.data[0] = 16: must be 0 or 1 (values = available: one node; a count of nodes needs "
                         "values = available_nodes)",
                         InvalidInput);
    // A 16-node job needs all 16 up; a 1-node job any.
    const auto all16 = SpotAvailability::from_json(counts, {.values = TraceValues::available_nodes, .nodes_needed = 16});
    CHECK(flags(all16) == std::vector<bool>{1, 0, 0, 1, 0});
    CHECK(all16.layout == "available nodes (available when >= 16)");
    CHECK(flags(SpotAvailability::from_json(counts, {.values = TraceValues::available_nodes, .nodes_needed = 1})) ==
          std::vector<bool>{1, 1, 0, 1, 1});
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(counts, {.values = TraceValues::available_nodes}),
                         "options.nodes_needed = \"missing\": must be >= 1 with values = available_nodes: how many "
                         "nodes the job needs up (the file does not say: metadata.nodes_needed or metadata.nodes)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(SpotAvailability::from_json(counts, {.values = TraceValues::preempted, .nodes_needed = 2}),
                         "options.nodes_needed = 2: must be 0 unless values = available_nodes (values = preempted)",
                         InvalidInput);
    // The file may say it: metadata.values, nodes (all needed unless nodes_needed says fewer).
    const auto stated = SpotAvailability::from_json(
        R"({"metadata": {"gap_seconds": 3600, "values": "available_nodes", "nodes": 16}, "data": [16, 3, 0, 16, 15]})");
    CHECK(flags(stated) == std::vector<bool>{1, 0, 0, 1, 0});
    CHECK(stated.layout == "available nodes (available when >= 16 of 16)");
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(
            R"({"metadata": {"gap_seconds": 3600, "values": "available_nodes", "nodes": 8}, "data": [8, 9]})"),
        "trace.data[1] = 9: must be <= metadata.nodes = 8", InvalidInput);
    // Stored the other way round (1 = preempted): read as such only when said, never silently inverted.
    const std::string flipped = R"({"metadata": {"gap_seconds": 600}, "data": [1, 0, 0, 1]})";
    const auto preempted = SpotAvailability::from_json(flipped, {.values = TraceValues::preempted});
    CHECK(flags(preempted) == std::vector<bool>{0, 1, 1, 0});
    CHECK(preempted.layout == "preempted flags (1 = preempted)");
    const auto single = SpotAvailability::from_json(flipped, {.values = TraceValues::available});
    CHECK(flags(single) == std::vector<bool>{1, 0, 0, 1});
    CHECK(single.layout == "single node (1 = available)");
    // A file and a caller that disagree.
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 600, "values": "preempted"}, "data": [1, 0]})",
                                    {.values = TraceValues::available}),
        "options.values = \"available\": differs from the file's metadata.values = preempted", InvalidInput);
    // ... also when the metadata comes after the data.
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(R"({"data": [1, 0], "metadata": {"gap_seconds": 600, "values": "preempted"}})",
                                    {.values = TraceValues::available}),
        "options.values = \"available\": differs from the file's metadata.values = preempted", InvalidInput);
    const auto late = SpotAvailability::from_json(R"({"data": [1, 0], "metadata": {"gap_seconds": 600, "values": "preempted"}})");
    CHECK(flags(late) == std::vector<bool>{0, 1});
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 600, "values": "flags"}, "data": [1]})"),
        "trace.metadata.values = \"flags\": must be one of unstated, available, available_nodes, preempted",
        InvalidInput);
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 600, "nodes": 4}, "data": [1]})",
                                    {.values = TraceValues::available}),
        "trace.metadata.nodes = 4: belongs to values = available_nodes, not available", InvalidInput);
}

TEST_CASE("a JSON trace with a key given twice is an error, not the first or last copy") {
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(
            R"({"metadata": {"gap_seconds": 600}, "metadata": {"gap_seconds": 60}, "data": [1]})", one_instance),
        "trace.metadata = \"repeated\": must appear once", InvalidInput);
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 600}, "data": [1], "data": [0]})", one_instance),
        "trace.data = \"repeated\": must appear once", InvalidInput);
    CHECK_THROWS_WITH_AS(
        SpotAvailability::from_json(R"({"metadata": {"gap_seconds": 600, "gap_seconds": 60}, "data": [1]})",
                                    one_instance),
        "trace.metadata.gap_seconds = \"repeated\": must appear once", InvalidInput);
}

TEST_CASE("the single-region optimum asks should_stop as it goes") {
    const DeadlineJob job{.compute_hours = 2000, .deadline_hours = 4000};
    const auto t = SpotAvailability::markov({}, job.deadline_ticks(), 1.0, 1);
    int asked = 0;
    const gputco::StopCheck stop_at_third = [&] { return ++asked == 3; };
    CHECK_THROWS_WITH_AS(omniscient_cost(job, t, p3_spot, p3_on_demand, stop_at_third), "omniscient_cost: stopped",
                         Cancelled);
    CHECK(asked == 3);  // once per 2^20 states: 2,000 compute ticks x 3 slots a tick, so every 175th tick
    CHECK(omniscient_cost(job, t, p3_spot, p3_on_demand, [] { return false; }) ==
          omniscient_cost(job, t, p3_spot, p3_on_demand));
}
