#pragma once
// Dated windows inside a month (demand windows and capacity blocks). The engine knows a month only by
// its sorted hours, not by their dates, so a window's hours are taken as a fair sample of the month's
// hours: a month split into pieces of constant extra demand e and block capacity b is the mixture,
// weighted by each piece's share of the month's hours, of the month with every hour's load moved by
// k = e − b (up: d + k; down: max(0, d − |k|)). Exact when the steady demand is flat over the month.
// The blocks serve first; what the month then leaves is what the other tiers see (WindowMonth).
#include <algorithm>
#include <span>
#include <vector>

#include "gputco/core/time.hpp"
#include "gputco/work/demand_window.hpp"
#include "on_demand.hpp"

namespace gputco::instruments {

/// A share `weight` of a month's hours with `extra` GPUs of window demand and `block` GPUs of
/// capacity blocks.
struct Piece {
    double weight = 0;
    double extra = 0;
    double block = 0;
};

/// An interval of the horizon in hours with `gpus` GPUs (a window's demand or a block's capacity).
struct HourSpan {
    double start = 0;
    double end = 0;
    double gpus = 0;
};

/// Per month of `months`, its pieces (empty when no window or block touches it), the pieces of a
/// touched month covering all of its hours (the untouched hours as one piece with e = b = 0).
std::vector<std::vector<Piece>> month_pieces(std::span<const HourSpan> windows, std::span<const HourSpan> blocks,
                                             int months);

/// A month with every hour's load moved by `shift` GPUs (clamped at 0), as a demand month of the plan
/// core: S_k(c) = Σ_h min(max(0, d_h + k), c) from the month's own S.
template <class Month>
struct ShiftedMonth {
    const Month* base;
    double shift;
    double hours() const { return double(base->sorted().size()); }
    double served_up_to(double c) const {
        if (c <= 0) return 0.0;
        if (shift >= 0) return c <= shift ? c * hours() : shift * hours() + base->served_up_to(c - shift);
        return base->served_up_to(c - shift) - base->served_up_to(-shift);
    }
    double total() const {
        return shift >= 0 ? base->total() + shift * hours() : base->total() - base->served_up_to(-shift);
    }
    double peak() const { return std::max(0.0, base->peak() + shift); }
    std::span<const double> sorted() const { return base->sorted(); }
    double level() const { return base->level(); }
    double offset() const { return base->offset() + shift; }
};

/// A month with windows: the pieces' shifted months, weighted, after the blocks (each piece's load
/// d + e − b). `block_used` is what the blocks serve: Σ weight × Σ_h min(d_h + e, b).
template <class Month>
struct WindowMonth {
    std::vector<ShiftedMonth<Month>> parts;
    std::vector<double> weights;
    double block_used = 0;

    WindowMonth(const Month& base, std::span<const Piece> pieces) {
        for (const Piece& p : pieces) {
            if (p.weight <= 0) continue;
            const ShiftedMonth<Month> with_window{&base, p.extra};
            block_used += p.weight * with_window.served_up_to(p.block);
            parts.push_back({&base, p.extra - p.block});
            weights.push_back(p.weight);
        }
    }
    template <class F>
    double sum(F f) const {
        double s = 0;
        for (std::size_t i = 0; i < parts.size(); ++i) s += weights[i] * f(parts[i]);
        return s;
    }
    double served_up_to(double c) const {
        return sum([c](const ShiftedMonth<Month>& p) { return p.served_up_to(c); });
    }
    double total() const {
        return sum([](const ShiftedMonth<Month>& p) { return p.total(); });
    }
    double peak() const {
        double top = 0;
        for (const auto& p : parts) top = std::max(top, p.peak());
        return top;
    }
};

/// paid_between of a month with windows: each piece's own, weighted (whole instances are paid for
/// the load each piece really has, not for their average).
template <class Month>
double paid_between(const WindowMonth<Month>& month, double low, double high, int gpus_per_unit) {
    return month.sum([&](const ShiftedMonth<Month>& p) { return paid_between(p, low, high, gpus_per_unit); });
}

}  // namespace gputco::instruments
