// The arithmetic shared by the spot lane kernels and the scalar loops (src/engines/spot/spot_lanes.hpp, internal):
// the logarithm behind every exponential lifetime, the lane generator, the floor and one launch.
#include <doctest/doctest.h>

#include <cmath>
#include <iomanip>
#include <cstdint>
#include <limits>

#include "gputco/core/random.hpp"
#include "spot_lanes.hpp"

// Vectors passed by value inside this file only.
#pragma GCC diagnostic ignored "-Wpsabi"

using gputco::detail::f64x8;
using gputco::detail::u64x8;

namespace {

// The uniform that log_of_uniform takes the logarithm of, computed the plain way.
double uniform_of(std::uint64_t bits) { return (static_cast<double>(bits >> 12) + 0.5) * 0x1p-52; }

}  // namespace

TEST_CASE("log_of_uniform is log(u) to within 8 units in the last place, u = (top 52 bits + 1/2) / 2^52") {
    gputco::Xoshiro256pp engine(11);
    double worst = 0;
    for (int i = 0; i < 1'000'000; ++i) {
        const std::uint64_t bits = engine();
        const double exact = std::log(uniform_of(bits));
        const double ours = gputco::detail::log_of_uniform<double>(bits);
        const double ulp = std::nextafter(std::abs(exact), 1e300) - std::abs(exact);
        worst = std::max(worst, std::abs(ours - exact) / ulp);
    }
    MESSAGE("worst error: " << std::setprecision(4) << worst << " ulp");
    CHECK(worst <= 8.0);  // measured: 4 (1e6 draws, seed 11)
    // The ends: u = 2^-53 (all bits zero), u = 1 - 2^-53 (all ones), and u = 1/2 exactly below and above.
    CHECK(gputco::detail::log_of_uniform<double>(0) == doctest::Approx(-53 * std::log(2.0)).epsilon(1e-15));
    CHECK(gputco::detail::log_of_uniform<double>(~0ULL) == doctest::Approx(std::log1p(-0x1p-53)).epsilon(1e-15));
    CHECK(gputco::detail::log_of_uniform<double>(~0ULL) < 0.0);
    const std::uint64_t half = 1ULL << 63;  // u = 1/2 + 2^-53
    CHECK(gputco::detail::log_of_uniform<double>(half) == doctest::Approx(std::log(0.5 + 0x1p-53)).epsilon(1e-15));
}

TEST_CASE("-log_of_uniform is Exp(1): mean 1 and variance 1 within 4 standard errors") {
    gputco::Xoshiro256pp engine(5);
    const int n = 1'000'000;
    double sum = 0, squares = 0;
    for (int i = 0; i < n; ++i) {
        const double x = -gputco::detail::log_of_uniform<double>(engine());
        sum += x;
        squares += x * x;
    }
    const double mean = sum / n;
    const double variance = squares / n - mean * mean;
    // Exp(1): sd of the mean = 1 / sqrt(n); sd of the sample variance = sqrt((mu4 - sigma^4) / n) = sqrt(8 / n).
    CHECK(std::abs(mean - 1.0) <= 4.0 / std::sqrt(n));
    CHECK(std::abs(variance - 1.0) <= 4.0 * std::sqrt(8.0 / n));
}

TEST_CASE("eight lanes give each lane's scalar results bit for bit") {
    gputco::Xoshiro256pp engines[8] = {gputco::Xoshiro256pp(1), gputco::Xoshiro256pp(2), gputco::Xoshiro256pp(3),
                                       gputco::Xoshiro256pp(4), gputco::Xoshiro256pp(5), gputco::Xoshiro256pp(6),
                                       gputco::Xoshiro256pp(7), gputco::Xoshiro256pp(8)};
    u64x8 s[4];
    for (int w = 0; w < 4; ++w)
        for (int lane = 0; lane < 8; ++lane) s[w][lane] = engines[lane].state()[w];
    for (int step = 0; step < 10'000; ++step) {
        const u64x8 bits = gputco::detail::xoshiro_next(s[0], s[1], s[2], s[3]);
        const f64x8 logs = gputco::detail::log_of_uniform<f64x8>(bits);
        for (int lane = 0; lane < 8; ++lane) {
            const std::uint64_t expected = engines[lane]();
            REQUIRE(bits[lane] == expected);
            REQUIRE(logs[lane] == gputco::detail::log_of_uniform<double>(expected));
        }
    }
}

