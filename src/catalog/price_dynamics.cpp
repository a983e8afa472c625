// Prices that move both ways (see price_dynamics.hpp): simulation.
#include "gputco/catalog/price_dynamics.hpp"

#include <algorithm>
#include <cmath>
#include <thread>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"

namespace gputco {
namespace {

/// A process's per-month constants, computed once: φ, the OU step's sd, e^(−λ).
struct Step {
    double phi = 1, shock_sd = 0, drift = 0, no_jump = 1, jump_rate = 0, jump_mean = 0, jump_sd = 0;
    bool active = false;

    explicit Step(const LogPriceProcess& p) {
        phi = std::exp(-p.reversion);
        // (1 − φ²) / (2κ) → 1 as κ → 0; expm1 keeps it exact for small κ.
        const double variance_per_sigma2 = p.reversion > 0 ? -std::expm1(-2 * p.reversion) / (2 * p.reversion) : 1.0;
        shock_sd = p.volatility * std::sqrt(variance_per_sigma2);
        drift = p.drift;
        jump_rate = p.jump_rate;
        no_jump = std::exp(-p.jump_rate);
        jump_mean = p.jump_mean;
        jump_sd = p.jump_sd;
        active = shock_sd > 0 || jump_rate > 0 || drift != 0;
    }
};

using Normal = boost::random::normal_distribution<double>;

/// A process's jumps, drawn by waiting times: the months between months with a jump are geometric
/// (P(no jump in a month) = e^(−λ)), and a month with a jump has a zero-truncated Poisson count. The
/// same law as a Poisson(λ) count every month, with one uniform per jump instead of one per month.
class JumpClock {
public:
    JumpClock(const Step& s, Xoshiro256pp& engine) : step_(&s) {
        if (s.jump_rate > 0) next_ = wait(engine);
    }
    /// The sum of month m's jumps (months are asked in order 1, 2, …).
    double at(int month, Xoshiro256pp& engine, Normal& normal) {
        if (month != next_) return 0;
        const Step& s = *step_;
        // Zero-truncated Poisson by inversion: P(n | n ≥ 1) = P(n) / (1 − e^(−λ)).
        const double u = uniform(engine) * (1 - s.no_jump);
        double p = s.no_jump * s.jump_rate, cdf = p, total = s.jump_mean + s.jump_sd * normal(engine);
        for (int n = 2; u > cdf && n < 64; ++n) {
            p *= s.jump_rate / n;
            cdf += p;
            total += s.jump_mean + s.jump_sd * normal(engine);
        }
        next_ += wait(engine);
        return total;
    }

private:
    static double uniform(Xoshiro256pp& engine) { return boost::random::uniform_01<double>()(engine); }
    /// Months to the next month with a jump, ≥ 1: 1 + ⌊ln(u) / ln(e^(−λ))⌋ with u in (0, 1].
    int wait(Xoshiro256pp& engine) const {
        const double u = 1 - uniform(engine);
        const double months = 1 + std::floor(std::log(u) / -step_->jump_rate);
        return months < 1e6 ? int(months) : 1'000'000;
    }
    const Step* step_;
    int next_ = -1;  // never, when λ = 0
};

/// One month of a process: deviation d = x − θ moves to φ d + sd z + jumps; returns the new x at month m.
inline double advance(const Step& s, double& deviation, int month, double z, JumpClock& clock, Xoshiro256pp& engine,
                      Normal& normal) {
    deviation = s.phi * deviation + s.shock_sd * z + clock.at(month, engine, normal);
    return s.drift * month + deviation;
}

}  // namespace

void validate(const LogPriceProcess& p, std::string_view field) {
    const std::string f(field);
    require_non_negative(f + ".reversion", p.reversion);
    require_non_negative(f + ".volatility", p.volatility);
    require_finite(f + ".drift", p.drift);
    require_non_negative(f + ".jump_rate", p.jump_rate);
    require(p.jump_rate <= 10, f + ".jump_rate", p.jump_rate, "must be <= 10 jumps a month");
    require_finite(f + ".jump_mean", p.jump_mean);
    require_non_negative(f + ".jump_sd", p.jump_sd);
}

Eigen::ArrayXXd simulate_log_prices(const LogPriceProcess& process, int months, std::size_t paths, std::uint64_t seed,
                                    double initial_deviation) {
    validate(process, "process");
    require(months >= 1, "months", months, "must be >= 1");
    require(paths >= 1, "paths", paths, "must be >= 1");
    require_finite("initial_deviation", initial_deviation);
    const Step step(process);
    Eigen::ArrayXXd out(months, Eigen::Index(paths));
    Normal normal;
    for (std::size_t j = 0; j < paths; ++j) {
        Xoshiro256pp engine(splitmix64(seed ^ splitmix64(j)));
        normal.reset();
        double deviation = initial_deviation;
        JumpClock clock(step, engine);
        out(0, Eigen::Index(j)) = deviation;
        for (int m = 1; m < months; ++m) {
            const double z = step.shock_sd > 0 ? normal(engine) : 0.0;
            out(m, Eigen::Index(j)) = advance(step, deviation, m, z, clock, engine, normal);
        }
    }
    return out;
}

PricePaths simulate_price_paths(const PriceDynamics& d, Horizon horizon, std::size_t futures, std::uint64_t seed,
                                int term_years, unsigned threads) {
    require(futures >= 1, "futures", futures, "must be >= 1");
    require(term_years == 1 || term_years == 3, "term_years", term_years, "must be 1 or 3");
    validate(d.on_demand, "price_dynamics.on_demand");
    validate(d.spot_spread, "price_dynamics.spot_spread");
    validate(d.reserved_1y_spread, "price_dynamics.reserved_1y_spread");
    validate(d.reserved_3y_spread, "price_dynamics.reserved_3y_spread");
    require(d.spot_correlation >= -1 && d.spot_correlation <= 1, "price_dynamics.spot_correlation", d.spot_correlation,
            "must be in [-1, 1]");
    // The launches' rules are price_paths()'s (one place): run it on them alone for one future, for its
    // checks; its messages name them price_model.launches[i].
    const int months = horizon.month_count();
    if (!d.launches.empty()) {
        PriceModel launches_only;
        launches_only.launches = d.launches;
        (void)price_paths(launches_only, horizon, 1, seed);
    }

    const Step od(d.on_demand), spot(d.spot_spread),
        reserved(term_years == 1 ? d.reserved_1y_spread : d.reserved_3y_spread);
    const double rho = d.spot_correlation, rho_rest = std::sqrt(std::max(0.0, 1 - rho * rho));
    PricePaths paths;
    const auto cols = Eigen::Index(futures);
    paths.on_demand.resize(months, cols);
    paths.spot.resize(months, cols);
    paths.reserved.resize(months, cols);
    paths.launch_month = Eigen::ArrayXXi::Constant(Eigen::Index(d.launches.size()), cols, -1);

    auto run = [&](std::size_t first, std::size_t last) {
        Normal normal;
        for (std::size_t f = first; f < last; ++f) {
            Xoshiro256pp engine(splitmix64(seed ^ splitmix64(f)));
            normal.reset();
            const auto c = Eigen::Index(f);
            double dev_od = 0, dev_spot = 0, dev_res = 0;
            double* o = &paths.on_demand(0, c);
            double* s = &paths.spot(0, c);
            double* r = &paths.reserved(0, c);
            // Log factors first; one vectorised exp per column at the end (exp dominates otherwise).
            o[0] = s[0] = r[0] = 0;
            JumpClock od_jumps(od, engine), spot_jumps(spot, engine), reserved_jumps(reserved, engine);
            for (int m = 1; m < months; ++m) {
                const double z_od = od.shock_sd > 0 ? normal(engine) : 0.0;
                const double x_od = od.active ? advance(od, dev_od, m, z_od, od_jumps, engine, normal) : 0.0;
                double x_spot = 0, x_res = 0;
                if (spot.active) {
                    const double z = spot.shock_sd > 0 ? rho * z_od + rho_rest * normal(engine) : 0.0;
                    x_spot = advance(spot, dev_spot, m, z, spot_jumps, engine, normal);
                }
                if (reserved.active) {
                    const double z = reserved.shock_sd > 0 ? normal(engine) : 0.0;
                    x_res = advance(reserved, dev_res, m, z, reserved_jumps, engine, normal);
                }
                o[m] = x_od;
                s[m] = x_od + x_spot;
                r[m] = x_od + x_res;
            }
            // Launches last, from the same stream: the draws above do not depend on them.
            for (std::size_t i = 0; i < d.launches.size(); ++i) {
                const GenerationLaunch& l = d.launches[i];
                const bool happens = boost::random::uniform_01<double>()(engine) < l.probability;
                const int month = boost::random::uniform_int_distribution<int>(l.first_month, l.last_month)(engine);
                if (!happens) continue;
                paths.launch_month(Eigen::Index(i), c) = month;
                const double lo = std::log(l.on_demand_factor), ls = std::log(l.spot_factor), lr = std::log(l.reserved_factor);
                for (int m = month; m < months; ++m) {
                    o[m] += lo;
                    s[m] += ls;
                    r[m] += lr;
                }
            }
        }
        const Eigen::Index first_col = Eigen::Index(first), count = Eigen::Index(last - first);
        for (Eigen::ArrayXXd* a : {&paths.on_demand, &paths.spot, &paths.reserved}) {
            a->middleCols(first_col, count) = a->middleCols(first_col, count).exp();
        }
    };
    unsigned workers = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
    workers = unsigned(std::min<std::size_t>(workers, futures));
    if (workers <= 1) {
        run(0, futures);
    } else {
        std::vector<std::thread> pool;
        const std::size_t chunk = (futures + workers - 1) / workers;
        for (unsigned w = 0; w < workers; ++w) {
            const std::size_t first = w * chunk, last = std::min(futures, first + chunk);
            if (first < last) pool.emplace_back(run, first, last);
        }
        for (auto& t : pool) t.join();
    }
    return paths;
}

double implied_forward_hourly(double one_year_hourly, double three_year_hourly) {
    require_positive("one_year_hourly", one_year_hourly);
    require_positive("three_year_hourly", three_year_hourly);
    return (3 * three_year_hourly - one_year_hourly) / 2;
}

}  // namespace gputco
