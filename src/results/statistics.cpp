#include "gputco/results/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <boost/math/distributions/students_t.hpp>

#include "gputco/core/error.hpp"

namespace gputco {
namespace {

void require_samples(std::span<const double> samples) {
    require(!samples.empty(), "samples.size", samples.size(), "must be > 0");
    for (std::size_t i = 0; i < samples.size(); ++i) {
        if (!std::isfinite(samples[i])) fail("samples[" + std::to_string(i) + "]", samples[i], "must be a finite number");
    }
}

// x[r] and x[r + 1] of the sorted samples (x[r + 1] = x[r] when r is the last rank).
struct RankPair {
    double at, next;
};

// Selection on a copy: each nth_element works on the part above the previous rank, so k ascending
// ranks cost about two passes over the data.
void select_ranks(std::span<const double> samples, std::span<const std::size_t> ranks, std::span<RankPair> out) {
    std::vector<double> work(samples.begin(), samples.end());
    auto from = work.begin();
    for (std::size_t k = 0; k < ranks.size(); ++k) {
        const auto at = work.begin() + static_cast<std::ptrdiff_t>(ranks[k]);
        std::nth_element(from, at, work.end());
        out[k] = {*at, at + 1 == work.end() ? *at : *std::min_element(at + 1, work.end())};
        from = at;
    }
}

// Type-7 quantiles at four ascending `levels` (values in [0, 1]). For large samples, by bands: a
// sorted systematic subsample of 16,384 values brackets each wanted rank by +-4.5 binomial standard
// deviations of the subsample's rank (plus a margin); brackets that overlap merge. One branch-free
// pass counts the samples below each band and copies those inside, and selection runs on the bands
// only (a few percent of the samples). Exact either way: a bracket that misses its rank (odds about
// 1e-5 each), or a copy that fills (heavy ties), falls back to selection on all the samples.
void type7_quantiles(std::span<const double> samples, std::span<const double, 4> levels, double* out) {
    const std::size_t n = samples.size();
    const std::size_t count = levels.size();
    std::vector<std::size_t> ranks(count);
    std::vector<double> fractions(count);
    for (std::size_t k = 0; k < count; ++k) {
        const double h = static_cast<double>(n - 1) * levels[k];
        ranks[k] = static_cast<std::size_t>(std::floor(h));
        fractions[k] = h - std::floor(h);
    }
    std::vector<RankPair> pairs(count);
    std::vector<std::size_t> missed;
    constexpr std::size_t subsample = 16384;
    if (n < 8 * subsample) {
        select_ranks(samples, ranks, pairs);
    } else {
        std::vector<double> sub(subsample);
        for (std::size_t i = 0; i < subsample; ++i) sub[i] = samples[i * n / subsample];
        std::sort(sub.begin(), sub.end());
        const double inf = std::numeric_limits<double>::infinity();
        // Bands [low, high] (inclusive), ascending and disjoint; band_of[k] is level k's.
        std::vector<double> low, high, band_share;  // band_share: its expected share of the samples
        std::vector<std::size_t> band_of(count);
        for (std::size_t k = 0; k < count; ++k) {
            const double q = levels[k];
            const double centre = q * static_cast<double>(subsample);
            const double reach = 4.5 * std::sqrt(static_cast<double>(subsample) * q * (1.0 - q)) + 8.0;
            const double lo = std::floor(centre - reach), hi = std::ceil(centre + reach);
            const double l = lo < 0.0 ? -inf : sub[static_cast<std::size_t>(lo)];
            const double h = hi >= static_cast<double>(subsample) ? inf : sub[static_cast<std::size_t>(hi)];
            const double share = (hi - lo) / static_cast<double>(subsample);
            if (!low.empty() && l <= high.back()) {
                high.back() = std::max(high.back(), h);
                band_share.back() += share;
            } else {
                low.push_back(l);
                high.push_back(h);
                band_share.push_back(share);
            }
            band_of[k] = low.size() - 1;
        }
        // At most one band per level; padded to four with empty ones ([+inf, -inf]), so that the pass
        // below is a fixed, branch-free loop.
        constexpr std::size_t max_bands = levels.extent;
        const std::size_t bands = low.size();
        double lows[max_bands], highs[max_bands];
        for (std::size_t b = 0; b < max_bands; ++b) {
            lows[b] = b < bands ? low[b] : inf;
            highs[b] = b < bands ? high[b] : -inf;
        }
        // One pass, two samples at a time (SSE2 or NEON, the baseline of x86-64 and arm64): count the
        // samples >= low and <= high of each band, and copy those inside a band, branch-free (every
        // sample is written, the cursor moves past those inside). The copy has room for twice the
        // expected count; should it fill, the bands are left and all samples are selected instead.
        using pair = double __attribute__((vector_size(16)));
        using counts = long long __attribute__((vector_size(16)));
        double expected = 0;
        for (std::size_t b = 0; b < bands; ++b) expected += static_cast<double>(n) * band_share[b];
        std::vector<double> kept(static_cast<std::size_t>(2.0 * expected) + 64);
        const std::size_t room = kept.size() - 2;
        std::size_t cursor = 0;
        bool overflow = false;
        counts at_least[max_bands] = {}, at_most[max_bands] = {};
        const std::size_t even = n - n % 2;
        for (std::size_t i = 0; i < even; i += 2) {
            pair x;
            std::memcpy(&x, samples.data() + i, sizeof x);
            counts in = {};
            for (std::size_t b = 0; b < max_bands; ++b) {
                const counts ge = x >= lows[b], le = x <= highs[b];  // true is -1 in each lane
                at_least[b] -= ge;
                at_most[b] -= le;
                in |= ge & le;
            }
            if (cursor > room) [[unlikely]] {
                overflow = true;
                continue;
            }
            kept[cursor] = x[0];
            cursor += static_cast<std::size_t>(in[0] & 1);
            kept[cursor] = x[1];
            cursor += static_cast<std::size_t>(in[1] & 1);
        }
        std::size_t at_least_low[max_bands], at_most_high[max_bands];
        for (std::size_t b = 0; b < max_bands; ++b) {
            at_least_low[b] = static_cast<std::size_t>(at_least[b][0] + at_least[b][1]);
            at_most_high[b] = static_cast<std::size_t>(at_most[b][0] + at_most[b][1]);
        }
        if (even < n) {  // the odd last sample
            const double x = samples[n - 1];
            bool in = false;
            for (std::size_t b = 0; b < max_bands; ++b) {
                at_least_low[b] += x >= lows[b] ? 1 : 0;
                at_most_high[b] += x <= highs[b] ? 1 : 0;
                in = in || (x >= lows[b] && x <= highs[b]);
            }
            if (in && cursor < kept.size()) kept[cursor++] = x;
        }
        kept.resize(overflow ? 0 : cursor);  // a filled copy leaves the bands empty: every rank misses
        std::vector<std::vector<double>> band_values(bands);
        for (const double x : kept) {
            for (std::size_t b = 0; b < bands; ++b) {
                if (x >= low[b] && x <= high[b]) band_values[b].push_back(x);
            }
        }
        for (std::size_t k = 0; k < count; ++k) {
            const std::size_t b = band_of[k];
            std::vector<double>& band = band_values[b];
            const std::size_t below = n - at_least_low[b];  // samples < low
            const std::size_t r = ranks[k];
            const bool last = r + 1 == n;
            if (r < below || r + (last ? 0 : 1) >= below + band.size()) {
                missed.push_back(k);
                continue;
            }
            const auto at = band.begin() + static_cast<std::ptrdiff_t>(r - below);
            std::nth_element(band.begin(), at, band.end());  // band's order may change: later ranks are above
            pairs[k] = {*at, last ? *at : *std::min_element(at + 1, band.end())};
        }
    }
    if (!missed.empty()) {
        std::vector<std::size_t> missed_ranks;
        for (const std::size_t k : missed) missed_ranks.push_back(ranks[k]);
        std::vector<RankPair> found(missed.size());
        select_ranks(samples, missed_ranks, found);
        for (std::size_t j = 0; j < missed.size(); ++j) pairs[missed[j]] = found[j];
    }
    for (std::size_t k = 0; k < count; ++k) out[k] = pairs[k].at + fractions[k] * (pairs[k].next - pairs[k].at);
}

}  // namespace

double quantile_sorted(std::span<const double> sorted, double q) {
    const double h = static_cast<double>(sorted.size() - 1) * q;
    const double lower = std::floor(h);
    const auto i = static_cast<std::size_t>(lower);
    if (i + 1 >= sorted.size()) return sorted.back();
    return sorted[i] + (h - lower) * (sorted[i + 1] - sorted[i]);
}

double quantile(std::span<const double> samples, double q) {
    require_fraction("q", q);
    require_samples(samples);
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    return quantile_sorted(sorted, q);
}

Moments Moments::of(std::span<const double> samples) {
    Moments m;
    m.count = samples.size();
    if (samples.empty()) return m;
    const double n = static_cast<double>(m.count);
    // Two passes (mean, then squared deviations) in sample order: stable and reproducible. (Four
    // interleaved partial sums were tried: no faster, the passes take about 1 ms per 10^6 samples of the
    // summary's 7-10, the rest being the quantiles.)
    double sum = 0, lowest = samples[0], highest = samples[0];
    for (const double x : samples) {
        sum += x;
        lowest = x < lowest ? x : lowest;
        highest = x > highest ? x : highest;
    }
    // A NaN or an infinity makes the sum NaN or infinite: only then look for the culprit (the sum of
    // finite samples can overflow too; then none is named and the mean is infinite).
    if (!std::isfinite(sum)) require_samples(samples);
    m.mean = sum / n;
    m.min = lowest;
    m.max = highest;
    const double mean = m.mean;
    double squares = 0;
    for (const double x : samples) squares += (x - mean) * (x - mean);
    m.squared_deviations = squares;
    return m;
}

void Moments::merge(const Moments& other) {
    if (other.count == 0) return;
    if (count == 0) {
        *this = other;
        return;
    }
    const double a = static_cast<double>(count), b = static_cast<double>(other.count);
    const double n = a + b;
    const double delta = other.mean - mean;
    mean += delta * (b / n);
    squared_deviations += other.squared_deviations + delta * delta * (a * b / n);
    min = other.min < min ? other.min : min;
    max = other.max > max ? other.max : max;
    count += other.count;
}

namespace {

// The summary; `checked`: the quantile samples are known finite (those the moments were taken of).
Summary summary_of(const Moments& moments, std::span<const double> quantile_samples, double confidence,
                   bool checked) {
    require(confidence > 0.0 && confidence < 1.0, "confidence", confidence, "must be in (0, 1)");
    require(moments.count > 0, "samples.size", moments.count, "must be > 0");
    require(!quantile_samples.empty(), "quantile_samples.size", quantile_samples.size(), "must be > 0");

    Summary s;
    s.count = moments.count;
    const double n = static_cast<double>(s.count);
    s.mean = moments.mean;
    s.min = moments.min;
    s.max = moments.max;
    if (s.count > 1) {
        s.standard_error = std::sqrt(moments.squared_deviations / (n - 1.0) / n);
        const boost::math::students_t_distribution<double> t(n - 1.0);
        const double t_value = boost::math::quantile(boost::math::complement(t, (1.0 - confidence) / 2.0));
        s.ci_low = s.mean - t_value * s.standard_error;
        s.ci_high = s.mean + t_value * s.standard_error;
    } else {
        s.standard_error = s.ci_low = s.ci_high = std::numeric_limits<double>::quiet_NaN();
    }

    if (!checked) require_samples(quantile_samples);
    const double levels[] = {0.50, 0.90, 0.95, 0.99};
    double values[4];
    type7_quantiles(quantile_samples, levels, values);
    s.p50 = values[0];
    s.p90 = values[1];
    s.p95 = values[2];
    s.p99 = values[3];
    return s;
}

}  // namespace

Summary summarize(const Moments& moments, std::span<const double> quantile_samples, double confidence) {
    return summary_of(moments, quantile_samples, confidence, false);
}

Summary summarize(std::span<const double> samples, double confidence) {
    require(confidence > 0.0 && confidence < 1.0, "confidence", confidence, "must be in (0, 1)");
    require(!samples.empty(), "samples.size", samples.size(), "must be > 0");
    return summary_of(Moments::of(samples), samples, confidence, true);
}

}  // namespace gputco
