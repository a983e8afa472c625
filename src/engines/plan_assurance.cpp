// A plan's capacity assurance (capacity_risk.hpp): the share of its demanded GPU-hours served by
// capacity that is there, from the plan engine's own hours.
#include <algorithm>

#include "gputco/core/error.hpp"
#include "gputco/engines/capacity_risk.hpp"

namespace gputco {

namespace {

/// Reserved (every commitment kind) and owned GPU-hours used, summed over the mean months.
double reserved_and_owned(const PlanDistribution& d) {
    double hours = 0;
    for (const MonthlyCashFlow& m : d.mean_months) hours += m.reserved_used_gpu_hours + m.owned_used_gpu_hours;
    return hours;
}

}  // namespace

double capacity_assurance(const Plan& plan, const PlanDistribution& evaluated, const DemandFutures& futures,
                          const Offering& offering, const OnDemandCapacity& capacity, const PricePaths& prices,
                          const PlanOptions& options) {
    capacity.validate();
    double demanded = 0, spot = 0;
    for (const MonthlyCashFlow& m : evaluated.mean_months) {
        demanded += m.used_gpu_hours;
        spot += m.spot_gpu_hours;
    }
    if (demanded <= 0.0 || capacity.unavailable_share == 0.0) return 1.0;
    double reserved = reserved_and_owned(evaluated);
    if (!plan.savings_plans.empty()) {
        // A Savings Plan is a price on on-demand capacity; the reservations, served before it, serve
        // the same hours without it.
        Plan without = plan;
        without.savings_plans.clear();
        reserved = reserved_and_owned(evaluate_plan(without, futures, offering, prices, options));
    }
    const double on_demand_capacity_hours = std::max(0.0, demanded - reserved - spot);
    return 1.0 - capacity.unavailable_share * on_demand_capacity_hours / demanded;
}

double capacity_assurance(const Plan& plan, const DemandFutures& futures, const Offering& offering,
                          const OnDemandCapacity& capacity, const PricePaths& prices, const PlanOptions& options) {
    capacity.validate();
    return capacity_assurance(plan, evaluate_plan(plan, futures, offering, prices, options), futures, offering,
                              capacity, prices, options);
}

}  // namespace gputco
