#pragma once
// Array kernels for the price model (price_blocks.hpp): exp over an array and standard normals drawn
// in blocks, written as plain loops the compiler vectorises. The vectorised loops use only +, −, ×,
// comparisons, table loads and bit moves, each exact or rounded once by IEEE 754; with the library's
// -ffp-contract=off (no fused multiply–add), a SIMD lane and the scalar loop give the same bits, so the
// results do not depend on the instruction set or on where a loop's vector part ends. The ziggurat's
// rare slow path and its table call the C library's exp, log and √ in scalar code, the same calls in
// every build. (The files that include this are compiled with -fno-math-errno -fno-trapping-math,
// which let GCC turn the selects into SIMD code; neither changes a result.)
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gputco/core/random.hpp"

#if defined(__AVX512F__) || defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace gputco {
namespace {  // internal linkage: each including file compiles its own copy for its instruction set
namespace lane_math {

/// 2^(j/16) for j = 0 … 15, each correctly rounded (exp_inplace's table).
alignas(64) constexpr double exp2_sixteenths[16] = {
    0x1.0000000000000p+0, 0x1.0b5586cf9890fp+0, 0x1.172b83c7d517bp+0, 0x1.2387a6e756238p+0,
    0x1.306fe0a31b715p+0, 0x1.3dea64c123422p+0, 0x1.4bfdad5362a27p+0, 0x1.5ab07dd485429p+0,
    0x1.6a09e667f3bcdp+0, 0x1.7a11473eb0187p+0, 0x1.8ace5422aa0dbp+0, 0x1.9c49182a3f090p+0,
    0x1.ae89f995ad3adp+0, 0x1.c199bdd85529cp+0, 0x1.d5818dcfba487p+0, 0x1.ea4afa2a490dap+0};

/// x[i] = e^x[i] for i < n, within about 1 ulp of the correctly rounded value: a = (16 e + j) ln 2 / 16
/// + r with |r| ≤ ln 2 / 32 (Cody–Waite), e^a = 2^e · 2^(j/16) · e^r, the 16 values 2^(j/16) from a
/// table and e^r − 1 by its degree-7 Taylor polynomial (truncation below 2^-59 on that range: six
/// coefficients instead of the twelve a reduction to |r| ≤ ln 2 / 2 needs). Arguments are clamped to
/// [−700, 700] (factors of e^±700 ≈ 10^±304); e^0 = 1 exactly.
inline void exp_inplace(double* x, std::size_t n) {
    constexpr double shifter = 0x1.8p52, inv_ln2_16 = 0x1.71547652b82fep4;  // 16 / ln 2
    // ln 2 / 16 in two parts, the first with 32 significant bits: k × hi is exact for |k| < 2^21.
    constexpr double hi = 0x1.62e42fee00000p-5, lo = 0x1.a39ef35793c76p-37;
    constexpr double c2 = 1.0 / 2, c3 = 1.0 / 6, c4 = 1.0 / 24, c5 = 1.0 / 120, c6 = 1.0 / 720, c7 = 1.0 / 5040;
    std::size_t i = 0;
#ifdef __AVX512F__
    // The loop below eight at a time, the table held in two registers (one permute per look-up instead
    // of a gather); the same operations in the same order, so the same bits.
    const __m512d table_lo = _mm512_load_pd(exp2_sixteenths), table_hi = _mm512_load_pd(exp2_sixteenths + 8);
    const __m512i fifteen = _mm512_set1_epi64(15);
    const __mmask8 all = 0xFF;  // the masked forms: GCC 12 warns of the plain ones' undefined source
    for (; i + 8 <= n; i += 8) {
        // (min_pd(y, c) is y < c ? y : c, as std::min(c, y); the same for max.)
        const __m512d a = _mm512_maskz_min_pd(all, _mm512_maskz_max_pd(all, _mm512_loadu_pd(x + i), _mm512_set1_pd(-700.0)), _mm512_set1_pd(700.0));
        const __m512d t = _mm512_add_pd(_mm512_mul_pd(a, _mm512_set1_pd(inv_ln2_16)), _mm512_set1_pd(shifter));
        const __m512d k = _mm512_sub_pd(t, _mm512_set1_pd(shifter));
        const __m512d r = _mm512_sub_pd(_mm512_sub_pd(a, _mm512_mul_pd(k, _mm512_set1_pd(hi))), _mm512_mul_pd(k, _mm512_set1_pd(lo)));
        const __m512d r2 = _mm512_mul_pd(r, r), r4 = _mm512_mul_pd(r2, r2);
        const __m512d a0 = _mm512_add_pd(_mm512_set1_pd(c2), _mm512_mul_pd(r, _mm512_set1_pd(c3)));
        const __m512d a1 = _mm512_add_pd(_mm512_set1_pd(c4), _mm512_mul_pd(r, _mm512_set1_pd(c5)));
        const __m512d a2 = _mm512_add_pd(_mm512_set1_pd(c6), _mm512_mul_pd(r, _mm512_set1_pd(c7)));
        const __m512d q = _mm512_add_pd(_mm512_add_pd(a0, _mm512_mul_pd(r2, a1)), _mm512_mul_pd(r4, a2));
        const __m512d w = _mm512_add_pd(r, _mm512_mul_pd(r2, q));
        const __m512i bits = _mm512_castpd_si512(t);
        const __m512d s = _mm512_permutex2var_pd(table_lo, _mm512_and_si512(bits, fifteen), table_hi);
        const __m512d p = _mm512_add_pd(s, _mm512_mul_pd(s, w));
        const __m512i scale = _mm512_maskz_slli_epi64(all, _mm512_maskz_srli_epi64(all, bits, 4), 52);
        _mm512_storeu_pd(x + i, _mm512_castsi512_pd(_mm512_add_epi64(_mm512_castpd_si512(p), scale)));
    }
#elif defined(__AVX2__)
    // The loop below four at a time with an AVX2 gather for the table (GCC left the plain loop scalar
    // there); the same operations in the same order, so the same bits.
    const __m256i fifteen = _mm256_set1_epi64x(15);
    for (; i + 4 <= n; i += 4) {
        const __m256d a = _mm256_min_pd(_mm256_max_pd(_mm256_loadu_pd(x + i), _mm256_set1_pd(-700.0)), _mm256_set1_pd(700.0));
        const __m256d t = _mm256_add_pd(_mm256_mul_pd(a, _mm256_set1_pd(inv_ln2_16)), _mm256_set1_pd(shifter));
        const __m256d k = _mm256_sub_pd(t, _mm256_set1_pd(shifter));
        const __m256d r = _mm256_sub_pd(_mm256_sub_pd(a, _mm256_mul_pd(k, _mm256_set1_pd(hi))), _mm256_mul_pd(k, _mm256_set1_pd(lo)));
        const __m256d r2 = _mm256_mul_pd(r, r), r4 = _mm256_mul_pd(r2, r2);
        const __m256d a0 = _mm256_add_pd(_mm256_set1_pd(c2), _mm256_mul_pd(r, _mm256_set1_pd(c3)));
        const __m256d a1 = _mm256_add_pd(_mm256_set1_pd(c4), _mm256_mul_pd(r, _mm256_set1_pd(c5)));
        const __m256d a2 = _mm256_add_pd(_mm256_set1_pd(c6), _mm256_mul_pd(r, _mm256_set1_pd(c7)));
        const __m256d q = _mm256_add_pd(_mm256_add_pd(a0, _mm256_mul_pd(r2, a1)), _mm256_mul_pd(r4, a2));
        const __m256d w = _mm256_add_pd(r, _mm256_mul_pd(r2, q));
        const __m256i bits = _mm256_castpd_si256(t);
        const __m256d s = _mm256_i64gather_pd(exp2_sixteenths, _mm256_and_si256(bits, fifteen), 8);
        const __m256d p = _mm256_add_pd(s, _mm256_mul_pd(s, w));
        const __m256i scale = _mm256_slli_epi64(_mm256_srli_epi64(bits, 4), 52);
        _mm256_storeu_pd(x + i, _mm256_castsi256_pd(_mm256_add_epi64(_mm256_castpd_si256(p), scale)));
    }
#elif defined(__SSE2__)
    // Two at a time, the table's two entries loaded one by one (no gather in SSE2); the same bits.
    const __m128i fifteen = _mm_set1_epi64x(15);
    for (; i + 2 <= n; i += 2) {
        const __m128d a = _mm_min_pd(_mm_max_pd(_mm_loadu_pd(x + i), _mm_set1_pd(-700.0)), _mm_set1_pd(700.0));
        const __m128d t = _mm_add_pd(_mm_mul_pd(a, _mm_set1_pd(inv_ln2_16)), _mm_set1_pd(shifter));
        const __m128d k = _mm_sub_pd(t, _mm_set1_pd(shifter));
        const __m128d r = _mm_sub_pd(_mm_sub_pd(a, _mm_mul_pd(k, _mm_set1_pd(hi))), _mm_mul_pd(k, _mm_set1_pd(lo)));
        const __m128d r2 = _mm_mul_pd(r, r), r4 = _mm_mul_pd(r2, r2);
        const __m128d a0 = _mm_add_pd(_mm_set1_pd(c2), _mm_mul_pd(r, _mm_set1_pd(c3)));
        const __m128d a1 = _mm_add_pd(_mm_set1_pd(c4), _mm_mul_pd(r, _mm_set1_pd(c5)));
        const __m128d a2 = _mm_add_pd(_mm_set1_pd(c6), _mm_mul_pd(r, _mm_set1_pd(c7)));
        const __m128d q = _mm_add_pd(_mm_add_pd(a0, _mm_mul_pd(r2, a1)), _mm_mul_pd(r4, a2));
        const __m128d w = _mm_add_pd(r, _mm_mul_pd(r2, q));
        const __m128i bits = _mm_castpd_si128(t);
        const __m128i j = _mm_and_si128(bits, fifteen);
        const __m128d s = _mm_set_pd(exp2_sixteenths[_mm_cvtsi128_si64(_mm_unpackhi_epi64(j, j))],
                                     exp2_sixteenths[_mm_cvtsi128_si64(j)]);
        const __m128d p = _mm_add_pd(s, _mm_mul_pd(s, w));
        const __m128i scale = _mm_slli_epi64(_mm_srli_epi64(bits, 4), 52);
        _mm_storeu_pd(x + i, _mm_castsi128_pd(_mm_add_epi64(_mm_castpd_si128(p), scale)));
    }
#endif
    for (; i < n; ++i) {
        const double a = std::min(700.0, std::max(-700.0, x[i]));
        const double t = a * inv_ln2_16 + shifter;  // rounds 16 a / ln 2 to the nearest integer k, kept in t's low bits
        const double k = t - shifter;
        const double r = (a - k * hi) - k * lo;
        // e^r − 1 = r + r² q(r), q's coefficients 1/2!, …, 1/7! by Estrin's scheme (short dependency
        // chains); r = 0 gives exactly 1 below.
        const double r2 = r * r, r4 = r2 * r2;
        const double a0 = c2 + r * c3, a1 = c4 + r * c5, a2 = c6 + r * c7;
        const double q = (a0 + r2 * a1) + r4 * a2;
        const double w = r + r2 * q;
        // k = 16 e + j sits in the low mantissa bits of t (two's complement for k < 0): j picks the
        // table's entry, e (the bits above) goes to the exponent. s + s w rounds once at the end.
        const std::uint64_t bits = std::bit_cast<std::uint64_t>(t);
        const double s = exp2_sixteenths[bits & 15];
        const double p = s + s * w;
        x[i] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(p) + ((bits >> 4) << 52));
    }
}

/// The 256-layer ziggurat of Marsaglia and Tsang (2000) in Doornik's form (2005, "An improved ziggurat
/// method to generate normal random samples"): layer i spans [−x_i, x_i] with ratio_i = x_{i+1} / x_i;
/// a draw (u on [−1, 1), layer i) whose |u| < ratio_i returns u x_i, which is 98.5% of draws (the mean
/// of ratio_i; 97.2% with 128 layers, whose slow path cost about a tenth of the price paths' time).
struct Ziggurat {
    static constexpr int Layers = 256;
    static constexpr double R = 3.6541528853610088;  // start of the tail (Marsaglia and Tsang's for 256 layers)
    static constexpr double V = 4.92867323399e-3;    // area of each layer
    std::array<double, Layers + 1> x{};
    std::array<double, Layers> ratio{};
    std::array<double, Layers + 1> density{};  // e^(−x_i² / 2), for the wedge test
    /// A byte per layer for a core test without a gather (the AVX-512 copy): 1 − d with d =
    /// 2^(E − 15) (1 + m / 16), the byte 16 E + m, the largest such bound ≤ ratio_i. A candidate under
    /// it is in the core; the few between it and ratio_i take the slow path, which tests the core
    /// exactly first, so every copy returns the same numbers.
    std::array<std::uint8_t, Layers> core_code{};
    static double core_bound(unsigned code) {  // exact: d has at most five significant bits, d ≥ 2^-15
        return 1.0 - std::bit_cast<double>(0x3F00000000000000ULL + (std::uint64_t(code) << 48));
    }

