// Fitting a LogPriceProcess by maximum likelihood (see price_fit.hpp), and monthly series from dated prices.
#include "gputco/catalog/price_fit.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <numbers>

#include <Eigen/Dense>
#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// Bounds of the search: below these a rate is indistinguishable from 0 over decades of months.
constexpr double min_reversion = 1e-6, min_jump_rate = 1e-6, min_jump_sd = 1e-4;

/// Parameters as a vector in this order: κ, σ, g, λ, μ_J, s_J.
Eigen::VectorXd to_vector(const LogPriceProcess& p) {
    Eigen::VectorXd v(6);
    v << p.reversion, p.volatility, p.drift, p.jump_rate, p.jump_mean, p.jump_sd;
    return v;
}
LogPriceProcess from_vector(const Eigen::VectorXd& v) {
    return {.reversion = v[0], .volatility = v[1], .drift = v[2], .jump_rate = v[3], .jump_mean = v[4], .jump_sd = v[5]};
}

double log_sum_exp(const double* terms, int n) {
    const double top = *std::max_element(terms, terms + n);
    if (!std::isfinite(top)) return top;
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += std::exp(terms[i] - top);
    return top + std::log(sum);
}

/// Nelder–Mead (Lagarias et al. 1998 coefficients) maximising f from x0 with initial steps `scale`.
Eigen::VectorXd nelder_mead(const std::function<double(const Eigen::VectorXd&)>& f, Eigen::VectorXd x0,
                            const Eigen::VectorXd& scale, int iterations) {
    const Eigen::Index n = x0.size();
    std::vector<Eigen::VectorXd> pts(std::size_t(n + 1), x0);
    std::vector<double> val(std::size_t(n + 1));
    for (Eigen::Index i = 0; i < n; ++i) pts[std::size_t(i + 1)][i] += scale[i];
    auto value = [&](const Eigen::VectorXd& x) {
        const double v = -f(x);
        return std::isfinite(v) ? v : std::numeric_limits<double>::infinity();
    };
    for (std::size_t i = 0; i < pts.size(); ++i) val[i] = value(pts[i]);
    std::vector<std::size_t> order(pts.size());
    for (int it = 0; it < iterations; ++it) {
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return val[a] < val[b]; });
        const std::size_t best = order.front(), worst = order.back(), second = order[order.size() - 2];
        if (std::abs(val[worst] - val[best]) < 1e-10 * (1 + std::abs(val[best])) && it > 50) break;
        Eigen::VectorXd centroid = Eigen::VectorXd::Zero(n);
        for (std::size_t i = 0; i + 1 < order.size(); ++i) centroid += pts[order[i]];
        centroid /= double(n);
        const Eigen::VectorXd reflected = centroid + (centroid - pts[worst]);
        const double fr = value(reflected);
        if (fr < val[best]) {
            const Eigen::VectorXd expanded = centroid + 2 * (centroid - pts[worst]);
            const double fe = value(expanded);
            if (fe < fr) { pts[worst] = expanded; val[worst] = fe; }
            else { pts[worst] = reflected; val[worst] = fr; }
        } else if (fr < val[second]) {
            pts[worst] = reflected;
            val[worst] = fr;
        } else {
            const bool outside = fr < val[worst];
            const Eigen::VectorXd contracted =
                outside ? Eigen::VectorXd(centroid + 0.5 * (reflected - centroid))
                        : Eigen::VectorXd(centroid + 0.5 * (pts[worst] - centroid));
            const double fc = value(contracted);
            if (fc < (outside ? fr : val[worst])) {
                pts[worst] = contracted;
                val[worst] = fc;
            } else {  // shrink towards the best
                for (std::size_t i = 0; i < pts.size(); ++i) {
                    if (i == best) continue;
                    pts[i] = pts[best] + 0.5 * (pts[i] - pts[best]);
                    val[i] = value(pts[i]);
                }
            }
        }
    }
    return pts[std::size_t(std::min_element(val.begin(), val.end()) - val.begin())];
}

}  // namespace

