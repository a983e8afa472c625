#include <doctest/doctest.h>

#include <limits>

#include <cmath>

#include "gputco/engines/checkpoint.hpp"
#include "gputco/core/error.hpp"

using gputco::CheckpointMethod;
using gputco::InvalidInput;
using gputco::Job;

namespace {
double minutes(double hours) { return hours * 60.0; }
}  // namespace

TEST_CASE("optimal checkpoint interval matches Daly (2006) reference values") {
    // W = 500 h and R = 10 min do not enter the optimum; delta = 5 min.
    const double delta = 5.0 / 60.0;
    // M = 24 h: exact 116.69 min; Young sqrt(2 * 5 * 1440) = 120.00 min
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 24.0)) == doctest::Approx(116.69).epsilon(0.00005));
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 24.0, CheckpointMethod::young)) ==
          doctest::Approx(120.00).epsilon(0.00005));
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 24.0, CheckpointMethod::daly)) ==
          doctest::Approx(116.69).epsilon(0.00005));
    // M = 6 h: exact 56.71 min; Young sqrt(2 * 5 * 360) = 60.00 min
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 6.0)) == doctest::Approx(56.71).epsilon(0.0001));
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 6.0, CheckpointMethod::young)) ==
          doctest::Approx(60.00).epsilon(0.00005));
    // M = 15 min: exact 9.17, Daly 9.14, Young sqrt(2 * 5 * 15) = 12.25 min
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 0.25)) == doctest::Approx(9.17).epsilon(0.0005));
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 0.25, CheckpointMethod::daly)) ==
          doctest::Approx(9.14).epsilon(0.0005));
    CHECK(minutes(gputco::optimal_checkpoint_interval(delta, 0.25, CheckpointMethod::young)) ==
          doctest::Approx(12.25).epsilon(0.0005));
    // Daly falls back to tau = M when delta >= 2M.
    CHECK(gputco::optimal_checkpoint_interval(3.0, 1.0, CheckpointMethod::daly) == 1.0);
}

TEST_CASE("the exact interval minimises the closed-form expected time") {
    const double m = 6.0;
    const double delta = 5.0 / 60.0;
    const double tau = gputco::optimal_checkpoint_interval(delta, m);
    // Per unit of work, E[T] / W = M e^{R/M} (e^{(tau + delta)/M} - 1) / tau; neighbours must be worse.
    auto per_work = [&](double t) { return std::expm1((t + delta) / m) / t; };
    CHECK(per_work(tau) < per_work(tau * 1.01));
    CHECK(per_work(tau) < per_work(tau * 0.99));
    CHECK(per_work(tau) < per_work(gputco::optimal_checkpoint_interval(delta, m, CheckpointMethod::young)));
}

TEST_CASE("segment count and last segment") {
    CHECK(gputco::segment_count(10.0, 2.5) == 4);   // 10 / 2.5 = 4 exactly
    CHECK(gputco::segment_count(1.0, 0.1) == 10);   // 1 / 0.1 = 10.000000000000002 counts as 10
    CHECK(gputco::segment_count(5.0, 2.0) == 3);    // 2 + 2 + 1
    CHECK(gputco::last_segment_work_hours(5.0, 2.0) == doctest::Approx(1.0));
    CHECK(gputco::segment_count(0.5, 2.0) == 1);
    CHECK(gputco::last_segment_work_hours(0.5, 2.0) == doctest::Approx(0.5));
}

