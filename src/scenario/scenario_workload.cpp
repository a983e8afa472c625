// A scenario's workloads: which offerings each is ranked on and with which options. The ranking itself
// is rank_offerings() (engines/work_cost.hpp), so a scenario and a direct call give the same rows.
#include <algorithm>

#include <fmt/format.h>

#include "gputco/scenario/scenario.hpp"

namespace gputco {

RankOptions WorkloadSpec::rank_options(const std::string& currency) const {
    RankOptions options;
    options.currency = currency;
    const auto buys = [&](BuyingWay way) { return std::find(buying.begin(), buying.end(), way) != buying.end(); };
    options.on_demand = buys(BuyingWay::on_demand);
    options.spot = buys(BuyingWay::spot);
    options.reserved = buys(BuyingWay::reserved);
    options.owned = buys(BuyingWay::owned);
    options.allow_estimates = allow_estimates;
    // A scenario names its offerings (or its GPUs' in the catalog it was given): each is ranked at the
    // price it has, however old; the rows' price_age_days and stale say how old.
    options.include_stale_prices = true;
    if (deadline_hours) options.deadline_hours = *deadline_hours;
    SpotAssumptions& s = options.spot_assumptions;
    s.mtbf_hours = mtbf_hours;
    s.checkpoint_write_hours = checkpoint_write_hours;
    s.restart_hours = restart_hours;
    s.capacity_wait_hours = capacity_wait_hours;
    s.simulation.paths = paths;
    return options;
}

Catalog WorkloadSpec::offerings_in(const Catalog& catalog, const Offering& scenario) const {
    std::vector<Offering> chosen;
    const auto add = [&](const Offering& o) {
        if (std::none_of(chosen.begin(), chosen.end(), [&](const Offering& c) { return c.key() == o.key(); }))
            chosen.push_back(o);
    };
    if (offerings.empty() && gpus.empty()) add(scenario);
    for (const OfferingRef& ref : offerings) {
        const Offering* found = ref.in(catalog);
        if (!found) fail("offerings", ref.key(), "not in the catalog");
        add(*found);
    }
    for (const std::string& gpu : gpus) {
        const auto& specs = catalog.gpus();
        if (std::none_of(specs.begin(), specs.end(), [&](const GpuSpec& g) { return g.name == gpu; }))
            fail("gpus", gpu, "not a GPU of the catalog");
        for (const Offering& o : catalog.offerings())
            if (o.gpu == gpu) add(o);
    }
    return Catalog(catalog.gpus(), std::move(chosen));
}

}  // namespace gputco
