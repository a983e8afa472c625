// Deadline policies when the on-demand failover may find no capacity (capacity_risk.hpp).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "deadline_rules.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "gputco/engines/capacity_risk.hpp"

namespace gputco {

namespace {

void require_covers(std::string_view field, const SpotAvailability& trace, const DeadlineJob& job) {
    const double tick = trace.tick_hours;
    require(tick == 0 || std::abs(tick - job.tick_hours) <= 1e-9 * job.tick_hours, fmt::format("{}.tick_hours", field),
            tick, fmt::format("must equal deadline_job.tick_hours = {} (resample the trace with resampled())", job.tick_hours));
    require(trace.ticks() >= job.deadline_ticks(), fmt::format("{}.ticks", field), trace.ticks(),
            fmt::format("must cover the deadline, >= {} ticks", job.deadline_ticks()));
}


void check_run(const DeadlineJob& job, const SpotAvailability& spot, const SpotAvailability& on_demand,
               double spot_price, double on_demand_price) {
    job.validate();
    require_positive("spot_price_per_hour", spot_price);
    require_positive("on_demand_price_per_hour", on_demand_price);
    require_covers("availability", spot, job);
    require_covers("on_demand", on_demand, job);
}

}  // namespace

void OnDemandCapacity::validate(std::string_view field) const {
    require(unavailable_share >= 0 && unavailable_share < 1, fmt::format("{}.unavailable_share", field),
            unavailable_share, "must be in [0, 1)");
    require_positive(fmt::format("{}.mean_wait_hours", field), mean_wait_hours);
}

MarkovAvailability OnDemandCapacity::process() const {
    validate();
    // u = 0 never waits: an up period far beyond any horizon (1e12 h).
    const double up = unavailable_share == 0 ? 1e12 : mean_wait_hours * (1 - unavailable_share) / unavailable_share;
    return {.mean_up_hours = up, .mean_down_hours = mean_wait_hours};
}

DeadlineResult simulate_deadline_with_capacity(const DeadlineJob& job, const SpotAvailability& spot,
                                               const SpotAvailability& on_demand, DeadlinePolicy policy,
                                               double spot_price_per_hour, double on_demand_price_per_hour) {
    check_run(job, spot, on_demand, spot_price_per_hour, on_demand_price_per_hour);
    return deadline_rules::run_policy(job, spot, &on_demand, policy, spot_price_per_hour, on_demand_price_per_hour).result;
}

DeadlineCapacityRisk deadline_capacity_risk(const DeadlineJob& job, const MarkovAvailability& spot,
                                            const OnDemandCapacity& capacity, DeadlinePolicy policy,
                                            double spot_price_per_hour, double on_demand_price_per_hour,
                                            const CapacityRiskOptions& options) {
    job.validate();
    require(options.paths > 0, "options.paths", options.paths, "must be > 0");
    spot.validate(job.tick_hours);
    const MarkovAvailability od = capacity.process();
    od.validate(job.tick_hours);
    const std::size_t ticks = job.deadline_ticks();
    DeadlineCapacityRisk out;
    out.paths = options.paths;
    double sum = 0, sum_sq = 0;
    std::size_t met = 0, found = 0;
    for (std::size_t i = 0; i < options.paths; ++i) {
        const auto spot_trace = SpotAvailability::markov(spot, ticks, job.tick_hours, splitmix64(2 * options.seed + 2 * i));
        const auto od_trace = SpotAvailability::markov(od, ticks, job.tick_hours, splitmix64(2 * options.seed + 2 * i + 1));
        if (i == 0) check_run(job, spot_trace, od_trace, spot_price_per_hour, on_demand_price_per_hour);
        const deadline_rules::PolicyRun run =
            deadline_rules::run_policy(job, spot_trace, &od_trace, policy, spot_price_per_hour, on_demand_price_per_hour);
        sum += run.result.cost;
        sum_sq += run.result.cost * run.result.cost;
        met += run.result.met_deadline ? 1 : 0;
        found += run.capacity_found ? 1 : 0;
    }
    const auto n = static_cast<double>(options.paths);
    out.mean_cost = sum / n;
    out.cost_standard_error = options.paths > 1 ? std::sqrt(std::max(0.0, (sum_sq - sum * sum / n) / (n - 1)) / n) : 0;
    out.deadline_met_probability = static_cast<double>(met) / n;
    out.capacity_found_probability = static_cast<double>(found) / n;
    return out;
}

}  // namespace gputco
