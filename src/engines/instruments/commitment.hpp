#pragma once
// The commitment instrument (a reservation): its validation, its price rule (upfront at the start of
// each term at the prices of the month it is bought, hourly for every hour of the term, used or not),
// its renewal and its line in the report.
#include <algorithm>
#include <array>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/results/report.hpp"
#include "gputco/strategy/plan.hpp"

namespace gputco::instruments {

/// How a plan's parts are named in errors: as a Plan ("plan.commitments[2].term_years") or as the
/// Mix it came from ("reserved.term_years"), so that evaluate() keeps the messages of a Mix.
enum class Naming { plan, mix };

/// When a commitment's terms run: from month `start`, terms of `term_months`, one or renewed each
/// time one ends inside the horizon, none from `stop` on. Reservations and Savings Plans share it.
struct TermSchedule {
    int start = 0;
    int term_months = 12;
    bool renew = false;
    int stop = std::numeric_limits<int>::max();  ///< exchanged, sold or refunded: no term runs from this month on
    /// Start month of the term running in month m (m >= start).
    int term_start(int m) const { return start + (m - start) / term_months * term_months; }
    /// Whether a term runs in month m: every term that starts inside the horizon when renewed.
    bool active(int m, int horizon) const {
        if (m < start || m >= stop) return false;
        return renew ? term_start(m) < horizon : m < start + term_months;
    }
    int last_month(int horizon) const {  // one past the last month paid
        const int last_start = renew ? start + (horizon - 1 - start) / term_months * term_months : start;
        return std::min(stop, last_start + term_months);
    }
    /// One past the last month of the term running in month m.
    int term_end(int m) const { return term_start(m) + term_months; }
};

/// The month fields (monthly_cash_flow_fields' names) a commitment writes: add_month's. Each instrument
/// declares its own beside its code; tests/test_instrument_columns.cpp checks each declaration against
/// what the engine writes over random plans.
inline constexpr std::array<std::string_view, 4> commitment_columns{"upfront", "reserved_recurring",
                                                                     "reserved_gpu_hours", "reserved_used_gpu_hours"};
/// A held commitment's: a commitment's but `upfront` (paid before the horizon, sunk) and its part of the
/// reserved hours.
inline constexpr std::array<std::string_view, 5> held_columns{"reserved_recurring", "reserved_gpu_hours",
                                                               "reserved_used_gpu_hours", "held_gpu_hours",
                                                               "held_used_gpu_hours"};

struct PricedCommitment : TermSchedule {
    double gpus = 0;
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    std::string source;  ///< where the price comes from, for the report
    std::string name;    ///< "held[0]", "commitments[2]", a bill's id: the report's per-commitment row
    /// Held before the horizon or started by an exchange: its rate was agreed then, so price paths do
    /// not move it (factor 1).
    bool fixed_price = false;
    /// Upfront per GPU and term that counts in an exchange's or a refund's value: what was paid
    /// (`upfront_per_gpu`, or a held commitment's sunk upfront).
    double value_upfront_per_gpu = 0;
    CommitmentClass kind = CommitmentClass::standard;
    Payment payment = Payment::no_upfront;  ///< as bought: an AWS exchange may not lower it
    double effective_per_gpu_hour() const { return hourly_per_gpu + upfront_per_gpu / (term_months * hours_per_month); }
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

/// The same, named `field` in errors ("plan.changes[0].into"); `from_mix` as Naming::mix.
PricedCommitment price_commitment_as(const Commitment& c, const std::string& field, bool from_mix,
                                     const Offering& plan_offering, const PlanOptions& options, int horizon,
                                     std::vector<std::string>& conversions);

/// Held commitment `i` checked (errors name `list`[i]) and priced: no upfront (sunk), its hourly rate for months
/// [start_month, end_month) at a fixed price.
PricedCommitment price_held(const HeldCommitment& h, std::size_t i, const Offering& plan_offering,
                            const PlanOptions& options, std::vector<std::string>& conversions,
                            std::string_view list = "plan.held");

/// The offering a commitment is bought on (`own`, else the plan's), checked as `field`.offering and
/// converted to the plan's currency (noted in `conversions`).
Offering commitment_offering(const std::optional<Offering>& own, const std::string& field, const Offering& plan_offering,
                             const PlanOptions& options, std::vector<std::string>& conversions);

/// "held[0]: 8 GPUs to month 14 at 2.1000 USD/GPU-h (upfront sunk)": a held commitment's report line.
std::string describe_held(const PricedCommitment& c, const std::string& currency);

/// "reserved 8 GPUs, 36-month terms, upfront ...": the report's line.
std::string describe_commitment(const PricedCommitment& c, const std::string& currency, double on_demand_per_gpu_hour);

}  // namespace gputco::instruments
