// Exact type-7 quantiles by selection (quantiles.hpp).
//
// Small sample sets: selection on a copy. Large ones: a systematic subsample brackets each wanted
// rank by +-4.5 binomial standard deviations of the subsample's rank (plus a margin; the bracketing
// ranks of the subsample are selected, not sorted); brackets that overlap merge into bands. One pass
// over the samples counts those at or above each band's low end and at or below its high end and
// copies those inside a band (a few percent), and selection runs on the copy only, band by band. The same
// pass takes the sum of squared deviations for the standard error, so a summary reads its samples
// twice (sum, then this pass) instead of three times. Exact either way: a bracket that misses its rank
// (odds about 1e-5 each), or a copy that fills (heavy ties), falls back to selection on all samples.
#include "quantiles.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

namespace gputco::detail {
namespace {

// x[r] and x[r + 1] of the sorted samples (x[r + 1] = x[r] when r is the last rank).
struct RankPair {
    double at, next;
};

// Selection in place: each nth_element works on the part above the previous rank, so k ascending
// ranks cost about two passes over the data.
void select_ranks(std::span<double> work, std::span<const std::size_t> ranks, std::span<RankPair> out) {
    auto from = work.begin();
    for (std::size_t k = 0; k < ranks.size(); ++k) {
        const auto at = work.begin() + static_cast<std::ptrdiff_t>(ranks[k]);
        std::nth_element(from, at, work.end());
        out[k] = {*at, at + 1 == work.end() ? *at : *std::min_element(at + 1, work.end())};
        from = at;
    }
}

constexpr std::size_t max_bands = 4;  // one per level at most

// What the pass over all samples finds.
struct PassResult {
    std::size_t at_least_low[max_bands] = {};  // samples >= each band's low end
    std::size_t at_most_high[max_bands] = {};  // samples <= each band's high end
    std::size_t kept = 0;                      // samples copied (inside a band)
    bool overflow = false;                     // the copy filled
    double squares = 0;
};

// GCC/Clang vectors of `width` doubles and of as many 64-bit lanes (a comparison's result).
template <std::size_t width>
struct Vectors;
template <>
struct Vectors<2> {
    using values = double __attribute__((vector_size(16)));
    using lanes = long long __attribute__((vector_size(16)));
};
template <>
struct Vectors<8> {
    using values = double __attribute__((vector_size(64)));
    using lanes = long long __attribute__((vector_size(64)));
};

// The pass, `width` samples at a time in GCC/Clang vectors (compiled for SSE2/NEON and AVX-512 below).
// Every sample is written to the copy and the cursor moves past those inside a band: branch-free.
// Bands are [lows[b], highs[b]], ascending and disjoint; unused ones are [+inf, -inf].
template <std::size_t width, bool with_squares>
[[gnu::always_inline]] inline PassResult band_pass_body(std::span<const double> samples, const double* lows,
                                                        const double* highs, double mean, double* kept,
                                                        std::size_t capacity) {
    using values = typename Vectors<width>::values;
    using lanes = typename Vectors<width>::lanes;
    static_assert(summing_lanes % width == 0, "whole vectors of partial sums");
    constexpr std::size_t group = summing_lanes / width;  // vectors of partial sums
    PassResult r;
    lanes at_least[max_bands] = {}, at_most[max_bands] = {};
    std::size_t cursor = 0;
    values squares[group] = {};  // sample i into partial sum i % summing_lanes
    const std::size_t n = samples.size();
    const std::size_t whole = n - n % summing_lanes;
    const std::size_t room = capacity - width;  // capacity > width: the last block's writes fit
    for (std::size_t i = 0; i < whole; i += width) {
        values x;
        std::memcpy(&x, samples.data() + i, sizeof x);
        lanes in = {};
        for (std::size_t b = 0; b < max_bands; ++b) {
            const lanes ge = x >= lows[b], le = x <= highs[b];  // true is -1 in each lane
            at_least[b] -= ge;
            at_most[b] -= le;
            in |= ge & le;
        }
        if constexpr (with_squares) {
            const values d = x - mean;
            squares[(i / width) % group] += d * d;  // as Moments::of
        }
        if (cursor > room) [[unlikely]] {
            r.overflow = true;
            cursor = 0;
        }
        for (std::size_t j = 0; j < width; ++j) {
            kept[cursor] = x[j];
            cursor += static_cast<std::size_t>(in[j] & 1);
        }
    }
    for (std::size_t b = 0; b < max_bands; ++b) {
        for (std::size_t j = 0; j < width; ++j) {
            r.at_least_low[b] += static_cast<std::size_t>(at_least[b][j]);
            r.at_most_high[b] += static_cast<std::size_t>(at_most[b][j]);
        }
    }
    double partial[summing_lanes];
    for (std::size_t k = 0; k < group; ++k)
        for (std::size_t j = 0; j < width; ++j) partial[k * width + j] = squares[k][j];
    for (std::size_t i = whole; i < n; ++i) {  // the last few samples
        const double x = samples[i];
        bool in = false;
        for (std::size_t b = 0; b < max_bands; ++b) {
            r.at_least_low[b] += x >= lows[b] ? 1 : 0;
            r.at_most_high[b] += x <= highs[b] ? 1 : 0;
            in = in || (x >= lows[b] && x <= highs[b]);
        }
        if constexpr (with_squares) {
            const double d = x - mean;
            partial[i % summing_lanes] += d * d;
        }
        if (in && cursor < capacity) kept[cursor++] = x;
        r.overflow = r.overflow || (in && cursor == capacity);
    }
    r.kept = cursor;
    r.squares = add_lanes(partial);
    return r;
}

using BandPass = PassResult (*)(std::span<const double>, const double*, const double*, double, double*,
                                std::size_t);

template <bool with_squares>
PassResult band_pass_portable(std::span<const double> s, const double* lows, const double* highs, double mean,
                              double* kept, std::size_t capacity) {
    return band_pass_body<2, with_squares>(s, lows, highs, mean, kept, capacity);  // SSE2, NEON
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// Eight at a time where the CPU has AVX-512: the same operations, so the same counts, copy and squares.
// (Four at a time with AVX2 measured slower than two, benchmarks/README.md.)
template <bool with_squares>
__attribute__((target("avx512f"))) PassResult band_pass_avx512(std::span<const double> s, const double* lows,
                                                               const double* highs, double mean, double* kept,
                                                               std::size_t capacity) {
    return band_pass_body<8, with_squares>(s, lows, highs, mean, kept, capacity);
}
#endif

// The widest vectors this CPU has, in doubles.
std::size_t cpu_width() {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return 8;
#endif
    return 2;
}

template <bool with_squares>
BandPass band_pass_of_width(std::size_t width) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    if (width >= 8) return band_pass_avx512<with_squares>;
#else
    (void)width;
#endif
    return band_pass_portable<with_squares>;
}

PassResult band_pass(std::span<const double> samples, const double* lows, const double* highs, const double* mean,
                     double* kept, std::size_t capacity, std::size_t max_width) {
    static const std::size_t widest = cpu_width();
    const std::size_t width = std::min(widest, max_width);
    return mean ? band_pass_of_width<true>(width)(samples, lows, highs, *mean, kept, capacity)
                : band_pass_of_width<false>(width)(samples, lows, highs, 0.0, kept, capacity);
}

// The ranks of the sorted subsample at `positions` (ascending, distinct), by chained selection:
// the same values a full sort would put there.
void select_positions(std::vector<double>& sub, std::span<const std::size_t> positions, double* values) {
    auto from = sub.begin();
    for (std::size_t k = 0; k < positions.size(); ++k) {
        const auto at = sub.begin() + static_cast<std::ptrdiff_t>(positions[k]);
        std::nth_element(from, at, sub.end());
        values[k] = *at;
        from = at;
    }
}

}  // namespace

QuantilePass type7_quantiles(std::span<const double> samples, std::span<const double, 4> levels, const double* mean,
                             BandTuning tuning) {
    const std::size_t n = samples.size();
    constexpr std::size_t count = levels.extent;
    std::size_t ranks[count];
    double fractions[count];
    for (std::size_t k = 0; k < count; ++k) {
        const double h = static_cast<double>(n - 1) * levels[k];
        ranks[k] = static_cast<std::size_t>(std::floor(h));
        fractions[k] = h - std::floor(h);
    }
    QuantilePass result;
    RankPair pairs[count];
    std::size_t missed[count];
    std::size_t misses = 0;
    if (n < tuning.min_samples) {
        if (mean) result.squared_deviations = squared_deviations(samples, *mean);
        std::vector<double> work(samples.begin(), samples.end());
        select_ranks(work, ranks, pairs);
    } else {
        const std::size_t m = tuning.subsample;
        std::vector<double> sub(m);
        for (std::size_t i = 0; i < m; ++i) sub[i] = samples[i * n / m];
        const double inf = std::numeric_limits<double>::infinity();
        // Each level's bracket [lo, hi] in ranks of the sorted subsample; -1 and m stand for -inf and
        // +inf. Only these (at most 8) ranks of the subsample are needed, not its full sort.
        double lo[count], hi[count];
        std::vector<std::size_t> wanted;
        for (std::size_t k = 0; k < count; ++k) {
            const double q = levels[k];
            const double centre = q * static_cast<double>(m);
            const double reach = 4.5 * std::sqrt(static_cast<double>(m) * q * (1.0 - q)) + 8.0;
            lo[k] = std::floor(centre - reach);
            hi[k] = std::ceil(centre + reach);
            if (lo[k] >= 0.0) wanted.push_back(static_cast<std::size_t>(lo[k]));
            if (hi[k] < static_cast<double>(m)) wanted.push_back(static_cast<std::size_t>(hi[k]));
        }
        std::sort(wanted.begin(), wanted.end());
        wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
        std::vector<double> wanted_values(wanted.size());
        select_positions(sub, wanted, wanted_values.data());
        const auto sub_value = [&](double rank) {
            if (rank < 0.0) return -inf;
            if (rank >= static_cast<double>(m)) return inf;
            const auto r = static_cast<std::size_t>(rank);
            return wanted_values[static_cast<std::size_t>(std::lower_bound(wanted.begin(), wanted.end(), r) - wanted.begin())];
        };
        // Bands [lows[b], highs[b]], ascending and disjoint, padded to four with empty ones so that the
        // pass is a fixed loop; band_of[k] is level k's; share: a band's expected share of the samples.
        double lows[max_bands], highs[max_bands], share[max_bands];
        std::size_t band_of[count];
        std::size_t bands = 0;
        for (std::size_t k = 0; k < count; ++k) {
            const double l = sub_value(lo[k]), h = sub_value(hi[k]);
            const double s = (hi[k] - lo[k]) / static_cast<double>(m);
            if (bands > 0 && l <= highs[bands - 1]) {
                highs[bands - 1] = std::max(highs[bands - 1], h);
                share[bands - 1] += s;
            } else {
                lows[bands] = l;
                highs[bands] = h;
                share[bands] = s;
                ++bands;
            }
            band_of[k] = bands - 1;
        }
        double expected = 0;
        for (std::size_t b = 0; b < bands; ++b) expected += static_cast<double>(n) * share[b];
        for (std::size_t b = bands; b < max_bands; ++b) {
            lows[b] = inf;
            highs[b] = -inf;
        }
        // The copy has room for twice the expected count; left uninitialised (every slot it uses is
        // written first), so that only the pages the copy reaches are touched.
        const std::size_t capacity = static_cast<std::size_t>(2.0 * expected) + 64;
        const std::unique_ptr<double[]> kept(new double[capacity]);
        const PassResult pass = band_pass(samples, lows, highs, mean, kept.get(), capacity, tuning.max_width);
        result.squared_deviations = pass.squares;
        // The copy holds the bands' samples in sample order: grouped by band (a counting sort on the
        // band), each band's samples are ranks below[b] on of all samples, below[b] the count under
        // its low end. Selection then runs within the band of each level.
        const std::size_t copied = pass.overflow ? 0 : pass.kept;  // a filled copy: every rank misses
        std::size_t in_band[max_bands] = {}, start[max_bands] = {};
        for (std::size_t b = 0; b < bands; ++b) {
            in_band[b] = pass.overflow ? 0 : pass.at_most_high[b] - (n - pass.at_least_low[b]);
            if (b > 0) start[b] = start[b - 1] + in_band[b - 1];
        }
        // The counting sort's cursors in registers, not in an array: consecutive values of one band
        // would otherwise wait for each other's increment through memory.
        std::vector<double> grouped(copied);
        std::size_t slot0 = start[0], slot1 = start[1], slot2 = start[2], slot3 = start[3];
        for (std::size_t i = 0; i < copied; ++i) {
            const double x = kept[i];
            const bool above1 = x >= lows[1], above2 = x >= lows[2], above3 = x >= lows[3];  // bands ascend
            const std::size_t b0 = !above1, b1 = above1 && !above2, b2 = above2 && !above3, b3 = above3;
            grouped[(slot0 & (0 - b0)) | (slot1 & (0 - b1)) | (slot2 & (0 - b2)) | (slot3 & (0 - b3))] = x;
            slot0 += b0;
            slot1 += b1;
            slot2 += b2;
            slot3 += b3;
        }
        for (std::size_t b = 0; b < bands; ++b) {
            const std::size_t below = n - pass.at_least_low[b];  // samples < lows[b]
            std::size_t band_ranks[count], levels_in_band[count];
            std::size_t found = 0;
            for (std::size_t k = 0; k < count; ++k) {
                if (band_of[k] != b) continue;
                const std::size_t r = ranks[k];
                const bool last = r + 1 == n;
                if (r < below || r + (last ? 0 : 1) >= below + in_band[b]) {
                    missed[misses++] = k;
                    continue;
                }
                band_ranks[found] = r - below;
                levels_in_band[found++] = k;
            }
            if (found == 0) continue;  // (then the copy may be empty: no pointer into it)
            RankPair in_copy[count];
            select_ranks({grouped.data() + start[b], in_band[b]}, {band_ranks, found}, {in_copy, found});
            for (std::size_t j = 0; j < found; ++j) pairs[levels_in_band[j]] = in_copy[j];
        }
    }
    if (misses > 0) {
        std::size_t missed_ranks[count];
        for (std::size_t j = 0; j < misses; ++j) missed_ranks[j] = ranks[missed[j]];
        RankPair again[count];
        std::vector<double> work(samples.begin(), samples.end());
        select_ranks(work, {missed_ranks, misses}, {again, misses});
        for (std::size_t j = 0; j < misses; ++j) pairs[missed[j]] = again[j];
    }
    for (std::size_t k = 0; k < count; ++k) {
        result.quantiles[k] = interpolate(pairs[k].at, pairs[k].next, fractions[k]);
    }
    return result;
}

double squared_deviations(std::span<const double> samples, double mean) {
    double lanes[summing_lanes] = {};
    const std::size_t whole = samples.size() - samples.size() % summing_lanes;
    for (std::size_t i = 0; i < whole; i += summing_lanes) {
        for (std::size_t j = 0; j < summing_lanes; ++j) {
            const double d = samples[i + j] - mean;
            lanes[j] += d * d;
        }
    }
    for (std::size_t i = whole; i < samples.size(); ++i) {
        const double d = samples[i] - mean;
        lanes[i % summing_lanes] += d * d;
    }
    return add_lanes(lanes);
}

}  // namespace gputco::detail