TEST_CASE("exp_of is exp to within 2 units in the last place; 0 and infinity past its ends") {
    gputco::Xoshiro256pp engine(12);
    double worst = 0;
    for (int i = 0; i < 1'000'000; ++i) {
        // y spread over [-708, 709]: most draws small, as the Weibull lifetimes take them.
        const double u = (static_cast<double>(engine() >> 11) + 0.5) * 0x1p-53;
        const double y = i % 4 == 0 ? 1417.0 * u - 708.0 : 40.0 * u - 20.0;
        const double exact = std::exp(y);
        const double ours = gputco::detail::exp_of<double>(y);
        const double ulp = std::nextafter(exact, 1e308) - exact;
        worst = std::max(worst, std::abs(ours - exact) / ulp);
    }
    MESSAGE("worst error: " << std::setprecision(4) << worst << " ulp");
    CHECK(worst <= 3.0);  // measured: 2 (1e6 draws, seed 12)
    CHECK(gputco::detail::exp_of<double>(0.0) == 1.0);
    CHECK(gputco::detail::exp_of<double>(-708.4) == 0.0);
    CHECK(gputco::detail::exp_of<double>(-1e300) == 0.0);
    CHECK(gputco::detail::exp_of<double>(709.78) == std::numeric_limits<double>::infinity());
    CHECK(gputco::detail::exp_of<double>(std::numeric_limits<double>::infinity()) ==
          std::numeric_limits<double>::infinity());
    CHECK(gputco::detail::exp_of<double>(709.0) == doctest::Approx(std::exp(709.0)).epsilon(1e-15));
}

TEST_CASE("log_positive is log to within 4 units in the last place over the normal doubles") {
    gputco::Xoshiro256pp engine(13);
    double worst = 0;
    for (int i = 0; i < 1'000'000; ++i) {
        // Any exponent, any mantissa: x = m 2^e with e in [-1022, 1023].
        const double m = 1.0 + static_cast<double>(engine() >> 12) * 0x1p-52;
        const int e = static_cast<int>(engine() % 2046) - 1022;
        const double x = std::ldexp(m, e);
        const double exact = std::log(x);
        const double ours = gputco::detail::log_positive<double>(x);
        const double ulp = std::nextafter(std::abs(exact), 1e300) - std::abs(exact);
        if (exact != 0) worst = std::max(worst, std::abs(ours - exact) / ulp);
    }
    MESSAGE("worst error: " << std::setprecision(4) << worst << " ulp");
    CHECK(worst <= 4.0);
    CHECK(gputco::detail::log_positive<double>(1.0) == 0.0);
}

TEST_CASE("Weibull lifetimes and trace picks: eight lanes give each lane's scalar results bit for bit") {
    gputco::Xoshiro256pp engine(14);
    for (const double shape : {0.05, 0.7, 1.0, 2.0, 8.0}) {
        const double scale = 5.0, inv_shape = 1.0 / shape;
        for (int step = 0; step < 20'000; ++step) {
            u64x8 bits;
            for (int lane = 0; lane < 8; ++lane) bits[lane] = engine();
            const f64x8 lifetimes = gputco::detail::weibull_of_uniform<f64x8>(bits, f64x8{} + scale, f64x8{} + inv_shape);
            const f64x8 picks = gputco::detail::index_of_uniform<f64x8>(bits, f64x8{} + 7.0, gputco::detail::FloorByRounding{});
            for (int lane = 0; lane < 8; ++lane) {
                REQUIRE(lifetimes[lane] == gputco::detail::weibull_of_uniform<double>(bits[lane], scale, inv_shape));
                REQUIRE(lifetimes[lane] >= 0.0);
                REQUIRE(picks[lane] == gputco::detail::index_of_uniform<double>(bits[lane], 7.0,
                                                                                 gputco::detail::FloorByRounding{}));
                REQUIRE(picks[lane] >= 0.0);
                REQUIRE(picks[lane] <= 6.0);
            }
        }
    }
    // The extreme words: u = 0 picks the first lifetime, the largest u the last.
    CHECK(gputco::detail::index_of_uniform<double>(0, 7.0, gputco::detail::FloorByRounding{}) == 0.0);
    CHECK(gputco::detail::index_of_uniform<double>(~0ULL, 7.0, gputco::detail::FloorByRounding{}) == 6.0);
    CHECK(gputco::detail::index_of_uniform<double>(~0ULL, 0x1p51, gputco::detail::FloorByRounding{}) == 0x1p51 - 1.0);
}

