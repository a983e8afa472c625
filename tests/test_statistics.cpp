#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "gputco/error.hpp"
#include "gputco/statistics.hpp"

using gputco::InvalidInput;

TEST_CASE("quantile follows type 7 (linear interpolation between order statistics)") {
    const std::vector<double> x{7, 1, 10, 4, 2, 9, 3, 8, 6, 5};  // sorted: 1..10
    // h = (n - 1) q = 9 q; result = x[floor h] + frac(h) (x[floor h + 1] - x[floor h]) on 1-based values 1..10
    CHECK(gputco::quantile(x, 0.0) == 1.0);
    CHECK(gputco::quantile(x, 1.0) == 10.0);
    CHECK(gputco::quantile(x, 0.5) == doctest::Approx(5.5));   // h = 4.5 -> 5 + 0.5 * 1
    CHECK(gputco::quantile(x, 0.9) == doctest::Approx(9.1));   // h = 8.1 -> 9 + 0.1 * 1
    CHECK(gputco::quantile(x, 0.25) == doctest::Approx(3.25)); // h = 2.25 -> 3 + 0.25 * 1
    const std::vector<double> one{42};
    CHECK(gputco::quantile(one, 0.3) == 42.0);
}

TEST_CASE("summarize: mean, standard error, Student-t interval and quantiles by hand") {
    const std::vector<double> x{4, 2, 9, 4, 5, 7, 4, 5};  // sorted: 2 4 4 4 5 5 7 9
    const gputco::Summary s = gputco::summarize(x);
    // mean = 40 / 8 = 5; squared deviations 9+1+1+1+0+0+4+16 = 32; s^2 = 32/7; se = sqrt(32/7/8) = sqrt(4/7)
    CHECK(s.count == 8);
    CHECK(s.mean == doctest::Approx(5.0));
    CHECK(s.standard_error == doctest::Approx(std::sqrt(4.0 / 7.0)));
    // t_{0.975, 7} = 2.364624 (tables): half-width = 2.364624 * 0.755929 = 1.787488
    CHECK(s.half_width() == doctest::Approx(2.364624 * std::sqrt(4.0 / 7.0)).epsilon(1e-6));
    CHECK(s.ci_low == doctest::Approx(5.0 - 1.787488).epsilon(1e-6));
    CHECK(s.ci_high == doctest::Approx(5.0 + 1.787488).epsilon(1e-6));
    // p50: h = 3.5 -> 4 + 0.5 (5 - 4) = 4.5; p90: h = 6.3 -> 7 + 0.3 (9 - 7) = 7.6
    // p95: h = 6.65 -> 7 + 0.65 * 2 = 8.3; p99: h = 6.93 -> 7 + 0.93 * 2 = 8.86
    CHECK(s.p50 == doctest::Approx(4.5));
    CHECK(s.p90 == doctest::Approx(7.6));
    CHECK(s.p95 == doctest::Approx(8.3));
    CHECK(s.p99 == doctest::Approx(8.86));
    CHECK(s.min == 2.0);
    CHECK(s.max == 9.0);

    // 90% interval: t_{0.95, 7} = 1.894579
    const gputco::Summary s90 = gputco::summarize(x, 0.90);
    CHECK(s90.half_width() == doctest::Approx(1.894579 * std::sqrt(4.0 / 7.0)).epsilon(1e-6));
}

TEST_CASE("summarize: constant samples have a zero-width interval; one sample has none") {
    const std::vector<double> same{3, 3, 3};
    const gputco::Summary s = gputco::summarize(same);
    CHECK(s.standard_error == 0.0);
    CHECK(s.ci_low == 3.0);
    CHECK(s.ci_high == 3.0);
    const std::vector<double> one{3};
    const gputco::Summary single = gputco::summarize(one);
    CHECK(single.mean == 3.0);
    CHECK(std::isnan(single.standard_error));
    CHECK(std::isnan(single.ci_low));
    CHECK(single.p99 == 3.0);
}

TEST_CASE("statistics reject bad input with exact messages") {
    const std::vector<double> empty;
    const std::vector<double> x{1, 2, std::numeric_limits<double>::quiet_NaN()};
    const std::vector<double> ok{1, 2};
    CHECK_THROWS_WITH_AS(gputco::summarize(empty), "samples.size = 0: must be > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::summarize(x), "samples[2] = nan: must be a finite number", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::summarize(ok, 1.0), "confidence = 1: must be in (0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::summarize(ok, 0.0), "confidence = 0: must be in (0, 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::quantile(ok, 1.5), "q = 1.5: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::quantile(ok, -0.1), "q = -0.1: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(gputco::quantile(empty, 0.5), "samples.size = 0: must be > 0", InvalidInput);
}
