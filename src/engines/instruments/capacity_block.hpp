#pragma once
// The capacity-block instrument (EC2 Capacity Blocks for ML): its validation, its price rule (every
// hour of the block at the price per instance-hour set at purchase, paid in full in the month it is
// bought; no cancellation), its usable hours (stopped 30 minutes before the end) and its report line.
// Where its hours fall inside a month is windows.hpp's part.
#include <string>
#include <vector>

#include "commitment.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/strategy/plan.hpp"
#include "windows.hpp"

namespace gputco::instruments {

/// The month fields a capacity block writes (plan_core.hpp's price_month): its price in `upfront` in the
/// purchase month, its usable hours as reserved hours, the demand it serves as used and reserved-used.
inline constexpr std::array<std::string_view, 5> capacity_block_columns{"upfront", "reserved_recurring",
                                                                         "reserved_gpu_hours",
                                                                         "reserved_used_gpu_hours", "used_gpu_hours"};

struct PricedBlock {
    double gpus = 0;                  ///< instances × GPUs per instance
    double start_hour = 0;            ///< from the horizon's first hour
    double usable_hours = 0;          ///< 24 × days − 0.5
    double paid_hours = 0;            ///< 24 × days
    int purchase_month = 0;           ///< where the payment falls
    double price_per_instance_hour = 0;
    double upfront = 0;               ///< instances × paid hours × price: all of it, at purchase
    /// GCP calendar mode: `upfront` is not paid at purchase but month by month as the hours run.
    bool paid_as_it_runs = false;
    std::string source;
    /// Per usable GPU-hour: what the block really costs for the work it can do.
    double per_usable_gpu_hour() const { return upfront / (gpus * usable_hours); }
    HourSpan span() const { return {start_hour, start_hour + usable_hours, gpus}; }
    /// What a block paid as it runs costs in month m: its share of the paid hours falling there.
    double paid_in(int m) const {
        const double first = m * hours_per_month;
        const double hours = std::max(0.0, std::min(start_hour + paid_hours, first + hours_per_month) - std::max(start_hour, first));
        return upfront * hours / paid_hours;
    }
    /// Its usable GPU-hours inside month m.
    double gpu_hours_in(int m) const {
        const double first = m * hours_per_month;
        return gpus * std::max(0.0, std::min(start_hour + usable_hours, first + hours_per_month) - std::max(start_hour, first));
    }
};

/// The default of a capacity block given no price (a plan's CapacityBlock, the recommender's
/// CapacityBlockOption): the offering's capacity-block rate in the catalog, per instance-hour; without
/// one, InvalidInput '<field> = "none": is needed: the catalog has no capacity-block rate for <key>'.
double catalog_block_rate(const Offering& offering, const std::string& field);

/// Where that rate comes from, for the report: "the capacity-block rate of <key> in the catalog, <name>
/// (<as_of>)": the rate's own source and date (Offering::capacity_block_rate_source).
std::string catalog_block_rate_source(const Offering& offering);

/// Capacity block `i` of a plan checked ("plan.capacity_blocks[i].<field>") and priced on the plan's
/// offering, over a horizon of `horizon` months.
PricedBlock price_capacity_block(const CapacityBlock& b, std::size_t i, const Offering& offering, double region_factor,
                                 int horizon);

/// "capacity block 2 × p5.48xlarge (16 GPUs), 10 days from day 35, ...": the report's line.
std::string describe_capacity_block(const PricedBlock& b, const std::string& currency);

}  // namespace gputco::instruments
