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

/// A process's jumps for simulate_log_prices (one path at a time), drawn by waiting times: the months between months with a jump are geometric
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
    for (; l0 + 8 <= lanes; l0 += 8) {
        for (std::size_t m0 = 0; m0 < n; m0 += 8) {
            // A last tile of fewer than 8 months reads zero rows and stores only its months.
            const std::size_t rows = std::min<std::size_t>(8, n - m0);
            const __mmask8 keep = __mmask8((1u << rows) - 1);
            __m512d r[8], t[8], u[8];
            for (std::size_t k = 0; k < 8; ++k) r[k] = k < rows ? _mm512_loadu_pd(from + (m0 + k) * block + l0) : _mm512_setzero_pd();
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
                _mm512_mask_storeu_pd(to + (l0 + c) * n + m0, keep, _mm512_permutex2var_pd(u[c], quads_lo, u[c + 4]));
                _mm512_mask_storeu_pd(to + (l0 + c + 4) * n + m0, keep, _mm512_permutex2var_pd(u[c], quads_hi, u[c + 4]));
            }
        }
    }
#endif
    for (std::size_t l = l0; l < lanes; ++l) {
        for (std::size_t m = 0; m < n; ++m) to[l * n + m] = from[m * block + l];
    }
}

/// The block's jumps of the parts in `parts` (each with its lanes' constants at steps[p × block]) for
/// months 1 … months − 1, to jumps[(p × months + m) × block + l], every entry written. Month m's count
/// N ~ Poisson(λ) by inversion of one uniform (N = #{k : u ≥ P(N ≤ k)}, at most 64), and the sum of
/// its N sizes ~ N(μ_J, s_J²) as one normal of that sum's law, N(N μ_J, N s_J²), taken in order only
/// where N ≥ 1: one uniform per month and lane, one normal per month with a jump. The uniforms (part by
/// part, then month, lane) and then the normals come from `stream`. Only comparisons, +, × and √ on
/// the values: every kernel gives the same bits.
struct JumpScratch {
    std::vector<double> uniforms, normals;
    /// Per part: P(N ≤ k) at cdf[p][k × block + l], k < terms[p]; `shared`: kept for every block.
    std::vector<double> cdf[4];
    std::size_t terms[4] = {0, 0, 0, 0};
    bool shared = false;
};

/// Part p's table (JumpScratch::cdf): per lane while adding P(N = k) still changes it (at most 64
/// terms); the entries after a lane's last are 2, which no uniform reaches. At least two rows, so
/// that the kernels compare k = 0 and 1 without a test.
inline void poisson_table(const Step* lane, std::vector<double>& cdf, std::size_t& terms) {
    constexpr std::size_t block = detail::price_block;
    std::size_t lane_terms[block];
    terms = 2;
    cdf.resize(64 * block);
    for (std::size_t l = 0; l < block; ++l) {
        std::size_t k = 0;
        if (l > 0 && lane[l].jump_rate == lane[l - 1].jump_rate) {  // the previous lane's column
            for (k = 0; k < lane_terms[l - 1]; ++k) cdf[k * block + l] = cdf[k * block + l - 1];
        } else {
            double p = lane[l].no_jump, sum = p;
            while (k < 64) {
                cdf[k++ * block + l] = sum;
                p *= lane[l].jump_rate / double(k);
                if (sum + p == sum) break;
                sum += p;
            }
        }
        lane_terms[l] = k;
        terms = std::max(terms, k);
    }
    for (std::size_t l = 0; l < block; ++l) {
        for (std::size_t k = lane_terms[l]; k < terms; ++k) cdf[k * block + l] = 2.0;
    }
}

