#pragma once
// The Savings Plan instrument (plan.hpp's SavingsPlan, the hourly rule in savings_plans.hpp): a $/hour
// commitment for a term, paid upfront (all, half or none of the term's commitment at purchase) and by
// the hour, used or not. In a plan on one offering it is a tier of commitment / rate GPUs each hour, the
// rate being the plan's rate in the month it was bought; its validation and report line are here.
#include <string>
#include <string_view>

#include "commitment.hpp"
#include "gputco/catalog/catalog.hpp"
#include "gputco/results/report.hpp"
#include "gputco/strategy/plan.hpp"
#include "gputco/strategy/savings_plans.hpp"

namespace gputco::instruments {

/// The month fields a Savings Plan writes (add_month): the reservations' columns, being a commitment too.
inline constexpr std::array<std::string_view, 4> savings_plan_columns{"upfront", "reserved_recurring",
                                                                       "reserved_gpu_hours", "reserved_used_gpu_hours"};

/// Its terms run as a reservation's do (TermSchedule, never stopped early).
struct PricedSavingsPlan : TermSchedule {
    double commitment_per_hour = 0;
    double rate_per_gpu_hour = 0;  ///< at list prices; × the price path's reservation factor of its purchase month
    double upfront_fraction = 0;   ///< of the term's commitment, paid when the term starts
    SavingsPlanType type = SavingsPlanType::aws_compute;
    std::string source;  ///< where the rate comes from, for the report
    std::string name;    ///< "plan.savings_plans[i]" or its id, its row in the per-commitment table
    /// Bought before the horizon (start < 0): that term's rate was agreed then (factor 1) and its
    /// upfront is sunk (add_month pays upfront only in a month a term starts).
    bool held() const { return start < 0; }
    /// The price path's factor for month m's term: 1 for the held term, else `reserved` of its start.
    template <class Factors>
    double price_factor(int m, const Factors& factors) const {
        return term_start(m) < 0 ? 1.0 : factors.reserved(term_start(m), term_months);
    }
    /// GPUs whose hours the commitment pays for each hour at the rate times `price_factor`.
    double gpus(double price_factor) const { return commitment_per_hour / (rate_per_gpu_hour * price_factor); }
    /// Month m's payments and hours into `flow` (reservations' columns: they are commitments too): the
    /// upfront part of the term's commitment when the term starts, the rest every hour; `used` GPU-hours
    /// of demand it paid for.
    void add_month(int m, double price_factor, double used, MonthlyCashFlow& flow) const {
        if (m == term_start(m)) flow.upfront += upfront_fraction * commitment_per_hour * term_months * hours_per_month;
        flow.reserved_recurring += (1.0 - upfront_fraction) * commitment_per_hour * hours_per_month;
        flow.reserved_gpu_hours += gpus(price_factor) * hours_per_month;
        flow.reserved_used_gpu_hours += used;
    }
};

/// Savings Plan `i` of a plan checked ("plan.savings_plans[i].commitment_per_hour") and priced on the
/// plan's offering.
PricedSavingsPlan price_savings_plan(const SavingsPlan& s, std::size_t i, const Offering& offering, double region_factor,
                                     int horizon, std::string_view list = "plan.savings_plans");

/// "aws_compute savings plan 100 USD/h, ...": the report's line.
std::string describe_savings_plan(const PricedSavingsPlan& s, const std::string& currency, double on_demand_per_gpu_hour);

}  // namespace gputco::instruments
