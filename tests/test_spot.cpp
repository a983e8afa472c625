#include <doctest/doctest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "gputco/checkpoint.hpp"
#include "gputco/error.hpp"
#include "gputco/spot.hpp"

using gputco::InvalidInput;
using gputco::Job;
using gputco::Poisson;
using gputco::PriceDriven;
using gputco::ProviderRules;
using gputco::SimulationOptions;
using gputco::SpotPricing;
using gputco::Weibull;

namespace {

// |estimate - exact| <= 4 standard errors.
void check_within_4se(const gputco::Summary& s, double exact, const std::string& what) {
    INFO(what << ": mean " << s.mean << " exact " << exact << " se " << s.standard_error);
    CHECK(std::abs(s.mean - exact) <= 4.0 * s.standard_error);
}

// A model whose every launch lives exactly `hours`: Weibull lifetimes of ~1e-12 h plus a protection period.
Weibull fixed_lifetime(double hours, ProviderRules rules = {}) {
    rules.protection_hours = hours;
    return Weibull{.shape = 1, .scale_hours = 1e-12, .rules = rules};
}

}  // namespace

TEST_CASE("Monte Carlo means agree with Daly's closed form over a grid of MTBF and job shapes") {
    // Job shapes scaled by the MTBF M: tau = a M, delta = b M, R = c M, D = d M, W = segments * tau.
    struct Shape { double a, b, c, d, segments; };
    const Shape shapes[] = {
        {0.5, 0.05, 0.1, 0.0, 10},    // W a multiple of tau
        {1.0, 0.1, 0.0, 0.5, 7.4},    // short last segment, no restart time
        {0.2, 0.0, 0.3, 2.0, 25.5},   // no checkpoint cost, long capacity wait
        {2.0, 0.2, 0.05, 0.1, 3},     // long segments: ~8.6 interruptions each
    };
    std::uint64_t seed = 1;
    for (double m : {0.25, 1.0, 4.0, 20.0, 100.0}) {
        for (const Shape& shape : shapes) {
            const Job job{.work_hours = shape.segments * shape.a * m, .checkpoint_interval_hours = shape.a * m,
                          .checkpoint_write_hours = shape.b * m, .restart_hours = shape.c * m,
                          .capacity_wait_hours = shape.d * m};
            const auto exact = gputco::expected_spot_time(job, m);
            const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = m}, {}, {.paths = 20000, .seed = seed++});
            const std::string where = fmt::format("M={} W={} tau={} delta={} R={} D={}", m, job.work_hours,
                                                  job.checkpoint_interval_hours, job.checkpoint_write_hours,
                                                  job.restart_hours, job.capacity_wait_hours);
            check_within_4se(r.billed_hours, exact.billed_hours, "billed " + where);
            check_within_4se(r.wall_hours, exact.wall_hours, "wall " + where);
            check_within_4se(r.interruptions, exact.interruptions, "interruptions " + where);
        }
    }
}

TEST_CASE("the benchmark job (W = 2000 h, tau = 2 h, delta = 0.1 h, R = 0.25 h) agrees with the closed form") {
    const Job job{.work_hours = 2000, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25, .capacity_wait_hours = 0.5};
    for (double m : {20.0, 100.0}) {
        const auto exact = gputco::expected_spot_time(job, m);
        const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = m}, {.price_per_hour = 1.2},
                                             {.paths = 4000, .seed = 7});
        check_within_4se(r.billed_hours, exact.billed_hours, "billed");
        check_within_4se(r.wall_hours, exact.wall_hours, "wall");
        check_within_4se(r.cost, 1.2 * exact.billed_hours, "cost");
    }
}

TEST_CASE("Weibull with shape 1 is Poisson with MTBF = scale") {
    const Job job{.work_hours = 30, .checkpoint_interval_hours = 3, .checkpoint_write_hours = 0.2,
                  .restart_hours = 0.3, .capacity_wait_hours = 1};
    const auto exact = gputco::expected_spot_time(job, 6.0);
    const auto r = gputco::simulate_spot(job, Weibull{.shape = 1, .scale_hours = 6}, {}, {.paths = 20000, .seed = 3});
    check_within_4se(r.billed_hours, exact.billed_hours, "billed");
    check_within_4se(r.wall_hours, exact.wall_hours, "wall");
}

