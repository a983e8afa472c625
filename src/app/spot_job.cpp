// A spot job's defaults, once for every front door (include/gputco/app/spot_job.hpp).
#include "gputco/app/spot_job.hpp"

#include <cmath>

#include <fmt/format.h>

#include "gputco/engines/checkpoint.hpp"

namespace gputco {

std::optional<double> mean_lifetime_hours(const InterruptionModel& model) {
    if (const auto* p = std::get_if<Poisson>(&model)) return p->mtbf_hours;
    if (const auto* w = std::get_if<Weibull>(&model)) return w->scale_hours * std::tgamma(1 + 1 / w->shape);
    if (const auto* t = std::get_if<Trace>(&model)) return t->mean_lifetime_hours();
    return std::nullopt;
}

double checkpoint_interval_or_default(double interval_hours, double checkpoint_write_hours,
                                      const InterruptionModel& model) {
    if (interval_hours != 0) return interval_hours;  // a negative one is refused by Job::validate
    const std::optional<double> mean = mean_lifetime_hours(model);
    if (!mean)
        fail("job.checkpoint_interval_hours", interval_hours,
             "must be given for a model without a mean lifetime (price-driven)");
    return optimal_checkpoint_interval(checkpoint_write_hours, *mean);
}

SpotPricing spot_job_pricing(const SpotPriceInputs& in) {
    SpotPricing pricing;  // price 1 per hour, on-demand unknown, continuous billing
    if (in.offering) {
        const Offering& o = *in.offering;
        if (!in.price_per_hour && !o.spot_per_gpu_hour())
            fail(in.price_field, "none", fmt::format("offering {} lists no spot price", o.key()));
        pricing = SpotPricing::billed_as(o, o.spot_per_gpu_hour().value_or(pricing.price_per_hour),
                                         o.on_demand_per_gpu_hour());
    }
    if (in.price_per_hour) pricing.price_per_hour = *in.price_per_hour;
    if (in.on_demand_price_per_hour) pricing.on_demand_price_per_hour = *in.on_demand_price_per_hour;
    if (in.billing_increment_hours) pricing.billing_increment_hours = *in.billing_increment_hours;
    if (in.minimum_billed_hours) pricing.minimum_billed_hours = *in.minimum_billed_hours;
    pricing.validate();
    return pricing;
}

SpotJobRun run_spot_job(const SpotJobRequest& request) {
    SpotJobRun run;
    Job job = request.job;
    job.checkpoint_interval_hours =
        checkpoint_interval_or_default(job.checkpoint_interval_hours, job.checkpoint_write_hours, request.model);
    run.checkpoint_interval_hours = job.checkpoint_interval_hours;
    run.pricing = spot_job_pricing(request.prices);
    run.result = simulate_spot(job, request.model, run.pricing, request.options);
    return run;
}

}  // namespace gputco
