// The arithmetic shared by the spot lane kernels and the scalar loops (src/engines/spot/spot_lanes.hpp, internal):
// the logarithm behind every exponential lifetime, the lane generator, the floor and one launch.
#include <doctest/doctest.h>

#include <cmath>
#include <iomanip>
#include <algorithm>
#include <cstdint>
#include <vector>
#include <limits>

#include "gputco/core/random.hpp"
#include "path_generators.hpp"
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
            const std::uint64_t expected = engines[lane].next_plus();
            REQUIRE(bits[lane] == expected);
            REQUIRE(logs[lane] == gputco::detail::log_of_uniform<double>(expected));
        }
    }
}

TEST_CASE("rectangle-wedge-tail tables: equal rectangles under e^-x, the remainder all the rest") {
    using gputco::detail::ExponentialTables;
    const ExponentialTables& t = gputco::detail::exponential_tables();
    const double slot = 1.0 / ExponentialTables::slots;
    const std::size_t n = t.rectangles;
    MESSAGE(n << " rectangles of " << ExponentialTables::slots << " slots");
    REQUIRE(n > ExponentialTables::slots - 16);
    REQUIRE(n <= ExponentialTables::slots);
    // Rectangle 0 is [0, edge[0]] x [0, e^-edge[0]], rectangle j [0, edge[j]] x [e^-edge[j-1], e^-edge[j]]:
    // each of one slot's area, to within 1e-11 of it (measured: 6.4e-13, at the top, where
    // e^-edge[j] - e^-edge[j-1] is a difference of nearby numbers).
    double worst = std::abs(t.edge[0] * t.height[0] / slot - 1.0);
    for (std::size_t j = 1; j < n; ++j) {
        REQUIRE(t.edge[j] < t.edge[j - 1]);
        worst = std::max(worst, std::abs(t.edge[j] * (t.height[j] - t.height[j - 1]) / slot - 1.0));
    }
    CHECK(worst <= 1e-11);
    for (std::size_t j = 0; j < n; ++j) {
        REQUIRE(t.height[j] == doctest::Approx(std::exp(-t.edge[j])).epsilon(1e-15));
        REQUIRE(t.width[j] == t.edge[j] * 0x1p-51);
    }
    for (std::size_t j = n; j < ExponentialTables::slots; ++j) REQUIRE(t.width[j] == 0.0);  // the remainder's slots
    // The pieces of the remainder (tail, wedges, cap) fill what the rectangles leave of the area 1, to
    // within the rectangles' own rounding (n x slot x 1e-11 < 1e-12; measured: 2.8e-13).
    CHECK(std::abs(t.cumulative[n + 1] - (1.0 - static_cast<double>(n) * slot)) <= 1e-12);
    CHECK(t.cumulative[1] == t.height[0]);  // the tail beyond edge[0]: e^-edge[0]
    // No rectangle of a slot's area fits in the cap: c (e^-c - e^-edge[n-1]) < slot for c in (0, edge[n-1]).
    double most = 0;
    for (int i = 1; i < 10'000; ++i) {
        const double c = t.edge[n - 1] * i / 10'000.0;
        most = std::max(most, c * (std::exp(-c) - t.height[n - 1]));
    }
    CHECK(most < slot);
}

namespace {

// n variates from the scalar loops' ExponentialBlock (the lane kernels' draws, bit for bit), sorted.
std::vector<double> sorted_exponentials(std::uint64_t seed, std::size_t n) {
    gputco::Xoshiro256pp engine(seed);
    gputco::spot::ExponentialBlock block;
    std::vector<double> x(n);
    for (double& v : x) v = block(engine);
    std::sort(x.begin(), x.end());
    return x;
}

}  // namespace

TEST_CASE("rectangle-wedge-tail draws are Exp(1): mean, variance and the Kolmogorov-Smirnov distance") {
    const std::size_t n = 2'000'000;
    const std::vector<double> x = sorted_exponentials(21, n);
    double sum = 0, squares = 0, distance = 0;
    for (std::size_t i = 0; i < n; ++i) {
        sum += x[i];
        squares += x[i] * x[i];
        const double cdf = -std::expm1(-x[i]);
        distance = std::max({distance, cdf - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - cdf});
    }
    const double mean = sum / n, variance = squares / n - mean * mean;
    INFO("mean " << mean << ", variance " << variance << ", sqrt(n) D " << distance * std::sqrt(n));
    // Exp(1): sd of the mean 1 / sqrt(n); of the sample variance sqrt((mu4 - 1) / n) = sqrt(8 / n).
    CHECK(std::abs(mean - 1.0) <= 4.0 / std::sqrt(n));
    CHECK(std::abs(variance - 1.0) <= 4.0 * std::sqrt(8.0 / n));
    // Kolmogorov: P(sqrt(n) D > 1.95) = 0.001.
    CHECK(distance * std::sqrt(n) <= 1.95);
    CHECK(x.front() > 0.0);
}

