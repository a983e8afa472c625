// The capacity-block instrument (capacity_block.hpp).
#include "capacity_block.hpp"

#include <cmath>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"

namespace gputco::instruments {

namespace {

/// A GCP calendar-mode reservation (Compute Engine documentation, "Create a future reservation request
/// in calendar mode"): 1 to 80 VMs, 1 to 90 days, charged for the whole period as it runs; the catalog
/// holds no calendar-mode rate, so the price is given.
PricedBlock price_calendar_mode(const CapacityBlock& b, const std::string& field, const Offering& offering, int horizon) {
    require(b.instances >= 1 && b.instances <= CapacityBlock::calendar_max_instances, field + ".instances", b.instances,
            fmt::format("must be in [1, {}] (VMs in one calendar-mode request)", CapacityBlock::calendar_max_instances));
    require(b.days >= 1 && b.days <= CapacityBlock::calendar_max_days, field + ".days", b.days,
            fmt::format("must be in [1, {}] (a calendar-mode reservation lasts 1 to 90 days)",
                        CapacityBlock::calendar_max_days));
    require(b.lead_days >= 0, field + ".lead_days", b.lead_days, "must be >= 0");
    const double horizon_days = horizon * hours_per_month / 24.0;
    require(b.start_day >= b.lead_days, field + ".start_day", b.start_day,
            fmt::format("must be >= lead_days ({}): the reservation is requested inside the horizon", b.lead_days));
    require(b.start_day + b.days <= horizon_days, field + ".start_day", b.start_day,
            fmt::format("must leave the reservation's {} days inside the horizon ({:g} days)", b.days, horizon_days));
    require(b.price_per_instance_hour.has_value(), field + ".price_per_instance_hour", "none",
            "is needed for kind gcp_calendar_mode: the catalog has no calendar-mode rate");
    const double p = *b.price_per_instance_hour;
    require(std::isfinite(p) && p > 0 && p <= limits::max_money, field + ".price_per_instance_hour", p,
            fmt::format("must be finite, > 0 and <= {:g}", limits::max_money));
    PricedBlock out;
    out.gpus = double(b.instances) * offering.gpus_per_instance;
    out.start_hour = 24.0 * b.start_day;
    out.usable_hours = b.usable_hours();
    out.paid_hours = 24.0 * b.days;
    out.purchase_month = int(std::floor(24.0 * (b.start_day - b.lead_days) / hours_per_month));
    out.price_per_instance_hour = p;
    out.source = "given (GCP calendar mode)";
    out.upfront = double(b.instances) * out.paid_hours * p;
    out.paid_as_it_runs = true;
    return out;
}

}  // namespace

double catalog_block_rate(const Offering& offering, const std::string& field) {
    require(offering.capacity_block_hourly.has_value(), field, "none",
            fmt::format("is needed: the catalog has no capacity-block rate for {}", offering.key()));
    return *offering.capacity_block_hourly;
}

std::string catalog_block_rate_source(const Offering& offering) {
    const Source& s = offering.capacity_block_rate_source();
    return fmt::format("the capacity-block rate of {} in the catalog, {} ({})", offering.key(), s.name, s.as_of);
}

PricedBlock price_capacity_block(const CapacityBlock& b, std::size_t i, const Offering& offering, double region_factor,
                                 int horizon) {
    const std::string field = fmt::format("plan.capacity_blocks[{}]", i);
    if (b.kind == BlockKind::gcp_calendar_mode) return price_calendar_mode(b, field, offering, horizon);
    require(b.instances >= 1 && b.instances <= CapacityBlock::max_instances, field + ".instances", b.instances,
            fmt::format("must be in [1, {}]", CapacityBlock::max_instances));
    require(CapacityBlock::sellable_days(b.days), field + ".days", b.days,
            fmt::format("must be 1 to {} days, or whole weeks (a multiple of 7) up to {} days",
                        CapacityBlock::max_daily_days, CapacityBlock::max_weekly_days));
    require(b.lead_days >= 0 && b.lead_days <= CapacityBlock::max_lead_days, field + ".lead_days", b.lead_days,
            fmt::format("must be in [0, {}] (a block starts at most 8 weeks after its purchase)",
                        CapacityBlock::max_lead_days));
    const double horizon_days = horizon * hours_per_month / 24.0;
    require(b.start_day >= b.lead_days, field + ".start_day", b.start_day,
            fmt::format("must be >= lead_days ({}): the block is bought, and paid, inside the horizon", b.lead_days));
    require(b.start_day + b.days <= horizon_days, field + ".start_day", b.start_day,
            fmt::format("must leave the block's {} days inside the horizon ({:g} days)", b.days, horizon_days));
    PricedBlock out;
    out.gpus = double(b.instances) * offering.gpus_per_instance;
    out.start_hour = 24.0 * b.start_day;
    out.usable_hours = b.usable_hours();
    out.paid_hours = 24.0 * b.days;
    out.purchase_month = int(std::floor(24.0 * (b.start_day - b.lead_days) / hours_per_month));
    if (b.price_per_instance_hour) {
        const double p = *b.price_per_instance_hour;
        require(std::isfinite(p) && p > 0 && p <= limits::max_money, field + ".price_per_instance_hour", p,
                fmt::format("must be finite, > 0 and <= {:g}", limits::max_money));
        out.price_per_instance_hour = p;
        out.source = "given";
    } else {
        out.price_per_instance_hour = catalog_block_rate(offering, field + ".price_per_instance_hour") * region_factor;
        out.source = catalog_block_rate_source(offering);
    }
    out.upfront = double(b.instances) * out.paid_hours * out.price_per_instance_hour;
    return out;
}

std::string describe_capacity_block(const PricedBlock& b, const std::string& c) {
    if (b.paid_as_it_runs)
        return fmt::format("calendar-mode reservation {:g} GPUs from hour {:g}: {:g} h, {:.4f} {}/instance-h, {:.2f} {} "
                           "charged month by month as it runs, used or not; price {}",
                           b.gpus, b.start_hour, b.paid_hours, b.price_per_instance_hour, c, b.upfront, c, b.source);
    return fmt::format("capacity block {:g} GPUs from hour {:g}: {:g} h paid, {:g} h usable (stopped 30 min before "
                       "the end), {:.4f} {}/instance-h, {:.2f} {} paid in full in month {}; {:.4f} {}/usable GPU-h; "
                       "price from {}",
                       b.gpus, b.start_hour, b.paid_hours, b.usable_hours, b.price_per_instance_hour, c, b.upfront, c,
                       b.purchase_month, b.per_usable_gpu_hour(), c, b.source);
}

}  // namespace gputco::instruments
