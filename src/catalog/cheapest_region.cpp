// cheapest_region_per_instance: the cheapest region of an instance type per way of buying.
#include "gputco/catalog/cheapest_region.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace gputco {

namespace {

/// The lowest effective hourly rate over the offering's reservations; infinity when it has none.
double best_reserved(const Offering& o) {
    double best = std::numeric_limits<double>::infinity();
    for (const ReservedPrice& r : o.reserved) best = std::min(best, r.effective_hourly());
    return best;
}

}  // namespace

std::vector<Offering> cheapest_region_per_instance(const std::vector<Offering>& offerings) {
    using Group = std::tuple<std::string, std::string, std::string>;  // provider, instance type, currency
    struct Best {
        std::size_t first = 0;
        std::size_t on_demand = SIZE_MAX, spot = SIZE_MAX, reserved = SIZE_MAX;
    };
    std::map<Group, Best> groups;
    const double inf = std::numeric_limits<double>::infinity();
    auto better = [&](std::size_t& slot, std::size_t i, double price, auto&& price_of) {
        if (price == inf) return;
        if (slot == SIZE_MAX || price < price_of(offerings[slot])) slot = i;  // strict: ties keep the first
    };
    for (std::size_t i = 0; i < offerings.size(); ++i) {
        const Offering& o = offerings[i];
        auto [it, fresh] = groups.try_emplace(Group{o.provider, o.instance_type, o.currency});
        Best& b = it->second;
        if (fresh) b.first = i;
        const auto od = [&](const Offering& x) { return x.sells_on_demand() ? x.on_demand_hourly : inf; };
        const auto spot = [&](const Offering& x) { return x.spot_hourly ? *x.spot_hourly : inf; };
        better(b.on_demand, i, od(o), od);
        better(b.spot, i, spot(o), spot);
        better(b.reserved, i, best_reserved(o), best_reserved);
    }
    std::set<std::size_t> keep;
    for (const auto& [group, b] : groups) {
        bool priced = false;
        for (std::size_t slot : {b.on_demand, b.spot, b.reserved})
            if (slot != SIZE_MAX) keep.insert(slot), priced = true;
        if (!priced) keep.insert(b.first);
    }
    std::vector<Offering> out;
    out.reserve(keep.size());
    for (std::size_t i : keep) out.push_back(offerings[i]);
    return out;
}

}  // namespace gputco