    Ziggurat() {
        double f = std::exp(-0.5 * R * R);
        x[0] = V / f;
        x[1] = R;
        x[Layers] = 0;
        for (int i = 2; i < Layers; ++i) {
            x[i] = std::sqrt(-2 * std::log(V / x[i - 1] + f));
            f = std::exp(-0.5 * x[i] * x[i]);
        }
        for (int i = 0; i < Layers; ++i) ratio[i] = x[i + 1] / x[i];
        for (int i = 0; i < Layers; ++i) {
            unsigned code = 0;
            while (!(core_bound(code) <= ratio[i])) ++code;  // the bound falls as the code grows; 240 gives 0
            core_code[i] = std::uint8_t(code);
        }
        for (int i = 0; i <= Layers; ++i) density[i] = std::exp(-0.5 * x[i] * x[i]);
    }
    static const Ziggurat& table() {
        static const Ziggurat z;
        return z;
    }
};

/// Standard normals in blocks: `Lanes` xoshiro256+ streams side by side (one SIMD lane each) give one
/// 64-bit draw per candidate, whose top 52 bits make u on [−1, 1) and bits 4–11 the ziggurat layer;
/// the candidates of a block are tested in SIMD lanes, and the 1.5% that fall outside their layer's
/// core go, in order, through the ziggurat's exact tail or wedge test, whose extra uniforms (and the
/// fresh draws after a rejected wedge) come from a scalar xoshiro256++ stream. The
/// sequence depends only on the seed.
class ZigguratNormals {
public:
    static constexpr std::size_t Lanes = 8;
    /// Eight 64-bit lanes (GCC and Clang vector extension: element-wise integer operations, exact in
    /// any instruction set; SSE2 runs it as four 2-lane halves).
    typedef std::uint64_t Lanes64 __attribute__((vector_size(8 * Lanes)));
    /// Four of them, the unit the loops step: two per step of the eight lanes (GCC keeps a 256-bit
    /// vector in registers with AVX2, where it left the 512-bit one's state on the stack).
    typedef std::uint64_t Lanes4 __attribute__((vector_size(8 * 4)));

