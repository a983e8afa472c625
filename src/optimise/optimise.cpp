#include "gputco/optimise/optimise.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace gputco {

ReservationAdvice optimal_reservation(const DemandProfile& demand, const Offering& offering, const Reserved& reserved,
                                      const EvaluationOptions& options) {
    // Price one reserved GPU through the engine itself, so catalog prices, discounts and region
    // factors mean exactly what they mean in evaluate().
    const Mix one_gpu{{{1.0, reserved}}, 1.0, Rounding::none};
    const CostReport probe = evaluate(one_gpu, DemandProfile::constant(0, demand.horizon()), offering, options);
    ReservationAdvice advice;
    advice.on_demand_rate = offering.on_demand_per_gpu_hour() * options.discounts.region_price_factor;
    advice.effective_reserved_rate = probe.break_even_utilisation.value_or(0.0) * advice.on_demand_rate;
    advice.critical_fraction = 1.0 - advice.effective_reserved_rate / advice.on_demand_rate;

    // Smallest whole r with F(r) = P(D <= r) >= 1 − c_r / p.
    const auto& hours = demand.gpus_per_hour();
    std::vector<double> sorted(hours.begin(), hours.end());
    std::sort(sorted.begin(), sorted.end());
    const auto covered = [&](double r) {
        return double(std::upper_bound(sorted.begin(), sorted.end(), r) - sorted.begin()) / double(sorted.size());
    };
    double r = 0;
    while (covered(r) < advice.critical_fraction) r += 1.0;
    advice.reserved_gpus = r;
    advice.demand_covered_fraction = covered(r);
    advice.report = evaluate(Mix{{{1.0, reserved}}, r, Rounding::none}, demand, offering, options);
    return advice;
}

}  // namespace gputco