TEST_CASE("per-path bookkeeping: cost = billed x price, wall = billed + D x interruptions") {
    const Job job{.work_hours = 50, .checkpoint_interval_hours = 2.5, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.2, .capacity_wait_hours = 0.75, .deadline_hours = 60};
    const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = 10}, {.price_per_hour = 1.5,
                                         .on_demand_price_per_hour = 4}, {.paths = 3000, .seed = 11});
    REQUIRE(r.paths == 3000);
    REQUIRE(r.samples.cost.size() == 3000);
    std::size_t missed = 0;
    for (std::size_t i = 0; i < r.paths; ++i) {
        CHECK(r.samples.cost[i] == doctest::Approx(1.5 * r.samples.billed_hours[i]));
        CHECK(r.samples.wall_hours[i] ==
              doctest::Approx(r.samples.billed_hours[i] + 0.75 * r.samples.interruptions[i]));
        // billed >= useful work + 20 checkpoint writes + lost work
        CHECK(r.samples.billed_hours[i] >= 50 + 20 * 0.1 + r.samples.lost_work_hours[i] - 1e-9);
        missed += r.samples.wall_hours[i] > 60 ? 1 : 0;
    }
    CHECK(r.deadline_miss_probability == static_cast<double>(missed) / 3000.0);
    CHECK(r.deadline_miss_probability > 0.0);
    CHECK(r.effective_price_per_useful_hour == doctest::Approx(r.cost.mean / 50));
    CHECK(r.effective_discount == doctest::Approx(1.0 - r.cost.mean / (4.0 * 50)));
    CHECK(r.seed == 11);
    const auto unknown = gputco::simulate_spot(job, Poisson{.mtbf_hours = 10}, {}, {.paths = 10});
    CHECK(std::isnan(unknown.effective_discount));
}

TEST_CASE("no interruptions: billed = wall = W + n delta exactly") {
    const Job job{.work_hours = 9, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.5};
    const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = 1e15}, {.price_per_hour = 2}, {.paths = 100});
    // 5 segments (2 + 2 + 2 + 2 + 1): 9 + 5 * 0.5 = 11.5 h, cost 23
    CHECK(r.billed_hours.min == doctest::Approx(11.5));
    CHECK(r.billed_hours.max == doctest::Approx(11.5));
    CHECK(r.wall_hours.mean == doctest::Approx(11.5));
    CHECK(r.cost.mean == doctest::Approx(23.0));
    CHECK(r.interruptions.max == 0.0);
}

TEST_CASE("identical samples with 1, 2 and 8 threads") {
    const Job job{.work_hours = 40, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25, .capacity_wait_hours = 0.5};
    for (const gputco::InterruptionModel& model :
         {gputco::InterruptionModel{Poisson{.mtbf_hours = 5}},
          gputco::InterruptionModel{Weibull{.shape = 0.7, .scale_hours = 5, .rules = gputco::aws_rules()}},
          gputco::InterruptionModel{PriceDriven{.reversion_per_hour = 0.5, .volatility_per_sqrt_hour = 0.3,
                                                .price_cap_per_hour = 1.3, .step_hours = 0.25}}}) {
        const auto one = gputco::simulate_spot(job, model, {}, {.paths = 5000, .seed = 99, .threads = 1});
        const auto two = gputco::simulate_spot(job, model, {}, {.paths = 5000, .seed = 99, .threads = 2});
        const auto eight = gputco::simulate_spot(job, model, {}, {.paths = 5000, .seed = 99, .threads = 8});
        CHECK(one.samples.cost == two.samples.cost);
        CHECK(one.samples.cost == eight.samples.cost);
        CHECK(one.samples.wall_hours == eight.samples.wall_hours);
        CHECK(one.samples.interruptions == eight.samples.interruptions);
        CHECK(one.samples.lost_work_hours == eight.samples.lost_work_hours);
        const auto other_seed = gputco::simulate_spot(job, model, {}, {.paths = 5000, .seed = 100, .threads = 2});
        CHECK(one.samples.cost != other_seed.samples.cost);
    }
}

TEST_CASE("a larger run extends a smaller one with the same seed (paths are a prefix)") {
    const Job job{.work_hours = 20, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1};
    const auto small = gputco::simulate_spot(job, Poisson{.mtbf_hours = 5}, {}, {.paths = 1500, .seed = 5});
    const auto large = gputco::simulate_spot(job, Poisson{.mtbf_hours = 5}, {}, {.paths = 3000, .seed = 5});
    CHECK(std::equal(small.samples.cost.begin(), small.samples.cost.end(), large.samples.cost.begin()));
}