TEST_CASE("expected spot time: Daly complete model by hand") {
    SUBCASE("one segment, no restart: E[T] = M (e^{L/M} - 1)") {
        const Job job{.work_hours = 1, .checkpoint_interval_hours = 1};
        const auto t = gputco::expected_spot_time(job, 1.0);
        CHECK(t.billed_hours == doctest::Approx(std::exp(1.0) - 1.0));   // 1.718282
        CHECK(t.interruptions == doctest::Approx(std::exp(1.0) - 1.0));  // E[N] = e^{L/M} - 1
        CHECK(t.wall_hours == doctest::Approx(t.billed_hours));
    }
    SUBCASE("W = k tau: E[T] = k M e^{R/M} (e^{(tau + delta)/M} - 1), wall adds D per interruption") {
        const Job job{.work_hours = 8, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.5,
                      .restart_hours = 1, .capacity_wait_hours = 3};
        const double m = 5.0;
        const auto t = gputco::expected_spot_time(job, m);
        // k = 4; e^{1/5} = 1.221403; e^{2.5/5} - 1 = 0.648721; E[N] = 4 * 1.221403 * 0.648721 = 3.169400
        const double n = 4.0 * std::exp(0.2) * std::expm1(0.5);
        CHECK(t.interruptions == doctest::Approx(n));
        CHECK(t.interruptions == doctest::Approx(3.169400).epsilon(1e-6));
        CHECK(t.billed_hours == doctest::Approx(5.0 * n));               // 15.847
        CHECK(t.wall_hours == doctest::Approx((5.0 + 3.0) * n));        // e^{R/M} (M + D)(e^{L/M} - 1) per segment
    }
    SUBCASE("a short last segment counts with its own length") {
        const Job job{.work_hours = 5, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.5,
                      .restart_hours = 1};
        const double m = 5.0;
        // segments 2 + 2 + 1: 2 e^{0.2}(e^{0.5} - 1) + e^{0.2}(e^{0.3} - 1)
        const double n = 2.0 * std::exp(0.2) * std::expm1(0.5) + std::exp(0.2) * std::expm1(0.3);
        CHECK(gputco::expected_spot_time(job, m).interruptions == doctest::Approx(n));
        CHECK(gputco::expected_spot_time(job, m).billed_hours == doctest::Approx(m * n));
    }
    SUBCASE("no interruptions in the limit of a huge MTBF: W + n delta") {
        const Job job{.work_hours = 5, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.5};
        CHECK(gputco::expected_spot_time(job, 1e9).billed_hours == doctest::Approx(5.0 + 3 * 0.5).epsilon(1e-6));
    }
}

