// Quantile selection (src/results/quantiles.hpp, internal) and summarize()'s passes: on many seeded
// random inputs, every result equals the straightforward definition bit for bit — the quantiles those
// of a full sort (type 7), the squared deviations a plain loop's, min and max a serial scan's — on the
// small path, on the band path (run on small inputs through a small subsample), at every vector width.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gputco/core/random.hpp"
#include "gputco/results/statistics.hpp"
#include "quantiles.hpp"

using gputco::detail::BandTuning;
using gputco::detail::type7_quantiles;

namespace {

constexpr double levels[] = {0.50, 0.90, 0.95, 0.99};

double uniform(gputco::Xoshiro256pp& engine) { return static_cast<double>(engine() >> 11) * 0x1p-53; }

// A random sample set of `n` values of one of several shapes: continuous, heavy-tailed, few distinct
// values (ties), many zeros of both signs, all equal, sorted, reversed, negative.
std::vector<double> random_samples(gputco::Xoshiro256pp& engine, std::size_t n, int shape) {
    std::vector<double> x(n);
    const double distinct = 1.0 + std::floor(uniform(engine) * 20.0);
    for (double& v : x) {
        const double u = uniform(engine);
        switch (shape) {
        case 0: v = 1000.0 + 50.0 * u; break;
        case 1: v = std::exp(8.0 * u); break;                         // spans many binades
        case 2: v = std::floor(u * distinct); break;                  // ties
        case 3: v = u < 0.6 ? (u < 0.3 ? 0.0 : -0.0) : 10.0 * u; break;  // zeros of both signs
        case 4: v = 2.5; break;                                       // all equal
        default: v = -5.0 + std::floor(u * 1e4) * 1e-3; break;       // negatives with ties
        }
    }
    if (shape == 0 && n % 3 == 0) std::sort(x.begin(), x.end());
    if (shape == 1 && n % 3 == 0) std::sort(x.rbegin(), x.rend());
    return x;
}

// Type 7 from a full sort, written out: h = (n - 1) q, x[floor h] + frac(h) (x[floor h + 1] - x[floor h]).
double sorted_quantile(const std::vector<double>& sorted, double q) {
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const auto i = static_cast<std::size_t>(std::floor(h));
    const double next = i + 1 < sorted.size() ? sorted[i + 1] : sorted[i];
    return sorted[i] + (h - std::floor(h)) * (next - sorted[i]);
}

std::uint64_t bits(double x) { return std::bit_cast<std::uint64_t>(x); }

// The library's summing order written plainly: term i into partial sum i % 8, the eight added pairwise.
template <class Term>
double eight_lane_sum(const std::vector<double>& x, Term term) {
    double lanes[8] = {};
    for (std::size_t i = 0; i < x.size(); ++i) lanes[i % 8] += term(x[i]);
    return ((lanes[0] + lanes[1]) + (lanes[2] + lanes[3])) + ((lanes[4] + lanes[5]) + (lanes[6] + lanes[7]));
}

// Checks type7_quantiles (with the squared deviations from the plain mean) against the definitions.
void check_against_definition(const std::vector<double>& x, BandTuning tuning) {
    std::vector<double> sorted = x;
    std::sort(sorted.begin(), sorted.end());
    const double mean = eight_lane_sum(x, [](double v) { return v; }) / static_cast<double>(x.size());
    const double squares = eight_lane_sum(x, [&](double v) { return (v - mean) * (v - mean); });
    const gputco::detail::QuantilePass pass = type7_quantiles(x, levels, &mean, tuning);
    for (std::size_t k = 0; k < 4; ++k) {
        REQUIRE(bits(pass.quantiles[k]) == bits(sorted_quantile(sorted, levels[k])));
    }
    REQUIRE(bits(pass.squared_deviations) == bits(squares));
    const gputco::detail::QuantilePass plain = type7_quantiles(x, levels, nullptr, tuning);
    REQUIRE(plain.quantiles == pass.quantiles);
    REQUIRE(plain.squared_deviations == 0.0);
}

}  // namespace

