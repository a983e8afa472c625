// Prices that move both ways (see price_dynamics.hpp): simulation.
#include "gputco/catalog/price_dynamics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <thread>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "lane_math.hpp"

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
    /// The next month with a jump (a large number when λ = 0).
    int next() const { return next_ < 0 ? 1'000'000 : next_; }
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

    // Futures run in blocks of `block` side by side, month by month, so that every step is an array
    // operation over the block. Block b's OU shocks come from one normal sequence seeded with (seed, b),
    // drawn whole even for a last block that is cut short: future f's numbers depend only on (seed, f).
    // Its jumps and launches come from its own stream (seed, f), as before.
    constexpr std::size_t block = 64;
    const std::size_t blocks = (futures + block - 1) / block;
    const Step* const parts[3] = {&od, &spot, &reserved};
    auto run = [&](std::size_t first_block, std::size_t last_block) {
        // Per block: the shocks (months × part × lane) and jumps (part × month × lane), the deviations,
        // and each part's log price (part × month × lane). Allocated once per thread.
        const std::size_t mb = std::size_t(months) * block;
        std::vector<double> shocks(3 * mb), jumps(3 * mb), logs(3 * mb);
        std::vector<std::size_t> jumped;
        Normal normal;
        for (std::size_t b = first_block; b < last_block; ++b) {
            const std::size_t first = b * block, lanes = std::min(block, futures - first);
            // The shocks: month m ≥ 1, part p (only parts with shock_sd > 0 draw), lane l, in that order.
            lane_math::ZigguratNormals normals(splitmix64(seed ^ splitmix64(b)) ^ 0x9E3779B97F4A7C15ULL);
            for (int m = 1; m < months; ++m) {
                for (std::size_t p = 0; p < 3; ++p) {
                    double* z = &shocks[(std::size_t(m) * 3 + p) * block];
                    if (parts[p]->active && parts[p]->shock_sd > 0) normals.fill(z, block);
                }
            }
            // Jumps, per future from its own stream: each part's months with a jump, in order (the same
            // draws as asking every month). Only the entries written are cleared afterwards.
            for (std::size_t l = 0; l < lanes; ++l) {
                Xoshiro256pp engine(splitmix64(seed ^ splitmix64(first + l)));
                normal.reset();
                JumpClock od_jumps(od, engine), spot_jumps(spot, engine), reserved_jumps(reserved, engine);
                JumpClock* clocks[3] = {&od_jumps, &spot_jumps, &reserved_jumps};
                for (int m = 1; m < months; ++m) {
                    for (std::size_t p = 0; p < 3; ++p) {
                        if (clocks[p]->next() != m) continue;
                        const double jump = clocks[p]->at(m, engine, normal);
                        if (!parts[p]->active) continue;
                        const std::size_t at = (p * std::size_t(months) + std::size_t(m)) * block + l;
                        jumps[at] = jump;
                        jumped.push_back(at);
                    }
                }
                // Launches last, from the same stream.
                for (std::size_t i = 0; i < d.launches.size(); ++i) {
                    const GenerationLaunch& g = d.launches[i];
                    const bool happens = boost::random::uniform_01<double>()(engine) < g.probability;
                    const int month = boost::random::uniform_int_distribution<int>(g.first_month, g.last_month)(engine);
                    if (happens) paths.launch_month(Eigen::Index(i), Eigen::Index(first + l)) = month;
                }
            }
            // The OU steps over the block's lanes: d ← φ d + sd z + J; x = g m + d. Spot's shock is
            // ρ z_od + √(1 − ρ²) z_spot.
            for (std::size_t p = 0; p < 3; ++p) {
                const Step& s = *parts[p];
                double* x = &logs[p * mb];
                if (!s.active) {
                    std::fill_n(x, mb, 0.0);
                    continue;
                }
                std::array<double, block> dev{};
                std::fill_n(x, block, 0.0);
                const bool shocked = s.shock_sd > 0;
                for (int m = 1; m < months; ++m) {
                    const double* z = &shocks[(std::size_t(m) * 3 + p) * block];
                    const double* z_od = &shocks[(std::size_t(m) * 3) * block];
                    const double* j = &jumps[(p * std::size_t(months) + std::size_t(m)) * block];
                    double* xm = x + std::size_t(m) * block;
                    const double level = s.drift * m;
                    const bool correlated = p == 1 && od.shock_sd > 0 && shocked;
                    for (std::size_t l = 0; l < block; ++l) {
                        const double shock = !shocked ? 0.0 : correlated ? rho * z_od[l] + rho_rest * z[l] : z[l];
                        dev[l] = s.phi * dev[l] + s.shock_sd * shock + j[l];
                        xm[l] = level + dev[l];
                    }
                }
            }
            for (std::size_t at : jumped) jumps[at] = 0;
            jumped.clear();
            // Factors: on-demand e^x_od, spot e^(x_od + x_spot), reserved e^(x_od + x_res), written into
            // the futures' columns, then one array exp over the block's columns.
            double* out[3] = {&paths.on_demand(0, Eigen::Index(first)), &paths.spot(0, Eigen::Index(first)),
                              &paths.reserved(0, Eigen::Index(first))};
            for (std::size_t l = 0; l < lanes; ++l) {
                for (int m = 0; m < months; ++m) {
                    const std::size_t at = std::size_t(m) * block + l;
                    const double x_od = logs[at];
                    out[0][l * std::size_t(months) + std::size_t(m)] = x_od;
                    out[1][l * std::size_t(months) + std::size_t(m)] = x_od + logs[mb + at];
                    out[2][l * std::size_t(months) + std::size_t(m)] = x_od + logs[2 * mb + at];
                }
            }
            for (double* o : out) lane_math::exp_inplace(o, lanes * std::size_t(months));
            // A launch multiplies the factors from its month on.
            for (std::size_t i = 0; i < d.launches.size(); ++i) {
                for (std::size_t l = 0; l < lanes; ++l) {
                    const int month = paths.launch_month(Eigen::Index(i), Eigen::Index(first + l));
                    if (month < 0) continue;
                    const GenerationLaunch& g = d.launches[i];
                    const double factors[3] = {g.on_demand_factor, g.spot_factor, g.reserved_factor};
                    for (std::size_t p = 0; p < 3; ++p) {
                        for (int m = month; m < months; ++m) out[p][l * std::size_t(months) + std::size_t(m)] *= factors[p];
                    }
                }
            }
        }
    };
    unsigned workers = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
    workers = unsigned(std::min<std::size_t>(workers, blocks));
    if (workers <= 1) {
        run(0, blocks);
    } else {
        std::vector<std::thread> pool;
        const std::size_t chunk = (blocks + workers - 1) / workers;
        for (unsigned w = 0; w < workers; ++w) {
            const std::size_t first = w * chunk, last = std::min(blocks, first + chunk);
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
