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
    // A free on-demand price makes every reservation a loss: reserve nothing (and report 0, not 0/0).
    advice.critical_fraction =
        advice.on_demand_rate > 0.0 ? 1.0 - advice.effective_reserved_rate / advice.on_demand_rate : 0.0;

    // Smallest whole r with F(r) = P(D <= r) >= 1 − c_r / p. F jumps only at the sorted demands, so
    // with k the fewest hours whose share reaches the critical fraction, r = ceil(k-th smallest demand):
    // found in O(n log n) whatever the demand's size (stepping r by 1 took 10^10 steps for 10^10 GPUs).
    const auto& hours = demand.gpus_per_hour();
    std::vector<double> sorted(hours.begin(), hours.end());
    std::sort(sorted.begin(), sorted.end());
    const auto covered = [&](double r) {
        return double(std::upper_bound(sorted.begin(), sorted.end(), r) - sorted.begin()) / double(sorted.size());
    };
    const auto share = [&](std::size_t k) { return double(k) / double(sorted.size()); };
    std::size_t k = 0, hi = sorted.size();  // share(n) = 1 >= the critical fraction (<= 1)
    while (k < hi) {
        const std::size_t mid = k + (hi - k) / 2;
        if (share(mid) >= advice.critical_fraction) hi = mid;
        else k = mid + 1;
    }
    const double r = k == 0 ? 0.0 : std::ceil(sorted[k - 1]);
    advice.reserved_gpus = r;
    advice.demand_covered_fraction = covered(r);
    advice.report = evaluate(Mix{{{1.0, reserved}}, r, Rounding::none}, demand, offering, options);
    return advice;
}

}  // namespace gputco