double log_likelihood(const LogPriceProcess& p, const std::vector<std::vector<double>>& series, int max_jumps) {
    if (p.reversion < 0 || p.volatility < 0 || p.jump_rate < 0 || p.jump_sd < 0) return -std::numeric_limits<double>::infinity();
    const double phi = std::exp(-p.reversion);
    const double v = p.volatility * p.volatility *
                     (p.reversion > 0 ? -std::expm1(-2 * p.reversion) / (2 * p.reversion) : 1.0);
    const int jumps = p.jump_rate > 0 ? max_jumps : 0;
    std::vector<double> log_weight(std::size_t(jumps + 1)), variance(std::size_t(jumps + 1)), terms(std::size_t(jumps + 1));
    for (int n = 0; n <= jumps; ++n) {
        log_weight[std::size_t(n)] = n * std::log(std::max(p.jump_rate, 1e-300)) - p.jump_rate - std::lgamma(n + 1.0);
        variance[std::size_t(n)] = v + n * p.jump_sd * p.jump_sd;
    }
    const double log_2pi = std::log(2 * std::numbers::pi);
    double total = 0;
    for (const auto& x : series) {
        for (std::size_t m = 0; m + 1 < x.size(); ++m) {
            const double deviation = x[m] - x[0] - p.drift * double(m);
            const double r = x[m + 1] - x[0] - p.drift * double(m + 1) - phi * deviation;
            for (int n = 0; n <= jumps; ++n) {
                const double var = variance[std::size_t(n)], e = r - n * p.jump_mean;
                terms[std::size_t(n)] = var > 0 ? log_weight[std::size_t(n)] - 0.5 * (log_2pi + std::log(var) + e * e / var)
                                                : -std::numeric_limits<double>::infinity();
            }
            total += log_sum_exp(terms.data(), jumps + 1);
        }
    }
    return total;
}

