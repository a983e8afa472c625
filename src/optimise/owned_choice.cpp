// Owned hardware in the recommender (see programme.hpp): what it holds, pays and costs per future,
// priced by the plan engine's own arithmetic, and the combinations of counts to try.
#include "programme.hpp"

#include "../engines/pricing.hpp"

namespace gputco::detail {

double owned_held(const std::vector<OwnedPurchase>& owned, int m) {
    double gpus = 0;
    for (const OwnedPurchase& p : owned)
        if (p.month <= m) gpus += p.gpus;
    return gpus;
}

/// Capex of `owned` paid in months [first, first + months) of the horizon: at purchase and at each
/// replacement, as the plan engine pays it.
double owned_capex_in(const std::vector<OwnedPurchase>& owned, int first, int months, int horizon) {
    double paid = 0;
    for (const OwnedPurchase& p : owned) {
        const int life = p.terms.life_years * months_per_year;
        for (int m = p.month; m < horizon; m += life)
            if (m >= first && m < first + months) paid += p.terms.capex_per_gpu * p.gpus;
    }
    return paid;
}

/// Each future's cost of `owned` (capex, resale, power with the hours owned GPUs serve first, fixed
/// costs), weighted as the objective: the plan engine's own arithmetic (pricing::PricedOwned).
std::vector<double> owned_costs(const DemandFutures& futures, const std::vector<OwnedPurchase>& owned,
                                const Setup& setup) {
    std::vector<double> costs(futures.count(), 0.0);
    if (owned.empty()) return costs;
    for (std::size_t f = 0; f < futures.count(); ++f)
        for (int m = 0; m < setup.horizon; ++m) {
            MonthlyCashFlow flow;
            const double level = futures.level(f, m);
            const MonthShape& shape = futures.shape(f, m);
            double capacity = 0, served = 0;
            for (const OwnedPurchase& p : owned) {
                if (m < p.month) continue;
                capacity += p.gpus;
                const double upto = shape.served_up_to(level, capacity);
                pricing::PricedOwned{p.gpus, p.month, p.terms}.add_month(m, setup.horizon, upto - served, flow);
                served = upto;
            }
            costs[f] += setup.weight[std::size_t(m)] * (flow.capex + flow.operating + flow.resale);
        }
    return costs;
}

std::vector<std::vector<OwnedPurchase>> owned_combinations(const RecommendOptions& o, int horizon) {
    if (!o.owned) return {{}};
    const OwnedOption& owned = *o.owned;
    const int levels = owned.max_gpus / owned.step_gpus + 1;
    std::vector<int> counts(owned.months.size(), 0);  // an odometer over the months' counts
    std::vector<std::vector<OwnedPurchase>> out;
    for (;;) {
        std::vector<OwnedPurchase> choice;
        for (std::size_t i = 0; i < counts.size(); ++i)
            if (counts[i] > 0)
                choice.push_back({.gpus = double(counts[i] * owned.step_gpus), .month = owned.months[i], .terms = owned.terms});
        bool within = true;
        if (o.limits.upfront_per_period)
            for (int first = 0; first < horizon; first += o.limits.upfront_period_months)
                within = within && owned_capex_in(choice, first, o.limits.upfront_period_months, horizon) <=
                                       *o.limits.upfront_per_period * (1 + 1e-12);
        if (within) out.push_back(std::move(choice));
        std::size_t i = 0;
        while (i < counts.size() && ++counts[i] == levels) counts[i++] = 0;
        if (i == counts.size()) break;
    }
    return out;
}

}  // namespace gputco::detail
