#include <doctest/doctest.h>

#include <cmath>

#include "gputco/catalog/price_dynamics.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"

using namespace gputco;

namespace {

struct MeanVariance {
    double mean = 0, variance = 0;
};
MeanVariance mean_variance(const Eigen::ArrayXd& x) {
    const double mean = x.mean();
    return {mean, (x - mean).square().sum() / double(x.size() - 1)};
}

}  // namespace

TEST_CASE("an OU log price has the closed-form mean and variance at every month") {
    const LogPriceProcess p{.reversion = 0.2, .volatility = 0.05, .drift = -0.01};
    const std::size_t n = 40'000;
    const Eigen::ArrayXXd x = simulate_log_prices(p, 25, n, 7, 0.1);
    CHECK(x.row(0).isApproxToConstant(0.1));
    for (int m : {1, 6, 24}) {
        const double phi_m = std::exp(-p.reversion * m);
        const double mean = p.drift * m + phi_m * 0.1;
        const double variance = p.volatility * p.volatility * (1 - phi_m * phi_m) / (2 * p.reversion);
        const MeanVariance got = mean_variance(x.row(m).transpose());
        CHECK(std::abs(got.mean - mean) <= 4 * std::sqrt(variance / double(n)));
        CHECK(std::abs(got.variance - variance) <= 4 * variance * std::sqrt(2.0 / double(n - 1)));
    }
}

TEST_CASE("compound-Poisson jumps of both signs add λ m μ_J to the mean and λ m (μ_J² + s_J²) to the variance") {
    const LogPriceProcess p{.volatility = 0.01, .drift = 0.002, .jump_rate = 0.15, .jump_mean = -0.05, .jump_sd = 0.2};
    const std::size_t n = 40'000;
    const int m = 24;
    const Eigen::ArrayXXd x = simulate_log_prices(p, m + 1, n, 11);
    const double mean = p.drift * m + p.jump_rate * m * p.jump_mean;
    const double variance = p.volatility * p.volatility * m + p.jump_rate * m * (p.jump_mean * p.jump_mean + p.jump_sd * p.jump_sd);
    const MeanVariance got = mean_variance(x.row(m).transpose());
    CHECK(std::abs(got.mean - mean) <= 4 * std::sqrt(variance / double(n)));
    // Rises happen: the jumps have both signs.
    CHECK((x.row(m) > 0.2).count() > 0);
    CHECK((x.row(m) < -0.2).count() > 0);
}

TEST_CASE("spot's spread shocks correlate with on-demand's at spot_correlation") {
    PriceDynamics d;
    d.on_demand = {.volatility = 0.03};
    d.spot_spread = {.reversion = 0.5, .volatility = 0.1};
    d.spot_correlation = -0.6;
    const std::size_t n = 40'000;
    const PricePaths paths = simulate_price_paths(d, Horizon::months(2), n, 3, 1);
    const Eigen::ArrayXd od = paths.on_demand.row(1).transpose().log();
    const Eigen::ArrayXd spread = (paths.spot.row(1) / paths.on_demand.row(1)).transpose().log();
    const Eigen::ArrayXd a = od - od.mean(), b = spread - spread.mean();
    const double rho = (a * b).sum() / std::sqrt(a.square().sum() * b.square().sum());
    CHECK(std::abs(rho - d.spot_correlation) <= 4 * (1 - 0.36) / std::sqrt(double(n)));
}

TEST_CASE("1- and 3-year reservation factors move separately; month 0 is the list price") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.05, .volatility = 0.02, .jump_rate = 0.1, .jump_mean = -0.1, .jump_sd = 0.1};
    d.reserved_1y_spread = {.drift = 0.01};
    d.reserved_3y_spread = {.drift = -0.02};
    const PricePaths one = simulate_price_paths(d, Horizon::years(1), 100, 5, 1);
    const PricePaths three = simulate_price_paths(d, Horizon::years(1), 100, 5, 3);
    CHECK((one.on_demand == three.on_demand).all());
    for (Eigen::Index f = 0; f < 100; ++f) {
        CHECK(one.on_demand(0, f) == 1.0);
        CHECK(one.spot(0, f) == 1.0);
        CHECK(one.reserved(0, f) == 1.0);
        CHECK(std::log(one.reserved(11, f) / one.on_demand(11, f)) == doctest::Approx(0.11).epsilon(1e-12));
        CHECK(std::log(three.reserved(11, f) / three.on_demand(11, f)) == doctest::Approx(-0.22).epsilon(1e-12));
    }
}

