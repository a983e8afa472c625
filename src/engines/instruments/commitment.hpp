#pragma once
// The commitment instrument (a reservation): its validation, its price rule (upfront at the start of
// each term at the prices of the month it is bought, hourly for every hour of the term, used or not),
// its renewal and its line in the report.
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/results/report.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco::instruments {

/// How a plan's parts are named in errors: as a Plan ("plan.commitments[2].term_years") or as the
/// Mix it came from ("reserved.term_years"), so that evaluate() keeps the messages of a Mix.
enum class Naming { plan, mix };

struct PricedCommitment {
    double gpus = 0;
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    int start = 0;
    int term_months = 12;
    bool renew = false;
    std::string source;  ///< where the price comes from, for the report
    double effective_per_gpu_hour() const { return hourly_per_gpu + upfront_per_gpu / (term_months * hours_per_month); }
    /// Start month of the term running in month m (m >= start).
    int term_start(int m) const { return start + (m - start) / term_months * term_months; }
    /// Whether a term runs in month m: every term that starts inside the horizon when renewed.
    bool active(int m, int horizon) const {
        if (m < start) return false;
        return renew ? term_start(m) < horizon : m < start + term_months;
    }
    int last_month(int horizon) const {  // one past the last month paid
        const int last_start = renew ? start + (horizon - 1 - start) / term_months * term_months : start;
        return last_start + term_months;
    }
    /// Month m's fees and hours into `flow` (m in a term): the upfront when the term starts, the hourly
    /// fee for every hour, both at `price_factor` (the price path's factor in the month the term was
    /// bought); `used` of its GPU-hours served demand.
    void add_month(int m, double price_factor, double used, MonthlyCashFlow& flow) const {
        if (m == term_start(m)) flow.upfront += upfront_per_gpu * gpus * price_factor;
        flow.reserved_recurring += hourly_per_gpu * gpus * hours_per_month * price_factor;
        flow.reserved_gpu_hours += gpus * hours_per_month;
        flow.reserved_used_gpu_hours += used;
    }
};

/// Commitment `i` of a plan checked and priced on its offering (converted to the plan's currency by
/// `options.conversion`, noted in `conversions`).
PricedCommitment price_commitment(const Commitment& c, std::size_t i, Naming naming, const Offering& plan_offering,
                                  const PlanOptions& options, int horizon, std::vector<std::string>& conversions);

/// "reserved 8 GPUs, 36-month terms, upfront ...": the report's line.
std::string describe_commitment(const PricedCommitment& c, const std::string& currency, double on_demand_per_gpu_hour);

}  // namespace gputco::instruments
