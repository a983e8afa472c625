// The accumulator (accumulator.hpp): sample columns and the summaries of a run.
#include "accumulator.hpp"

#include <limits>
#include <vector>

#include "executor.hpp"
#include "path_pricer.hpp"

namespace gputco::spot {

void resize_samples(SpotSamples& s, std::size_t paths, unsigned threads) {
    std::vector<double>* columns[] = {&s.wall_hours,      &s.billed_hours,     &s.cost, &s.interruptions,
                                      &s.lost_work_hours, &s.charged_hours};
    for_each_parallel(6, paths < (1u << 16) ? 1 : threads, [&](std::size_t c) { columns[c]->resize(paths); });
}

detail::Columns columns_from(SpotSamples& s, std::size_t begin) {
    return {s.wall_hours.data() + begin,    s.billed_hours.data() + begin,    s.cost.data() + begin,
            s.interruptions.data() + begin, s.lost_work_hours.data() + begin, s.charged_hours.data() + begin, 1};
}

detail::Columns lane_of(const detail::Columns& out, std::size_t lane) {
    return {out.wall + lane,          out.billed + lane, out.cost + lane, out.interruptions + lane,
            out.lost + lane,          out.charged + lane, detail::spot_lanes};
}

void summarize_run(SpotResult& result, const Job& job, const SpotPricing& pricing, double confidence,
                   unsigned threads) {
    const SpotSamples& s = result.samples;
    const std::vector<double>* series[] = {&s.wall_hours, &s.billed_hours, &s.cost, &s.interruptions,
                                           &s.lost_work_hours};
    Summary* targets[] = {&result.wall_hours, &result.billed_hours, &result.cost, &result.interruptions,
                          &result.lost_work_hours};
    for_each_parallel(5, threads, [&](std::size_t k) { *targets[k] = summarize(*series[k], confidence); });
    result.charged_hours =
        Billing(pricing).continuous() ? result.billed_hours : summarize(s.charged_hours, confidence);
    std::size_t missed = 0;
    for (double w : s.wall_hours) missed += w > job.deadline_hours ? 1 : 0;
    result.deadline_miss_probability = static_cast<double>(missed) / static_cast<double>(s.wall_hours.size());
    result.effective_price_per_useful_hour = result.cost.mean / job.work_hours;
    result.effective_discount = pricing.on_demand_price_per_hour > 0
                                    ? 1.0 - result.cost.mean / (pricing.on_demand_price_per_hour * job.work_hours)
                                    : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace gputco::spot