inline void draw_jumps(const Step* steps, const std::size_t* parts, std::size_t part_count, int months,
                       lane_math::ZigguratNormals& stream, double* jumps, JumpScratch& scratch) {
    constexpr std::size_t block = detail::price_block, chunk = 64;
    const std::size_t row = std::size_t(months - 1) * block;  // one part's months 1 … months − 1
    if (part_count == 0 || row == 0) return;
    scratch.uniforms.resize(part_count * row);
    for (std::size_t i = 0; i < part_count; ++i) stream.uniforms(&scratch.uniforms[i * row], row);
    // The normals in chunks as they are used (the sequence is the same whatever the chunks).
    scratch.normals.resize(2 * chunk);
    std::size_t have = 0, next = 0;
    for (std::size_t i = 0; i < part_count; ++i) {
        const std::size_t part = parts[i];
        const Step* lane = steps + part * block;
        if (!scratch.shared || scratch.terms[part] == 0) poisson_table(lane, scratch.cdf[part], scratch.terms[part]);
        const double* cdf = scratch.cdf[part].data();
        const std::size_t terms = scratch.terms[part];
        alignas(64) double mean[block], sd[block];
        for (std::size_t l = 0; l < block; ++l) mean[l] = lane[l].jump_mean, sd[l] = lane[l].jump_sd;
        const double* u = &scratch.uniforms[i * row];
        double* out = jumps + (part * std::size_t(months) + 1) * block;
        for (std::size_t at = 0; at < row; at += block) {
            if (have - next < block) {  // enough normals for this month's lanes
                std::copy(scratch.normals.begin() + std::ptrdiff_t(next), scratch.normals.begin() + std::ptrdiff_t(have),
                          scratch.normals.begin());
                have -= next;
                next = 0;
                stream.fill(&scratch.normals[have], chunk);
                have += chunk;
            }
            const double* z = &scratch.normals[next];
            std::size_t l = 0;
#ifdef __AVX512F__
            // The loop below, eight lanes at a time, without unpredictable branches: P(N ≤ 0) and
            // P(N ≤ 1) are always compared, the rest only while some lane reaches them (rare).
            for (; l < block; l += 8) {
                const __m512d ul = _mm512_loadu_pd(u + at + l), one = _mm512_set1_pd(1.0);
                const __mmask8 jumped = _mm512_cmp_pd_mask(ul, _mm512_loadu_pd(cdf + l), _CMP_GE_OQ);
                __mmask8 reached = _mm512_cmp_pd_mask(ul, _mm512_loadu_pd(cdf + block + l), _CMP_GE_OQ);
                __m512d count = _mm512_mask_add_pd(_mm512_maskz_mov_pd(jumped, one), reached, _mm512_maskz_mov_pd(jumped, one), one);
                for (std::size_t k = 2; reached != 0 && k < terms; ++k) {
                    reached = _mm512_cmp_pd_mask(ul, _mm512_loadu_pd(cdf + k * block + l), _CMP_GE_OQ);
                    count = _mm512_mask_add_pd(count, reached, count, one);
                }
                // (The register form of the expand: Zen 4 microcodes the one from memory.)
                const __m512d zl = _mm512_maskz_expand_pd(jumped, _mm512_loadu_pd(z));
                z += std::popcount(unsigned(jumped));
                // √N = N for N ≤ 1; the slow √ only when a lane has two jumps in a month.
                const __mmask8 several = _mm512_cmp_pd_mask(count, _mm512_set1_pd(1.0), _CMP_GT_OQ);
                const __m512d root = several == 0 ? count : _mm512_mask_sqrt_pd(count, several, count);
                const __m512d size = _mm512_add_pd(_mm512_mul_pd(count, _mm512_loadu_pd(mean + l)),
                                                   _mm512_mul_pd(_mm512_mul_pd(_mm512_loadu_pd(sd + l), root), zl));
                _mm512_storeu_pd(out + at + l, _mm512_maskz_mov_pd(jumped, size));
            }
#endif
            if (l < block) {  // (only without AVX-512: then l = 0; the loops below assume it)
                // Counts as array loops the compiler vectorises (k ≥ 2 only when a lane reaches k = 1),
                // then the normals in order.
                const double* ul = u + at;
                alignas(64) double count[block];
                std::uint64_t several = 0;
                for (std::size_t j = 0; j < block; ++j) {
                    count[j] = (ul[j] >= cdf[j] ? 1.0 : 0.0) + (ul[j] >= cdf[block + j] ? 1.0 : 0.0);
                    several |= std::uint64_t(count[j] > 1);
                }
                for (std::size_t k = 2; several && k < terms; ++k) {
                    for (std::size_t j = 0; j < block; ++j) count[j] += ul[j] >= cdf[k * block + j] ? 1.0 : 0.0;
                }
                // The lanes that jump (about 1 in 13 at λ = 0.08) through a bit mask, in order.
                std::uint64_t jumped = 0;
                for (std::size_t j = 0; j < block; ++j) {
                    out[at + j] = 0.0;
                    jumped |= std::uint64_t(count[j] > 0) << j;
                }
                for (; jumped != 0; jumped &= jumped - 1) {
                    const std::size_t j = std::size_t(std::countr_zero(jumped));
                    const double root = count[j] > 1 ? std::sqrt(count[j]) : count[j];
                    out[at + j] = count[j] * mean[j] + (sd[j] * root) * *z++;
                }
            }
            next = std::size_t(z - scratch.normals.data());
        }
    }
}

#ifdef __AVX512F__
/// to[0, count) = from[0, count), with streaming stores from the first 64-byte boundary of `to` on.
inline void stream_out(const double* from, double* to, std::size_t count) {
    std::size_t i = 0;
    for (; i < count && reinterpret_cast<std::uintptr_t>(to + i) % 64 != 0; ++i) to[i] = from[i];
    for (; i + 8 <= count; i += 8) _mm512_stream_pd(to + i, _mm512_loadu_pd(from + i));
    std::copy(from + i, from + count, to + i);
}
#endif

