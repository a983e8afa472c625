#include <doctest/doctest.h>

#include <cmath>

#include "gputco/catalog/price_fit.hpp"
#include "gputco/core/error.hpp"

using namespace gputco;

namespace {

std::vector<std::vector<double>> as_series(const Eigen::ArrayXXd& x) {
    std::vector<std::vector<double>> out;
    for (Eigen::Index j = 0; j < x.cols(); ++j) out.emplace_back(x.col(j).data(), x.col(j).data() + x.rows());
    return out;
}

/// |estimate − truth| ≤ 4 standard errors, each standard error finite and > 0.
void check_recovered(double estimate, double se, double truth, const char* name) {
    INFO(name << ": estimate " << estimate << ", standard error " << se << ", truth " << truth);
    CHECK(std::isfinite(se));
    CHECK(se > 0);
    CHECK(std::abs(estimate - truth) <= 4 * se);
}

}  // namespace

TEST_CASE("maximum likelihood recovers a jump-diffusion's parameters from paths it simulated, within 4 standard errors") {
    const LogPriceProcess truths[] = {
        {.reversion = 0.08, .volatility = 0.02, .drift = -0.004, .jump_rate = 0.1, .jump_mean = -0.08, .jump_sd = 0.15},
        {.reversion = 0.3, .volatility = 0.05, .drift = 0.003, .jump_rate = 0.05, .jump_mean = 0.2, .jump_sd = 0.1},
    };
    std::uint64_t seed = 17;
    for (const LogPriceProcess& truth : truths) {
        const auto series = as_series(simulate_log_prices(truth, 48, 60, seed++));
        const ProcessFit fit = fit_log_price_process(series);
        CHECK(fit.transitions == 60u * 47u);
        CHECK(fit.series == 60u);
        check_recovered(fit.process.reversion, fit.standard_error.reversion, truth.reversion, "reversion");
        check_recovered(fit.process.volatility, fit.standard_error.volatility, truth.volatility, "volatility");
        check_recovered(fit.process.drift, fit.standard_error.drift, truth.drift, "drift");
        check_recovered(fit.process.jump_rate, fit.standard_error.jump_rate, truth.jump_rate, "jump_rate");
        check_recovered(fit.process.jump_mean, fit.standard_error.jump_mean, truth.jump_mean, "jump_mean");
        check_recovered(fit.process.jump_sd, fit.standard_error.jump_sd, truth.jump_sd, "jump_sd");
        // The optimum is a maximum: the truth does not score higher.
        CHECK(fit.log_likelihood >= log_likelihood(truth, series));
    }
}

TEST_CASE("without jumps the fit is an OU with drift, and its jump parameters are 0 with no uncertainty") {
    const LogPriceProcess truth{.reversion = 0.25, .volatility = 0.08, .drift = -0.002};
    const auto series = as_series(simulate_log_prices(truth, 36, 40, 5));
    const ProcessFit fit = fit_log_price_process(series, {.jumps = false});
    check_recovered(fit.process.reversion, fit.standard_error.reversion, truth.reversion, "reversion");
    check_recovered(fit.process.volatility, fit.standard_error.volatility, truth.volatility, "volatility");
    check_recovered(fit.process.drift, fit.standard_error.drift, truth.drift, "drift");
    CHECK(fit.process.jump_rate == 0);
    CHECK(fit.standard_error.jump_rate == 0);
}

TEST_CASE("a fit needs 8 transitions and finite values") {
    CHECK_THROWS_WITH_AS(fit_log_price_process({{0, 0.1, 0.2}, {1}}),
                         "series (monthly transitions) = 2: must hold at least 8 monthly transitions to fit", InvalidInput);
    CHECK_THROWS_WITH_AS(fit_log_price_process({{0, NAN}}), "series[0][1] = nan: must be a finite number", InvalidInput);
    CHECK_THROWS_WITH_AS(fit_log_price_process({{0, 1}}, {.min_volatility = 0}),
                         "options.min_volatility = 0: must be finite and > 0", InvalidInput);
}

