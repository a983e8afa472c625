// SpotAvailability::from_text on arbitrary text, then the deadline policies on the trace it gives:
// both policies meet a feasible deadline (R0 >= C0 + d, the guarantee deadline.hpp states), every
// figure is finite, and no policy costs less than the omniscient schedule on the same trace.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.hpp"
#include "gputco/engines/deadline.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gputco;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    SpotAvailability trace;
    if (!fuzz::returns_or_rejects(text, [&] { trace = SpotAvailability::from_text(text); })) return 0;
    if (trace.ticks() == 0) fuzz::finding("an empty availability trace was accepted");
    // A job that fits the trace: deadline = all ticks, changeover 1 tick when there is room, compute half
    // of the rest. The omniscient optimum is a DP over ticks x compute, so only on short traces.
    const std::size_t ticks = trace.ticks();
    const std::size_t changeover = ticks >= 3 ? 1 : 0;
    const std::size_t compute = std::max<std::size_t>(1, (ticks - changeover) / 2);
    const DeadlineJob job{.compute_hours = double(compute), .deadline_hours = double(ticks),
                          .changeover_hours = double(changeover), .tick_hours = 1};
    const double spot_price = 0.97, on_demand_price = 3.06;
    const bool exact = ticks <= 400;
    double best = 0;
    const auto optimum = [&] { best = omniscient_cost(job, trace, spot_price, on_demand_price); };
    if (exact && !fuzz::returns_or_rejects({}, optimum)) fuzz::finding("omniscient_cost rejected a feasible job");
    for (DeadlinePolicy policy : {DeadlinePolicy::greedy, DeadlinePolicy::uniform_progress}) {
        DeadlineResult r;
        const auto run = [&] { r = simulate_deadline(job, trace, policy, spot_price, on_demand_price); };
        if (!fuzz::returns_or_rejects({}, run)) fuzz::finding("simulate_deadline rejected a feasible job");
        if (!r.met_deadline) fuzz::finding("a policy missed a feasible deadline:", to_string(policy));
        fuzz::check_finite("deadline.cost", r.cost);
        if (exact && r.cost < best - 1e-9 * best)
            fuzz::finding("a policy beat the omniscient cost:", to_string(policy));
    }
    return 0;
}
