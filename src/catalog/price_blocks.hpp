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

#ifdef __AVX512F__
#include <immintrin.h>
#endif

#include "gputco/catalog/price_dynamics.hpp"
#include "gputco/core/random.hpp"
#include "lane_math.hpp"

namespace gputco {
namespace detail {


/// A process's per-month constants, computed once: φ, the OU step's sd, e^(−λ).
struct Step {
    double phi = 1, shock_sd = 0, drift = 0, no_jump = 1, jump_rate = 0, jump_mean = 0, jump_sd = 0;
    bool active = false;

    Step() = default;
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
    const Step* reserved_3y;  ///< the 3-year spread when both terms are drawn (paths->reserved_3y), else null
    /// Futures with parameter sets of their own (future f: (*per_future)[f mod size]), else null: then
    /// od, spot, reserved, reserved_3y and rho are every future's. Per-future, every part draws its
    /// shocks (a block's sequence must not depend on its futures' parameters).
    const std::vector<PriceDynamics>* per_future = nullptr;
    int term_years = 1;
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


/// The block's month-major values (month m, lane l at from[m × price_block + l]) to the futures'
/// columns (lane l's n months at to[l × n]). Only moves: every copy gives the same bits.
inline void to_futures(const double* from, double* to, std::size_t lanes, std::size_t n) {
    constexpr std::size_t block = detail::price_block;
    std::size_t l0 = 0;
#ifdef __AVX512F__
    // 8 × 8 tiles transposed in registers (the scalar loop below spends a load and a store per value).
    const __m512i evens = _mm512_setr_epi64(0, 8, 2, 10, 4, 12, 6, 14), odds = _mm512_setr_epi64(1, 9, 3, 11, 5, 13, 7, 15);
    const __m512i pairs_lo = _mm512_setr_epi64(0, 1, 8, 9, 4, 5, 12, 13), pairs_hi = _mm512_setr_epi64(2, 3, 10, 11, 6, 7, 14, 15);
    const __m512i quads_lo = _mm512_setr_epi64(0, 1, 2, 3, 8, 9, 10, 11), quads_hi = _mm512_setr_epi64(4, 5, 6, 7, 12, 13, 14, 15);
    const std::size_t tiled_months = n / 8 * 8;
    for (; l0 + 8 <= lanes; l0 += 8) {
        for (std::size_t m0 = 0; m0 < tiled_months; m0 += 8) {
            __m512d r[8], t[8], u[8];
            for (std::size_t k = 0; k < 8; ++k) r[k] = _mm512_loadu_pd(from + (m0 + k) * block + l0);
            for (std::size_t k = 0; k < 8; k += 2) {
                t[k] = _mm512_permutex2var_pd(r[k], evens, r[k + 1]);     // r_k[0] r_k+1[0] r_k[2] r_k+1[2] …
                t[k + 1] = _mm512_permutex2var_pd(r[k], odds, r[k + 1]);  // r_k[1] r_k+1[1] r_k[3] r_k+1[3] …
            }
            for (std::size_t k = 0; k < 8; k += 4) {
                for (std::size_t odd = 0; odd < 2; ++odd) {
                    u[k + odd] = _mm512_permutex2var_pd(t[k + odd], pairs_lo, t[k + 2 + odd]);      // columns 0/1, 4/5
                    u[k + 2 + odd] = _mm512_permutex2var_pd(t[k + odd], pairs_hi, t[k + 2 + odd]);  // columns 2/3, 6/7
                }
            }
            // u[0]: column 0 (rows 0–3) and 4; u[1]: 1 and 5; u[2]: 2 and 6; u[3]: 3 and 7; u[4…7] rows 4–7.
            for (std::size_t c = 0; c < 4; ++c) {
                _mm512_storeu_pd(to + (l0 + c) * n + m0, _mm512_permutex2var_pd(u[c], quads_lo, u[c + 4]));
                _mm512_storeu_pd(to + (l0 + c + 4) * n + m0, _mm512_permutex2var_pd(u[c], quads_hi, u[c + 4]));
            }
        }
        for (std::size_t l = l0; l < l0 + 8; ++l) {
            for (std::size_t m = tiled_months; m < n; ++m) to[l * n + m] = from[m * block + l];
        }
    }
#endif
    for (std::size_t l = l0; l < lanes; ++l) {
        for (std::size_t m = 0; m < n; ++m) to[l * n + m] = from[m * block + l];
    }
}

// Futures run in blocks of `block` side by side, month by month, so that every step is an array
// operation over the block. Block b's OU shocks come from one normal sequence seeded with (seed, b),
// drawn whole even for a last block that is cut short: future f's numbers depend only on (seed, f).
// Its jumps and launches come from its own stream (seed, f), as before.
/// Blocks [first_block, last_block) of `job` into job.paths.
inline void simulate_blocks(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block) {
    constexpr std::size_t block = detail::price_block;
    const PriceDynamics& d = job.per_future ? job.per_future->front() : *job.dynamics;  // its launches
    const Step &od = *job.od, &spot = *job.spot, &reserved = *job.reserved;
    // The 3-year spread is a fourth part only when both terms are drawn; otherwise a still part that
    // draws nothing (so the other parts' numbers are those of three parts, bit for bit).
    const Step still{LogPriceProcess{}};
    const bool both_terms = job.reserved_3y != nullptr;
    const Step& reserved_3y = both_terms ? *job.reserved_3y : still;
    constexpr std::size_t part_count = 4;
    const double rho = job.rho, rho_rest = job.rho_rest;
    const int months = job.months;
    const std::size_t futures = job.futures;
    const std::uint64_t seed = job.seed;
    PricePaths& paths = *job.paths;
    const Step* const parts[part_count] = {&od, &spot, &reserved, &reserved_3y};
    // Per block: the shocks (months × part × lane) and jumps (part × month × lane), the deviations,
    // and each part's log price (part × month × lane). Allocated once per thread.
    const std::size_t mb = std::size_t(months) * block;
    std::vector<double> shocks(part_count * mb), jumps(part_count * mb), logs(part_count * mb);
    // Month m's shocks of part p < 3 start at shock_at(m, p): the parts that draw, in order, per month.
    // The 3-year spread's come from streams of their own (shocks_3y, and its own jump stream per
    // future), so drawing both terms leaves the other factors' numbers as they are.
    const bool own_sets = job.per_future != nullptr;
    bool active[part_count], draws[part_count];
    for (std::size_t p = 0; p < part_count; ++p) {
        active[p] = own_sets ? p < 3 || both_terms : parts[p]->active;
        draws[p] = own_sets ? active[p] : parts[p]->active && parts[p]->shock_sd > 0;
    }
    std::size_t drawing = 0, rank[part_count] = {0, 0, 0, 0};
    for (std::size_t p = 0; p < 3; ++p) {
        if (draws[p]) rank[p] = drawing++;
    }
    std::vector<double> shocks_3y(draws[3] ? mb : 0);
    const std::array<double, block> no_shock{};
    auto shock_at = [&](int m, std::size_t p) -> const double* {
        if (!draws[p]) return no_shock.data();
        if (p == 3) return &shocks_3y[(std::size_t(m) - 1) * block];
        return &shocks[((std::size_t(m) - 1) * drawing + rank[p]) * block];
    };
    std::vector<std::size_t> jumped;
    Normal normal;
    // Each lane's constants: every future's own with per-future sets, else the shared ones.
    std::vector<Step> lane_step(part_count * block);
    std::array<double, block> lane_rho{}, lane_rho_rest{};
    auto component = [&](const PriceDynamics& x, std::size_t p) -> const LogPriceProcess& {
        if (p == 0) return x.on_demand;
        if (p == 1) return x.spot_spread;
        if (p == 2) return job.term_years == 3 ? x.reserved_3y_spread : x.reserved_1y_spread;
        return x.reserved_3y_spread;
    };
    if (!own_sets) {
        for (std::size_t p = 0; p < part_count; ++p) std::fill_n(&lane_step[p * block], block, *parts[p]);
        lane_rho.fill(rho);
        lane_rho_rest.fill(rho_rest);
    }
    for (std::size_t b = first_block; b < last_block; ++b) {
        const std::size_t first = b * block, lanes = std::min(block, futures - first);
        if (own_sets) {
            for (std::size_t l = 0; l < block; ++l) {
                const PriceDynamics& x = (*job.per_future)[(first + l) % job.per_future->size()];
                for (std::size_t p = 0; p < part_count; ++p) lane_step[p * block + l] = Step(component(x, p));
                lane_rho[l] = x.spot_correlation;
                lane_rho_rest[l] = std::sqrt(std::max(0.0, 1 - x.spot_correlation * x.spot_correlation));
            }
        }
        // The shocks: month m ≥ 1, part p (only parts with shock_sd > 0 draw), lane l, in that order,
        // packed (no gaps for parts that do not draw), so one call draws them all.
        lane_math::ZigguratNormals normals(splitmix64(seed ^ splitmix64(b)) ^ 0x9E3779B97F4A7C15ULL);
        normals.fill(shocks.data(), std::size_t(months - 1) * drawing * block);
        if (!shocks_3y.empty()) {
            lane_math::ZigguratNormals normals_3y(splitmix64(seed ^ splitmix64(b)) ^ 0x3C6EF372FE94F82BULL);
            normals_3y.fill(shocks_3y.data(), std::size_t(months - 1) * block);
        }
        // Jumps, per future from its own stream: each part's months with a jump, in order (the same
        // draws as asking every month). Only the entries written are cleared afterwards.
        for (std::size_t l = 0; l < lanes; ++l) {
            Xoshiro256pp engine(splitmix64(seed ^ splitmix64(first + l)));
            normal.reset();
            JumpClock od_jumps(lane_step[l], engine), spot_jumps(lane_step[block + l], engine),
                reserved_jumps(lane_step[2 * block + l], engine);
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
            // The 3-year spread's jumps, from the future's stream of its own.
            const Step& step_3y = lane_step[3 * block + l];
            if (step_3y.jump_rate > 0) {
                Xoshiro256pp own(splitmix64(seed ^ splitmix64(first + l)) ^ 0xA54FF53A5F1D36F1ULL);
                normal.reset();
                JumpClock clock(step_3y, own);
                for (int m = clock.next(); m < months; m = clock.next()) {
                    const std::size_t at = (3 * std::size_t(months) + std::size_t(m)) * block + l;
                    jumps[at] = clock.at(m, own, normal);
                    jumped.push_back(at);
                }
            }
        }
        // The OU steps over the block's lanes: d ← φ d + sd z + J; x = g m + d. Spot's shock is
        // ρ z_od + √(1 − ρ²) z_spot.
        const std::size_t used = both_terms ? 4 : 3;  // parts with an output
        for (std::size_t p = 0; p < used; ++p) {
            const Step& s = *parts[p];
            double* x = &logs[p * mb];
            if (!active[p]) {
                std::fill_n(x, mb, 0.0);
                continue;
            }
            std::array<double, block> dev{}, phi{}, sd{}, drift{}, own{}, with_od{};
            for (std::size_t l = 0; l < block; ++l) {
                const Step& t = lane_step[p * block + l];
                phi[l] = t.phi, sd[l] = t.shock_sd, drift[l] = t.drift;
            }
            std::fill_n(x, block, 0.0);
            // Spot's shock is ρ z_od + √(1 − ρ²) z_spot (z_od = 0 when on-demand has no shock).
            const bool correlated = p == 1 && (own_sets || s.shock_sd > 0);
            for (std::size_t l = 0; l < block; ++l) {
                own[l] = correlated ? lane_rho_rest[l] : 1.0;
                with_od[l] = draws[0] ? lane_rho[l] : 0.0;
            }
            for (int m = 1; m < months; ++m) {
                const double* z = shock_at(m, p);
                const double* z_od = shock_at(m, 0);
                const double* j = &jumps[(p * std::size_t(months) + std::size_t(m)) * block];
                double* xm = x + std::size_t(m) * block;
                const double month = m;
                if (!draws[p]) {
                    for (std::size_t l = 0; l < block; ++l) dev[l] = phi[l] * dev[l] + j[l];
                } else if (correlated) {
                    for (std::size_t l = 0; l < block; ++l)
                        dev[l] = phi[l] * dev[l] + sd[l] * (with_od[l] * z_od[l] + own[l] * z[l]) + j[l];
                } else {
                    for (std::size_t l = 0; l < block; ++l) dev[l] = phi[l] * dev[l] + sd[l] * z[l] + j[l];
                }
                if (p == 0) {
                    for (std::size_t l = 0; l < block; ++l) xm[l] = drift[l] * month + dev[l];
                } else {  // a spread: its factor's exponent is x_od + x_spread, added here (no second pass)
                    const double* x_od = &logs[std::size_t(m) * block];
                    for (std::size_t l = 0; l < block; ++l) xm[l] = (drift[l] * month + dev[l]) + x_od[l];
                }
            }
        }
        for (std::size_t at : jumped) jumps[at] = 0;
        jumped.clear();
        // Factors: on-demand e^x_od, spot e^(x_od + x_spot), reserved e^(x_od + x_res). The exp runs on
        // the block's own buffer (in cache), and the factors go to the futures' columns in one pass, so
        // the output is written once and never read back.
        double* out[part_count] = {&paths.on_demand(0, Eigen::Index(first)), &paths.spot(0, Eigen::Index(first)),
                                   &paths.reserved(0, Eigen::Index(first)),
                                   both_terms ? &paths.reserved_3y(0, Eigen::Index(first)) : nullptr};
        // A spread with no dynamics leaves its factor equal to on-demand's (e^(x + 0) = e^x): copied, not
        // recomputed.
        const std::size_t n = std::size_t(months);
        for (std::size_t p = 0; p < used; ++p) {
            const std::size_t from_part = active[p] || p == 0 ? p : 0;
            if (from_part == p) lane_math::exp_inplace(&logs[p * mb], mb);
            to_futures(&logs[from_part * mb], out[p], lanes, n);
        }
        // A launch multiplies the factors from its month on.
        for (std::size_t i = 0; i < d.launches.size(); ++i) {
            for (std::size_t l = 0; l < lanes; ++l) {
                const int month = paths.launch_month(Eigen::Index(i), Eigen::Index(first + l));
                if (month < 0) continue;
                const GenerationLaunch& g = d.launches[i];
                const double factors[part_count] = {g.on_demand_factor, g.spot_factor, g.reserved_factor, g.reserved_factor};
                for (std::size_t p = 0; p < used; ++p) {
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
/// simulate_blocks compiled for AVX-512 (price_blocks_avx512.cpp); only on x86-64 builds.
void simulate_price_blocks_avx512(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block);
}  // namespace detail

}  // namespace gputco