TEST_CASE("checkpoint functions reject bad input with exact messages") {
    CHECK_THROWS_WITH_AS(gputco::optimal_checkpoint_interval(0.0, 24.0),
                         "checkpoint_write_hours = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::optimal_checkpoint_interval(0.1, 0.0), "mtbf_hours = 0: must be finite and > 0",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::optimal_checkpoint_interval(0.1, -2.0), "mtbf_hours = -2: must be finite and > 0",
                         InvalidInput);
    const Job job{.work_hours = 10, .checkpoint_interval_hours = 2};
    CHECK_THROWS_WITH_AS(gputco::expected_spot_time(job, 0.0), "mtbf_hours = 0: must be finite and > 0", InvalidInput);
    const Job bad{.work_hours = 10, .checkpoint_interval_hours = 0};
    CHECK_THROWS_WITH_AS(gputco::expected_spot_time(bad, 1.0),
                         "job.checkpoint_interval_hours = 0: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::segment_count(-1.0, 2.0), "work_hours = -1: must be finite and > 0", InvalidInput);
}

TEST_CASE("an interval longer than the work gives one segment and a finite expectation") {
    // expected_spot_time(200, 1e5, 0.1, 0.25, 20) was NaN: (n − 1) × e^{(tau+delta)/M} = 0 × inf.
    // One segment of L = W = 200 h: E[N] = e^{R/M} (e^{(L+delta)/M} − 1) = e^{0.0125} (e^{10.005} − 1).
    const Job job{.work_hours = 200, .checkpoint_interval_hours = 1e5, .checkpoint_write_hours = 0.1,
                  .restart_hours = 0.25};
    const auto t = gputco::expected_spot_time(job, 20);
    CHECK(t.interruptions == doctest::Approx(std::exp(0.0125) * std::expm1(10.005)).epsilon(1e-12));
    CHECK(t.billed_hours == doctest::Approx(20 * t.interruptions).epsilon(1e-12));
    // The longest interval allowed (1e9 h) is still one segment.
    const Job longest{.work_hours = 200, .checkpoint_interval_hours = 1e9, .checkpoint_write_hours = 0.1,
                      .restart_hours = 0.25};
    CHECK(gputco::expected_spot_time(longest, 20).interruptions == t.interruptions);
}

TEST_CASE("durations outside [1e-9, 1e9] hours and overflowing expectations are rejected") {
    const Job huge_interval{.work_hours = 200, .checkpoint_interval_hours = 1e308};
    CHECK_THROWS_WITH_AS(gputco::expected_spot_time(huge_interval, 20),
                         "job.checkpoint_interval_hours = 1e+308: must be in [1e-09, 1e+09] hours", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::optimal_checkpoint_interval(1e-12, 24),
                         "checkpoint_write_hours = 1e-12: must be in [1e-09, 1e+09] hours", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::optimal_checkpoint_interval(0.1, 1e31),
                         "mtbf_hours = 1e+31: must be in [1e-09, 1e+30] hours", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::segment_count(1e9, 1e-10),
                         "interval_hours = 1e-10: must be in [1e-09, 1e+09] hours", InvalidInput);
    // Fuzz finding F6: W = 2000 h over a denormal interval once converted 4e326 to an integer (undefined).
    CHECK_THROWS_WITH_AS(gputco::segment_count(2000, std::numeric_limits<double>::denorm_min()),
                         "interval_hours = 5e-324: must be in [1e-09, 1e+09] hours", InvalidInput);
    // The largest ratio the limits allow, 1e9 / 1e-9 = 1e18 segments, fits 64 bits exactly.
    CHECK(gputco::segment_count(1e9, 1e-9) == 1'000'000'000'000'000'000ull);
    // Ten segments of 1e5 h at an MTBF of 1 h: e^{1e5} overflows, so no finite answer exists.
    const Job hopeless{.work_hours = 1e6, .checkpoint_interval_hours = 1e5};
    CHECK_THROWS_WITH_AS(gputco::expected_spot_time(hopeless, 1),
                         "mtbf_hours = 1: too short for this job: expected interruptions overflow (a segment runs "
                         "100000 h with its checkpoint write, the restart 0 h; shorten the checkpoint interval)",
                         InvalidInput);
}

TEST_CASE("the exact interval stays right near Lambert W's branch point") {
    // delta / M = 1e-18: -e^{-(1 + 1e-18)} rounds to -1/e, where W0 = -1 gave tau = 0. The series
    // gives tau ≈ sqrt(2 delta M) (1 − p/3), p = sqrt(2 delta / M): sqrt(2) (1 − 4.7e-10) here.
    const double tau = gputco::optimal_checkpoint_interval(1e-9, 1e9);
    CHECK(tau == doctest::Approx(std::sqrt(2.0) * (1.0 - std::sqrt(2e-18) / 3.0)).epsilon(1e-12));
    // The series and Lambert W agree where one hands over to the other (delta / M = 1e-5).
    const double below = gputco::optimal_checkpoint_interval(24e-5 * (1 - 1e-9), 24);
    const double above = gputco::optimal_checkpoint_interval(24e-5 * (1 + 1e-9), 24);
    CHECK(below == doctest::Approx(above).epsilon(1e-9));
    // Over the whole range of ratios the interval is finite, positive and below Young's sqrt(2 delta M).
    for (double ratio = 1e-18; ratio < 1e3; ratio *= 3.7) {
        CAPTURE(ratio);
        const double m = 100.0;
        const double t = gputco::optimal_checkpoint_interval(std::max(ratio * m, 1e-9), m);
        CHECK(std::isfinite(t));
        CHECK(t > 0);
        CHECK(t <= std::sqrt(2.0 * std::max(ratio * m, 1e-9) * m) * (1 + 1e-12));
    }
}
