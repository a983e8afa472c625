#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "gputco/core/error.hpp"
#include "gputco/results/statistics.hpp"

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

namespace {

// summarize()'s quantiles must be quantile()'s (a full sort) exactly, whichever way it selects.
void check_quantiles_exact(const std::vector<double>& x) {
    const gputco::Summary s = gputco::summarize(x);
    CHECK(s.p50 == gputco::quantile(x, 0.50));
    CHECK(s.p90 == gputco::quantile(x, 0.90));
    CHECK(s.p95 == gputco::quantile(x, 0.95));
    CHECK(s.p99 == gputco::quantile(x, 0.99));
}

}  // namespace

TEST_CASE("summarize: quantiles of large samples (selection in bands) equal the sorted ones exactly") {
    // From 131,072 samples on, summarize selects within bands bracketed by a subsample of 16,384.
    SUBCASE("continuous values, odd count") {
        std::vector<double> x(1'000'001);
        std::uint64_t z = 1;
        for (double& v : x) {
            z = z * 6364136223846793005ULL + 1442695040888963407ULL;  // a 64-bit LCG: plain and fixed
            v = std::exp(static_cast<double>(z >> 11) * 0x1p-53 * 3.0);
        }
        check_quantiles_exact(x);
    }
    SUBCASE("integer counts with many ties") {
        std::vector<double> x(300'000);
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>((i * 7919) % 23);
        check_quantiles_exact(x);
    }
    SUBCASE("all equal") {
        const std::vector<double> x(200'000, 2.5);
        check_quantiles_exact(x);
        CHECK(gputco::summarize(x).p99 == 2.5);
    }
    SUBCASE("a subsample that misrepresents the samples: its bands miss, selection on all samples") {
        // Every subsampled position holds 0, the rest 1..n: the brackets all sit at 0.
        std::vector<double> x(262'144);
        const std::size_t stride = x.size() / 16384;
        for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % stride == 0 ? 0.0 : static_cast<double>(i);
        check_quantiles_exact(x);
    }
    SUBCASE("a subsample that puts nearly every sample in a band: the copy fills, selection on all samples") {
        // All samples 5 but the subsampled positions, which spread over [0, 10): the p50 band holds 5.
        std::vector<double> x(262'144, 5.0);
        const std::size_t stride = x.size() / 16384;
        for (std::size_t j = 0; j < 16384; ++j) x[j * stride] = 10.0 * static_cast<double>(j) / 16384.0;
        check_quantiles_exact(x);
    }
}

TEST_CASE("summarize: a NaN or an infinity among many samples is named") {
    std::vector<double> x(1000, 1.0);
    x[617] = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(gputco::summarize(x), "samples[617] = nan: must be a finite number", InvalidInput);
    x[617] = 1.0;
    x[999] = -std::numeric_limits<double>::infinity();
    CHECK_THROWS_WITH_AS(gputco::summarize(x), "samples[999] = -inf: must be a finite number", InvalidInput);
}

TEST_CASE("summarize: samples whose sum overflows a double have a finite mean, quantiles and interval") {
    // 3 x 1e308 summed is infinite; the mean is 1e308.
    const std::vector<double> huge(3, 1e308);
    const auto s = gputco::summarize(huge);
    CHECK(s.mean == 1e308);
    CHECK(s.p50 == 1e308);
    CHECK(s.standard_error == 0.0);
    CHECK(s.ci_low == 1e308);
    CHECK(s.ci_high == 1e308);
    // Both signs near the limit: the quantile's b - a overflows; interpolated between them instead.
    const std::vector<double> wide{1.5e308, -1.5e308, 1.5e308, -1.5e308, 0.0, 1e308, -1e308, 0.5e308, -0.5e308, 0.0,
                                   1e307, -1e307, 2e307, -2e307, 3e307, -3e307, 4e307, -4e307, 5e307, -5e307};
    CHECK(gputco::quantile(wide, 0.5) == 0.0);
    CHECK(gputco::quantile(std::vector<double>{-1.5e308, 1.5e308}, 0.5) == 0.0);
    // Their interval is wider than any double: an error, not an infinity.
    CHECK_THROWS_WITH_AS(gputco::summarize(std::vector<double>{1.7e308, -1.7e308, 1.7e308, -1.7e308}),
                         "samples = \"min -1.7e+308, max 1.7e+308\": their confidence interval lies beyond the largest "
                         "double (1.8e308); rescale them",
                         InvalidInput);
}

TEST_CASE("summarize: scaling samples by a power of two scales every figure, up to the largest doubles") {
    // x 2^k is exact, so a summary of scaled samples is the summary scaled, whether or not the sum
    // overflows on the way (then it is summed again scaled down).
    std::uint64_t state = 88;
    const auto next = [&] {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return double(state >> 11) * 0x1.0p-53;
    };
    for (int trial = 0; trial < 200; ++trial) {
        CAPTURE(trial);
        std::vector<double> x(1 + std::size_t(next() * 5000));
        for (double& v : x) v = 0.5 + next();  // positive: the interval stays inside a double
        const int k = int(next() * 1020);
        std::vector<double> scaled(x);
        for (double& v : scaled) v = std::ldexp(v, k);
        const auto a = gputco::summarize(x), b = gputco::summarize(scaled);
        CHECK(std::isfinite(b.mean));
        CHECK(b.mean == doctest::Approx(std::ldexp(a.mean, k)).epsilon(1e-12));
        CHECK(b.p50 == std::ldexp(a.p50, k));
        CHECK(b.p99 == std::ldexp(a.p99, k));
        CHECK(b.max == std::ldexp(a.max, k));
        if (x.size() > 1) CHECK(b.standard_error == doctest::Approx(std::ldexp(a.standard_error, k)).epsilon(1e-12));
    }
}
