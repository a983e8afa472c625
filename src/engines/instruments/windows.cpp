// Dated windows inside a month (windows.hpp) and the check of a demand window (demand_window.hpp).
#include "windows.hpp"

#include <cmath>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"

namespace gputco {

void check_window(const DemandWindow& w, std::string_view field, int horizon_months) {
    const std::string f(field);
    require_non_negative(f + ".start_day", w.start_day);
    require_positive(f + ".days", w.days);
    require_at_most(f + ".gpus", w.gpus, limits::max_gpus);
    const double horizon_days = horizon_months * hours_per_month / 24.0;
    require(w.start_day + w.days <= horizon_days, f + ".days", w.days,
            fmt::format("must end inside the horizon: start_day {:g} + days <= {:g} ({} months of 730 h)", w.start_day,
                        horizon_days, horizon_months));
}

namespace instruments {

std::vector<std::vector<Piece>> month_pieces(std::span<const HourSpan> windows, std::span<const HourSpan> blocks,
                                             int months) {
    std::vector<std::vector<Piece>> out(std::size_t(std::max(months, 0)));
    for (int m = 0; m < months; ++m) {
        const double first = m * hours_per_month, last = first + hours_per_month;
        std::vector<double> cuts{first, last};
        bool touched = false;
        for (const auto* list : {&windows, &blocks}) {
            for (const HourSpan& s : *list) {
                if (s.gpus <= 0 || s.end <= first || s.start >= last) continue;
                touched = true;
                cuts.push_back(std::clamp(s.start, first, last));
                cuts.push_back(std::clamp(s.end, first, last));
            }
        }
        if (!touched) continue;
        std::sort(cuts.begin(), cuts.end());
        cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
        std::vector<Piece>& pieces = out[std::size_t(m)];
        for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
            const double mid = 0.5 * (cuts[i] + cuts[i + 1]);
            Piece p{(cuts[i + 1] - cuts[i]) / hours_per_month, 0, 0};
            for (const HourSpan& s : windows)
                if (s.start <= mid && mid < s.end) p.extra += s.gpus;
            for (const HourSpan& s : blocks)
                if (s.start <= mid && mid < s.end) p.block += s.gpus;
            // Pieces alike are one piece: fewer shifted months to price.
            const auto same = std::find_if(pieces.begin(), pieces.end(),
                                           [&](const Piece& q) { return q.extra == p.extra && q.block == p.block; });
            if (same != pieces.end()) same->weight += p.weight;
            else pieces.push_back(p);
        }
    }
    return out;
}

}  // namespace instruments
}  // namespace gputco
