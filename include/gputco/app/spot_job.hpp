#pragma once
// A spot job as every front door asks for it (a scenario file, the `gputco spot` command, Python's
// simulate_spot): the job, its interruption model and its prices, with the defaults filled in once,
// here. Defaults that change the answer:
//   - checkpoint interval: the job's own if > 0, else the optimal interval for the model's mean lifetime;
//   - prices and billing: given figures first, then the offering's (per-GPU spot and on-demand prices,
//     billing increment and minimum), else 1 per hour billed continuously.
//
//   SpotJobRequest r{.job = {.work_hours = 10, .checkpoint_write_hours = 0.05}, .model = Poisson{3}};
//   r.offering = catalog.offering("aws", "p4d.24xlarge");
//   const SpotJobRun run = run_spot_job(r);  // run.pricing.billing_increment_hours == 1.0 / 3600
#include <optional>
#include <string>

#include "gputco/catalog/catalog.hpp"
#include "gputco/engines/interruption.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/work/job.hpp"

namespace gputco {

/// The mean lifetime of a launch: Poisson's MTBF, Weibull's lambda Gamma(1 + 1/k), a trace's mean;
/// none for the price-driven model (its lifetimes follow the price, not a distribution of their own).
std::optional<double> mean_lifetime_hours(const InterruptionModel& model);

/// The checkpoint interval a job runs with: `interval_hours` unless 0 (not given), else
/// optimal_checkpoint_interval(checkpoint_write_hours, mean lifetime of `model`). Throws InvalidInput
/// "job.checkpoint_interval_hours = 0: must be given for a model without a mean lifetime (price-driven)".
double checkpoint_interval_or_default(double interval_hours, double checkpoint_write_hours,
                                      const InterruptionModel& model);

/// What a spot job is priced with. Each figure: the one given, else the offering's, else the default
/// (price 1 per hour, on-demand 0 = unknown, continuous billing).
struct SpotPriceInputs {
    std::optional<Offering> offering;
    std::optional<double> price_per_hour;            ///< per GPU-hour; else the offering's spot price
    std::optional<double> on_demand_price_per_hour;  ///< per GPU-hour; else the offering's
    std::optional<double> billing_increment_hours;   ///< else the offering's billing_increment_seconds
    std::optional<double> minimum_billed_hours;      ///< else the offering's minimum_billed_seconds
    std::string price_field = "offering.spot_hourly";  ///< how an error names a missing price
};

/// The pricing of a spot job (see SpotPriceInputs). Throws InvalidInput naming `inputs.price_field`
/// when no price is given and the offering lists no spot price.
SpotPricing spot_job_pricing(const SpotPriceInputs& inputs);

struct SpotJobRequest {
    Job job;  ///< checkpoint_interval_hours 0: the default (checkpoint_interval_or_default)
    InterruptionModel model = Poisson{};
    SpotPriceInputs prices;
    SimulationOptions options;
};

struct SpotJobRun {
    double checkpoint_interval_hours = 0;  ///< the interval the job ran with
    SpotPricing pricing;                   ///< the prices and billing it was charged with
    SpotResult result;
};

/// simulate_spot() with the defaults above filled in.
SpotJobRun run_spot_job(const SpotJobRequest& request);

}  // namespace gputco
