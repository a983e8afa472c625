// The price model's array kernels (src/catalog/lane_math.hpp, price_blocks.hpp): exp against the C
// library, the ziggurat's normals against the normal law, and the block kernels against each other.
#include <doctest/doctest.h>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "gputco/catalog/price_dynamics.hpp"
#include "gputco/core/random.hpp"
#include "lane_math.hpp"

using namespace gputco;

TEST_CASE("the lane exp is within 2 ulp of std::exp, exact at 0, over many random arguments") {
    Xoshiro256pp engine(17);
    std::vector<double> x(200'000);
    for (double& v : x) v = -50 + 100 * double(engine() >> 11) * 0x1.0p-53;
    x[0] = 0;
    x[1] = -1e-300;
    x[2] = 1e-18;
    std::vector<double> y = x;
    lane_math::exp_inplace(y.data(), y.size());
    CHECK(y[0] == 1.0);
    int worst = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double want = std::exp(x[i]);
        const double ulp = std::nextafter(want, INFINITY) - want;
        worst = std::max(worst, int(std::abs(y[i] - want) / ulp + 0.5));
    }
    MESSAGE("worst error against std::exp: " << worst << " ulp");
    CHECK(worst <= 2);
}

TEST_CASE("the ziggurat's normals have the normal law's mean, variance and quantiles") {
    lane_math::ZigguratNormals normals(2024);
    const std::size_t n = 2'000'000;
    std::vector<double> z(n);
    normals.fill(z.data(), 1000);
    normals.fill(z.data() + 1000, n - 1000);  // one sequence whatever the sizes asked
    double sum = 0, squares = 0;
    for (double v : z) {
        sum += v;
        squares += v * v;
    }
    const double mean = sum / double(n), variance = squares / double(n) - mean * mean;
    CHECK(std::abs(mean) <= 4 / std::sqrt(double(n)));
    CHECK(std::abs(variance - 1) <= 4 * std::sqrt(2.0 / double(n)));
    // Below and above each layer edge and in the tail beyond R = 3.44 (the slow paths).
    const boost::math::normal law;
    for (double q : {-4.0, -3.6, -3.0, -2.0, -1.0, -0.3, 0.0, 0.5, 1.5, 2.5, 3.2, 3.5, 4.0}) {
        const double p = cdf(law, q);
        double below = 0;
        for (double v : z) below += v < q;
        CHECK(std::abs(below / double(n) - p) <= 4 * std::sqrt(p * (1 - p) / double(n)));
    }
}

TEST_CASE("each ziggurat layer's byte bound is the largest below its core ratio, and sends few more to the slow path") {
    const lane_math::Ziggurat& z = lane_math::Ziggurat::table();
    double extra = 0;
    for (int i = 0; i < lane_math::Ziggurat::Layers; ++i) {
        CAPTURE(i);
        const unsigned code = z.core_code[std::size_t(i)];
        CHECK(lane_math::Ziggurat::core_bound(code) <= z.ratio[std::size_t(i)]);
        if (code > 0) CHECK(lane_math::Ziggurat::core_bound(code - 1) > z.ratio[std::size_t(i)]);
        extra += z.ratio[std::size_t(i)] - lane_math::Ziggurat::core_bound(code);
    }
    // The share of candidates that pass the exact core test but not the bound: 0.02%.
    CHECK(extra / lane_math::Ziggurat::Layers < 5e-4);
}

