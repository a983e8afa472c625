#pragma once
// The flex-start instrument (GCP Dynamic Workload Scheduler, docs/models.md section 5d): a request for
// a dated window, granted in a future with its probability. Granted, it is a block paid as it runs (every
// GPU-hour of the run at the discounted on-demand rate, moving with the on-demand price factor) that
// serves first in its hours; refused, it costs nothing and the window falls to the other tiers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "capacity_block.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco::instruments {

/// The month fields a granted flex-start request writes: its charges in `reserved_recurring` (used or
/// not, as the hours run), its GPU-hours as reserved hours, the demand it serves as used and reserved-used.
inline constexpr std::array<std::string_view, 4> flex_start_columns{"reserved_recurring", "reserved_gpu_hours",
                                                                     "reserved_used_gpu_hours", "used_gpu_hours"};

struct PricedFlexStart {
    /// The run if granted: paid as it runs, `upfront` its whole charge at list prices.
    PricedBlock run;
    double rate_per_gpu_hour = 0;  ///< (1 − discount) × on demand per GPU-hour
    double grant_probability = 1;
};

/// The rules of a flex-start discount ([0, 1) off on demand) and grant probability ((0, 1]), naming
/// `field`.discount or `field`.grant_probability: a plan's requests and the recommender's option.
void require_flex_start_terms(std::string_view field, double discount, double grant_probability);

/// Flex-start request `i` of a plan checked ("plan.flex_starts[i].<field>") and priced at
/// (1 − discount) × `on_demand_per_gpu_hour`, over a horizon of `horizon` months.
PricedFlexStart price_flex_start(const FlexStartRequest& r, std::size_t i, const Offering& offering,
                                 double on_demand_per_gpu_hour, int horizon);

/// Whether each request is granted in future `f`: a uniform from (seed, f, the request's start hour,
/// the number of requests before it starting then) alone, granted when below its probability; so a
/// request's outcome does not depend on the thread count nor on the other requests of the plan.
/// `granted` is resized to the requests.
void draw_grants(const std::vector<PricedFlexStart>& requests, std::uint64_t seed, std::size_t f,
                 std::vector<char>& granted);

/// "flex-start request 8 GPUs from hour 240: 120 h, 0.9000 USD/GPU-h if granted (p = 0.7) ...".
std::string describe_flex_start(const PricedFlexStart& r, const std::string& currency);

}  // namespace gputco::instruments
