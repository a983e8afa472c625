// A CVaR95 limit as cuts generated on demand (see tail_cuts.hpp).
#include "tail_cuts.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gputco::detail {
namespace {

/// The piece of S_1 in force at u (the last whose breakpoint is at or below it).
std::size_t piece_at(const std::vector<Cut>& pieces, double u) {
    const auto after = std::upper_bound(pieces.begin(), pieces.end(), u,
                                        [](double c, const Cut& piece) { return c < piece.value; });
    return std::size_t(std::max<std::ptrdiff_t>(0, after - pieces.begin() - 1));
}

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

}  // namespace

TailCuts::TailCuts(std::vector<FutureCost> futures, std::vector<int> columns, std::vector<std::vector<double>> linear,
                   double limit)
    : futures_(std::move(futures)), columns_(std::move(columns)), linear_(std::move(linear)), limit_(limit),
      tail_(std::size_t(std::ceil(0.05 * double(futures_.size())))) {}  // the engine's CVaR95: worst ⌈5% n⌉

bool TailCuts::add_if_violated(Mip& mip, const std::vector<double>& x) {
    const std::size_t n = futures_.size();
    std::vector<double> cost(n);
    for (std::size_t f = 0; f < n; ++f) {
        double c = futures_[f].constant;
        for (std::size_t k = 0; k < columns_.size(); ++k) c += linear_[k][f] * x[std::size_t(columns_[k])];
        for (const FutureCost::Term& t : futures_[f].terms) {
            const double y = x[std::size_t(t.capacity)] + (t.spot >= 0 ? x[std::size_t(t.spot)] : 0.0);
            const Cut& piece = (*t.pieces)[piece_at(*t.pieces, y / t.level)];
            c -= t.weight * (t.level * piece.served + piece.slope * (y - t.level * piece.value));
        }
        cost[f] = c;
    }
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::nth_element(order.begin(), order.begin() + std::ptrdiff_t(tail_ - 1), order.end(),
                     [&](std::size_t a, std::size_t b) { return cost[a] > cost[b] || (cost[a] == cost[b] && a < b); });
    order.resize(tail_);
    std::sort(order.begin(), order.end());
    double worst = 0;
    for (std::size_t f : order) worst += cost[f];
    last_cvar95_ = worst / double(tail_);
    last_violated_ = last_cvar95_ > limit_ + 1e-9 * (1.0 + std::abs(limit_));
    if (!last_violated_) return false;

    // Σ_{f∈T} tangent_f(columns) <= k × limit, the tangent of each curve taken on its piece at x.
    std::vector<double> coefficient(std::size_t(mip.column_count()), 0.0);
    double rhs = double(tail_) * limit_;
    std::uint64_t key = 0;
    for (std::size_t f : order) {
        key = mix(key, f);
        rhs -= futures_[f].constant;
        for (std::size_t k = 0; k < columns_.size(); ++k) coefficient[std::size_t(columns_[k])] += linear_[k][f];
        for (const FutureCost::Term& t : futures_[f].terms) {
            const double y = x[std::size_t(t.capacity)] + (t.spot >= 0 ? x[std::size_t(t.spot)] : 0.0);
            const std::size_t j = piece_at(*t.pieces, y / t.level);
            key = mix(key, j);
            const Cut& piece = (*t.pieces)[j];
            // weight × S(y) <= weight × (level (served − slope value) + slope y): cost >= its tangent.
            rhs += t.weight * t.level * (piece.served - piece.slope * piece.value);
            coefficient[std::size_t(t.capacity)] -= t.weight * piece.slope;
            if (t.spot >= 0) coefficient[std::size_t(t.spot)] -= t.weight * piece.slope;
        }
    }
    if (!keys_.insert(key).second) return false;  // the same row again: CBC's tolerance, not a new cut
    std::vector<int> cols;
    std::vector<double> coef;
    for (std::size_t c = 0; c < coefficient.size(); ++c)
        if (coefficient[c] != 0.0) cols.push_back(int(c)), coef.push_back(coefficient[c]);
    mip.add_row(cols, coef, 'L', rhs);
    return true;
}

}  // namespace gputco::detail
