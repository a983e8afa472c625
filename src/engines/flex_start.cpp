// Flex-start for a deadline job (flex_start.hpp): the requests' outcomes summed exactly.
#include "gputco/engines/flex_start.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco {

void FlexStart::validate() const {
    require(std::isfinite(discount) && discount >= 0 && discount < 1, "flex_start.discount", discount,
            "must be in [0, 1)");
    require(std::isfinite(request_valid_hours) && request_valid_hours > 0 && request_valid_hours <= max_request_valid_hours,
            "flex_start.request_valid_hours", request_valid_hours,
            "must be in (0, 2] (a flex-start request waits at most two hours)");
    require(std::isfinite(grant_probability) && grant_probability > 0 && grant_probability <= 1,
            "flex_start.grant_probability", grant_probability, "must be in (0, 1]");
}

FlexStartResult flex_start_job(const DeadlineJob& job, const FlexStart& flex, double on_demand_price_per_hour) {
    job.validate();
    flex.validate();
    require_positive("on_demand_price_per_hour", on_demand_price_per_hour);
    const double d = job.changeover_hours, q = flex.request_valid_hours, p = flex.grant_probability;
    require(d < FlexStart::max_run_hours, "deadline_job.changeover_hours", d,
            "must be < 168 (a flex-start run lasts at most seven days, its launch included)");
    const double od = on_demand_price_per_hour, fs = (1.0 - flex.discount) * on_demand_price_per_hour;
    const double work_per_run = FlexStart::max_run_hours - d;
    const double total = job.compute_hours, deadline = job.deadline_hours;
    FlexStartResult out;
    out.runs = int(std::ceil(total / work_per_run - 1e-12));
    out.all_flex_cost = (total + out.runs * d) * fs;
    out.all_on_demand_cost = (total + d) * od;
    // State after some requests: (runs done, failed requests) -> probability. Time used (worst case):
    // each request its whole window, each run its work and launch.
    std::map<std::pair<int, int>, double> states{{{0, 0}, 1.0}};
    double mean = 0, square = 0;
    const auto done_work = [&](int k) { return std::min(total, k * work_per_run); };
    const auto finish = [&](double probability, double cost, double flex_hours, bool fallback, double time) {
        mean += probability * cost;
        square += probability * cost * cost;
        out.expected_flex_hours += probability * flex_hours;
        if (fallback) out.fallback_probability += probability;
        out.worst_finish_hours = std::max(out.worst_finish_hours, time);
    };
    while (!states.empty()) {
        std::map<std::pair<int, int>, double> next;
        for (const auto& [state, probability] : states) {
            const auto [k, f] = state;
            const double left = total - done_work(k);
            const double flex_hours = done_work(k) + k * d;
            const double time = (k + f) * q + flex_hours;
            if (left <= 0) {  // every run granted: the job is done on flex-start
                finish(probability, flex_hours * fs, flex_hours, false, time);
                continue;
            }
            // One more request only if, after its whole window, on demand could still finish (with a
            // launch after a granted run as well).
            if (time + q + left + 2 * d > deadline) {
                finish(probability, flex_hours * fs + (left + d) * od, flex_hours, true, time + left + d);
                continue;
            }
            out.most_requests = std::max(out.most_requests, k + f + 1);
            next[{k + 1, f}] += probability * p;
            if (p < 1) next[{k, f + 1}] += probability * (1 - p);
        }
        states = std::move(next);
    }
    out.expected_cost = mean;
    out.cost_standard_deviation = std::sqrt(std::max(0.0, square - mean * mean));
    return out;
}

}  // namespace gputco
