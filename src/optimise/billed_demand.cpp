// Demand as the provider bills it (programme.hpp, billed_demand): what the recommender's programme
// prices when its plans are billed per whole instance.
#include "programme.hpp"

#include "../engines/instruments/on_demand.hpp"

namespace gputco::detail {

int billed_unit_gpus(const Offering& offering, const RecommendOptions& o) {
    return o.unit == CountUnit::instances ? offering.gpus_per_instance : 1;
}

DemandFutures billed_demand(const DemandFutures& futures, int gpus_per_instance) {
    std::vector<DemandProfile> profiles;
    profiles.reserve(futures.count());
    for (std::size_t f = 0; f < futures.count(); ++f) {
        Eigen::ArrayXd hours = futures.profile(f).gpus_per_hour();
        for (double& x : hours) x = instruments::paid_for_hour(x, gpus_per_instance);
        profiles.push_back(DemandProfile::hourly(std::move(hours)));
    }
    return DemandFutures::from_profiles(profiles);
}

}  // namespace gputco::detail