// Futures run in blocks of `block` side by side, month by month, so that every step is an array
// operation over the block. Block b's OU shocks come from one normal sequence seeded with (seed, b),
// drawn whole even for a last block that is cut short: future f's numbers depend only on (seed, f).
// Its jumps come from one sequence per part seeded with (seed, b, part) (draw_jumps), its launches
// from its own stream (seed, f).
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
    // The 3-year spread's come from a stream of their own (shocks_3y; jumps: every part has its own),
    // so drawing both terms leaves the other factors' numbers as they are.
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
    JumpScratch jump_scratch;
    jump_scratch.shared = !own_sets;  // one Poisson table per part for every block
#ifdef __AVX512F__
    std::vector<double> columns(mb);  // one part's factors in the futures' columns, before they are streamed out
#endif
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
        // Jumps: each part from a stream of its own (seed, b, part), so that a part drawing or not leaves
        // the others' numbers as they are; only parts with a jump rate draw (with per-future sets every
        // part does: the sequence must not depend on the futures' parameters).
        for (std::size_t p = 0; p < (both_terms ? 4 : 3); ++p) {
            if (!own_sets && !(parts[p]->jump_rate > 0)) continue;
            constexpr std::uint64_t part_keys[part_count] = {0x1F83D9ABFB41BD6BULL, 0x9B05688C2B3E6C1FULL, 0x510E527FADE682D1ULL,
                                                             0x5BE0CD19137E2179ULL};
            lane_math::ZigguratNormals stream(splitmix64(seed ^ splitmix64(b)) ^ part_keys[p]);
            const std::size_t part[1] = {p};
            draw_jumps(lane_step.data(), part, 1, months, stream, jumps.data(), jump_scratch);
        }
        // Launches from future f's own stream (seed, f).
        for (std::size_t l = 0; l < lanes && !d.launches.empty(); ++l) {
            Xoshiro256pp engine(splitmix64(seed ^ splitmix64(first + l)));
            for (std::size_t i = 0; i < d.launches.size(); ++i) {
                const GenerationLaunch& g = d.launches[i];
                const bool happens = boost::random::uniform_01<double>()(engine) < g.probability;
                const int month = boost::random::uniform_int_distribution<int>(g.first_month, g.last_month)(engine);
                if (happens) paths.launch_month(Eigen::Index(i), Eigen::Index(first + l)) = month;
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
        // Factors: on-demand e^x_od, spot e^(x_od + x_spot), reserved e^(x_od + x_res). The exp runs on
        // the block's own buffer (in cache), the factors go to the futures' columns in a second buffer
        // in cache (the transpose's strided stores stay there), launches multiply them there, and the
        // part's columns, contiguous in the output, are written once with stores that bypass the cache
        // (the output is not read back: no read for ownership of its 8.6 MB per 10,000 futures).
        double* out[part_count] = {&paths.on_demand(0, Eigen::Index(first)), &paths.spot(0, Eigen::Index(first)),
                                   &paths.reserved(0, Eigen::Index(first)),
                                   both_terms ? &paths.reserved_3y(0, Eigen::Index(first)) : nullptr};
        // A spread with no dynamics leaves its factor equal to on-demand's (e^(x + 0) = e^x): copied, not
        // recomputed.
        const std::size_t n = std::size_t(months);
        for (std::size_t p = 0; p < used; ++p) {
            const std::size_t from_part = active[p] || p == 0 ? p : 0;
            if (from_part == p) lane_math::exp_inplace(&logs[p * mb], mb);
#ifdef __AVX512F__
            double* const target = columns.data();
#else
            double* const target = out[p];  // (without streaming stores a second copy costs more than it saves)
#endif
            to_futures(&logs[from_part * mb], target, lanes, n);
            // A launch multiplies the factors from its month on.
            for (std::size_t i = 0; i < d.launches.size(); ++i) {
                const GenerationLaunch& g = d.launches[i];
                const double factor = p == 0 ? g.on_demand_factor : p == 1 ? g.spot_factor : g.reserved_factor;
                for (std::size_t l = 0; l < lanes; ++l) {
                    const int month = paths.launch_month(Eigen::Index(i), Eigen::Index(first + l));
                    for (int m = std::max(month, 0); month >= 0 && m < months; ++m) target[l * n + std::size_t(m)] *= factor;
                }
            }
#ifdef __AVX512F__
            stream_out(columns.data(), out[p], lanes * n);
#endif
        }
    }
#ifdef __AVX512F__
    _mm_sfence();  // the streaming stores before anything the caller does next
#endif
}

}  // namespace

namespace detail {
/// simulate_blocks compiled for AVX2 (price_blocks_avx2.cpp); only on x86-64 builds.
void simulate_price_blocks_avx2(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block);
/// simulate_blocks compiled for AVX-512 (price_blocks_avx512.cpp); only on x86-64 builds.
void simulate_price_blocks_avx512(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block);
}  // namespace detail

}  // namespace gputco
