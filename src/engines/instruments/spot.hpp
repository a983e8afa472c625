#pragma once
// The spot instrument: its validation, its price rule (paid GPU-hours × spot price × the price path's
// spot factor × the month's overhead, in a fraction `availability` of hours), its spread samples and
// its line in the report.
#include <string>
#include <vector>

#include "commitment.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco::instruments {

/// The month fields a spot share writes (plan_core.hpp's price_tiers).
inline constexpr std::array<std::string_view, 3> spot_columns{"spot", "spot_gpu_hours", "spot_paid_gpu_hours"};

struct PricedSpot {
    double gpus = 0;
    double price_per_gpu_hour = 0;
    double overhead = 1;               ///< the share's own overhead (before any period)
    double availability = 1;           ///< the share's own availability (before any period)
    std::vector<double> overheads;     ///< per month of the horizon
    std::vector<double> availabilities;  ///< per month of the horizon
    std::vector<double> overhead_samples;  ///< sorted ascending (only quantiles of them are used)
};

/// Spot share `i` of a plan (0 = Plan::spot, then Plan::more_spot) checked and priced; field names
/// "plan.spot" / "plan.more_spot[k]", or "spot" for a Mix.
PricedSpot price_spot(const SpotShare& s, std::size_t i, Naming naming, const Offering& offering,
                      double region_factor, int horizon);

/// "spot 4 GPUs at 1.2 USD/GPU-h, ...": the report's line.
std::string describe_spot(const PricedSpot& s, const std::string& currency);

}  // namespace gputco::instruments