TEST_CASE("monthly series hold the last price in force each month and see only the past before `until`") {
    const std::vector<PriceObservation> obs = {
        {"a", Date::parse("2025-01-15"), 10.0}, {"b", Date::parse("2025-03-02"), 4.0},
        {"a", Date::parse("2025-04-01"), 8.0},  {"a", Date::parse("2025-04-20"), 9.0},
        {"a", Date::parse("2025-06-30"), 9.0},
    };
    const auto all = monthly_log_series(obs);
    REQUIRE(all.size() == 2);
    CHECK(all[0].name == "a");
    CHECK(all[0].first_month == Date::parse("2025-01-01"));
    REQUIRE(all[0].log_price.size() == 6);  // January to June
    CHECK(all[0].log_price[2] == std::log(10.0));  // March: January's price still in force
    CHECK(all[0].log_price[3] == std::log(9.0));   // April: the last price seen in April
    CHECK(all[1].log_price.size() == 1);
    // Seen from mid-April: January to March, March's price the one in force since January (the file
    // records every change, and the series is observed later, so no change was missed).
    const auto past = monthly_log_series(obs, Date::parse("2025-04-15"));
    REQUIRE(past.size() == 2);
    CHECK(past[0].log_price.size() == 3);
    CHECK(past[0].log_price[2] == std::log(10.0));
    // Seen from June: through May, though the last observation before June is in April (a is
    // observed again in late June, so April's price was still in force in May).
    const auto june = monthly_log_series(obs, Date::parse("2025-06-01"));
    CHECK(june[0].log_price.size() == 5);
    CHECK(june[0].log_price[4] == std::log(9.0));
    // Seen from July: through June, April's last price held since.
    const auto later = monthly_log_series(obs, Date::parse("2025-07-01"));
    CHECK(later[0].log_price.size() == 6);
    CHECK(later[0].log_price[5] == std::log(9.0));
    CHECK_THROWS_WITH_AS(monthly_log_series({{"a", Date::parse("2025-01-01"), -1.0}}),
                         "observations[0].price = -1: must be finite and > 0", InvalidInput);
}

TEST_CASE("a held reversion is not fitted and has no uncertainty") {
    const LogPriceProcess truth{.volatility = 0.02, .jump_rate = 0.1, .jump_mean = 0.1, .jump_sd = 0.05};
    const auto series = as_series(simulate_log_prices(truth, 36, 40, 8));
    FitOptions options;
    options.fixed_reversion = 0.0;
    const ProcessFit fit = fit_log_price_process(series, options);
    CHECK(fit.process.reversion == 0.0);
    CHECK(fit.standard_error.reversion == 0.0);
    check_recovered(fit.process.volatility, fit.standard_error.volatility, truth.volatility, "volatility");
    check_recovered(fit.process.jump_mean, fit.standard_error.jump_mean, truth.jump_mean, "jump_mean");
    options.fixed_reversion = -1.0;
    CHECK_THROWS_WITH_AS(fit_log_price_process(series, options), "options.fixed_reversion = -1: must be finite and >= 0",
                         InvalidInput);
}

TEST_CASE("a family's dynamics from records: spreads over on-demand, and a list price's unidentified reversion held at 0") {
    // Two offerings; on-demand jumps once each and is seen for years after; the 1-year price is a
    // constant 40% below on-demand, then its discount deepens by 10% in its last month.
    std::vector<PriceRecord> records;
    auto add = [&](const char* series, const char* date, const char* option, double price) {
        PriceRecord r;
        r.observation = {series, Date::parse(date), price};
        r.gpu = "X";
        r.option = option;
        records.push_back(r);
    };
    for (const char* s : {"p/r/a", "p/r/b"}) {
        add(s, "2022-01-01", "on_demand", 10);
        add(s, "2023-01-01", "on_demand", 8);
        add(s, "2025-01-01", "on_demand", 8);
        add(s, "2022-01-01", "reserved_1y", 6);
        add(s, "2023-01-01", "reserved_1y", 4.8);
        add(s, "2024-06-01", "reserved_1y", 4.32);
        add(s, "2022-01-01", "spot", 3);
        add(s, "2025-01-01", "spot", 3);
    }
    add("p/r/a", "2022-01-01", "on_demand", 10);  // a record of another family is ignored
    records.back().gpu = "Y";
    const DynamicsFit fit = fit_price_dynamics(records, "X");
    CHECK(fit.on_demand.transitions == 2u * 36u);
    CHECK(fit.reserved_1y_spread.transitions == 2u * 29u);
    CHECK(fit.dynamics.reserved_1y_spread.jump_mean == doctest::Approx(std::log(0.9)).epsilon(0.01));
    // The 1-year spread's only move is in its last month: how long it lasts is not identified.
    CHECK(fit.dynamics.reserved_1y_spread.reversion == 0.0);
    REQUIRE(!fit.notes.empty());
    CHECK(fit.notes.back().rfind("reserved_1y_spread: reversion not identified", 0) == 0);
    CHECK(fit.spot_spread.transitions == 2u * 36u);
    CHECK(fit.reserved_3y_spread.transitions == 0u);
    CHECK(std::isnan(fit.reserved_3y_spread.standard_error.jump_rate));
}

