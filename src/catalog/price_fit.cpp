// Fitting a LogPriceProcess by maximum likelihood (see price_fit.hpp), and monthly series from dated prices.
#include "gputco/catalog/price_fit.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <fstream>
#include <map>
#include <sstream>
#include <numbers>

#include <Eigen/Dense>
#include <boost/random/normal_distribution.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"

namespace gputco {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// Bounds of the search (natural units, per month). Below the lower ones a rate is indistinguishable
// from 0 over decades of months; the upper ones are far past any price seen, and keep the search off
// the flat directions a series that never moves leaves (κ, μ_J, s_J are then not identified).
struct Bound {
    double lo, hi;
    double to(double u) const { return lo + (hi - lo) / (1 + std::exp(-u)); }
    double from(double x) const {
        const double f = std::clamp((x - lo) / (hi - lo), 1e-6, 1 - 1e-6);
        return std::log(f / (1 - f));
    }
    bool at(double x) const { return x - lo < 1e-4 * (hi - lo) || hi - x < 1e-4 * (hi - lo); }
};
constexpr Bound reversion_bound{1e-6, 3}, drift_bound{-0.1, 0.1}, jump_rate_bound{1e-6, 3}, jump_mean_bound{-2, 2},
    jump_sd_bound{1e-4, 2};
constexpr double max_volatility = 1;

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
    if (options.fixed_reversion) require_non_negative("options.fixed_reversion", *options.fixed_reversion);
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

    // Unconstrained coordinates u ↔ natural parameters, each bounded by a logistic map.
    const bool with_jumps = options.jumps;
    const Bound volatility_bound{sigma_min, std::max(max_volatility, 2 * sigma_min)};
    auto natural = [&](const Eigen::VectorXd& u) {
        LogPriceProcess p;
        p.reversion = options.fixed_reversion ? *options.fixed_reversion : reversion_bound.to(u[0]);
        p.volatility = volatility_bound.to(u[1]);
        p.drift = drift_bound.to(u[2]);
        if (with_jumps) {
            p.jump_rate = jump_rate_bound.to(u[3]);
            p.jump_mean = jump_mean_bound.to(u[4]);
            p.jump_sd = jump_sd_bound.to(u[5]);
        }
        return p;
    };
    auto objective = [&](const Eigen::VectorXd& u) { return log_likelihood(natural(u), series, max_jumps); };
    Eigen::VectorXd u0(with_jumps ? 6 : 3);
    u0[0] = reversion_bound.from(0.05);
    u0[1] = volatility_bound.from(with_jumps ? std::max(sd / 3, 2 * sigma_min) : std::max(sd, 2 * sigma_min));
    u0[2] = drift_bound.from(std::clamp(mean, -0.05, 0.05));
    if (with_jumps) {
        u0[3] = jump_rate_bound.from(0.05);
        u0[4] = jump_mean_bound.from(0);
        u0[5] = jump_sd_bound.from(std::max(2 * sd, 0.02));
    }
    const Eigen::VectorXd scale = Eigen::VectorXd::Constant(u0.size(), 1.0);
    // Nelder–Mead can stall on a ridge of the mixture likelihood: start from small, medium and large
    // jumps, restart twice from each optimum, keep the best.
    Eigen::VectorXd u = u0;
    double best = -std::numeric_limits<double>::infinity();
    for (const double jump_sd : {0.0, 0.1, 0.4}) {
        Eigen::VectorXd start = u0;
        if (with_jumps && jump_sd > 0) start[5] = jump_sd_bound.from(jump_sd);
        if (!with_jumps && jump_sd > 0) break;
        for (int round = 0; round < 3; ++round) start = nelder_mead(objective, start, scale, options.max_iterations);
        const double value = objective(start);
        if (value > best) {
            best = value;
            u = start;
        }
    }
    fit.process = natural(u);
    fit.log_likelihood = objective(u);

