// Dated prices: an offering's snapshots, the price in force at a date, and the catalog at a date.
#include <algorithm>

#include <fmt/format.h>

#include "gputco/catalog/catalog.hpp"

namespace gputco {

std::vector<PriceSnapshot> Offering::snapshots() const {
    std::vector<PriceSnapshot> out;
    out.push_back(PriceSnapshot{effective_from.value_or(Date{0, 1, 1}), on_demand_hourly, spot_hourly, reserved, source,
                                notes, spot_only});
    out.insert(out.end(), history.begin(), history.end());
    // An undated listing sorts first (year 0); it is in force wherever no dated snapshot is.
    std::stable_sort(out.begin(), out.end(),
                     [](const PriceSnapshot& a, const PriceSnapshot& b) { return a.effective_from < b.effective_from; });
    return out;
}

namespace {

/// The index into snapshots() in force at `date`, or -1.
std::ptrdiff_t in_force(const std::vector<PriceSnapshot>& snaps, const Date& date) {
    std::ptrdiff_t best = -1;
    for (std::size_t i = 0; i < snaps.size(); ++i) {
        if (snaps[i].effective_from <= date) best = static_cast<std::ptrdiff_t>(i);
    }
    return best;
}

}  // namespace

bool Offering::has_price_at(const Date& date) const { return !effective_from || in_force(snapshots(), date) >= 0; }

Offering Offering::price_at(const Date& date) const {
    const std::vector<PriceSnapshot> snaps = snapshots();
    std::ptrdiff_t i = in_force(snaps, date);
    if (i < 0 && !effective_from) i = 0;  // only reached if every dated snapshot is later: the undated listing
    if (i < 0) {
        fail("date", date.iso(), fmt::format("before the first price of {} ({})", key(), snaps.front().effective_from.iso()));
    }
    const PriceSnapshot& s = snaps[static_cast<std::size_t>(i)];
    Offering out = *this;
    out.history.clear();
    out.on_demand_hourly = s.on_demand_hourly;
    out.spot_hourly = s.spot_hourly;
    out.reserved = s.reserved;
    out.source = s.source;
    out.notes = s.notes;
    out.spot_only = s.spot_only;
    if (s.spot_only) {
        // Sold only as spot at that date: no term of the offering's listing was on sale then.
        out.savings_plans.clear();
        out.month_terms.clear();
        out.capacity_block_hourly.reset();
        out.reservation_only = false;
    }
    const bool undated = !effective_from && s.effective_from == Date{0, 1, 1};
    out.effective_from = undated ? std::nullopt : std::optional<Date>(s.effective_from);
    return out;
}

Catalog Catalog::as_of(const Date& date) const {
    std::vector<Offering> offerings;
    for (const Offering& o : offerings_) {
        if (o.has_price_at(date)) offerings.push_back(o.price_at(date));
    }
    return Catalog(gpus_, std::move(offerings));
}

Catalog Catalog::with_snapshots(const Catalog& other) const {
    std::vector<Offering> offerings = offerings_;
    for (std::size_t k = 0; k < other.offerings_.size(); ++k) {
        const Offering& theirs = other.offerings_[k];
        auto mine = std::find_if(offerings.begin(), offerings.end(), [&](const Offering& o) { return o.key() == theirs.key(); });
        if (mine == offerings.end()) {
            offerings.push_back(theirs);
            continue;
        }
        require(theirs.effective_from.has_value(), fmt::format("offerings[{}].effective_from", k), theirs.key(),
                "must be set to add the prices as a dated snapshot of an existing offering");
        for (const PriceSnapshot& s : theirs.snapshots()) {
            if (mine->effective_from == s.effective_from) {  // the listed prices are replaced
                mine->on_demand_hourly = s.on_demand_hourly;
                mine->spot_hourly = s.spot_hourly;
                mine->reserved = s.reserved;
                mine->source = s.source;
                mine->notes = s.notes;
                mine->spot_only = s.spot_only;
                continue;
            }
            auto same = std::find_if(mine->history.begin(), mine->history.end(),
                                     [&](const PriceSnapshot& h) { return h.effective_from == s.effective_from; });
            if (same != mine->history.end()) *same = s;
            else mine->history.push_back(s);
        }
        std::sort(mine->history.begin(), mine->history.end(),
                  [](const PriceSnapshot& a, const PriceSnapshot& b) { return a.effective_from < b.effective_from; });
    }
    return Catalog(gpus_, std::move(offerings));
}

}  // namespace gputco