    explicit ZigguratNormals(std::uint64_t seed) : slow_(splitmix64(seed ^ 0x5851F42D4C957F2DULL)) {
        for (std::size_t l = 0; l < Lanes; ++l) {
            const Xoshiro256pp lane(splitmix64(seed + splitmix64(l)));
            s0_[l] = lane.state()[0];
            s1_[l] = lane.state()[1];
            s2_[l] = lane.state()[2];
            s3_[l] = lane.state()[3];
        }
    }

    /// Writes the next n normals of the sequence to out.
    void fill(double* out, std::size_t n) {
        std::size_t done = 0;
        while (done < n) {
            if (used_ == Block && n - done >= Block) {  // a whole block goes straight to `out`
                refill(out + done);
                done += Block;
                continue;
            }
            if (used_ == Block) {
                refill(normals_.data());
                used_ = 0;
            }
            const std::size_t take = std::min(n - done, Block - used_);
            std::copy_n(normals_.begin() + std::ptrdiff_t(used_), take, out + done);
            used_ += take;
            done += take;
        }
    }

    /// The next n uniforms on [0, 1) (52 random bits each, exact) from the lane streams, n a multiple
    /// of Lanes. The same streams as fill()'s: a caller keeps the order of its calls fixed.
    void uniforms(double* __restrict out, std::size_t n) {
        State st = state();
        for (std::size_t i = 0; i < n; i += Lanes) {
            for (std::size_t h = 0; h < 2; ++h) {
                const Lanes4 one_to_two = ((st.s0[h] + st.s3[h]) >> 12) | 0x3FF0000000000000ULL;  // [1, 2)
                std::memcpy(out + i + 4 * h, &one_to_two, sizeof one_to_two);
                step(st, h);
            }
        }
        keep(st);
        for (std::size_t i = 0; i < n; ++i) out[i] -= 1.0;  // exact
    }

private:
    static constexpr std::size_t Block = 256;

