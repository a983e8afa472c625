// The rectangle-wedge-tail tables of the Exp(1) draws (spot_lanes.hpp: ExponentialTables), built once.
#include "spot_lanes.hpp"

namespace gputco::detail {

namespace {

// The point of [low, high] where `positive` turns false (true at low, false at high), to the last bit.
template <class Predicate>
double bisect(double low, double high, Predicate positive) {
    for (;;) {
        const double mid = 0.5 * (low + high);
        if (mid <= low || mid >= high) return low;
        (positive(mid) ? low : high) = mid;
    }
}

double exp_minus(double x) { return exp_of<double>(-x); }

ExponentialTables build() {
    ExponentialTables t{};
    constexpr std::size_t slots = ExponentialTables::slots;
    constexpr double area = 1.0 / slots;  // every slot's share of the area under e^-x
    // Rectangle 0: [0, c] x [0, e^-c] of the area, c e^-c = area with c > 1 (where c e^-c decreases).
    t.edge[0] = bisect(1.0, 64.0, [&](double c) { return c * exp_minus(c) > area; });
    t.height[0] = exp_minus(t.edge[0]);
    std::size_t n = 1;
    for (; n < slots; ++n) {
        // Rectangle n: [0, c] x [below, e^-c] of the area, c the larger root of
        // c (e^-c - below) = area. That product peaks where e^-c (1 - c) = below (c <= 1) and decreases
        // after, down to -area at the rectangle beneath's end.
        const double below = t.height[n - 1], beneath = t.edge[n - 1];
        const auto room = [&](double c) { return c * (exp_minus(c) - below) - area; };
        const double peak = beneath > 1.0 && room(1.0) >= 0.0
                                ? 1.0
                                : bisect(0.0, beneath < 1.0 ? beneath : 1.0,
                                         [&](double c) { return exp_minus(c) * (1.0 - c) > below; });
        if (room(peak) < 0.0) break;  // no rectangle of the area fits: the rest is the cap
        t.edge[n] = bisect(peak, beneath, [&](double c) { return room(c) > 0.0; });
        t.height[n] = exp_minus(t.edge[n]);
    }
    t.rectangles = n;
    constexpr double per_point = 1.0 / static_cast<double>(std::uint64_t{1} << ExponentialTables::point_bits);
    for (std::size_t j = 0; j < n; ++j) t.width[j] = t.edge[j] * per_point;
    // The remainder's pieces: the tail, then wedge j over [edge[j], edge[j-1]] (the curve above the
    // height e^-edge[j-1]), then the cap over [0, edge[n-1]].
    t.cumulative[0] = 0;
    t.cumulative[1] = t.height[0];  // the tail beyond edge[0]: its area is e^-edge[0]
    for (std::size_t j = 1; j <= n; ++j) {
        const double left = j < n ? t.edge[j] : 0.0, right = t.edge[j - 1];
        const double top = j < n ? t.height[j] : 1.0, bottom = t.height[j - 1];
        t.cumulative[j + 1] = t.cumulative[j] + ((top - bottom) - (right - left) * bottom);
    }
    // The guide: for each share k / slots of the remainder, the piece it falls in (searches go up from it).
    std::size_t piece = 0;
    for (std::size_t k = 0; k < slots; ++k) {
        const double share = static_cast<double>(k) / static_cast<double>(slots) * t.cumulative[n + 1];
        while (t.cumulative[piece + 1] <= share && piece < n) ++piece;
        t.guide[k] = static_cast<std::uint16_t>(piece);
    }
    return t;
}

}  // namespace

const ExponentialTables& exponential_tables() {
    static const ExponentialTables tables = build();
    return tables;
}

}  // namespace gputco::detail
