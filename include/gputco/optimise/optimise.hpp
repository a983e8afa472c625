#pragma once
// Choosing parameters: how many GPUs to reserve for a demand profile.
//
//   const ReservationAdvice advice = optimal_reservation(demand, offering, Reserved{.term_years = 3});
//   advice.reserved_gpus;   // cover demand up to its (1 − c_r / p) quantile, the rest on demand
#include "gputco/engines/cost.hpp"

namespace gputco {

struct ReservationAdvice {
    double reserved_gpus = 0;         ///< GPUs to reserve, a whole number of units
    int gpus_per_unit = 1;            ///< GPUs per unit bought: the instance size, or 1 for Units::gpus
    double critical_fraction = 0;     ///< 1 − c_r / p: reserve up to this quantile of hourly demand
    double demand_covered_fraction = 0;  ///< share of hours whose demand the reservation covers, F(r)
    double effective_reserved_rate = 0;  ///< c_r per GPU-hour, after the region factor
    double on_demand_rate = 0;           ///< p per GPU-hour as paid: after the region factor and on-demand discount
    CostReport report;                   ///< the advised mix: `reserved_gpus` reserved, the rest on demand
};

/// The newsvendor answer: hourly cost r·c_r + p·E[(D − r)+] is least at the smallest whole r with
/// F(r) ≥ 1 − c_r / p, F the distribution of hourly demand over the horizon. So a 3-year reservation
/// at 61.9% off covers demand up to its 61.9th percentile. p is the on-demand price the user pays
/// (region factor, on-demand discount; vouchers scale both sides alike). The engine then has the last word:
/// the advice is the count whose report has the least NPV (= total at rate 0) among its neighbours
/// one unit (instance, or GPU with Units::gpus) more and fewer, and never costs more than all
/// on-demand, so free hours, terms outlasting the horizon and discounting are accounted for.
ReservationAdvice optimal_reservation(const DemandProfile& demand, const Offering& offering,
                                      const Reserved& reserved, const EvaluationOptions& options = {});

}  // namespace gputco