TEST_CASE("the fit's covariance has its standard errors on the diagonal, 0 where a parameter has none") {
    const LogPriceProcess truth{.reversion = 0.25, .volatility = 0.08, .drift = -0.002};
    const ProcessFit fit = fit_log_price_process(as_series(simulate_log_prices(truth, 36, 40, 5)), {.jumps = false});
    CHECK(std::sqrt(fit.covariance(0, 0)) == doctest::Approx(fit.standard_error.reversion).epsilon(1e-12));
    CHECK(std::sqrt(fit.covariance(1, 1)) == doctest::Approx(fit.standard_error.volatility).epsilon(1e-12));
    CHECK(std::sqrt(fit.covariance(2, 2)) == doctest::Approx(fit.standard_error.drift).epsilon(1e-12));
    CHECK(fit.covariance.block<3, 6>(3, 0).isZero());
    CHECK(fit.covariance.isApprox(fit.covariance.transpose()));
}

TEST_CASE("parameter draws follow the fit's approximate posterior: log-normal rates, normal drift and jump mean") {
    ProcessFit fit;
    fit.process = {.reversion = 0.2, .volatility = 0.05, .drift = -0.01, .jump_rate = 0.3, .jump_mean = 0.04, .jump_sd = 0.06};
    // Standard errors of 10% of the positive parameters, a correlation between λ and μ_J of −0.5; s_J has none.
    const double se[6] = {0.02, 0.005, 0.002, 0.03, 0.008, 0};
    for (int i = 0; i < 6; ++i) fit.covariance(i, i) = se[i] * se[i];
    fit.covariance(3, 4) = fit.covariance(4, 3) = -0.5 * se[3] * se[4];
    const std::size_t n = 20'000;
    const std::vector<LogPriceProcess> draws = draw_processes({fit}, n, 11);
    REQUIRE(draws.size() == n);
    // In the drawing coordinates: log κ, log σ, log λ have sd se/θ around log θ; g, μ_J sd se around θ.
    auto check_moments = [&](auto value, double centre, double sd, const char* name) {
        INFO(name);
        double sum = 0, sum2 = 0;
        for (const auto& p : draws) {
            const double v = value(p);
            sum += v;
            sum2 += v * v;
        }
        const double mean = sum / double(n), var = sum2 / double(n) - mean * mean;
        CHECK(std::abs(mean - centre) <= 4 * sd / std::sqrt(double(n)));
        CHECK(std::abs(var - sd * sd) <= 4 * sd * sd * std::sqrt(2.0 / double(n - 1)));
    };
    check_moments([](const LogPriceProcess& p) { return std::log(p.reversion); }, std::log(0.2), 0.02 / 0.2, "reversion");
    check_moments([](const LogPriceProcess& p) { return std::log(p.volatility); }, std::log(0.05), 0.005 / 0.05, "volatility");
    check_moments([](const LogPriceProcess& p) { return p.drift; }, -0.01, 0.002, "drift");
    check_moments([](const LogPriceProcess& p) { return std::log(p.jump_rate); }, std::log(0.3), 0.03 / 0.3, "jump_rate");
    check_moments([](const LogPriceProcess& p) { return p.jump_mean; }, 0.04, 0.008, "jump_mean");
    // The correlation of log λ and μ_J is the fit's −0.5 (standard error of a correlation about (1 − ρ²)/√n).
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (const auto& p : draws) {
        const double a = std::log(p.jump_rate), b = p.jump_mean;
        sa += a, sb += b, saa += a * a, sbb += b * b, sab += a * b;
    }
    const double N = double(n);
    const double rho = (sab / N - sa / N * sb / N) / std::sqrt((saa / N - sa / N * sa / N) * (sbb / N - sb / N * sb / N));
    CHECK(std::abs(rho - -0.5) <= 4 * (1 - 0.25) / std::sqrt(N));
    for (const auto& p : draws) {
        CHECK(p.jump_sd == 0.06);  // no standard error: held at its estimate
        CHECK_NOTHROW(validate(p, "draw"));
    }
    // Draw j depends on (seed, j) alone; several fits take turns.
    const std::vector<LogPriceProcess> fewer = draw_processes({fit}, 10, 11);
    for (std::size_t j = 0; j < fewer.size(); ++j) CHECK(fewer[j].drift == draws[j].drift);
    ProcessFit other = fit;
    other.process.drift = 0.5;
    other.covariance.setZero();
    const std::vector<LogPriceProcess> both = draw_processes({fit, other}, 6, 11);
    CHECK(both[1].drift == 0.5);
    CHECK(both[3].drift == 0.5);
    CHECK(both[0].drift == draws[0].drift);
    CHECK_THROWS_WITH_AS(draw_processes({}, 3, 1), "fits = 0: must hold at least one fit", InvalidInput);
}