    // Standard errors: inverse observed information over the parameters not at a bound.
    const Eigen::VectorXd theta = to_vector(fit.process);
    std::vector<int> free;
    const LogPriceProcess& e = fit.process;
    if (!options.fixed_reversion && !reversion_bound.at(e.reversion)) free.push_back(0);
    if (!volatility_bound.at(e.volatility)) free.push_back(1);
    if (!drift_bound.at(e.drift)) free.push_back(2);
    if (with_jumps && !jump_rate_bound.at(e.jump_rate)) {
        if (!jump_rate_bound.at(e.jump_rate)) free.push_back(3);
        if (!jump_mean_bound.at(e.jump_mean)) free.push_back(4);
        if (!jump_sd_bound.at(e.jump_sd)) free.push_back(5);
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
    if (options.fixed_reversion) se[0] = 0;
    const Eigen::MatrixXd information = -hessian;
    Eigen::LDLT<Eigen::MatrixXd> ldlt(information);
    if (k > 0 && ldlt.info() == Eigen::Success && ldlt.isPositive() && information.allFinite()) {
        const Eigen::MatrixXd covariance = ldlt.solve(Eigen::MatrixXd::Identity(k, k));
        for (Eigen::Index i = 0; i < k; ++i) {
            const double var = covariance(i, i);
            se[free[std::size_t(i)]] = var > 0 ? std::sqrt(var) : nan;
        }
        for (Eigen::Index i = 0; i < k; ++i) {
            for (Eigen::Index j = 0; j < k; ++j) {
                if (covariance(i, i) > 0 && covariance(j, j) > 0)
                    fit.covariance(free[std::size_t(i)], free[std::size_t(j)]) = covariance(i, j);
            }
        }
    }
    fit.standard_error = from_vector(se);
    return fit;
}

std::vector<LogPriceProcess> draw_processes(const std::vector<ProcessFit>& fits, std::size_t count, std::uint64_t seed) {
    require(!fits.empty(), "fits", fits.size(), "must hold at least one fit");
    // Per fit: the covariance in the drawing coordinates (log of the positive parameters: Jacobian
    // 1/θ) and its Cholesky factor; a factor that fails (not positive definite) falls back to the
    // diagonal.
    constexpr bool positive[6] = {true, true, false, true, false, true};
    struct Drawer {
        Eigen::Matrix<double, 6, 1> centre;
        Eigen::Matrix<double, 6, 6> factor;
    };
    std::vector<Drawer> drawers;
    for (const ProcessFit& f : fits) {
        Drawer d;
        const Eigen::VectorXd theta = to_vector(f.process);
        Eigen::Matrix<double, 6, 1> jacobian;
        for (int i = 0; i < 6; ++i) {
            const bool logged = positive[i] && theta[i] > 0;
            d.centre[i] = logged ? std::log(theta[i]) : theta[i];
            jacobian[i] = logged ? 1 / theta[i] : 1.0;
        }
        Eigen::Matrix<double, 6, 6> c = jacobian.asDiagonal() * f.covariance * jacobian.asDiagonal();
        for (int i = 0; i < 6; ++i) {  // a parameter with no variance (held, at a bound, or 0) is not drawn
            if (!(c(i, i) > 0) || !std::isfinite(c(i, i))) {
                c.row(i).setZero();
                c.col(i).setZero();
                c(i, i) = 0;
            }
        }
        Eigen::Matrix<double, 6, 6> padded = c;
        for (int i = 0; i < 6; ++i) {
            if (padded(i, i) == 0) padded(i, i) = 1;  // factor the drawn block only
        }
        Eigen::LLT<Eigen::Matrix<double, 6, 6>> llt(padded);
        if (llt.info() == Eigen::Success) {
            d.factor = llt.matrixL();
        } else {
            d.factor = padded.diagonal().cwiseSqrt().asDiagonal();
        }
        for (int i = 0; i < 6; ++i) {
            if (c(i, i) == 0) {
                d.factor.row(i).setZero();
                d.factor.col(i).setZero();
            }
        }
        drawers.push_back(d);
    }
    std::vector<LogPriceProcess> out;
    out.reserve(count);
    boost::random::normal_distribution<double> normal;
    for (std::size_t j = 0; j < count; ++j) {
        const Drawer& d = drawers[j % drawers.size()];
        Xoshiro256pp engine(splitmix64(seed ^ splitmix64(j) ^ 0xD1B54A32D192ED03ULL));
        normal.reset();
        Eigen::Matrix<double, 6, 1> z;
        for (int i = 0; i < 6; ++i) z[i] = normal(engine);
        const Eigen::Matrix<double, 6, 1> x = d.centre + d.factor * z;
        Eigen::VectorXd theta(6);
        const Eigen::VectorXd estimate = to_vector(fits[j % fits.size()].process);
        for (int i = 0; i < 6; ++i) {
            const bool logged = positive[i] && estimate[i] > 0;
            theta[i] = logged ? std::exp(x[i]) : x[i];
        }
        LogPriceProcess p = from_vector(theta);
        // Keep the draw inside the model's domain (validate): rates at most 10 jumps a month.
        p.jump_rate = std::min(p.jump_rate, 10.0);
        out.push_back(p);
    }
    return out;
}

std::vector<ProcessFit> fit_by_period(const std::vector<std::vector<double>>& series, const std::vector<int>& first_month,
                                      int period_months, const FitOptions& options) {
    require(series.size() == first_month.size(), "first_month", first_month.size(),
            fmt::format("must give one month per series ({})", series.size()));
    require(period_months >= 3, "period_months", period_months, "must be >= 3");
    std::vector<ProcessFit> out;
    if (series.empty()) return out;
    int earliest = std::numeric_limits<int>::max(), latest = std::numeric_limits<int>::min();
    for (std::size_t s = 0; s < series.size(); ++s) {
        earliest = std::min(earliest, first_month[s]);
        latest = std::max(latest, first_month[s] + int(series[s].size()) - 1);
    }
    for (int start = earliest; start <= latest; start += period_months) {
        // The months [start, start + period_months], so that consecutive periods share their edge month
        // and every transition belongs to one period.
        std::vector<std::vector<double>> parts;
        std::size_t transitions = 0;
        for (std::size_t s = 0; s < series.size(); ++s) {
            const int a = std::max(start, first_month[s]);
            const int b = std::min(start + period_months, first_month[s] + int(series[s].size()) - 1);
            if (b - a < 1) continue;
            parts.emplace_back(series[s].begin() + (a - first_month[s]), series[s].begin() + (b - first_month[s]) + 1);
            transitions += std::size_t(b - a);
        }
        if (transitions >= 8) out.push_back(fit_log_price_process(parts, options));
    }
    return out;
}

std::vector<MonthlySeries> monthly_log_series(const std::vector<PriceObservation>& observations,
                                              const std::optional<Date>& until) {
    auto index = [](const Date& d) { return d.year * 12 + d.month - 1; };
    std::vector<std::string> names;
    std::map<std::string, std::vector<std::pair<Date, double>>> by_name;
    std::map<std::string, int> last_month;  // over every observation: the span the file covers
    for (std::size_t i = 0; i < observations.size(); ++i) {
        const PriceObservation& o = observations[i];
        require_positive(fmt::format("observations[{}].price", i), o.price);
        auto [last, fresh] = last_month.try_emplace(o.series, index(o.date));
        if (!fresh) last->second = std::max(last->second, index(o.date));
        if (until && !(o.date < *until)) continue;
        auto [it, added] = by_name.try_emplace(o.series);
        if (added) names.push_back(o.series);
        it->second.emplace_back(o.date, o.price);
    }
    std::vector<MonthlySeries> out;
    for (const std::string& name : names) {
        auto& obs = by_name[name];
        std::stable_sort(obs.begin(), obs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        const int first = index(obs.front().first);
        const int last = until ? std::min(last_month[name], index(*until) - 1) : last_month[name];
        if (last < first) continue;
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

namespace {

/// Fields of one CSV line (RFC 4180 quotes: "a,b" and "" inside quotes).
std::vector<std::string> csv_fields(const std::string& line) {
    std::vector<std::string> out(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') { out.back() += '"'; ++i; }
        else if (c == '"') quoted = !quoted;
        else if (c == ',' && !quoted) out.emplace_back();
        else if (c != '\r') out.back() += c;
    }
    return out;
}

ProcessFit fit_or_still(const std::vector<std::vector<double>>& series, const FitOptions& options) {
    std::size_t transitions = 0, count = 0;
    for (const auto& s : series) {
        if (s.size() >= 2) { transitions += s.size() - 1; ++count; }
    }
    if (transitions >= 8) return fit_log_price_process(series, options);
    ProcessFit still;
    still.transitions = transitions;
    still.series = count;
    still.standard_error = {nan, nan, nan, nan, nan, nan};
    return still;
}

}  // namespace

std::vector<PriceRecord> read_price_history_csv(const std::string& path) {
    std::ifstream in(path);
    require(bool(in), "path", path, "cannot be opened for reading");
    std::string line;
    std::getline(in, line);
    const std::vector<std::string> header = csv_fields(line);
    auto column = [&](std::string_view name) {
        const auto it = std::find(header.begin(), header.end(), name);
        require(it != header.end(), fmt::format("{}: header", path), line, fmt::format("must have a column {}", name));
        return std::size_t(it - header.begin());
    };
    const std::size_t date = column("date"), provider = column("provider"), region = column("region"),
                      instance = column("instance_type"), gpu = column("gpu"), option = column("option"),
                      price = column("usd_per_hour"), repo = column("source_repo"), file = column("source_path"),
                      commit = column("source_commit");
    std::vector<PriceRecord> out;
    for (int number = 2; std::getline(in, line); ++number) {
        if (line.empty() || line == "\r") continue;
        const std::vector<std::string> f = csv_fields(line);
        const std::string where = fmt::format("{}:{}", path, number);
        require(f.size() == header.size(), where, f.size(), fmt::format("must have {} columns", header.size()));
        PriceRecord r;
        r.observation.series = f[provider] + "/" + f[region] + "/" + f[instance];
        r.observation.date = Date::parse(f[date], where + ".date");
        double value = nan;
        std::istringstream(f[price]) >> value;
        r.observation.price = require_positive(where + ".usd_per_hour", value);
        r.gpu = f[gpu];
        r.option = f[option];
        require(r.option == "on_demand" || r.option == "spot" || r.option == "reserved_1y" || r.option == "reserved_3y",
                where + ".option", r.option, "must be on_demand, spot, reserved_1y or reserved_3y");
        r.source = f[repo] + " " + f[file] + " " + f[commit];
        out.push_back(std::move(r));
    }
    return out;
}

DynamicsFit fit_price_dynamics(const std::vector<PriceRecord>& records, std::string_view gpu, const FitOptions& options,
                               const std::optional<Date>& until) {
    std::map<std::string, std::vector<PriceObservation>> by_option;
    for (const PriceRecord& r : records) {
        if (r.gpu == gpu) by_option[r.option].push_back(r.observation);
    }
    auto monthly = [&](const std::string& option) { return monthly_log_series(by_option[option], until); };
    auto index = [](const Date& d) { return d.year * 12 + d.month - 1; };
    const std::vector<MonthlySeries> od = monthly("on_demand");
    std::vector<std::vector<double>> od_values;
    for (const auto& s : od) od_values.push_back(s.log_price);
    // log(option / on-demand) over the months both are known, and the paired monthly changes.
    auto spreads = [&](const std::string& option, std::vector<std::pair<double, double>>* changes) {
        std::vector<std::vector<double>> out;
        for (const MonthlySeries& s : monthly(option)) {
            const auto match = std::find_if(od.begin(), od.end(), [&](const MonthlySeries& o) { return o.name == s.name; });
            if (match == od.end()) continue;
            const int first = std::max(index(s.first_month), index(match->first_month));
            const int last = std::min(index(s.first_month) + int(s.log_price.size()),
                                      index(match->first_month) + int(match->log_price.size()));
            std::vector<double> spread;
            for (int m = first; m < last; ++m) {
                const double o = match->log_price[std::size_t(m - index(match->first_month))];
                spread.push_back(s.log_price[std::size_t(m - index(s.first_month))] - o);
                if (changes && m > first) {
                    const double o_prev = match->log_price[std::size_t(m - 1 - index(match->first_month))];
                    changes->emplace_back(o - o_prev, spread.back() - spread[spread.size() - 2]);
                }
            }
            if (!spread.empty()) out.push_back(std::move(spread));
        }
        return out;
    };
    DynamicsFit fit;
    std::vector<std::pair<double, double>> paired;
    // A list price whose κ ends at its upper bound with no standard error: not identified; held instead.
    auto list_price = [&](const std::vector<std::vector<double>>& series, const char* name) {
        ProcessFit f = fit_or_still(series, options);
        if (f.transitions >= 8 && f.process.reversion >= 0.999 * reversion_bound.hi && !options.fixed_reversion) {
            FitOptions held = options;
            held.fixed_reversion = 0.0;
            f = fit_log_price_process(series, held);
            fit.notes.push_back(fmt::format("{}: reversion not identified (the fit ends at its bound {}); fitted "
                                            "again with reversion = 0, a list price holding until changed",
                                            name, reversion_bound.hi));
        }
        return f;
    };
    fit.on_demand = list_price(od_values, "on_demand");
    fit.spot_spread = fit_or_still(spreads("spot", &paired), options);
    fit.reserved_1y_spread = list_price(spreads("reserved_1y", nullptr), "reserved_1y_spread");
    fit.reserved_3y_spread = list_price(spreads("reserved_3y", nullptr), "reserved_3y_spread");
    fit.dynamics.on_demand = fit.on_demand.process;
    fit.dynamics.spot_spread = fit.spot_spread.process;
    fit.dynamics.reserved_1y_spread = fit.reserved_1y_spread.process;
    fit.dynamics.reserved_3y_spread = fit.reserved_3y_spread.process;
    // Pearson correlation of paired monthly changes; its standard error (1 − ρ²)/√(n − 1).
    double sa = 0, sb = 0, saa = 0, sbb = 0, sab = 0;
    for (const auto& [a, b] : paired) { sa += a; sb += b; saa += a * a; sbb += b * b; sab += a * b; }
    const double n = double(paired.size());
    const double va = saa - sa * sa / std::max(n, 1.0), vb = sbb - sb * sb / std::max(n, 1.0);
    if (n >= 3 && va > 1e-12 && vb > 1e-12) {
        const double rho = std::clamp((sab - sa * sb / n) / std::sqrt(va * vb), -1.0, 1.0);
        fit.dynamics.spot_correlation = rho;
        fit.spot_correlation_standard_error = (1 - rho * rho) / std::sqrt(n - 1);
    }
    return fit;
}

std::vector<PriceDynamics> draw_dynamics(const DynamicsFit& fit, std::size_t count, std::uint64_t seed) {
    const std::vector<LogPriceProcess> od = draw_processes({fit.on_demand}, count, splitmix64(seed ^ 1)),
                                       spot = draw_processes({fit.spot_spread}, count, splitmix64(seed ^ 2)),
                                       one = draw_processes({fit.reserved_1y_spread}, count, splitmix64(seed ^ 3)),
                                       three = draw_processes({fit.reserved_3y_spread}, count, splitmix64(seed ^ 4));
    std::vector<PriceDynamics> out(count);
    for (std::size_t j = 0; j < count; ++j) {
        out[j].on_demand = od[j];
        out[j].spot_spread = spot[j];
        out[j].reserved_1y_spread = one[j];
        out[j].reserved_3y_spread = three[j];
        out[j].spot_correlation = fit.dynamics.spot_correlation;
    }
    if (count > 0) out[0].launches = fit.dynamics.launches;
    return out;
}

}  // namespace gputco
