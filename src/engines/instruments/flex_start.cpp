// The flex-start instrument (flex_start.hpp).
#include "flex_start.hpp"

#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/core/random.hpp"

namespace gputco::instruments {

void require_flex_start_terms(std::string_view field, double discount, double grant_probability) {
    require(std::isfinite(discount) && discount >= 0 && discount < 1, fmt::format("{}.discount", field), discount,
            "must be in [0, 1) (off the on-demand price)");
    require(std::isfinite(grant_probability) && grant_probability > 0 && grant_probability <= 1,
            fmt::format("{}.grant_probability", field), grant_probability, "must be in (0, 1]");
}

PricedFlexStart price_flex_start(const FlexStartRequest& r, std::size_t i, const Offering& offering,
                                 double on_demand_per_gpu_hour, int horizon) {
    const std::string field = fmt::format("plan.flex_starts[{}]", i);
    if (i == 0) offering.require_on_demand(field);  // priced off the on-demand rate
    require_positive(field + ".gpus", r.gpus);
    require_at_most(field + ".gpus", r.gpus, limits::max_gpus);
    require_non_negative(field + ".start_day", r.start_day);
    require(std::isfinite(r.days) && r.days > 0 && r.days <= FlexStartRequest::max_days, field + ".days", r.days,
            "must be in (0, 7] (a flex-start run lasts at most seven days)");
    const double horizon_days = horizon * hours_per_month / 24.0;
    require(r.start_day + r.days <= horizon_days, field + ".start_day", r.start_day,
            fmt::format("must leave the run's {:g} days inside the horizon ({:g} days)", r.days, horizon_days));
    require_flex_start_terms(field, r.discount, r.grant_probability);
    PricedFlexStart out;
    out.rate_per_gpu_hour = (1.0 - r.discount) * on_demand_per_gpu_hour;
    out.grant_probability = r.grant_probability;
    PricedBlock& run = out.run;
    run.gpus = r.gpus;
    run.start_hour = 24.0 * r.start_day;
    run.usable_hours = run.paid_hours = 24.0 * r.days;  // billed while they run: every hour is usable
    run.purchase_month = int(std::floor(run.start_hour / hours_per_month));
    run.price_per_instance_hour = out.rate_per_gpu_hour * offering.gpus_per_instance;
    run.upfront = r.gpus * run.paid_hours * out.rate_per_gpu_hour;
    run.paid_as_it_runs = true;
    run.source = fmt::format("{:g}% off the on-demand rate of {}", 100.0 * r.discount, offering.key());
    return out;
}

void draw_grants(const std::vector<PricedFlexStart>& requests, std::uint64_t seed, std::size_t f,
                 std::vector<char>& granted) {
    granted.resize(requests.size());
    // The future's key: apart from the demand futures' splitmix64(seed ^ splitmix64(f)), so the same
    // seed may drive both without the grants repeating the futures' draws.
    const std::uint64_t future = splitmix64(~seed ^ splitmix64(f));
    for (std::size_t i = 0; i < requests.size(); ++i) {
        // Keyed by the request's start hour (and how many earlier requests start then), not its place
        // in the list: plans holding a request at the same start see the same outcome in each future
        // (paired comparisons), whatever else they hold.
        const double start = requests[i].run.start_hour;
        std::uint64_t same_start = 0;
        for (std::size_t j = 0; j < i; ++j) same_start += requests[j].run.start_hour == start;
        const std::uint64_t key = splitmix64(future ^ splitmix64(std::bit_cast<std::uint64_t>(start) + same_start));
        const double u = double(key >> 11) * 0x1.0p-53;  // in [0, 1)
        granted[i] = u < requests[i].grant_probability;
    }
}

std::string describe_flex_start(const PricedFlexStart& r, const std::string& c) {
    const PricedBlock& b = r.run;
    return fmt::format("flex-start request {:g} GPUs from hour {:g}: {:g} h at {:.4f} {}/GPU-h if granted "
                       "(probability {:g}; {:.2f} {} at list prices, charged as the hours run, used or not; "
                       "refused, the window falls to the plan's other tiers); queued up to 2 h before, not "
                       "billed; {}",
                       b.gpus, b.start_hour, b.paid_hours, r.rate_per_gpu_hour, c, r.grant_probability, b.upfront, c,
                       b.source);
}

}  // namespace gputco::instruments