TEST_CASE("fits by period follow dynamics that change between periods") {
    // 30 series over 48 months: drift −1%/month for two years, then +1%/month.
    const LogPriceProcess falling{.volatility = 0.02, .drift = -0.01}, rising{.volatility = 0.02, .drift = 0.01};
    const Eigen::ArrayXXd first = simulate_log_prices(falling, 25, 30, 3), second = simulate_log_prices(rising, 24, 30, 4);
    std::vector<std::vector<double>> series;
    for (Eigen::Index j = 0; j < 30; ++j) {
        std::vector<double> s(first.col(j).data(), first.col(j).data() + 25);
        for (Eigen::Index m = 1; m < 24; ++m) s.push_back(first(24, j) + second(m, j));
        series.push_back(s);
    }
    const std::vector<int> starts(30, 100);
    const std::vector<ProcessFit> periods = fit_by_period(series, starts, 24, {.jumps = false, .fixed_reversion = 0.0});
    REQUIRE(periods.size() == 2);
    check_recovered(periods[0].process.drift, periods[0].standard_error.drift, -0.01, "first period's drift");
    check_recovered(periods[1].process.drift, periods[1].standard_error.drift, 0.01, "second period's drift");
    CHECK(periods[0].transitions == 30u * 24u);
    CHECK(periods[1].transitions == 30u * 23u);
    CHECK_THROWS_WITH_AS(fit_by_period(series, {1, 2}, 12), "first_month = 2: must give one month per series (30)", InvalidInput);
    CHECK_THROWS_WITH_AS(fit_by_period(series, starts, 2), "period_months = 2: must be >= 3", InvalidInput);
}

TEST_CASE("log prices with a process per path: the same numbers as one shared process when they are equal") {
    const LogPriceProcess p{.reversion = 0.1, .volatility = 0.03, .drift = 0.002, .jump_rate = 0.2, .jump_mean = -0.05, .jump_sd = 0.1};
    const Eigen::ArrayXXd shared = simulate_log_prices(p, 13, 50, 21, 0.1);
    const Eigen::ArrayXXd each = simulate_log_prices(std::vector<LogPriceProcess>(50, p), 13, 21, 0.1);
    CHECK((shared == each).all());
    std::vector<LogPriceProcess> mixed(50, p);
    mixed[7].drift = 0.05;
    const Eigen::ArrayXXd changed = simulate_log_prices(mixed, 13, 21, 0.1);
    CHECK((changed.col(6) == shared.col(6)).all());
    CHECK(changed(12, 7) - shared(12, 7) == doctest::Approx(12 * 0.048));
    mixed[3].volatility = -1;
    CHECK_THROWS_WITH_AS(simulate_log_prices(mixed, 13, 21), "processes[3].volatility = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(simulate_log_prices(std::vector<LogPriceProcess>{}, 13, 21),
                         "processes = 0: must hold at least one process (one per path)", InvalidInput);
}

TEST_CASE("dynamics drawn from a family's fit: each component from its own fit's uncertainty") {
    DynamicsFit fit;
    fit.on_demand.process = {.drift = -0.004, .jump_rate = 0.02, .jump_mean = 0.06, .jump_sd = 0.2};
    fit.on_demand.covariance(2, 2) = 0.001 * 0.001;
    fit.spot_spread.process = {.volatility = 0.05};
    fit.spot_spread.covariance(1, 1) = 0.005 * 0.005;
    fit.dynamics.spot_correlation = 0.3;
    fit.dynamics.launches = {{.probability = 0.5, .first_month = 1, .last_month = 2, .on_demand_factor = 0.9}};
    const std::size_t n = 10'000;
    const std::vector<PriceDynamics> sets = draw_dynamics(fit, n, 5);
    REQUIRE(sets.size() == n);
    double sum = 0, sum2 = 0, log_sum = 0;
    for (std::size_t j = 0; j < n; ++j) {
        sum += sets[j].on_demand.drift;
        sum2 += sets[j].on_demand.drift * sets[j].on_demand.drift;
        log_sum += std::log(sets[j].spot_spread.volatility);
        CHECK(sets[j].on_demand.jump_mean == 0.06);  // no standard error: as fitted
        CHECK(sets[j].reserved_1y_spread.volatility == 0);
        CHECK(sets[j].spot_correlation == 0.3);
        CHECK(sets[j].launches.size() == (j == 0 ? 1u : 0u));
    }
    const double mean = sum / double(n), var = sum2 / double(n) - mean * mean;
    CHECK(std::abs(mean - -0.004) <= 4 * 0.001 / std::sqrt(double(n)));
    CHECK(std::abs(var - 1e-6) <= 4 * 1e-6 * std::sqrt(2.0 / double(n - 1)));
    CHECK(std::abs(log_sum / double(n) - std::log(0.05)) <= 4 * 0.1 / std::sqrt(double(n)));
}