TEST_CASE("the portable, AVX2 and AVX-512 block kernels give the same paths bit for bit, over random models") {
    const char* kernels[] = {"avx2", "avx512"};
    Xoshiro256pp engine(5);
    auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * double(engine() >> 11) * 0x1.0p-53; };
    for (int trial = 0; trial < 20; ++trial) {
        PriceDynamics d;
        auto random_process = [&] {
            return LogPriceProcess{.reversion = uniform(0, 1), .volatility = uniform(0, 0.3), .drift = uniform(-0.02, 0.02),
                                   .jump_rate = uniform(0, 0.5), .jump_mean = uniform(-0.3, 0.3), .jump_sd = uniform(0, 0.3)};
        };
        d.on_demand = random_process();
        d.spot_spread = random_process();
        d.reserved_1y_spread = random_process();
        d.reserved_3y_spread = random_process();
        d.spot_correlation = uniform(-1, 1);
        const auto seed = engine();
        const int term = trial % 2 == 0 ? 0 : 1;  // both terms, or the 1-year alone
        // 150 futures: two whole blocks and a short one; 37 months: 8 × 8 tiles and a rest.
        setenv("GPUTCO_PRICE_KERNEL", "portable", 1);
        const PricePaths a = simulate_price_paths(d, Horizon::months(37), 150, seed, term);
        for (const char* kernel : kernels) {
            CAPTURE(kernel);
            setenv("GPUTCO_PRICE_KERNEL", kernel, 1);
            PricePaths b;
            try {
                b = simulate_price_paths(d, Horizon::months(37), 150, seed, term);
            } catch (const InvalidInput&) {
                continue;  // not on this CPU (or a build without it)
            }
            CHECK((a.on_demand == b.on_demand).all());
            CHECK((a.spot == b.spot).all());
            CHECK((a.reserved == b.reserved).all());
            CHECK((a.reserved_3y == b.reserved_3y).all());
            CHECK(a.reserved_3y.size() == (term == 0 ? 37 * 150 : 0));
        }
        unsetenv("GPUTCO_PRICE_KERNEL");
    }
}

TEST_CASE("drawing into a reused PricePaths gives the fresh call's numbers, whatever it held before") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.1, .volatility = 0.05, .jump_rate = 0.2, .jump_mean = -0.1, .jump_sd = 0.1};
    d.spot_spread = {.reversion = 0.3, .volatility = 0.1};
    d.launches = {{.probability = 0.5, .first_month = 3, .last_month = 9, .on_demand_factor = 0.8}};
    PricePaths out = simulate_price_paths(d, Horizon::years(2), 90, 1, 1);  // another seed, same shape
    for (const std::size_t futures : {std::size_t(90), std::size_t(40), std::size_t(130)}) {
        CAPTURE(futures);
        simulate_price_paths(d, Horizon::years(2), futures, 7, 1, out);
        const PricePaths fresh = simulate_price_paths(d, Horizon::years(2), futures, 7, 1);
        CHECK(out.on_demand.cols() == Eigen::Index(futures));
        CHECK((out.on_demand == fresh.on_demand).all());
        CHECK((out.spot == fresh.spot).all());
        CHECK((out.reserved == fresh.reserved).all());
        CHECK((out.launch_month == fresh.launch_month).all());
    }
    // Bad input leaves `out` as it was.
    const PricePaths before = out;
    d.on_demand.volatility = -1;
    CHECK_THROWS_AS(simulate_price_paths(d, Horizon::years(2), 10, 7, 1, out), InvalidInput);
    CHECK((out.on_demand == before.on_demand).all());
}

TEST_CASE("a future's path does not depend on how many futures are drawn (blocks are drawn whole)") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.1, .volatility = 0.05, .jump_rate = 0.2, .jump_mean = -0.1, .jump_sd = 0.1};
    d.spot_spread = {.reversion = 0.3, .volatility = 0.1};
    d.spot_correlation = 0.4;
    const PricePaths few = simulate_price_paths(d, Horizon::years(2), 70, 9, 1);
    const PricePaths many = simulate_price_paths(d, Horizon::years(2), 200, 9, 1, 2);
    CHECK((few.on_demand == many.on_demand.leftCols(70)).all());
    CHECK((few.spot == many.spot.leftCols(70)).all());
}