TEST_CASE("every factor is finite and > 0 and the paths do not depend on the thread count, over random models") {
    Xoshiro256pp engine(99);
    auto uniform = [&](double lo, double hi) { return lo + (hi - lo) * double(engine() >> 11) * 0x1.0p-53; };
    for (int trial = 0; trial < 30; ++trial) {
        PriceDynamics d;
        auto random_process = [&] {
            return LogPriceProcess{.reversion = uniform(0, 1), .volatility = uniform(0, 0.2), .drift = uniform(-0.02, 0.02),
                                   .jump_rate = uniform(0, 0.5), .jump_mean = uniform(-0.3, 0.3), .jump_sd = uniform(0, 0.3)};
        };
        d.on_demand = random_process();
        d.spot_spread = random_process();
        d.reserved_1y_spread = random_process();
        d.reserved_3y_spread = random_process();
        d.spot_correlation = uniform(-1, 1);
        d.launches.push_back({.probability = uniform(0, 1), .first_month = 3, .last_month = 20, .on_demand_factor = 0.8,
                              .spot_factor = 0.7, .reserved_factor = 0.9});
        const auto seed = engine();
        const PricePaths a = simulate_price_paths(d, Horizon::years(2), 203, seed, 3, 1);
        const PricePaths b = simulate_price_paths(d, Horizon::years(2), 203, seed, 3, 3);
        CHECK((a.on_demand == b.on_demand).all());
        CHECK((a.spot == b.spot).all());
        CHECK((a.reserved == b.reserved).all());
        CHECK((a.launch_month == b.launch_month).all());
        CHECK(a.on_demand.allFinite());
        CHECK((a.on_demand > 0).all());
        CHECK((a.spot > 0).all());
        CHECK((a.reserved > 0).all());
    }
}

TEST_CASE("a launch multiplies the factors from its month on") {
    PriceDynamics d;
    d.launches.push_back({.probability = 1, .first_month = 5, .last_month = 5, .on_demand_factor = 0.5,
                          .spot_factor = 0.25, .reserved_factor = 0.75});
    const PricePaths p = simulate_price_paths(d, Horizon::years(1), 3, 1, 1);
    CHECK(p.launch_month(0, 2) == 5);
    CHECK(p.on_demand(4, 2) == 1.0);
    CHECK(p.on_demand(5, 2) == 0.5);
    CHECK(p.spot(11, 2) == 0.25);
    CHECK(p.reserved(11, 2) == 0.75);
}

TEST_CASE("bad dynamics name the field, the value and the rule") {
    PriceDynamics d;
    d.on_demand.volatility = -1;
    CHECK_THROWS_WITH_AS(simulate_price_paths(d, Horizon::years(1), 10, 1, 1),
                         "price_dynamics.on_demand.volatility = -1: must be finite and >= 0", InvalidInput);
    d.on_demand.volatility = 0;
    d.spot_correlation = 1.5;
    CHECK_THROWS_WITH_AS(simulate_price_paths(d, Horizon::years(1), 10, 1, 1),
                         "price_dynamics.spot_correlation = 1.5: must be in [-1, 1]", InvalidInput);
    d.spot_correlation = 0;
    CHECK_THROWS_WITH_AS(simulate_price_paths(d, Horizon::years(1), 10, 1, 2), "term_years = 2: must be 1 or 3 (reserved is that term's factor) or 0 (both: reserved the 1-year, reserved_3y the 3-year)",
                         InvalidInput);
    d.launches.push_back({.probability = 1, .first_month = 20, .last_month = 20});
    CHECK_THROWS_WITH_AS(simulate_price_paths(d, Horizon::years(1), 10, 1, 1),
                         "price_model.launches[0].first_month = 20: must be in [0, 12) (the horizon's months)",
                         InvalidInput);
    d.launches[0] = {.probability = 1.5, .first_month = 2, .last_month = 3};
    CHECK_THROWS_WITH_AS(simulate_price_paths(d, Horizon::years(1), 10, 1, 1),
                         "price_model.launches[0].probability = 1.5: must be in [0, 1]", InvalidInput);
    // The second launch's factor, with both terms drawn: still named as the launches are everywhere.
    d.launches[0] = {.probability = 0.5, .first_month = 2, .last_month = 3};
    d.launches.push_back({.probability = 0.5, .first_month = 2, .last_month = 3, .reserved_factor = 0});
    PricePaths kept = simulate_price_paths(PriceDynamics{}, Horizon::years(1), 10, 1, 0);
    CHECK_THROWS_WITH_AS(simulate_price_paths(d, Horizon::years(1), 10, 1, 0, kept),
                         "price_model.launches[1].reserved_factor = 0: must be finite and > 0", InvalidInput);
    CHECK(kept.reserved_3y.cols() == 10);  // nothing lost on error
    CHECK(kept.launch_month.rows() == 0);
}

