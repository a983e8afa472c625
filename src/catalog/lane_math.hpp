#pragma once
// Array kernels for the price model (price_dynamics.cpp): exp over an array and standard normals drawn
// in blocks, written as plain loops the compiler vectorises. They use only +, −, ×, ÷, √, comparisons
// and bit moves, each of which IEEE 754 rounds exactly; with the library's -ffp-contract=off (no fused
// multiply–add), a SIMD lane and the scalar loop give the same bits, so the results do not depend on the
// instruction set or on where a loop's vector part ends. (price_dynamics.cpp is compiled with
// -fno-math-errno -fno-trapping-math, which let GCC turn the selects and √ into SIMD code; neither
// changes a result.)
#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "gputco/core/random.hpp"

namespace gputco::lane_math {

/// x[i] = e^x[i] for i < n, within 1 ulp of the correctly rounded value (Cody–Waite reduction
/// x = n ln 2 + r, |r| ≤ ln 2 / 2, and the degree-13 Taylor polynomial of e^r, whose truncation error is
/// below 2^-57). Arguments are clamped to [−700, 700] (factors of e^±700 ≈ 10^±304); e^0 = 1 exactly.
inline void exp_inplace(double* x, std::size_t n) {
    constexpr double shifter = 0x1.8p52, inv_ln2 = 0x1.71547652b82fep0;
    constexpr double ln2_hi = 0x1.62e42fee00000p-1, ln2_lo = 0x1.a39ef35793c76p-33;  // ln2_hi × k exact, |k| < 2^11
    for (std::size_t i = 0; i < n; ++i) {
        const double a = std::min(700.0, std::max(-700.0, x[i]));
        const double t = a * inv_ln2 + shifter;  // rounds a / ln 2 to the nearest integer k, kept in t's low bits
        const double k = t - shifter;
        const double r = (a - k * ln2_hi) - k * ln2_lo;
        double p = 1.0 / 6227020800.0;  // 1/13!
        p = p * r + 1.0 / 479001600.0;
        p = p * r + 1.0 / 39916800.0;
        p = p * r + 1.0 / 3628800.0;
        p = p * r + 1.0 / 362880.0;
        p = p * r + 1.0 / 40320.0;
        p = p * r + 1.0 / 5040.0;
        p = p * r + 1.0 / 720.0;
        p = p * r + 1.0 / 120.0;
        p = p * r + 1.0 / 24.0;
        p = p * r + 1.0 / 6.0;
        p = p * r + 0.5;
        p = p * r * r + r;  // e^r − 1, so that r = 0 gives exactly 1 below
        p = p + 1.0;
        // 2^k: k sits in the low mantissa bits of t (two's complement for k < 0); move it to the exponent.
        x[i] = std::bit_cast<double>(std::bit_cast<std::uint64_t>(p) + (std::bit_cast<std::uint64_t>(t) << 52));
    }
}

/// ln x[i] for normal, positive x[i] < 2^1023, into out[i] (x = 2^e m with m in [√½, √2); ln m =
/// 2 atanh f, f = (m − 1)/(m + 1), |f| ≤ 0.172, by its series to f^23, truncation below 2^-56).
inline void log_positive(const double* x, double* out, std::size_t n) {
    constexpr double ln2_hi = 0x1.62e42fee00000p-1, ln2_lo = 0x1.a39ef35793c76p-33;
    constexpr std::uint64_t mantissa = (std::uint64_t(1) << 52) - 1, one = 0x3FF0000000000000ULL;
    constexpr double two52 = 0x1p52, sqrt2 = 1.4142135623730951;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t bits = std::bit_cast<std::uint64_t>(x[i]);
        // The biased exponent as a double without an integer conversion: 2^52 + E, minus 2^52.
        const double biased = std::bit_cast<double>(0x4330000000000000ULL | (bits >> 52)) - two52;
        const double m1 = std::bit_cast<double>((bits & mantissa) | one);  // in [1, 2)
        const bool high = m1 > sqrt2;
        const double m = high ? m1 * 0.5 : m1;
        const double e = high ? biased - 1022.0 : biased - 1023.0;
        const double f = (m - 1.0) / (m + 1.0), f2 = f * f;
        double s = 1.0 / 23;
        s = s * f2 + 1.0 / 21;
        s = s * f2 + 1.0 / 19;
        s = s * f2 + 1.0 / 17;
        s = s * f2 + 1.0 / 15;
        s = s * f2 + 1.0 / 13;
        s = s * f2 + 1.0 / 11;
        s = s * f2 + 1.0 / 9;
        s = s * f2 + 1.0 / 7;
        s = s * f2 + 1.0 / 5;
        s = s * f2 + 1.0 / 3;
        const double ln_m = 2 * f + 2 * f * f2 * s;
        out[i] = e * ln2_hi + (e * ln2_lo + ln_m);
    }
}

