// Demand as the provider bills it (programme.hpp, billed_demand): what the recommender's programme
// prices when its plans are billed per whole instance.
#include "programme.hpp"

#include "../engines/instruments/on_demand.hpp"

namespace gputco::detail {

int billed_unit_gpus(const Offering& offering, const RecommendOptions& o) {
    return billed_units(o) == Units::instances ? offering.gpus_per_instance : 1;
}

Units billed_units(const RecommendOptions& o) { return o.unit == CountUnit::instances ? Units::instances : Units::gpus; }

DemandFutures billed_demand(const DemandFutures& futures, int gpus_per_instance) {
    // paid_for_hour is non-decreasing: each month's hours keep their order.
    return futures.with_hours_mapped([g = double(gpus_per_instance)](double x) { return instruments::paid_for_hour(x, g); });
}

}  // namespace gputco::detail