TEST_CASE("the forward price implied by 1- and 3-year prices") {
    CHECK(implied_forward_hourly(2.0, 1.5) == 1.25);  // 3 × 1.5 = 2 + 2 × 1.25
    CHECK_THROWS_WITH_AS(implied_forward_hourly(0, 1), "one_year_hourly = 0: must be finite and > 0", InvalidInput);
}

TEST_CASE("both terms at once: reserved is the 1-year factor, reserved_3y the 3-year one, the rest unchanged") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.1, .volatility = 0.05, .drift = -0.01, .jump_rate = 0.2, .jump_mean = -0.1, .jump_sd = 0.1};
    d.spot_spread = {.reversion = 0.3, .volatility = 0.1};
    d.spot_correlation = 0.3;
    d.reserved_1y_spread = {.reversion = 0.2, .volatility = 0.02, .jump_rate = 0.1, .jump_mean = -0.05, .jump_sd = 0.05};
    d.reserved_3y_spread = {.reversion = 0.5, .volatility = 0.03, .drift = -0.004, .jump_rate = 0.05, .jump_mean = -0.2, .jump_sd = 0.01};
    d.launches = {{.probability = 0.5, .first_month = 3, .last_month = 9, .on_demand_factor = 0.8, .reserved_factor = 0.9}};
    const std::size_t n = 20'000;
    const PricePaths both = simulate_price_paths(d, Horizon::years(2), n, 5, 0);
    const PricePaths one = simulate_price_paths(d, Horizon::years(2), n, 5, 1);
    CHECK(one.reserved_3y.size() == 0);
    CHECK((both.on_demand == one.on_demand).all());
    CHECK((both.spot == one.spot).all());
    CHECK((both.reserved == one.reserved).all());
    CHECK((both.launch_month == one.launch_month).all());
    REQUIRE(both.reserved_3y.rows() == 24);
    REQUIRE(both.reserved_3y.cols() == Eigen::Index(n));
    CHECK((both.reserved_3y.row(0) == 1.0).all());
    // The 3-year spread log(reserved_3y / on-demand), launches divided out, has its OU-with-jumps mean
    // and variance at month 12 (the jumps decay like the shocks: Σ φ^k and Σ φ^(2k) over the months).
    const LogPriceProcess& p = d.reserved_3y_spread;
    const int m = 12;
    double decay = 0, decay2 = 0;
    for (int k = 0; k < m; ++k) {
        decay += std::exp(-p.reversion * k);
        decay2 += std::exp(-2 * p.reversion * k);
    }
    const double mean = p.drift * m + p.jump_rate * p.jump_mean * decay;
    const double variance = p.volatility * p.volatility * -std::expm1(-2 * p.reversion) / (2 * p.reversion) * decay2 +
                            p.jump_rate * (p.jump_mean * p.jump_mean + p.jump_sd * p.jump_sd) * decay2;
    Eigen::ArrayXd x{Eigen::Index(n)};
    for (Eigen::Index f = 0; f < Eigen::Index(n); ++f) {
        const int launch = both.launch_month(0, f);
        const double launched = launch >= 0 && launch <= m ? 0.9 / 0.8 : 1.0;
        x[f] = std::log(both.reserved_3y(m, f) / both.on_demand(m, f) / launched);
    }
    const double got_mean = x.mean(), got_var = (x - got_mean).square().sum() / double(n - 1);
    CHECK(std::abs(got_mean - mean) <= 4 * std::sqrt(variance / double(n)));
    const double m4 = (x - got_mean).pow(4).mean();
    CHECK(std::abs(got_var - variance) <= 4 * std::sqrt((m4 - got_var * got_var) / double(n)));
    // Drawn again into the same PricePaths with one term, reserved_3y is emptied.
    PricePaths reused = both;
    simulate_price_paths(d, Horizon::years(2), n, 5, 1, reused);
    CHECK(reused.reserved_3y.size() == 0);
}