TEST_CASE("quantile selection equals a full sort's type 7, bit for bit, on random inputs of every shape") {
    gputco::Xoshiro256pp engine(16);
    for (int trial = 0; trial < 600; ++trial) {
        // Sizes 1..5000, more of them small, where the edge ranks are.
        const double u = uniform(engine);
        const auto n = static_cast<std::size_t>(1.0 + std::floor(u * u * 5000.0));
        const int shape = trial % 6;
        const std::vector<double> x = random_samples(engine, n, shape);
        // The band path from 64 samples on, with a subsample of 16 or 32, whose brackets often miss
        // (the fallback runs too); then the small path; each vector width.
        const std::size_t subsample = trial % 2 == 0 ? 16 : 32;
        for (const std::size_t width : {2u, 8u}) {
            INFO("trial ", trial, ", n = ", n, ", shape ", shape, ", width ", width);
            check_against_definition(x, {.subsample = subsample, .min_samples = 64, .max_width = width});
        }
        check_against_definition(x, {});
    }
}

TEST_CASE("quantile selection on the band path with the default subsample, large inputs") {
    gputco::Xoshiro256pp engine(1604);
    for (const std::size_t n : {131'072u, 131'079u, 200'003u}) {
        for (int shape = 0; shape < 6; ++shape) {
            INFO("n = ", n, ", shape ", shape);
            check_against_definition(random_samples(engine, n, shape), {});
        }
    }
}

TEST_CASE("summarize: mean, min, max and standard error equal the straightforward loops bit for bit") {
    // Sums in eight interleaved partial sums (quantiles.hpp), written plainly above. Min and max are kept in four running values each; a serial scan keeps the first of equal values,
    // which matters only for 0 and -0.
    gputco::Xoshiro256pp engine(61);
    for (int trial = 0; trial < 300; ++trial) {
        const double u = uniform(engine);
        const auto n = static_cast<std::size_t>(1.0 + std::floor(u * u * 5000.0));
        const std::vector<double> x = random_samples(engine, n, trial % 6);
        double lowest = x[0], highest = x[0];
        for (const double v : x) {
            lowest = v < lowest ? v : lowest;
            highest = v > highest ? v : highest;
        }
        const double mean = eight_lane_sum(x, [](double v) { return v; }) / static_cast<double>(n);
        const double squares = eight_lane_sum(x, [&](double v) { return (v - mean) * (v - mean); });
        const gputco::Summary s = gputco::summarize(x);
        const gputco::Moments m = gputco::Moments::of(x);
        INFO("trial ", trial, ", n = ", n);
        REQUIRE(bits(s.mean) == bits(mean));
        REQUIRE(bits(s.min) == bits(lowest));
        REQUIRE(bits(s.max) == bits(highest));
        REQUIRE(bits(m.mean) == bits(mean));
        REQUIRE(bits(m.min) == bits(lowest));
        REQUIRE(bits(m.max) == bits(highest));
        REQUIRE(bits(m.squared_deviations) == bits(squares));
        if (n > 1) {
            REQUIRE(bits(s.standard_error) ==
                    bits(std::sqrt(squares / (static_cast<double>(n) - 1.0) / static_cast<double>(n))));
        }
    }
}

TEST_CASE("summarize: the first zero decides the sign of a zero min or max") {
    const std::vector<double> plus_first{1.0, 0.0, -0.0, 2.0, -0.0};
    CHECK(bits(gputco::summarize(plus_first).min) == bits(0.0));
    const std::vector<double> minus_first{1.0, -0.0, 0.0, 0.0, 2.0};
    CHECK(bits(gputco::summarize(minus_first).min) == bits(-0.0));
    const std::vector<double> zeros_max{-3.0, -1.0, -0.0, -2.0, 0.0, -4.0};
    CHECK(bits(gputco::summarize(zeros_max).max) == bits(-0.0));
}