TEST_CASE("simulate_price_paths' on-demand log price has the OU with jumps' mean and variance") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.2, .volatility = 0.05, .drift = -0.01, .jump_rate = 0.1, .jump_mean = -0.05, .jump_sd = 0.1};
    d.reserved_1y_spread = {.reversion = 0.5, .volatility = 0.02};
    const std::size_t n = 40'000;
    const PricePaths paths = simulate_price_paths(d, Horizon::months(25), n, 13, 1);
    const LogPriceProcess& p = d.on_demand;
    for (int m : {1, 6, 24}) {
        // Jumps decay like the OU shocks: Σ φ^(2k) over the m months weighs both.
        double decay = 0, decay2 = 0;
        for (int k = 0; k < m; ++k) {
            decay += std::exp(-p.reversion * k);
            decay2 += std::exp(-2 * p.reversion * k);
        }
        const double mean = p.drift * m + p.jump_rate * p.jump_mean * decay;
        const double variance = p.volatility * p.volatility * -std::expm1(-2 * p.reversion) / (2 * p.reversion) * decay2 +
                                p.jump_rate * (p.jump_mean * p.jump_mean + p.jump_sd * p.jump_sd) * decay2;
        const Eigen::ArrayXd x = paths.on_demand.row(m).transpose().log();
        const double got_mean = x.mean(), got_var = (x - got_mean).square().sum() / double(n - 1);
        CHECK(std::abs(got_mean - mean) <= 4 * std::sqrt(variance / double(n)));
        // The jumps make the law heavy-tailed: the variance's standard error from the sample's 4th moment.
        const double m4 = (x - got_mean).pow(4).mean();
        CHECK(std::abs(got_var - variance) <= 4 * std::sqrt((m4 - got_var * got_var) / double(n)));
        const Eigen::ArrayXd spread = (paths.reserved.row(m) / paths.on_demand.row(m)).transpose().log();
        const double s_var = 0.02 * 0.02 * (1 - std::exp(-2 * 0.5 * m)) / (2 * 0.5);
        const double s_mean = spread.mean();
        CHECK(std::abs(s_mean) <= 4 * std::sqrt(s_var / double(n)));
        CHECK(std::abs((spread - s_mean).square().sum() / double(n - 1) - s_var) <= 4 * s_var * std::sqrt(2.0 / double(n - 1)));
    }
}

TEST_CASE("a spread with no dynamics gives exactly on-demand's factors (copied, not recomputed)") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.1, .volatility = 0.05, .drift = -0.01, .jump_rate = 0.2, .jump_mean = -0.1, .jump_sd = 0.1};
    d.reserved_1y_spread = {.drift = 0.01};
    const PricePaths p = simulate_price_paths(d, Horizon::years(2), 130, 4, 1);
    CHECK((p.spot == p.on_demand).all());
    // The reservation spread drifts: its factor is recomputed, e^(x_od + 0.01 m).
    for (Eigen::Index f = 0; f < 130; f += 13) {
        CHECK(p.reserved(23, f) / p.on_demand(23, f) == doctest::Approx(std::exp(0.23)).epsilon(1e-13));
    }
    d.spot_spread = {.volatility = 0.1};
    const PricePaths q = simulate_price_paths(d, Horizon::years(2), 130, 4, 1);
    CHECK(!(q.spot == q.on_demand).all());
}

TEST_CASE("jump counts are Poisson(λ) a month, shared or per future, for small and large rates") {
    // A process of jumps alone (no reversion, no noise, every jump exactly +1): the log price at month m
    // is the count of jumps in months 1 … m, Poisson(λ m).
    for (const double rate : {0.03, 0.5, 3.0}) {
        CAPTURE(rate);
        PriceDynamics d;
        d.on_demand = {.jump_rate = rate, .jump_mean = 1.0};
        const std::size_t n = 20'000;
        const PricePaths shared = simulate_price_paths(d, Horizon::months(13), n, 21, 1);
        // Per future: two sets taking turns, the other at twice the rate (futures f even: `rate`).
        std::vector<PriceDynamics> turns(2, d);
        turns[1].on_demand.jump_rate = 2 * rate;
        PricePaths own;
        simulate_price_paths(turns, Horizon::months(13), 2 * n, 22, 1, own);
        for (const int m : {1, 12}) {
            CAPTURE(m);
            const double mean = rate * m;
            std::vector<double> counts_shared, counts_own;
            for (Eigen::Index f = 0; f < Eigen::Index(n); ++f) {
                counts_shared.push_back(std::log(shared.on_demand(m, f)));
                counts_own.push_back(std::log(own.on_demand(m, 2 * f)));
            }
            for (const auto* counts : {&counts_shared, &counts_own}) {
                for (int k = 0; k <= 4; ++k) {
                    double p = std::exp(-mean);
                    for (int i = 1; i <= k; ++i) p *= mean / i;
                    double hits = 0;
                    for (double c : *counts) hits += std::abs(c - k) < 1e-9;
                    CHECK(std::abs(hits / double(n) - p) <= 4 * std::sqrt(p * (1 - p) / double(n)) + 1e-12);
                }
            }
        }
    }
}
