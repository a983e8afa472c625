#pragma once
// What a plan costs over many futures: one outcome per future, the distribution of the total and
// the NPV, monthly bands, committed spend against use, and regret against the best plan in hindsight.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "gputco/results/report.hpp"

namespace gputco {

/// A distribution over futures: mean with its standard error, quantiles (type 7) and the
/// conditional value at risk at 95% (the mean of the worst 5% of futures: the samples at or above
/// the 95% quantile's rank, ⌈0.05 n⌉ of them).
struct Distribution {
    double mean = 0;
    double standard_error = 0;  ///< sample sd / √n; 0 for one future
    double p5 = 0, p50 = 0, p95 = 0;
    double cvar95 = 0;
    double min = 0, max = 0;
};

/// Distribution of `samples` (non-empty, finite).
Distribution distribution_of(std::span<const double> samples);

/// One month's cash flow over the futures.
struct MonthlyBand {
    int month = 0;
    double mean = 0, p5 = 0, p50 = 0, p95 = 0;
};

/// One future's outcome.
struct FutureOutcome {
    double total = 0;               ///< undiscounted sum of the cash flows
    double npv = 0;
    double demand_gpu_hours = 0;
    double committed_spend = 0;     ///< commitments' upfront and hourly fees
    double committed_gpu_hours = 0; ///< GPU-hours paid for by commitments
    double committed_used_gpu_hours = 0;
    /// Paid-for committed GPU-hours nobody used, at each commitment's effective rate.
    double stranded_unused = 0;
    /// Used committed GPU-hours that on-demand would have served for less that month (a price cut
    /// made the commitment expensive): Σ used × max(0, effective rate − on-demand rate).
    double stranded_above_market = 0;
    double regret = 0;              ///< total − the cheapest compared plan's total in this future (compare_plans)
};

/// One commitment's hours over the plan (held before the horizon, bought by the plan, or started by an
/// exchange): paid for in every month it runs, used by demand (mean over futures).
struct CommitmentUse {
    std::string name;  ///< "held[0]" (or its id), "plan.commitments[2]", "… exchanged in month 6"
    bool held = false;
    double gpus = 0;
    int first_month = 0;  ///< first month it runs in the report (0 for a held one)
    int end_month = 0;    ///< one past its last month paid
    double paid_gpu_hours = 0;
    double used_gpu_hours = 0;
    double unused_gpu_hours = 0;  ///< paid − used
};

struct PlanDistribution {
    std::string plan;      ///< describe(plan)
    std::string offering;  ///< the plan's offering key
    std::string currency;
    int horizon_months = 0;
    double annual_discount_rate = 0;
    std::vector<FutureOutcome> futures;
    Distribution total;
    Distribution npv;
    Distribution regret;   ///< all zero unless filled by compare_plans
    /// Flows of each month (past the horizon while a term runs), mean over futures, by category.
    std::vector<MonthlyCashFlow> mean_months;
    std::vector<MonthlyBand> monthly;      ///< each month's cash flow
    std::vector<MonthlyBand> cumulative;   ///< cumulative cost up to and including each month
    double mean_committed_spend = 0;
    double committed_utilisation = 0;      ///< Σ used / Σ paid committed GPU-hours over all futures
    double mean_stranded_unused = 0;
    double mean_stranded_above_market = 0;
    /// Fraction of futures where this plan was the cheapest compared (compare_plans; ties count for each).
    double best_fraction = 0;
    /// Currency conversions applied (one line per converted commitment, naming the rate and its source).
    std::vector<std::string> conversions;
    /// Instruments priced at the catalog's rate because the plan gave none (capacity blocks, Savings
    /// Plans, month terms): one line each naming the rate, its source and its date.
    std::vector<std::string> catalog_rates;
    /// Each commitment's paid, used and unused GPU-hours (held first, then the plan's, in serving order).
    std::vector<CommitmentUse> commitment_use;
    /// Each change of a commitment (exchange, resale, refund): what happened and its money.
    std::vector<std::string> changes;
};

}  // namespace gputco
