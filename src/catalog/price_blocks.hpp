#pragma once
// The price model's simulation of a range of blocks of futures (price_dynamics.cpp), in a header so
// that price_blocks_avx2.cpp compiles the same code for AVX2. Everything here has internal linkage:
// each file gets its own copy for its own instruction set. The arithmetic is IEEE-exact operations
// only (lane_math.hpp) and the library has no fused multiply-add, so both copies give the same bits.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_01.hpp>
#include <boost/random/uniform_int_distribution.hpp>

#include "gputco/catalog/price_dynamics.hpp"
#include "gputco/core/random.hpp"
#include "lane_math.hpp"

namespace gputco {
namespace detail {


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

constexpr std::size_t price_block = 64;  // futures per block

/// What simulate_blocks needs of simulate_price_paths' call.
struct PriceBlockJob {
    const PriceDynamics* dynamics;
    const Step *od, *spot, *reserved;
    double rho, rho_rest;
    int months;
    std::size_t futures;
    std::uint64_t seed;
    PricePaths* paths;
};

}  // namespace detail

namespace {

using detail::Step;
using detail::PriceBlockJob;
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


// Futures run in blocks of `block` side by side, month by month, so that every step is an array
// operation over the block. Block b's OU shocks come from one normal sequence seeded with (seed, b),
// drawn whole even for a last block that is cut short: future f's numbers depend only on (seed, f).
// Its jumps and launches come from its own stream (seed, f), as before.
/// Blocks [first_block, last_block) of `job` into job.paths.
inline void simulate_blocks(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block) {
    constexpr std::size_t block = detail::price_block;
    const PriceDynamics& d = *job.dynamics;
    const Step &od = *job.od, &spot = *job.spot, &reserved = *job.reserved;
    const double rho = job.rho, rho_rest = job.rho_rest;
    const int months = job.months;
    const std::size_t futures = job.futures;
    const std::uint64_t seed = job.seed;
    PricePaths& paths = *job.paths;
    const Step* const parts[3] = {&od, &spot, &reserved};
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
            for (;;) {
                const int m = std::min({od_jumps.next(), spot_jumps.next(), reserved_jumps.next()});
                if (m >= months) break;
                for (std::size_t p = 0; p < 3; ++p) {
                    if (clocks[p]->next() != m) continue;
                    const std::size_t at = (p * std::size_t(months) + std::size_t(m)) * block + l;
                    jumps[at] = clocks[p]->at(m, engine, normal);
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
            // Spot's shock is ρ z_od + √(1 − ρ²) z_spot (z_od = 0 when on-demand has no shock).
            const bool correlated = p == 1 && s.shock_sd > 0;
            const double own = correlated ? rho_rest : 1.0, with_od = od.shock_sd > 0 ? rho : 0.0;
            for (int m = 1; m < months; ++m) {
                const double* z = &shocks[(std::size_t(m) * 3 + p) * block];
                const double* z_od = &shocks[(std::size_t(m) * 3) * block];
                const double* j = &jumps[(p * std::size_t(months) + std::size_t(m)) * block];
                double* xm = x + std::size_t(m) * block;
                const double level = s.drift * m, phi = s.phi, sd = s.shock_sd;
                if (s.shock_sd == 0) {
                    for (std::size_t l = 0; l < block; ++l) dev[l] = phi * dev[l] + j[l];
                } else if (correlated) {
                    for (std::size_t l = 0; l < block; ++l) dev[l] = phi * dev[l] + sd * (with_od * z_od[l] + own * z[l]) + j[l];
                } else {
                    for (std::size_t l = 0; l < block; ++l) dev[l] = phi * dev[l] + sd * z[l] + j[l];
                }
                for (std::size_t l = 0; l < block; ++l) xm[l] = level + dev[l];
            }
        }
        for (std::size_t at : jumped) jumps[at] = 0;
        jumped.clear();
        // Factors: on-demand e^x_od, spot e^(x_od + x_spot), reserved e^(x_od + x_res), written into
        // the futures' columns, then one array exp over the block's columns.
        double* out[3] = {&paths.on_demand(0, Eigen::Index(first)), &paths.spot(0, Eigen::Index(first)),
                          &paths.reserved(0, Eigen::Index(first))};
        // A spread with no dynamics leaves its factor equal to on-demand's (e^(x + 0) = e^x): copied, not
        // recomputed.
        const std::size_t n = std::size_t(months), count = lanes * n;
        for (std::size_t p = 0; p < 3; ++p) {
            if (p > 0 && !parts[p]->active) continue;
            if (p > 0) {
                for (std::size_t at = 0; at < mb; ++at) logs[p * mb + at] += logs[at];
            }
            const double* from = &logs[p * mb];
            for (std::size_t l = 0; l < lanes; ++l) {
                double* to = out[p] + l * n;
                for (std::size_t m = 0; m < n; ++m) to[m] = from[m * block + l];
            }
            lane_math::exp_inplace(out[p], count);
        }
        for (std::size_t p = 1; p < 3; ++p) {
            if (!parts[p]->active) std::copy_n(out[0], count, out[p]);
        }
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
}

}  // namespace

namespace detail {
/// simulate_blocks compiled for AVX2 (price_blocks_avx2.cpp); only on x86-64 builds.
void simulate_price_blocks_avx2(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block);
}  // namespace detail

}  // namespace gputco