TEST_CASE("target_half_width adds paths until the mean cost is that precise") {
    const Job job{.work_hours = 20, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25};
    const Poisson model{.mtbf_hours = 5};
    const auto first = gputco::simulate_spot(job, model, {}, {.paths = 1000, .seed = 1});
    const double target = first.cost.half_width() / 4;  // needs about 16x the paths
    const auto r = gputco::simulate_spot(job, model, {}, {.paths = 1000, .seed = 1, .target_half_width = target});
    CHECK(r.cost.half_width() <= target);
    CHECK(r.paths > 10000);
    CHECK(r.paths < 40000);
    CHECK(r.samples.cost.size() == r.paths);
    const auto threaded = gputco::simulate_spot(job, model, {},
                                                {.paths = 1000, .seed = 1, .threads = 2, .target_half_width = target});
    CHECK(threaded.paths == r.paths);
    CHECK(threaded.samples.cost == r.samples.cost);

    // Unreachable within max_paths: stops at max_paths.
    const auto capped = gputco::simulate_spot(
        job, model, {}, {.paths = 1000, .seed = 1, .target_half_width = target, .max_paths = 3000});
    CHECK(capped.paths == 3000);
    CHECK(capped.cost.half_width() > target);
}

TEST_CASE("should_stop: polled on the calling thread; true throws Cancelled") {
    const Job job{.work_hours = 2000, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25};
    std::atomic<int> calls{0};
    SimulationOptions stop{.paths = 100000, .threads = 2};
    stop.should_stop = [&] {
        ++calls;
        return true;
    };
    CHECK_THROWS_AS(gputco::simulate_spot(job, Poisson{.mtbf_hours = 20}, {}, stop), gputco::Cancelled);
    CHECK(calls.load() >= 1);

    int polls = 0;
    SimulationOptions go{.paths = 2000, .threads = 1};
    go.should_stop = [&] {
        ++polls;
        return false;
    };
    const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = 20}, {}, go);
    CHECK(r.paths == 2000);
    CHECK(polls >= 1);
}

TEST_CASE("maximum lifetime (fixed 5 h launches), checked by hand") {
    // W = 20, tau = 2, delta = 0, R = 0.5, every launch killed at 5 h.
    // launch 1: 2 segments (4 h) then 1 h of work lost, billed 5; launches 2-4: R + 2 segments, 0.5 h lost,
    // billed 5 each (16 h of work done); launch 5: R + 2 segments = 4.5 h and done.
    // billed = 4 x 5 + 4.5 = 24.5, interruptions 4, lost = 1 + 3 x 0.5 = 2.5, wall = 24.5 + 4 D.
    const Job job{.work_hours = 20, .checkpoint_interval_hours = 2, .restart_hours = 0.5, .capacity_wait_hours = 1};
    const auto r = gputco::simulate_spot(job, fixed_lifetime(5), {}, {.paths = 50});
    CHECK(r.billed_hours.min == doctest::Approx(24.5));
    CHECK(r.billed_hours.max == doctest::Approx(24.5));
    CHECK(r.interruptions.mean == 4.0);
    CHECK(r.lost_work_hours.mean == doctest::Approx(2.5));
    CHECK(r.wall_hours.mean == doctest::Approx(28.5));
    // The same through max_lifetime_hours of a Poisson model that never interrupts by itself,
    // and through a one-lifetime trace.
    const auto capped = gputco::simulate_spot(
        job, Poisson{.mtbf_hours = 1e15, .rules = {.max_lifetime_hours = 5}}, {}, {.paths = 50});
    CHECK(capped.billed_hours.mean == doctest::Approx(24.5));
    const auto traced = gputco::simulate_spot(job, gputco::Trace{.lifetimes_hours = {5}}, {}, {.paths = 50});
    CHECK(traced.billed_hours.mean == doctest::Approx(24.5));
    CHECK(traced.lost_work_hours.mean == doctest::Approx(2.5));
}

