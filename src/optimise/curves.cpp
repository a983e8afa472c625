// Served-hours curves as affine pieces (see programme.hpp): each month's S_1 through its breakpoints,
// scaled to a level, and summed over futures.
#include <algorithm>

#include "programme.hpp"

namespace gputco::detail {

std::vector<Cut> cuts_of(const MonthShape& shape, int max_blocks) {
    std::vector<double> values{0.0};
    for (double s : shape.sorted)
        if (s > values.back()) values.push_back(s);
    if (int(values.size()) > max_blocks + 1) {
        std::vector<double> chosen{0.0};
        const std::size_t n = shape.sorted.size();
        for (int j = 1; j <= max_blocks; ++j) {
            const double s = shape.sorted[std::min(n - 1, std::size_t(double(j) * double(n) / max_blocks + 0.5) - 1)];
            if (s > chosen.back()) chosen.push_back(s);
        }
        values = std::move(chosen);
    }
    std::vector<Cut> cuts;
    for (std::size_t j = 0; j < values.size(); ++j) {
        const double served = shape.served_up_to(1.0, values[j]);
        const double slope =
            j + 1 < values.size() ? (shape.served_up_to(1.0, values[j + 1]) - served) / (values[j + 1] - values[j]) : 0.0;
        cuts.push_back({values[j], served, slope});
    }
    return cuts;
}

/// Σ_f weight_f × S_f(C) over a month's futures, S_f = level_f × the pieces of its shape: concave and
/// piecewise linear in C with a kink at every level_f × breakpoint; returned as its pieces
/// (value = the kink in GPUs, served = the sum there, slope to the next kink).
std::vector<Cut> sum_of_pieces(const std::vector<std::pair<double, const std::vector<Cut>*>>& terms,
                               const std::vector<double>& weights) {
    std::vector<std::pair<double, double>> kinks;  // (capacity, change of slope)
    double slope = 0;
    for (std::size_t f = 0; f < terms.size(); ++f) {
        const auto& [level, pieces] = terms[f];
        slope += weights[f] * (*pieces)[0].slope;  // d/dC of L S_1(C / L) is the piece's slope
        for (std::size_t j = 1; j < pieces->size(); ++j)
            kinks.push_back({level * (*pieces)[j].value, weights[f] * ((*pieces)[j].slope - (*pieces)[j - 1].slope)});
    }
    std::sort(kinks.begin(), kinks.end());
    std::vector<Cut> out{{0.0, 0.0, slope}};
    for (const auto& [at, change] : kinks) {
        Cut& last = out.back();
        if (at > last.value) {
            out.push_back({at, last.served + last.slope * (at - last.value), last.slope + change});
        } else {
            last.slope += change;
        }
    }
    return out;
}

std::vector<Cut> scaled(const std::vector<Cut>& pieces, double level) {
    std::vector<Cut> out = pieces;
    for (Cut& piece : out) {
        piece.value *= level;
        piece.served *= level;
    }
    return out;
}

std::vector<Cut> shifted(const std::vector<Cut>& pieces, double extra) {
    if (extra <= 0.0) return pieces;
    std::vector<Cut> out{{0.0, 0.0, hours_per_month}};  // every hour busy up to `extra`
    for (const Cut& piece : pieces)
        out.push_back({piece.value + extra, piece.served + hours_per_month * extra, piece.slope});
    return out;
}

}  // namespace gputco::detail