TEST_CASE("rectangle-wedge-tail draws: P(X > t) = e^-t within 4 standard errors, deep into the tail") {
    // The far rectangles hold the long lifetimes that rare long segments need (one launch in 22,000 on
    // tests/test_spot.cpp's one-segment job lives past 10 MTBF); a point drawn from bits that overlapped
    // the slot's once made P(X > 10) 23% too small while the mean, variance and Kolmogorov distance held.
    gputco::Xoshiro256pp engine(23);
    gputco::spot::ExponentialBlock block;
    const double levels[] = {0.5, 2.0, 5.0, 8.0, 10.0, 11.0, 12.0, 14.0};
    double above[8] = {};
    const int n = 40'000'000;
    for (int i = 0; i < n; ++i) {
        const double x = block(engine);
        for (int k = 0; k < 8; ++k) above[k] += x > levels[k] ? 1.0 : 0.0;
    }
    for (int k = 0; k < 8; ++k) {
        const double p = std::exp(-levels[k]);
        INFO("t = " << levels[k] << ": " << above[k] / n << " (exact " << p << ")");
        CHECK(std::abs(above[k] / n - p) <= 4.0 * std::sqrt(p * (1.0 - p) / n));
    }
}

TEST_CASE("the remainder's draws: its exact mean, second moment and tail share within 4 standard errors") {
    // The remainder is what e^-x leaves outside the rectangles, so its moments are Exp(1)'s less theirs:
    // rectangle j holds x uniform on [0, edge[j]] with probability 1 / slots, E x = edge / 2,
    // E x^2 = edge^2 / 3; Exp(1) has E x = 1, E x^2 = 2. Its tail share is e^-edge[0] of it.
    const gputco::detail::ExponentialTables& t = gputco::detail::exponential_tables();
    const double slot = 1.0 / gputco::detail::ExponentialTables::slots;
    double first = 1.0, second = 2.0;
    for (std::size_t j = 0; j < t.rectangles; ++j) {
        first -= slot * t.edge[j] / 2.0;
        second -= slot * t.edge[j] * t.edge[j] / 3.0;
    }
    const double share = 1.0 - static_cast<double>(t.rectangles) * slot;
    first /= share;
    second /= share;
    const double tail = t.height[0] / share;
    gputco::Xoshiro256pp engine(22);
    const int n = 2'000'000;
    double sum = 0, squares = 0, fourths = 0, tails = 0;
    for (int i = 0; i < n; ++i) {
        const double x = gputco::detail::exponential_remainder(t, [&] { return engine(); });
        sum += x;
        squares += x * x;
        fourths += x * x * x * x;
        tails += x > t.edge[0] ? 1.0 : 0.0;
    }
    const double mean = sum / n, mean_square = squares / n;
    const double se_mean = std::sqrt((mean_square - mean * mean) / n);
    const double se_square = std::sqrt((fourths / n - mean_square * mean_square) / n);
    INFO("mean " << mean << " (exact " << first << "), E x^2 " << mean_square << " (exact " << second << "), tail "
                 << tails / n << " (exact " << tail << ")");
    CHECK(std::abs(mean - first) <= 4.0 * se_mean);
    CHECK(std::abs(mean_square - second) <= 4.0 * se_square);
    CHECK(std::abs(tails / n - tail) <= 4.0 * std::sqrt(tail * (1.0 - tail) / n));
}

TEST_CASE("exp_of is exp to within 3 units in the last place; 0 and infinity past its ends") {
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
    CHECK(worst <= 3.0);  // measured: 1 (1e6 draws, seed 12)
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
            const f64x8 exponentials = f64x8{} - gputco::detail::log_of_uniform<f64x8>(bits);
            const f64x8 lifetimes =
                gputco::detail::weibull_of_exponential<f64x8>(exponentials, f64x8{} + scale, f64x8{} + inv_shape);
            const f64x8 picks = gputco::detail::index_of_uniform<f64x8>(bits, f64x8{} + 7.0, gputco::detail::FloorByRounding{});
            for (int lane = 0; lane < 8; ++lane) {
                REQUIRE(lifetimes[lane] ==
                        gputco::detail::weibull_of_exponential<double>(exponentials[lane], scale, inv_shape));
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
            const double e = -gputco::detail::log_of_uniform<double>(engine());
            const double x = gputco::detail::weibull_of_exponential<double>(e, scale, inv_shape);
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
        double rest = 10.5, billed = 0, lost = 0;
        gputco::detail::interrupted(5.0, 5.0, rest, billed, lost, shape);
        CHECK(rest == doctest::Approx(10.5 - 4.2));
        CHECK(lost == doctest::Approx(0.8));
        CHECK(billed == 5.0);
    }
    SUBCASE("killed 0.1 h into the restart: nothing done, nothing lost, 0.1 h billed") {
        double rest = 6.3, billed = 5.0, lost = 0.8;
        gputco::detail::interrupted(0.1, 0.1 - 0.25, rest, billed, lost, shape);
        CHECK(rest == 6.3);
        CHECK(lost == 0.8);
        CHECK(billed == 5.1);
    }
    SUBCASE("killed in the last segment: its work so far lost, the last segment still to do") {
        double rest = 4.2, billed = 0, lost = 0;  // one whole segment, then the last
        gputco::detail::interrupted(3.5 + 0.25, 3.5, rest, billed, lost, shape);
        CHECK(rest == 2.1);
        CHECK(lost == doctest::Approx(3.5 - 2.1));
    }
    SUBCASE("killed while writing a checkpoint: the whole segment's work (tau) is lost") {
        double rest = 10.5, billed = 0, lost = 0;
        gputco::detail::interrupted(2.05, 2.05, rest, billed, lost, shape);
        CHECK(rest == 10.5);
        CHECK(lost == 2.0);
    }
}