TEST_CASE("notice with emergency checkpoint saves the work, checked by hand") {
    // W = 3, tau = 2, delta = 0.25, R = 0.5, launches killed at 2 h, notice 0.5 h (>= delta).
    // launch 1: notice at 1.5 h with 1.5 h of work unsaved -> write it: billed 1.5 + 0.25 = 1.75, progress 1.5
    // launch 2: R, then notice at 1.5 h = 1 h of work -> write: billed 1.75, progress 2.5
    // launch 3: R + 0.5 work + 0.25 write = 1.25 <= 2 -> done. billed 4.75, 2 interruptions, nothing lost.
    const Job job{.work_hours = 3, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.25,
                  .restart_hours = 0.5, .capacity_wait_hours = 0.1};
    const ProviderRules rules{.notice_hours = 0.5, .emergency_checkpoint = true};
    const auto r = gputco::simulate_spot(job, fixed_lifetime(2, rules), {}, {.paths = 20});
    CHECK(r.billed_hours.mean == doctest::Approx(4.75));
    CHECK(r.interruptions.mean == 2.0);
    CHECK(r.lost_work_hours.max == 0.0);
    CHECK(r.wall_hours.mean == doctest::Approx(4.95));

    // Under Poisson interruptions an emergency checkpoint means no work is ever lost...
    const Job big{.work_hours = 100, .checkpoint_interval_hours = 4, .checkpoint_write_hours = 0.02,
                  .restart_hours = 0.1};
    const auto saved = gputco::simulate_spot(big, Poisson{.mtbf_hours = 5, .rules = gputco::aws_rules()}, {},
                                             {.paths = 2000, .seed = 2});
    CHECK(saved.lost_work_hours.max == 0.0);
    // ...and it beats running without notice.
    const auto plain = gputco::simulate_spot(big, Poisson{.mtbf_hours = 5}, {}, {.paths = 2000, .seed = 2});
    CHECK(plain.lost_work_hours.mean > 0.0);
    CHECK(saved.billed_hours.mean < plain.billed_hours.mean);
    // A write longer than the notice cannot use it: same as no notice, path by path.
    const auto too_slow = gputco::simulate_spot(
        big, Poisson{.mtbf_hours = 5, .rules = {.notice_hours = 0.01, .emergency_checkpoint = true}}, {},
        {.paths = 2000, .seed = 2});
    for (std::size_t i = 0; i < plain.paths; ++i) {
        CHECK(too_slow.samples.billed_hours[i] == doctest::Approx(plain.samples.billed_hours[i]));
        CHECK(too_slow.samples.interruptions[i] == plain.samples.interruptions[i]);
    }
}

TEST_CASE("protection period: launches live p + Exp(M)") {
    SUBCASE("one segment longer than p: renewal argument") {
        // Every attempt of the single segment L (no restart) is alike and succeeds with q = e^{-(L - p)/M};
        // an attempt lasts E[min(p + Exp(M), L)] = p + M (1 - e^{-(L - p)/M}); E[T] = that / q, E[N] = 1/q - 1.
        // L = 2, p = 1, M = 1: E[T] = (2 - e^{-1}) e = 4.436564, E[N] = e - 1 = 1.718282
        const Job job{.work_hours = 2, .checkpoint_interval_hours = 2};
        const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = 1, .rules = {.protection_hours = 1}}, {},
                                             {.paths = 20000, .seed = 8});
        check_within_4se(r.billed_hours, (2.0 - std::exp(-1.0)) * std::exp(1.0), "billed");
        check_within_4se(r.interruptions, std::exp(1.0) - 1.0, "interruptions");
    }
    SUBCASE("a job that fits in the protection period is never interrupted") {
        const Job job{.work_hours = 0.9, .checkpoint_interval_hours = 1, .checkpoint_write_hours = 0.05};
        const auto r = gputco::simulate_spot(job, Poisson{.mtbf_hours = 0.01, .rules = gputco::alibaba_rules()}, {},
                                             {.paths = 1000});
        CHECK(r.interruptions.max == 0.0);
        CHECK(r.billed_hours.mean == doctest::Approx(0.95));
    }
}

