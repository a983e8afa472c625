// The prices a recommendation study's baselines are bought at (include/gputco/app/study.hpp).
#include "gputco/app/study.hpp"

#include <algorithm>

namespace gputco {

Offering offering_for_baselines(const Offering& offering, const CommitmentOption& commitment) {
    if (!commitment.reservation_discount) return offering;
    Offering out = offering;
    std::erase_if(out.reserved, [&](const ReservedPrice& r) {
        return r.term_years == commitment.term_years && r.payment == commitment.payment && !r.convertible;
    });
    out.reserved.push_back(reserved_from_discount(offering.on_demand_hourly, *commitment.reservation_discount, commitment.term_years,
                                                  commitment.payment,
                                                  Source{"the commitment's discount", offering.source.as_of}));
    return out;
}

}  // namespace gputco