/// Standard normals in blocks: `Lanes` xoshiro256+ streams side by side (one SIMD lane each) give
/// uniform pairs (u, v) on [−1, 1)²; Marsaglia's polar method keeps the pairs with 0 < s = u² + v² < 1
/// (π/4 of them) and turns each into two independent normals u √(−2 ln s / s), v √(−2 ln s / s). The
/// sequence depends only on the seed.
class PolarNormals {
public:
    static constexpr std::size_t Lanes = 8;

    explicit PolarNormals(std::uint64_t seed) {
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
            if (ready_ == used_) refill();
            const std::size_t take = std::min(n - done, ready_ - used_);
            std::copy_n(normals_.begin() + std::ptrdiff_t(used_), take, out + done);
            used_ += take;
            done += take;
        }
    }

private:
    static constexpr std::size_t Candidates = 256;  // pairs tried per refill

    /// One step of every lane's xoshiro256+ (its s0 + s3 output: the authors' choice for floating point;
    /// only the top 52 bits are used) into uniforms on [−1, 1): 2 + the bits as a mantissa, minus 3.
    void uniforms(double* out) {
        for (std::size_t l = 0; l < Lanes; ++l) {
            std::uint64_t s0 = s0_[l], s1 = s1_[l], s2 = s2_[l], s3 = s3_[l];
            const std::uint64_t result = s0 + s3;
            const std::uint64_t t = s1 << 17;
            s2 ^= s0;
            s3 ^= s1;
            s1 ^= s2;
            s0 ^= s3;
            s2 ^= t;
            s3 = (s3 << 45) | (s3 >> 19);
            s0_[l] = s0;
            s1_[l] = s1;
            s2_[l] = s2;
            s3_[l] = s3;
            out[l] = std::bit_cast<double>((result >> 12) | 0x4000000000000000ULL) - 3.0;
        }
    }

    void refill() {
        std::array<double, Candidates> u, v, s;
        for (std::size_t i = 0; i < Candidates; i += Lanes) {
            uniforms(&u[i]);
            uniforms(&v[i]);
        }
        for (std::size_t i = 0; i < Candidates; ++i) s[i] = u[i] * u[i] + v[i] * v[i];
        // Keep the accepted pairs, in order, without a branch per pair.
        std::size_t kept = 0;
        for (std::size_t i = 0; i < Candidates; ++i) {
            u[kept] = u[i];
            v[kept] = v[i];
            s[kept] = s[i];
            kept += std::size_t(s[i] < 1.0 && s[i] > 0.0);
        }
        std::array<double, Candidates> ln;
        log_positive(s.data(), ln.data(), kept);
        for (std::size_t i = 0; i < kept; ++i) {
            const double factor = std::sqrt(-2.0 * ln[i] / s[i]);
            normals_[2 * i] = u[i] * factor;
            normals_[2 * i + 1] = v[i] * factor;
        }
        ready_ = 2 * kept;
        used_ = 0;
    }

    alignas(64) std::uint64_t s0_[Lanes]{}, s1_[Lanes]{}, s2_[Lanes]{}, s3_[Lanes]{};
    std::array<double, 2 * Candidates> normals_{};
    std::size_t ready_ = 0, used_ = 0;
};

}  // namespace gputco::lane_math