ProcessFit fit_log_price_process(const std::vector<std::vector<double>>& series, const FitOptions& options) {
    require_positive("options.min_volatility", options.min_volatility);
    require(options.max_jumps_per_month >= 1 && options.max_jumps_per_month <= 20, "options.max_jumps_per_month",
            options.max_jumps_per_month, "must be in [1, 20]");
    require(options.max_iterations >= 100, "options.max_iterations", options.max_iterations, "must be >= 100");
    ProcessFit fit;
    double sum = 0, sum2 = 0;
    for (std::size_t s = 0; s < series.size(); ++s) {
        for (std::size_t m = 0; m < series[s].size(); ++m) {
            require_finite(fmt::format("series[{}][{}]", s, m), series[s][m]);
        }
        if (series[s].size() < 2) continue;
        ++fit.series;
        fit.transitions += series[s].size() - 1;
        for (std::size_t m = 0; m + 1 < series[s].size(); ++m) {
            const double r = series[s][m + 1] - series[s][m];
            sum += r;
            sum2 += r * r;
        }
    }
    require(fit.transitions >= 8, "series (monthly transitions)", fit.transitions,
            "must hold at least 8 monthly transitions to fit");
    const double n = double(fit.transitions), mean = sum / n, sd = std::sqrt(std::max(sum2 / n - mean * mean, 0.0));
    const int max_jumps = options.max_jumps_per_month;
    const double sigma_min = options.min_volatility;

    // Unconstrained coordinates u ↔ natural parameters.
    const bool with_jumps = options.jumps;
    auto natural = [&](const Eigen::VectorXd& u) {
        LogPriceProcess p;
        p.reversion = min_reversion + std::exp(u[0]);
        p.volatility = sigma_min + std::exp(u[1]);
        p.drift = u[2];
        if (with_jumps) {
            p.jump_rate = min_jump_rate + std::exp(u[3]);
            p.jump_mean = u[4];
            p.jump_sd = min_jump_sd + std::exp(u[5]);
        }
        return p;
    };
    auto objective = [&](const Eigen::VectorXd& u) { return log_likelihood(natural(u), series, max_jumps); };
    Eigen::VectorXd u0(with_jumps ? 6 : 3), scale(u0.size());
    u0[0] = std::log(0.05);
    u0[1] = std::log(std::max(sd, 2 * sigma_min) - sigma_min);
    u0[2] = mean;
    scale << Eigen::VectorXd::Constant(u0.size(), 1.0);
    scale[2] = std::max(sd, 1e-3);
    if (with_jumps) {
        u0[1] = std::log(std::max(sd / 3, 2 * sigma_min) - sigma_min);
        u0[3] = std::log(0.05);
        u0[4] = 0;
        u0[5] = std::log(std::max(2 * sd, 0.02));
        scale[4] = std::max(sd, 0.01);
    }
    // Two restarts from the last optimum: Nelder–Mead can stall on a ridge of the mixture likelihood.
    Eigen::VectorXd u = u0;
    for (int round = 0; round < 3; ++round) u = nelder_mead(objective, u, scale, options.max_iterations);
    fit.process = natural(u);
    fit.log_likelihood = objective(u);

    // Standard errors: inverse observed information over the parameters not at a bound.
    const Eigen::VectorXd theta = to_vector(fit.process);
    std::vector<int> free;
    if (fit.process.reversion > 1e-4) free.push_back(0);
    if (fit.process.volatility > sigma_min * 1.01 + 1e-6) free.push_back(1);
    free.push_back(2);
    if (with_jumps && fit.process.jump_rate > 1e-4) {
        free.push_back(3);
        free.push_back(4);
        if (fit.process.jump_sd > 10 * min_jump_sd) free.push_back(5);
    }
    const auto k = Eigen::Index(free.size());
    Eigen::MatrixXd hessian(k, k);
    auto ll_at = [&](const Eigen::VectorXd& t) { return log_likelihood(from_vector(t), series, max_jumps); };
    Eigen::VectorXd h(k);
    for (Eigen::Index i = 0; i < k; ++i) h[i] = 1e-4 * std::max(std::abs(theta[free[std::size_t(i)]]), 1e-2);
    for (Eigen::Index i = 0; i < k; ++i) {
        for (Eigen::Index j = i; j < k; ++j) {
            auto at = [&](double si, double sj) {
                Eigen::VectorXd t = theta;
                t[free[std::size_t(i)]] += si * h[i];
                t[free[std::size_t(j)]] += sj * h[j];
                return ll_at(t);
            };
            const double value = (at(1, 1) - at(1, -1) - at(-1, 1) + at(-1, -1)) / (4 * h[i] * h[j]);
            hessian(i, j) = hessian(j, i) = value;
        }
    }
    Eigen::VectorXd se = Eigen::VectorXd::Constant(6, nan);
    if (!with_jumps) se[3] = se[4] = se[5] = 0;  // fixed at 0 by the option
    const Eigen::MatrixXd information = -hessian;
    Eigen::LDLT<Eigen::MatrixXd> ldlt(information);
    if (k > 0 && ldlt.info() == Eigen::Success && ldlt.isPositive() && information.allFinite()) {
        const Eigen::MatrixXd covariance = ldlt.solve(Eigen::MatrixXd::Identity(k, k));
        for (Eigen::Index i = 0; i < k; ++i) {
            const double var = covariance(i, i);
            se[free[std::size_t(i)]] = var > 0 ? std::sqrt(var) : nan;
        }
    }
    fit.standard_error = from_vector(se);
    return fit;
}

std::vector<MonthlySeries> monthly_log_series(const std::vector<PriceObservation>& observations,
                                              const std::optional<Date>& until) {
    std::vector<std::string> names;
    std::map<std::string, std::vector<std::pair<Date, double>>> by_name;
    for (std::size_t i = 0; i < observations.size(); ++i) {
        const PriceObservation& o = observations[i];
        require_positive(fmt::format("observations[{}].price", i), o.price);
        if (until && !(o.date < *until)) continue;
        auto [it, added] = by_name.try_emplace(o.series);
        if (added) names.push_back(o.series);
        it->second.emplace_back(o.date, o.price);
    }
    std::vector<MonthlySeries> out;
    for (const std::string& name : names) {
        auto& obs = by_name[name];
        std::stable_sort(obs.begin(), obs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        auto index = [](const Date& d) { return d.year * 12 + d.month - 1; };
        const int first = index(obs.front().first), last = index(obs.back().first);
        MonthlySeries s{name, Date{obs.front().first.year, obs.front().first.month, 1}, {}};
        s.log_price.resize(std::size_t(last - first + 1));
        std::size_t next = 0;
        double price = obs.front().second;
        for (int m = first; m <= last; ++m) {
            while (next < obs.size() && index(obs[next].first) <= m) price = obs[next++].second;
            s.log_price[std::size_t(m - first)] = std::log(price);
        }
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace gputco
