#pragma once
// GCP Dynamic Workload Scheduler flex-start for a deadline job (docs/models.md, "Flex-start"): a
// request for the job's VMs waits in a queue for at most `request_valid_hours` (Google: up to two
// hours); granted, the VMs run uninterrupted for at most seven days at the flex-start price, billed
// while they run; not granted in that time, the request fails and another may be made.
//
//   const DeadlineJob job{.compute_hours = 100, .deadline_hours = 110};
//   const FlexStartResult r = flex_start_job(job, {.discount = 0.3, .grant_probability = 0.5}, 10.0);
//   r.expected_cost;          // 709.375: 5 requests fit the slack, all fail with probability 1/32
//
// The policy: before each request, make it only if, should it wait its whole window and then fail, on
// demand could still finish the rest by the deadline (with a launch after a granted run too); otherwise
// run the rest on demand. So the deadline is always met; what is uncertain is the cost. Runs longer
// than seven days are split, each run a new request and a new launch (changeover_hours, billed).
// Assumed: requests are granted independently with `grant_probability` (no public figure: give your
// own), on-demand capacity is there when the policy falls back, the time a granted request waited is at
// most its window (counted as the whole window: the guarantee holds for any wait).
#include "gputco/engines/deadline.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco {

struct FlexStart {
    /// Off the on-demand price, in [0, 1). Google publishes "discounted" flex-start SKUs per machine
    /// type, not one rate: take the discount from the price list of your machine type.
    double discount = 0;
    double request_valid_hours = 2;  ///< how long a request waits, (0, 2]
    double grant_probability = 1;    ///< P(a request is granted within its wait), (0, 1]: an assumption

    static constexpr double max_request_valid_hours = FlexStartRequest::max_queue_hours;  ///< Google's limit on the wait
    static constexpr double max_run_hours = FlexStartRequest::max_days * 24;  ///< seven days uninterrupted
    /// Throws InvalidInput naming the field ("flex_start.request_valid_hours = 3: must be in (0, 2] ...").
    void validate() const;
};

struct FlexStartResult {
    int runs = 0;                      ///< runs of at most 7 days the work needs, if all flex-start
    int most_requests = 0;             ///< requests the policy can make before it must fall back, at most
    double all_flex_cost = 0;          ///< every run granted at its first request
    double all_on_demand_cost = 0;     ///< the whole job on demand (one launch)
    double expected_cost = 0;          ///< over the requests' outcomes
    double cost_standard_deviation = 0;
    double fallback_probability = 0;   ///< P(some of the work runs on demand)
    double expected_flex_hours = 0;    ///< billed flex-start hours, expected
    double worst_finish_hours = 0;     ///< the latest the job can finish: <= deadline_hours
};

/// The job run by flex-start with on-demand fallback, at `on_demand_price_per_hour` for the job's
/// capacity (flex-start at (1 − discount) × it). Exact: a sum over the requests' outcomes.
FlexStartResult flex_start_job(const DeadlineJob& job, const FlexStart& flex, double on_demand_price_per_hour);

}  // namespace gputco
