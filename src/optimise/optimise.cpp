#include "gputco/optimise/optimise.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "gputco/core/limits.hpp"

namespace gputco {

ReservationAdvice optimal_reservation(const DemandProfile& demand, const Offering& offering, const Reserved& reserved,
                                      const EvaluationOptions& options) {
    // Price one reserved GPU through the engine itself, so catalog prices, discounts and region
    // factors mean exactly what they mean in evaluate().
    const Mix one_gpu{{{1.0, reserved}}, 1.0, Rounding::none};
    const CostReport probe = evaluate(one_gpu, DemandProfile::constant(0, demand.horizon()), offering, options);
    ReservationAdvice advice;
    // The on-demand price paid for one more hour; vouchers scale both sides alike and cancel.
    advice.on_demand_rate = offering.on_demand_per_gpu_hour() * options.discounts.region_price_factor *
                            (1.0 - options.discounts.on_demand_discount);
    advice.effective_reserved_rate = probe.break_even_utilisation.value_or(0.0) * advice.on_demand_rate;
    // A free on-demand price makes every reservation a loss: reserve nothing (and report 0, not 0/0).
    advice.critical_fraction =
        advice.on_demand_rate > 0 ? 1.0 - advice.effective_reserved_rate / advice.on_demand_rate : 0.0;

    // Smallest whole r with F(r) = P(D <= r) >= 1 − c_r / p: the newsvendor start. F jumps only at the
    // sorted demands, so with k the fewest hours whose share reaches the critical fraction,
    // r = ceil(k-th smallest demand): O(n log n) whatever the demand's size (stepping r up by one
    // took 10^10 steps for 10^10 GPUs).
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
    double start = k == 0 ? 0.0 : std::ceil(sorted[k - 1]);
    // Bought in whole units (instances or GPUs): start at the units that hold r GPUs, step by one unit.
    const double unit = options.units == Units::instances ? offering.gpus_per_instance : 1;
    start = unit * std::ceil(start / unit);

    // The newsvendor ignores what it cannot see (free hours, terms outlasting the horizon, NPV), so the
    // engine has the last word: walk to a count no worse than one unit more or fewer, from the start
    // and from none, and keep the cheaper. Cost is convex in r in the plain cases, and then this walk
    // stays at the start. Each walk takes at most max_steps units (NPVs from evaluate_batch(), equal to
    // evaluate()'s), so a demand of 1e9 GPUs does not walk up from none one unit at a time.
    constexpr int max_steps = 64;
    std::map<double, double> npvs;  // reserved GPUs → NPV, each count priced once
    const auto mix_of = [&](double r) -> Strategy { return Mix{{{1.0, reserved}}, r, Rounding::none}; };
    const auto npv_of = [&](double r) {
        if (!npvs.count(r)) {
            // The count and its neighbours in one batch: the baseline is costed once for the three.
            std::vector<double> counts;
            std::vector<Strategy> mixes;
            for (const double c : {r - unit, r, r + unit}) {
                if (c >= 0 && c <= limits::max_gpus && !npvs.count(c)) counts.push_back(c), mixes.push_back(mix_of(c));
            }
            const std::vector<CostFigures> rows = evaluate_batch(mixes, demand, offering, options);
            for (std::size_t i = 0; i < counts.size(); ++i) npvs.emplace(counts[i], rows[i].npv);
        }
        return npvs.at(r);
    };
    const auto descend = [&](double r) {
        for (int step = 0; step < max_steps; ++step) {
            const double here = npv_of(r);
            if (r >= unit && npv_of(r - unit) < here) r -= unit;
            else if (r + unit <= limits::max_gpus && npv_of(r + unit) < here) r += unit;  // a fleet's limit
            else break;
        }
        return r;
    };
    const double from_start = descend(start);
    const double from_none = start > 0 ? descend(0) : from_start;
    const double r = npv_of(from_none) < npv_of(from_start) ? from_none : from_start;

    advice.reserved_gpus = r;
    advice.gpus_per_unit = int(unit);
    advice.demand_covered_fraction = covered(r);
    advice.report = evaluate(mix_of(r), demand, offering, options);  // its NPV is npv_of(r), bit for bit
    return advice;
}

}  // namespace gputco
