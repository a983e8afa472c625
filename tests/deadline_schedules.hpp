#pragma once
// Shared by the deadline tests (test_deadline, test_deadline_regions): hand traces and an independent
// coster of fixed schedules, written apart from the library's rules so the optimum can be checked
// against every schedule of a small trace.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "gputco/engines/deadline_regions.hpp"

namespace gputco::test {

inline SpotAvailability trace(std::vector<bool> ticks) { return SpotAvailability{std::move(ticks)}; }

/// Cost of one fixed schedule, one action per tick: 0 none, 1 on-demand, 2 + r spot in region r.
/// The library's model: spot running in a tick without spot is preempted; a launch (any action other
/// than what ran before) costs `changeover` ticks without progress; every running tick is paid.
/// Infinity if the schedule uses absent spot or does not finish its compute.
inline double schedule_cost(const std::vector<int>& schedule, const std::vector<SpotRegion>& regions,
                            double on_demand_price, long compute, long changeover) {
    int instance = 0;
    long left = 0, done = 0;
    double cost = 0;
    for (std::size_t k = 0; k < schedule.size() && done < compute; ++k) {
        if (instance >= 2 && !regions[std::size_t(instance - 2)].availability.available[k]) instance = 0;
        const int a = schedule[k];
        if (a >= 2 && !regions[std::size_t(a - 2)].availability.available[k]) return std::numeric_limits<double>::infinity();
        if (a == 0) {
            instance = 0;
            continue;
        }
        if (a != instance) left = changeover;
        instance = a;
        if (left > 0) --left;
        else ++done;
        cost += a == 1 ? on_demand_price : regions[std::size_t(a - 2)].spot_price_per_hour;
    }
    return done == compute ? cost : std::numeric_limits<double>::infinity();
}

/// Least schedule_cost over all (2 + regions)^K schedules of the regions' K ticks.
inline double brute_force_optimum(const std::vector<SpotRegion>& regions, double on_demand_price, long compute,
                                  long changeover) {
    const std::size_t K = regions[0].availability.ticks();
    const int actions = 2 + static_cast<int>(regions.size());
    std::vector<int> schedule(K, 0);
    double best = std::numeric_limits<double>::infinity();
    for (;;) {
        best = std::min(best, schedule_cost(schedule, regions, on_demand_price, compute, changeover));
        std::size_t i = 0;
        while (i < K && schedule[i] == actions - 1) schedule[i++] = 0;
        if (i == K) return best;
        ++schedule[i];
    }
}

}  // namespace gputco::test