TEST_CASE("price-driven spot: cost integrates the price paid") {
    const Job job{.work_hours = 20, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.2};
    SUBCASE("constant price, no cap: cost = price x (W + n delta)") {
        const auto r = gputco::simulate_spot(job, PriceDriven{.volatility_per_sqrt_hour = 0}, {.price_per_hour = 0.8},
                                             {.paths = 100});
        CHECK(r.cost.mean == doctest::Approx(0.8 * 21.0));  // 20 + 10 x 0.1 = 21 h
        CHECK(r.interruptions.max == 0.0);
    }
    SUBCASE("stationary log-OU price, no cap: E[cost] = p e^{sigma^2 / (4 kappa)} (W + n delta)") {
        const PriceDriven model{.reversion_per_hour = 0.5, .volatility_per_sqrt_hour = 0.4, .step_hours = 0.25};
        const auto r = gputco::simulate_spot(job, model, {.price_per_hour = 1.0}, {.paths = 20000, .seed = 4});
        // e^{0.16 / 2} = e^{0.08} = 1.083287; x 21 h = 22.749
        check_within_4se(r.cost, std::exp(0.08) * 21.0, "cost");
        CHECK(r.billed_hours.max == doctest::Approx(21.0));
    }
    SUBCASE("with a cap the instance stops, work is lost and it costs less per billed hour than uncapped") {
        const PriceDriven capped{.reversion_per_hour = 0.5, .volatility_per_sqrt_hour = 0.4,
                                 .price_cap_per_hour = 1.2, .step_hours = 0.25};
        const auto r = gputco::simulate_spot(job, capped, {.price_per_hour = 1.0}, {.paths = 5000, .seed = 4});
        CHECK(r.interruptions.mean > 0.5);
        CHECK(r.lost_work_hours.mean > 0.0);
        // Every hour is paid at <= the cap's step price, so cost <= cap x billed on each path.
        for (std::size_t i = 0; i < r.paths; ++i) CHECK(r.samples.cost[i] <= 1.2 * r.samples.billed_hours[i] + 1e-9);
        CHECK(r.wall_hours.mean > r.billed_hours.mean);
        // With a notice long enough for the write nothing is lost.
        PriceDriven noticed = capped;
        noticed.rules = {.notice_hours = 0.25, .emergency_checkpoint = true};  // delta = 0.1 fits
        const auto saved = gputco::simulate_spot(job, noticed, {.price_per_hour = 1.0}, {.paths = 2000, .seed = 4});
        CHECK(saved.lost_work_hours.max == 0.0);
    }
}

TEST_CASE("simulate_spot rejects bad input with exact messages") {
    const Job job{.work_hours = 20, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25};
    const Poisson model{.mtbf_hours = 5};
    Job bad = job;
    bad.work_hours = 0;
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(bad, model), "job.work_hours = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, Poisson{.mtbf_hours = 0}),
                         "poisson.mtbf_hours = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, Poisson{.mtbf_hours = -3}),
                         "poisson.mtbf_hours = -3: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, model, {.price_per_hour = 0}),
                         "pricing.price_per_hour = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, model, {.on_demand_price_per_hour = -1}),
                         "pricing.on_demand_price_per_hour = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, model, {}, {.paths = 0}), "options.paths = 0: must be > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, model, {}, {.paths = 100, .max_paths = 50}),
                         "options.max_paths = 50: must be >= options.paths = 100", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, model, {}, {.target_half_width = -1}),
                         "options.target_half_width = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, model, {}, {.confidence = 1.5}),
                         "options.confidence = 1.5: must be in (0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, gputco::Trace{.lifetimes_hours = {1.0, 2.0}}),
                         "model.longest_launch_hours = 2: must be > job.restart_hours + "
                         "job.checkpoint_interval_hours + job.checkpoint_write_hours = 2.35 so that a launch can "
                         "finish a segment",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, Poisson{.mtbf_hours = 5, .rules = {.max_lifetime_hours = 1}}),
                         "model.longest_launch_hours = 1: must be > job.restart_hours + "
                         "job.checkpoint_interval_hours + job.checkpoint_write_hours = 2.35 so that a launch can "
                         "finish a segment",
                         InvalidInput);
    // 10 e^{0.25 / 0.01} (e^{2.1 / 0.01} - 1) = 10 x 7.2e10 x 1.59e91 = 1.15e103
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, Poisson{.mtbf_hours = 0.01}),
                         "job.checkpoint_interval_hours = 2: expects 1.15e+103 interruptions per path at "
                         "poisson.mtbf_hours = 0.01 (limit 1e8); use a shorter interval",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::simulate_spot(job, PriceDriven{.price_cap_per_hour = 0.9}),
                         "price_driven.price_cap_per_hour = 0.9: must be > pricing.price_per_hour = 1 (the median "
                         "spot price)",
                         InvalidInput);
}