TEST_CASE("futures with parameter sets of their own: equal sets give the shared numbers, others their own") {
    PriceDynamics d;
    d.on_demand = {.reversion = 0.1, .volatility = 0.05, .drift = -0.01, .jump_rate = 0.2, .jump_mean = -0.1, .jump_sd = 0.1};
    d.spot_spread = {.reversion = 0.3, .volatility = 0.1, .jump_rate = 0.3, .jump_mean = 0.05, .jump_sd = 0.05};
    d.spot_correlation = 0.4;
    d.reserved_1y_spread = {.reversion = 0.2, .volatility = 0.02};
    d.reserved_3y_spread = {.reversion = 0.2, .volatility = 0.03, .jump_rate = 0.1, .jump_mean = -0.1};
    d.launches = {{.probability = 0.5, .first_month = 3, .last_month = 9, .on_demand_factor = 0.8}};
    for (const int term : {1, 0}) {
        CAPTURE(term);
        const PricePaths shared = simulate_price_paths(d, Horizon::years(2), 150, 8, term);
        PricePaths own;
        std::vector<PriceDynamics> sets(3, d);
        sets[1].launches.clear();
        sets[2].launches.clear();
        simulate_price_paths(sets, Horizon::years(2), 150, 8, term, own);
        CHECK((own.on_demand == shared.on_demand).all());
        CHECK((own.spot == shared.spot).all());
        CHECK((own.reserved == shared.reserved).all());
        CHECK((own.reserved_3y == shared.reserved_3y).all());
        CHECK((own.launch_month == shared.launch_month).all());
    }
    // Two sets taking turns, without noise: future f's on-demand factor is e^(g_(f mod 2) m).
    std::vector<PriceDynamics> turns(2);
    turns[0].on_demand.drift = -0.01;
    turns[1].on_demand.drift = 0.02;
    turns[1].reserved_1y_spread.drift = 0.005;
    PricePaths two;
    simulate_price_paths(turns, Horizon::years(1), 130, 3, 1, two);
    for (Eigen::Index f = 0; f < 130; ++f) {
        const double g = f % 2 == 0 ? -0.01 : 0.02;
        CHECK(two.on_demand(11, f) == doctest::Approx(std::exp(11 * g)).epsilon(1e-14));
        CHECK(two.reserved(11, f) == doctest::Approx(std::exp(11 * (g + (f % 2 == 0 ? 0 : 0.005)))).epsilon(1e-14));
    }
    // A future's numbers depend on (seed, f) and its set alone: drawing fewer futures keeps them.
    std::vector<PriceDynamics> sets(5, d);
    for (std::size_t i = 1; i < sets.size(); ++i) {
        sets[i].launches.clear();
        sets[i].on_demand.drift = -0.01 * double(i);
    }
    PricePaths many, few;
    simulate_price_paths(sets, Horizon::years(2), 200, 4, 0, many);
    simulate_price_paths(sets, Horizon::years(2), 70, 4, 0, few, 2);
    CHECK((few.on_demand == many.on_demand.leftCols(70)).all());
    CHECK((few.reserved_3y == many.reserved_3y.leftCols(70)).all());
    // Bad sets are named.
    PricePaths out;
    CHECK_THROWS_WITH_AS(simulate_price_paths(std::vector<PriceDynamics>{}, Horizon::years(1), 10, 1, 1, out),
                         "per_future = 0: must hold at least one PriceDynamics", InvalidInput);
    sets[2].launches = d.launches;
    CHECK_THROWS_WITH_AS(simulate_price_paths(sets, Horizon::years(1), 10, 1, 1, out),
                         "per_future[2].launches = 1: must be empty (every future's launches are per_future[0]'s)",
                         InvalidInput);
    sets[2].launches.clear();
    sets[3].spot_spread.jump_sd = -0.5;
    CHECK_THROWS_WITH_AS(simulate_price_paths(sets, Horizon::years(1), 10, 1, 1, out),
                         "per_future[3].spot_spread.jump_sd = -0.5: must be finite and >= 0", InvalidInput);
    CHECK(out.empty());  // nothing written on error
}
