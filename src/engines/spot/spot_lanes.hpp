#pragma once
// The arithmetic of the spot hot loop, written once for a scalar (double) and for eight paths in
// lock-step (GCC/Clang vectors of doubles), so that the vector kernels and the scalar loops
// give the same results bit for bit: only IEEE additions, multiplications, divisions,
// comparisons and selections, in the same order, and no fused multiply-add (the library builds with
// -ffp-contract=off). The kernels are compiled three times, portable and with AVX2 or AVX-512
// enabled (spot_lanes_*.cpp); spot.cpp picks one at run time.
//
// Everything here has internal linkage (the unnamed namespace) on purpose: each translation unit
// gets its own copy compiled for its instruction set, and the linker can never hand the portable
// code an AVX-512 copy of a shared inline function. For the same reason no standard-library
// template is used below. One file over 500 lines on purpose: the scalar and the lane arithmetic sit
// side by side, line for line, so that a change to one is seen to need the same change in the other.
#include <cstddef>
#include <cstdint>

namespace gputco::detail {

/// Paths simulated in lock-step by a lane kernel, and random streams per batch. Fixed, whatever the
/// instruction set, because it decides which stream a path draws from.
inline constexpr std::size_t spot_lanes = 8;

// Vectors of doubles and of their bits, two, four or eight wide: each kernel uses its instruction
// set's native width, as many groups of it as make eight lanes.
using f64x2 = double __attribute__((vector_size(16)));
using f64x4 = double __attribute__((vector_size(32)));
using f64x8 = double __attribute__((vector_size(64)));
using u64x2 = std::uint64_t __attribute__((vector_size(16)));
using u64x4 = std::uint64_t __attribute__((vector_size(32)));
using u64x8 = std::uint64_t __attribute__((vector_size(64)));

/// The job's constants as the path arithmetic takes them, packed once per run by the path pricer
/// (path_pricer.hpp) and read by the scalar loops and the lane kernels alike.
struct JobConstants {
    double mtbf;         // MTBF: a Poisson lifetime is an Exp(1) variate times this (0 for the other models)
    double restart;      // R
    double wait;         // D
    double tail;         // the last segment: its work plus delta
    double last_work;    // work of the last segment
    double tau, seg, inv_seg;
    double first_rest;   // running time a fresh path needs
    double price;
    bool plain;     // no provider rule: the plain launch arithmetic (interrupted), else the ruled one
    bool rounded;   // billing in whole increments or with a minimum (charged apart from billed)
    double delta;
    double first_full_left;   // whole segments of a fresh path before its last one
    double protection;        // hours no interruption comes after a launch
    double max_lifetime;      // launches are taken back by then (infinity: never)
    double notice;            // hours of warning before an interruption
    bool emergency;           // an emergency checkpoint (delta <= notice) is written in the notice
    double increment, inv_increment, minimum;  // billing: whole increments (0: continuous), at least minimum
};

/// One batch's output columns: path i of the batch goes to element i * stride of each.
struct Columns {
    double *wall, *billed, *cost, *interruptions, *lost, *charged;
    std::size_t stride = 1;
};

/// The tables behind every Exp(1) variate of a Poisson or Weibull lifetime: the rectangle-wedge-tail
/// method (MacLaren, Marsaglia and Bray, 1964). The area under e^-x (1) is cut into `slots` equal parts
/// of 2^-13. The first `rectangles` are rectangles under the curve, stacked from the bottom: rectangle 0
/// is [0, edge[0]] x [0, e^-edge[0]], rectangle j is [0, edge[j]] x [e^-edge[j-1], e^-edge[j]]. The
/// rest of the area (0.06%, the last slots together) is the remainder: the tail beyond edge[0], the
/// curved piece to the right of each rectangle above the one below (a wedge), and the cap above the
/// top rectangle. A draw's top 13 bits pick a slot; in a rectangle's slot (99.94% of draws) the point
/// (the low 51 bits + 1/2) x width[slot] is the variate: one table lookup and a multiplication,
/// vectorised with one gather. A remainder slot gives 0 and is finished by exponential_remainder.
/// Built once by exponential_tables() with this file's exp_of and log_positive, so the tables are the
/// same bit for bit on every instruction set.
struct ExponentialTables {
    static constexpr unsigned slot_bits = 13;                 // a word's top bits pick the slot,
    static constexpr unsigned point_bits = 64 - slot_bits;    // the others the point in its rectangle
    static constexpr std::size_t slots = std::size_t{1} << slot_bits;
    std::size_t rectangles = 0;
    double width[slots];        // rectangle j's right end / 2^51 (0 for the remainder's slots)
    double edge[slots];         // rectangle j's right end (edge[0] > edge[1] > ...)
    double height[slots];       // e^-edge[j]
    double cumulative[slots + 2];  // the remainder's pieces 0..rectangles (tail, wedges, cap): areas summed
    std::uint16_t guide[slots];    // the piece at cumulative share k / slots of the remainder: a search's start
};
const ExponentialTables& exponential_tables();

/// How a lane kernel draws a launch's lifetime from a random word: exponential (Poisson, MTBF times an
/// Exp(1) variate of ExponentialTables), Weibull, or one of a trace's observed lifetimes picked uniformly.
struct LifetimeLaw {
    enum class Kind { exponential, weibull, table };
    Kind kind = Kind::exponential;
    double scale = 0, inv_shape = 0;   // Weibull: lambda and 1 / k
    const double* table = nullptr;     // trace: the observed lifetimes
    double table_size = 0;             // how many (< 2^52)
};

/// A batch for a lane kernel: the run's constants, the batch's output columns and the lifetime law.
/// Path i of the batch is lane i % 8's (i / 8)-th path.
struct LaneJob {
    const JobConstants& constants;
    std::size_t count;   // paths in the batch
    Columns out;
    LifetimeLaw law{};
};

/// The eight lanes between calls of a kernel (it runs in chunks so that its caller can poll for
/// cancellation): each lane's xoshiro256++ state and its path in progress (the plain arithmetic keeps
/// `rest`, the ruled one `full_left`, `last_work`, `wall` and `charged` instead).
struct alignas(64) LaneState {
    std::uint64_t rng[4][spot_lanes];
    double rest[spot_lanes], billed[spot_lanes], lost[spot_lanes], restart[spot_lanes], interruptions[spot_lanes];
    double full_left[spot_lanes], last_work[spot_lanes], wall[spot_lanes], charged[spot_lanes];
    std::size_t path[spot_lanes];  // in-batch index of the lane's current path (>= count: none left)
};

/// Runs each lane at most `iterations` more launches; returns true once every path of the batch is
/// recorded. (A kernel narrower than eight lanes runs its groups of lanes one after the other.)
using LaneKernel = bool (*)(const LaneJob&, LaneState&, std::uint64_t iterations);
bool lifetime_lanes_portable(const LaneJob&, LaneState&, std::uint64_t iterations);
bool lifetime_lanes_avx2(const LaneJob&, LaneState&, std::uint64_t iterations);
bool lifetime_lanes_avx512(const LaneJob&, LaneState&, std::uint64_t iterations);

// The vectors pass only between always-inline functions with internal linkage, never across an ABI
// boundary, so the warning that their passing convention differs between instruction sets is moot.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
namespace {

template <class F>
struct Bits;
template <>
struct Bits<double> {
    using type = std::uint64_t;
};
template <>
struct Bits<f64x2> {
    using type = u64x2;
};
template <>
struct Bits<f64x4> {
    using type = u64x4;
};
template <>
struct Bits<f64x8> {
    using type = u64x8;
};
template <class F>
using bits_t = typename Bits<F>::type;

/// `when ? yes : no`, lane by lane for vectors.
template <class M, class F>
[[gnu::always_inline]] inline F select(const M& when, const F& yes, const F& no) {
    return when ? yes : no;
}

/// The smaller of a and b; a when they are equal (as std::min).
template <class F>
[[gnu::always_inline]] inline F smaller(const F& a, const F& b) {
    return select(b < a, b, a);
}

/// The larger of x and 0 (as std::max(x, 0.0)).
template <class F>
[[gnu::always_inline]] inline F at_least_zero(const F& x) {
    const F zero{};
    return select(x < zero, zero, x);
}

// Lane-wise logic on comparison results: bool for doubles, integer masks for vectors.
[[gnu::always_inline]] inline bool both(bool a, bool b) { return a && b; }
[[gnu::always_inline]] inline bool either(bool a, bool b) { return a || b; }
[[gnu::always_inline]] inline bool negate(bool a) { return !a; }
template <class M>
[[gnu::always_inline]] inline M both(const M& a, const M& b) { return a & b; }
template <class M>
[[gnu::always_inline]] inline M either(const M& a, const M& b) { return a | b; }
template <class M>
[[gnu::always_inline]] inline M negate(const M& a) { return ~a; }

/// floor(x) for 0 <= x < 2^52 by the 2^52 rounding trick: no libm call and no integer conversion, the
/// same few instructions on every instruction set. A kernel with a floor instruction uses that
/// instead (the same exact value).
struct FloorByRounding {
    template <class F>
    [[gnu::always_inline]] F operator()(const F& x) const {
        const F big = F{} + 0x1p52;
        const F nearest = (x + big) - big;
        return select(nearest > x, nearest - 1.0, nearest);
    }
};

/// One xoshiro256+ step of every lane (the same sequence as Xoshiro256pp::next_plus(): the lifetime
/// draws take the generator's floating-point output, without the ++ scrambler; its weak lowest bits
/// are the last of a point's 51, 2^-49 of a rectangle's width, and never pick a slot or a trace index).
template <class U>
[[gnu::always_inline]] inline U xoshiro_next(U& s0, U& s1, U& s2, U& s3) {
    const U result = s0 + s3;
    const U t = s1 << 17;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 45) | (s3 >> 19);
    return result;
}

/// log(x) for a positive normal x given as its bits, with `bias` taken off the exponent field (1023 for
/// log x itself; 1023 + 52 gives log(x / 2^52)). x = 2^k m with m in [sqrt(1/2), sqrt(2)),
/// log m = 2 atanh(s) = s g(s^2) with s = (m - 1) / (m + 1), |s| < 0.1716, and g(z) = 2 + c1 z + ... + c7 z^7
/// a Chebyshev fit within 5e-18 of 2 atanh(sqrt z) / sqrt z (scripts/fit_log_series.py). Measured against
/// std::log: within 4 units in the last place.
template <class F>
[[gnu::always_inline]] inline F log_of_bits(const bits_t<F>& xbits, double bias) {
    constexpr std::uint64_t exponent_1 = 0x3FF0000000000000ULL;   // bit pattern of 1.0
    constexpr std::uint64_t exponent_52 = 0x4330000000000000ULL;  // bit pattern of 2^52
    constexpr std::uint64_t mantissa = 0x000FFFFFFFFFFFFFULL;
    const F m1 = __builtin_bit_cast(F, (xbits & mantissa) | exponent_1);  // x / 2^k1 in [1, 2)
    const F k1 = __builtin_bit_cast(F, (xbits >> 52) | exponent_52) - (0x1p52 + bias);
    const auto high = m1 > 1.4142135623730951;
    const F m = select(high, m1 * 0.5, m1);
    const F k = select(high, k1 + 1.0, k1);
    const F f = m - 1.0;
    const F s = f / (f + 2.0);
    const F z = s * s;
    // g by Estrin's scheme: pairs, then the powers z^2 and z^4, so that the dependency chain is 4
    // operations deep instead of Horner's 14 (the loop is latency-bound).
    const F z2 = z * z;
    const F z4 = z2 * z2;
    const F p01 = z * 0.666666666666667 + 2.0;
    const F p23 = z * 0.28571428625975487 + 0.39999999999899505;
    const F p45 = z * 0.18182889125261723 + 0.2222221113479508;
    const F p67 = z * 0.14616449685043406 + 0.15331721600556042;
    const F series = (p01 + z2 * p23) + z4 * (p45 + z2 * p67);
    return k * 0.69314718055994530942 + s * series;
}

/// log(u) for u in (0, 1) built from a 64-bit random word: u = (the top 52 bits + 1/2) / 2^52, so
/// 2^-53 <= u <= 1 - 2^-53 and -log(u) is an Exp(1) variate (at most 36.7).
template <class F>
[[gnu::always_inline]] inline F log_of_uniform(const bits_t<F>& random) {
    constexpr std::uint64_t exponent_52 = 0x4330000000000000ULL;  // bit pattern of 2^52
    const F two_52 = F{} + 0x1p52;
    // The top 52 bits as an exact integer: the bits of 2^52 + that integer, minus 2^52. Then
    // x = integer + 1/2 = 2^52 u exactly, whose exponent less 52 is u's (no need to form u).
    const F integer = __builtin_bit_cast(F, (random >> 12) | exponent_52) - two_52;
    const F x = integer + 0.5;
    return log_of_bits<F>(__builtin_bit_cast(bits_t<F>, x), 1023.0 + 52.0);
}

/// Lifetimes are drawn this many at a time per lane: the lane kernels fill a block of Exp(1) variates,
/// one word each, then finish the block's draws that fell in the remainder from the words after it, in
/// the block's order; the scalar loops take the same words in the same order
/// (path_generators.hpp: ExponentialBlock).
inline constexpr std::size_t exponential_block_size = 16;

/// A draw's slot: the top 13 bits of its word.
template <class U>
[[gnu::always_inline]] inline U exponential_slot(const U& random) {
    return random >> ExponentialTables::point_bits;
}

/// A draw's point in its slot's rectangle: (the low 51 bits + 1/2) x width[slot], in (0, the rectangle's
/// right end); 0 in a remainder slot (width 0), which exponential_remainder (below) finishes.
template <class F>
[[gnu::always_inline]] inline F exponential_point(const bits_t<F>& random, const F& width) {
    static_assert(ExponentialTables::point_bits <= 52, "the point as an exact double");
    constexpr std::uint64_t exponent_52 = 0x4330000000000000ULL;  // bit pattern of 2^52
    constexpr std::uint64_t low_bits = (std::uint64_t{1} << ExponentialTables::point_bits) - 1;
    // 2^52 + the low 51 bits, exactly; less 2^52 - 1/2 (exact: below 2^52 doubles are halves apart).
    const F half_odd = __builtin_bit_cast(F, (random & low_bits) | exponent_52) - (0x1p52 - 0.5);
    return half_odd * width;
}

/// log(x) for a positive normal x (>= 2^-1022, finite).
template <class F>
[[gnu::always_inline]] inline F log_positive(const F& x) {
    return log_of_bits<F>(__builtin_bit_cast(bits_t<F>, x), 1023.0);
}

/// 2^(j/8) for j = 0..7, rounded to doubles: exp_of's table.
inline constexpr double two_to_eighths[8] = {1.0,
                                             0x1.172b83c7d517bp+0,
                                             0x1.306fe0a31b715p+0,
                                             0x1.4bfdad5362a27p+0,
                                             0x1.6a09e667f3bcdp+0,
                                             0x1.8ace5422aa0dbp+0,
                                             0x1.ae89f995ad3adp+0,
                                             0x1.d5818dcfba487p+0};

/// two_to_eighths[j] lane by lane for j in the low three bits of `j` (the rest ignored): a lane loop
/// here; the lane kernels use a permutation (AVX-512) or their gather instead (the same values).
struct EighthsByLoop {
    template <class F>
    [[gnu::always_inline]] F operator()(const bits_t<F>& j) const {
        if constexpr (sizeof(F) == sizeof(double)) {
            return two_to_eighths[j & 7];
        } else {
            F v;
            for (std::size_t lane = 0; lane < sizeof(F) / sizeof(double); ++lane) v[lane] = two_to_eighths[j[lane] & 7];
            return v;
        }
    }
};

/// exp(y): 0 below -708.3 (no subnormal results), infinity above 709.78. y = (n / 8) log 2 + r with n
/// whole and |r| <= log(2) / 16 (Cody and Waite: log(2) / 8 in two parts, the first exact in n times
/// it for |n| < 2^14), exp(r) by its Taylor series to r^8 (truncation below 1.5e-18 relative), times
/// 2^(n mod 8 / 8) from a table of eight and 2^floor(n / 8) built in the exponent bits. Measured
/// against std::exp: within 2 units in the last place. `eighths` looks the table up.
template <class F, class Eighths = EighthsByLoop>
[[gnu::always_inline]] inline F exp_of(const F& y, Eighths eighths = {}) {
    using U = bits_t<F>;
    const F zero{};
    const F lowest = zero - 708.3, highest = zero + 709.78;
    const F clamped = select(y < lowest, lowest, select(y > highest, highest, y));
    // n = round(8 y / log 2) by the 2^52 rounding trick; the low bits hold n + 8 x 1023 (>= 9 here).
    const F shifted = clamped * 11.541560327111707 + (0x1p52 + 8184.0);
    const F n = shifted - (0x1p52 + 8184.0);
    const F r = (clamped - n * 0x1.62e42fefa0000p-4) - n * 0x1.cf79abc9e3b3ap-43;
    // Taylor less its 1: r + r^2/2! + ... + r^8/8!, by Estrin's scheme; the table value t times it is
    // added to t last, so that the series' rounding is small beside t.
    const F r2 = r * r;
    const F r4 = r2 * r2;
    const F r8 = r4 * r4;
    const F q23 = r * (1.0 / 6) + 0.5;
    const F q45 = r * (1.0 / 120) + (1.0 / 24);
    const F q67 = r * (1.0 / 5040) + (1.0 / 720);
    const F low = (r + r2 * q23) + r4 * (q45 + r2 * q67);
    const F series = low + r8 * (1.0 / 40320);
    const U bits = __builtin_bit_cast(U, shifted);
    const F whole = __builtin_bit_cast(F, (bits >> 3) << 52);  // 2^floor(n / 8): floor(n / 8) + 1023 in the exponent
    const F t = eighths.template operator()<F>(bits);
    const F result = (t + t * series) * whole;
    return select(y < lowest, zero, select(y > highest, zero + __builtin_inf(), result));
}

/// u in (0, 1) from a random word's top 52 bits: (those bits + 1/2) / 2^52.
[[gnu::always_inline]] inline double uniform_of(std::uint64_t random) {
    return (static_cast<double>(random >> 12) + 0.5) * 0x1p-52;
}

/// An Exp(1) variate from the remainder (a draw whose slot was not a rectangle's), from `next()` words:
/// a piece chosen by its area, then the tail by inversion (edge[0] + Exp(1), memoryless) or a uniform
/// point of the wedge or cap by rejection from its bounding box (half the box on average).
template <class Next>
double exponential_remainder(const ExponentialTables& t, Next&& next) {
    const std::size_t n = t.rectangles;
    // The piece: the first whose cumulative area exceeds a uniform share of the remainder, searched
    // from the guide's start (two steps on average).
    const double u = uniform_of(next());
    const double share = u * t.cumulative[n + 1];
    std::size_t piece = t.guide[static_cast<std::size_t>(u * static_cast<double>(ExponentialTables::slots))];
    while (t.cumulative[piece + 1] <= share && piece < n) ++piece;
    if (piece == 0) return t.edge[0] - log_of_uniform<double>(next());  // the tail
    // Wedge `piece` lies over [edge[piece], edge[piece-1]], the cap (piece = n) over [0, edge[n-1]]; both
    // between the heights e^-edge[piece-1] and e^-(their left end), under the curve. A point of that
    // box is under the curve when below the tangent at the left end (e^-x >= top (1 - (x - left))),
    // over it when above the chord (the curve is convex); only in between is e^-x computed.
    const double left = piece < n ? t.edge[piece] : 0.0, right = t.edge[piece - 1];
    const double bottom = t.height[piece - 1], top = piece < n ? t.height[piece] : 1.0;
    for (;;) {
        const double along = uniform_of(next());
        const double x = left + along * (right - left);
        const double y = bottom + uniform_of(next()) * (top - bottom);
        if (y < top * (1.0 - (x - left))) return x;
        if (y >= top + along * (bottom - top)) continue;
        if (y < exp_of<double>(-x)) return x;
    }
}

/// Weibull(shape k, scale lambda) lifetime from an Exp(1) variate e (as -log_of_uniform gives):
/// lambda e^(1/k), as lambda exp(log(e) / k).
template <class F, class Eighths = EighthsByLoop>
[[gnu::always_inline]] inline F weibull_of_exponential(const F& exponential, const F& scale, const F& inv_shape,
                                                       Eighths eighths = {}) {
    return scale * exp_of<F>(log_positive<F>(exponential) * inv_shape, eighths);
}

/// An index in [0, n) from a 64-bit random word, n < 2^52 as a double: floor(u n) with u = the top 52
/// bits / 2^52 (u < 1; a bias of at most n / 2^52 against an exactly uniform pick, below any
/// observable effect), capped at n - 1 against rounding.
template <class F, class Floor>
[[gnu::always_inline]] inline F index_of_uniform(const bits_t<F>& random, const F& n, Floor floor) {
    constexpr std::uint64_t exponent_52 = 0x4330000000000000ULL;
    const F u = (__builtin_bit_cast(F, (random >> 12) | exponent_52) - 0x1p52) * 0x1p-52;
    const F i = floor(u * n);
    const F last = n - 1.0;
    return select(i > last, last, i);
}

/// Constants of the job's path arithmetic, as F (broadcast for vectors).
template <class F>
struct LaunchShape {
    F restart, tail, last_work, tau, seg, inv_seg, zero, one;
};

template <class F>
LaunchShape<F> launch_shape(const JobConstants& job) {
    const F zero{};
    return {zero + job.restart, zero + job.tail, zero + job.last_work, zero + job.tau, zero + job.seg,
            zero + job.inv_seg, zero, zero + 1.0};
}

/// A launch of a path without provider rules that the instance takes back `kill` hours after it
/// starts, `run` = kill - restart hours after its restart (0 on the first launch, R after), before
/// the job is done (run < rest, the running time the path still needs after its restart: its whole
/// segments left, then the last one of `tail` hours). Killed in a segment: its work so far is lost
/// and the finished segments before it are skipped in O(1); killed during the restart (run <= 0,
/// taken as 0): nothing is done and nothing lost. `floor` must be exact for 0 <= x < 2^52.
template <class F, class Floor = FloorByRounding>
[[gnu::always_inline]] inline void interrupted(const F& kill, const F& run, F& rest, F& billed, F& lost,
                                               const LaunchShape<F>& c, Floor floor = {}) {
    const F worked = select(run < c.zero, c.zero, run);
    const F last_starts = rest - c.tail;
    F whole = floor(worked * c.inv_seg);
    whole = select(whole * c.seg > worked, whole - c.one, whole);  // worked * (1 / seg) rounded up across a multiple
    const F skipped = whole * c.seg;
    const auto in_last = worked > last_starts;
    const F lost_now = select(in_last, smaller(worked - last_starts, c.last_work), smaller(worked - skipped, c.tau));
    rest = select(in_last, c.tail, rest - skipped);
    billed = billed + kill;
    lost = lost + lost_now;
}

/// The provider rules and billing of a run, as F (broadcast for vectors).
template <class F>
struct RuleShape {
    F delta, protection, max_lifetime, notice, wait, increment, inv_increment, minimum;
    bool emergency;
};

template <class F>
RuleShape<F> rule_shape(const JobConstants& job) {
    const F zero{};
    return {zero + job.delta,     zero + job.protection, zero + job.max_lifetime,  zero + job.notice, zero + job.wait,
            zero + job.increment, zero + job.inv_increment, zero + job.minimum, job.emergency};
}

/// A path under the ruled arithmetic: `full_left` whole segments of tau, then the last of `last_work`
/// (whole numbers and hours as doubles, exact far beyond any job), the restart its next launch needs
/// (0 on the first, R after) and its totals.
template <class F>
struct RuledPath {
    F full_left, last_work, restart, billed, charged, wall, lost, interruptions;
};

/// Charged hours of a launch of `run` >= 0 hours: whole increments, rounded up (a run within 1e-9 of
/// a whole number of increments is that number: binary fractions, not time), at least the minimum.
template <class F, class Floor>
[[gnu::always_inline]] inline F charged_hours(const F& run, const RuleShape<F>& r, Floor floor) {
    const F x = run * r.inv_increment;
    F whole = select(x < 0x1p52, floor(x), x);
    whole = select(x > whole * (1.0 + 1e-9), whole + 1.0, whole);
    const F hours = select(r.increment > 0.0, whole * r.increment, run);
    return select(hours < r.minimum, r.minimum, hours);
}

/// Segments of `work` > 0 hours of work at `tau` each, as checkpoint.cpp's segment_count(): the
/// nearest whole number when work / tau is within 1e-9 of it (relative), else work / tau rounded up.
template <class F, class Floor>
[[gnu::always_inline]] inline F segment_count(const F& work, const F& tau, Floor floor) {
    const F ratio = work / tau;
    const F nearest = floor(ratio + 0.5);
    const F down = floor(ratio);
    const F up = select(down < ratio, down + 1.0, down);
    const F miss = ratio - nearest;
    const F distance = select(miss < 0.0, -miss, miss);
    return select(both(nearest >= 1.0, distance <= ratio * 1e-9), nearest, up);
}

/// When a launch of `lifetime` hours is taken back under the rules (after the protection period, by
/// the lifetime cap at the latest), and when its notice comes (not before the launch).
template <class F>
[[gnu::always_inline]] inline void launch_window(const F& lifetime, const RuleShape<F>& r, F& kill, F& notice_at) {
    kill = smaller(lifetime + r.protection, r.max_lifetime);
    notice_at = at_least_zero(kill - r.notice);
}

/// Running time a ruled path needs from launch to finish if nothing interrupts it.
template <class F>
[[gnu::always_inline]] inline F time_to_finish(const RuledPath<F>& s, const LaunchShape<F>& c, const RuleShape<F>& r) {
    return ((s.restart + s.full_left * c.seg) + s.last_work) + r.delta;
}

/// One launch of a ruled path, taken back `kill` hours after it starts with the notice at `notice_at`
/// (= kill without one): bills it (`paid`: its running hours), updates the path, and returns whether
/// the job is done. Interrupted during the restart: nothing done or lost. In a segment: without an
/// emergency checkpoint its work so far is lost (all of it while its checkpoint is written); with one,
/// the notice stops the work and a checkpoint saves it (the rest of the job is planned afresh), or the
/// checkpoint under way completes. The wait before the next launch is added to the wall time. `floor`
/// must be exact for 0 <= x < 2^52.
template <class F, class Floor>
[[gnu::always_inline]] inline auto ruled_launch(const F& kill, const F& notice_at, RuledPath<F>& s,
                                                const LaunchShape<F>& c, const RuleShape<F>& r, Floor floor,
                                                F& paid) {
    const F need = time_to_finish(s, c, r);
    const auto done = need <= kill;
    const F stop = r.emergency ? notice_at : kill;
    const auto in_restart = stop < s.restart;
    const auto cut = negate(either(done, in_restart));  // stopped in a segment or its checkpoint
    // Whole segments finished in the u hours run after the restart (at most full_left), and how far
    // into the next one.
    const F u = select(in_restart, c.zero, stop - s.restart);
    F m = floor(u * c.inv_seg);
    m = select(both(m * c.seg > u, m > c.zero), m - c.one, m);  // u * (1 / seg) rounded up across a multiple
    m = smaller(m, s.full_left);
    const F offset = u - m * c.seg;
    const auto in_last = m == s.full_left;
    const F seg_work = select(in_last, s.last_work, c.tau);
    const auto writing = offset >= seg_work;  // the segment's checkpoint was being written
    F full_left = s.full_left - m;
    F last_work = s.last_work;
    F lost = s.lost;
    F billed = stop;
    auto rounding_done = c.zero > c.zero;  // no lane
    if (r.emergency) {
        // Mid-segment: the emergency checkpoint saves the work so far; what is left is planned afresh.
        const auto save = both(negate(writing), offset > c.zero);
        const F remaining = ((s.full_left - m) * c.tau + s.last_work) - offset;
        const F replanned = segment_count(remaining, c.tau, floor) - c.one;
        // Writing: that checkpoint completes in the notice (in the last segment only by rounding: done).
        full_left = select(writing, full_left - c.one, select(save, replanned, full_left));
        last_work = select(save, remaining - replanned * c.tau, last_work);
        billed = select(writing, stop + ((seg_work + r.delta) - offset), select(save, stop + r.delta, stop));
        lost = lost + select(either(writing, save), c.zero, at_least_zero(offset));
        rounding_done = both(writing, in_last);
    } else {
        lost = lost + select(writing, seg_work, at_least_zero(offset));
    }
    const auto finished = either(done, both(cut, rounding_done));
    s.full_left = select(cut, full_left, s.full_left);
    s.last_work = select(cut, last_work, s.last_work);
    s.lost = select(cut, lost, s.lost);
    paid = select(done, need, select(in_restart, stop, billed));
    s.interruptions = s.interruptions + select(finished, c.zero, c.one);
    s.billed = s.billed + paid;
    s.charged = s.charged + charged_hours(paid, r, floor);
    s.wall = s.wall + select(finished, paid, paid + r.wait);
    s.restart = c.restart;
    return finished;
}

}  // namespace
#pragma GCC diagnostic pop
}  // namespace gputco::detail