    /// The eight lanes' state as two halves of four, held in locals while a loop runs.
    struct State {
        Lanes4 s0[2], s1[2], s2[2], s3[2];
    };
    State state() const {
        State st;
        std::memcpy(st.s0, &s0_, sizeof s0_), std::memcpy(st.s1, &s1_, sizeof s1_);
        std::memcpy(st.s2, &s2_, sizeof s2_), std::memcpy(st.s3, &s3_, sizeof s3_);
        return st;
    }
    void keep(const State& st) {
        std::memcpy(&s0_, st.s0, sizeof s0_), std::memcpy(&s1_, st.s1, sizeof s1_);
        std::memcpy(&s2_, st.s2, sizeof s2_), std::memcpy(&s3_, st.s3, sizeof s3_);
    }
    /// One xoshiro256+ step of half h's four lanes.
    static void step(State& st, std::size_t h) {
        Lanes4 &s0 = st.s0[h], &s1 = st.s1[h], &s2 = st.s2[h], &s3 = st.s3[h];
        const Lanes4 t = s1 << 17;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= t;
        s3 = (s3 << 45) | (s3 >> 19);
    }


    /// The next Block normals of the sequence, to `normals`.
    void refill(double* __restrict normals) {  // (restrict: no alias of the table, so the loop vectorises)
        const Ziggurat& z = Ziggurat::table();
        alignas(64) std::uint64_t bits[Block];
        // One step of every lane's xoshiro256+ (its s0 + s3 output, the authors' choice for floating
        // point), written as vectors of four lanes: GCC left the plain loops scalar.
        State st = state();
        for (std::size_t i = 0; i < Block; i += Lanes) {
            for (std::size_t h = 0; h < 2; ++h) {
                const Lanes4 out = st.s0[h] + st.s3[h];
                std::memcpy(bits + i + 4 * h, &out, sizeof out);
                step(st, h);
            }
        }
        keep(st);
        // The core test in SIMD lanes, the candidates outside their layer's core gathered into one bit
        // mask per 64, so that only the rare 1.5% are visited.
#ifdef __AVX512F__
        // The same operations as the loops below, with the comparison's mask taken directly (GCC builds
        // the loops' mask through a 0/1 array; this is about 10% of a normal's time).
        const __m512i exponent = _mm512_set1_epi64(0x4000000000000000LL), layers = _mm512_set1_epi64(Ziggurat::Layers - 1);
        const __m512i magnitude = _mm512_set1_epi64(0x7FFFFFFFFFFFFFFFLL);
        const __mmask8 all = 0xFF;  // the masked forms: GCC 12 warns of the plain ones' undefined source
#ifdef __AVX512VBMI__
        static_assert(Ziggurat::Layers == 256);
        const __m512i codes[4] = {_mm512_loadu_si512(z.core_code.data()), _mm512_loadu_si512(z.core_code.data() + 64),
                                  _mm512_loadu_si512(z.core_code.data() + 128), _mm512_loadu_si512(z.core_code.data() + 192)};
#endif
        for (std::size_t g = 0; g < Block; g += 64) {
            std::uint64_t mask = 0;
            for (std::size_t k = 0; k < 64; k += Lanes) {
                const __m512i b = _mm512_load_si512(bits + g + k);
                const __m512d u = _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(_mm512_maskz_srli_epi64(all, b, 12), exponent)),
                                                _mm512_set1_pd(3.0));
                const __m512i layer = _mm512_and_si512(_mm512_maskz_srli_epi64(all, b, 4), layers);
                const __m512d x = _mm512_mask_i64gather_pd(_mm512_setzero_pd(), all, layer, z.x.data(), 8);
                _mm512_storeu_pd(normals + g + k, _mm512_mul_pd(u, x));
                const __m512d abs_u = _mm512_castsi512_pd(_mm512_and_si512(_mm512_castpd_si512(u), magnitude));
#ifdef __AVX512VBMI__
                // The layer's core bound from its byte (two 128-byte table look-ups in registers and a
                // select on the layer's top bit), not a second gather: Zen 4's gathers are slow.
                const __m512i low = _mm512_permutex2var_epi8(codes[0], layer, codes[1]);  // layer mod 128
                const __m512i high = _mm512_permutex2var_epi8(codes[2], layer, codes[3]);
                const __mmask8 upper = _mm512_test_epi64_mask(layer, _mm512_set1_epi64(128));
                const __m512i code = _mm512_and_si512(_mm512_mask_blend_epi64(upper, low, high), _mm512_set1_epi64(0xFF));
                const __m512d d = _mm512_castsi512_pd(
                    _mm512_add_epi64(_mm512_maskz_slli_epi64(all, code, 48), _mm512_set1_epi64(0x3F00000000000000LL)));
                const __m512d ratio = _mm512_sub_pd(_mm512_set1_pd(1.0), d);
#else
                const __m512d ratio = _mm512_mask_i64gather_pd(_mm512_setzero_pd(), all, layer, z.ratio.data(), 8);
#endif
                mask |= std::uint64_t(std::uint8_t(~_mm512_cmp_pd_mask(abs_u, ratio, _CMP_LT_OQ))) << k;
            }
            for (; mask != 0; mask &= mask - 1) {
                const std::size_t i = g + std::size_t(std::countr_zero(mask));
                normals[i] = slow(z, bits[i]);
            }
        }
#else
        alignas(64) std::uint64_t outside[Block];
        for (std::size_t i = 0; i < Block; ++i) {
            const double u = std::bit_cast<double>((bits[i] >> 12) | 0x4000000000000000ULL) - 3.0;  // [−1, 1)
            const std::size_t layer = (bits[i] >> 4) & (Ziggurat::Layers - 1);
            normals[i] = u * z.x[layer];
            outside[i] = !(std::abs(u) < z.ratio[layer]);
        }
        for (std::size_t g = 0; g < Block; g += 64) {
            std::uint64_t mask = 0;
            for (std::size_t i = 0; i < 64; ++i) mask |= outside[g + i] << i;
            for (; mask != 0; mask &= mask - 1) {
                const std::size_t i = g + std::size_t(std::countr_zero(mask));
                normals[i] = slow(z, bits[i]);
            }
        }
#endif
    }

    double uniform() { return double(slow_() >> 11) * 0x1.0p-53; }  // [0, 1)

    /// Doornik's draw for a candidate the lanes did not accept (`b`): the exact core test, then the
    /// tail beyond R (Marsaglia's method) for layer 0, the wedge test otherwise; a rejected wedge draws
    /// afresh from the scalar stream, core test first, until accepted.
    double slow(const Ziggurat& z, std::uint64_t b) {
        for (bool first = true;; first = false) {
            if (!first) b = slow_();
            const double u = std::bit_cast<double>((b >> 12) | 0x4000000000000000ULL) - 3.0;
            const std::size_t i = (b >> 4) & (Ziggurat::Layers - 1);
            if (std::abs(u) < z.ratio[i]) return u * z.x[i];  // (a first candidate only from a conservative core test)
            if (i == 0) {
                double t, y;
                do {
                    t = std::log(1 - uniform()) / Ziggurat::R;  // ≤ 0
                    y = std::log(1 - uniform());
                } while (-2 * y < t * t);
                return u < 0 ? t - Ziggurat::R : Ziggurat::R - t;
            }
            const double x = u * z.x[i];
            // Under the density between the layer's edges: one exp, the edges' densities from the table.
            const double f0 = z.density[i], f1 = z.density[i + 1];
            if (f1 + uniform() * (f0 - f1) < std::exp(-0.5 * x * x)) return x;
        }
    }

    Lanes64 s0_{}, s1_{}, s2_{}, s3_{};
    Xoshiro256pp slow_;
    std::array<double, Block> normals_{};
    std::size_t used_ = Block;
};

}  // namespace lane_math
}  // namespace
}  // namespace gputco