TEST_CASE("Weibull lifetimes: mean lambda Gamma(1 + 1/k) within 4 standard errors") {
    gputco::Xoshiro256pp engine(15);
    for (const double shape : {0.7, 2.0}) {
        const double scale = 5.0, inv_shape = 1.0 / shape;
        const int n = 400'000;
        double sum = 0, squares = 0;
        for (int i = 0; i < n; ++i) {
            const double x = gputco::detail::weibull_of_uniform<double>(engine(), scale, inv_shape);
            sum += x;
            squares += x * x;
        }
        const double mean = sum / n;
        const double se = std::sqrt((squares / n - mean * mean) / n);
        INFO("k = " << shape << ": mean " << mean << ", se " << se);
        CHECK(std::abs(mean - scale * std::tgamma(1.0 + inv_shape)) <= 4.0 * se);
    }
}

TEST_CASE("FloorByRounding is floor for 0 <= x < 2^52") {
    const gputco::detail::FloorByRounding floor;
    for (const double x : {0.0, 0.5, 0.999999999, 1.0, 1.5, 2.5, 3.0, 1e9 + 0.5, 0x1p51 + 0.5, 0x1p52 - 1.0})
        CHECK(floor(x) == std::floor(x));
    CHECK(floor(std::nextafter(7.0, 0.0)) == 6.0);
    const f64x8 v = {0.0, 0.5, 1.0, 1.5, 2.5, 4.75, 1e12 + 0.75, std::nextafter(3.0, 0.0)};
    const f64x8 r = floor(v);
    for (int lane = 0; lane < 8; ++lane) CHECK(r[lane] == std::floor(v[lane]));
}

TEST_CASE("interrupted: one launch by hand") {
    // tau = 2, delta = 0.1 (seg = 2.1), R = 0.25; 10 h of work: 4 whole segments, then a last one of 2 h
    // (tail 2.1). A fresh path needs 5 x 2.1 = 10.5 h.
    gputco::detail::JobConstants job{};
    job.restart = 0.25;
    job.tail = 2.1;
    job.last_work = 2.0;
    job.tau = 2.0;
    job.seg = 2.1;
    job.inv_seg = 1.0 / 2.1;
    const auto shape = gputco::detail::launch_shape<double>(job);
    SUBCASE("first launch killed 5 h in: segments 1 and 2 done (4.2 h), 0.8 h of segment 3 lost") {
        double rest = 10.5, billed = 0, lost = 0, n = 0;
        gputco::detail::interrupted(5.0, 5.0, rest, billed, lost, n, shape);
        CHECK(rest == doctest::Approx(10.5 - 4.2));
        CHECK(lost == doctest::Approx(0.8));
        CHECK(billed == 5.0);
        CHECK(n == 1.0);
    }
    SUBCASE("killed 0.1 h into the restart: nothing done, nothing lost, 0.1 h billed") {
        double rest = 6.3, billed = 5.0, lost = 0.8, n = 1;
        gputco::detail::interrupted(0.1, 0.1 - 0.25, rest, billed, lost, n, shape);
        CHECK(rest == 6.3);
        CHECK(lost == 0.8);
        CHECK(billed == 5.1);
        CHECK(n == 2.0);
    }
    SUBCASE("killed in the last segment: its work so far lost, the last segment still to do") {
        double rest = 4.2, billed = 0, lost = 0, n = 0;  // one whole segment, then the last
        gputco::detail::interrupted(3.5 + 0.25, 3.5, rest, billed, lost, n, shape);
        CHECK(rest == 2.1);
        CHECK(lost == doctest::Approx(3.5 - 2.1));
    }
    SUBCASE("killed while writing a checkpoint: the whole segment's work (tau) is lost") {
        double rest = 10.5, billed = 0, lost = 0, n = 0;
        gputco::detail::interrupted(2.05, 2.05, rest, billed, lost, n, shape);
        CHECK(rest == 10.5);
        CHECK(lost == 2.0);
    }
}
