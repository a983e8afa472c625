#pragma once
// From a FOCUS bill to a plan, as every front door runs it (Python's gputco.recommend_from_bill,
// `gputco recommend --bill`, examples/bill_to_plan): the bill's GPU-hours per hour as a history,
// demand futures fitted to it, the recommendation study on them, and the bill's tables in one column
// list each.
//
//   const Bill bill = read_bill("focus.csv.gz", Catalog::builtin());
//   const BillPlan plan = recommend_from_bill(bill, p4d, options);
//   plan.study.baselines;   // recommended vs all on demand vs the providers' 7/30/60-day advice
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gputco/app/columns.hpp"
#include "gputco/app/recommend_study.hpp"
#include "gputco/bills/bill.hpp"

namespace gputco {

struct BillPlanOptions {
    std::string gpu;              ///< the history's GPU; default: the offering's
    int horizon_months = 36;      ///< how far the plan looks ahead, from where the history ends
    std::size_t futures = 200;    ///< futures the plan is fitted to (seed)
    std::size_t held_out = 400;   ///< fresh futures it is judged on (seed + 1)
    std::uint64_t seed = 1;
    /// Price the offering at what the bill paid for it (at_bill_rates of its series).
    bool bill_rates = false;
    int baseline_term_years = 1;
    Payment baseline_payment = Payment::all_upfront;
    bool hindsight_bound = false;
    std::vector<double> cvar95_limits;
    /// Start from the reservations and Savings Plans the bill shows in force (held_from_bill,
    /// held_savings_plans_from_bill); false: from nothing held.
    bool held_from_bill = true;
    /// The shortest term assumed for a held reservation or Savings Plan (the bill does not say its term).
    int held_term_years = 1;
};

struct BillPlan {
    DemandProfile history;  ///< the bill's hourly GPUs over its latest whole months
    DemandModel model;      ///< DemandModel::from_history(history)
    DemandFutures futures;  ///< fitted
    DemandFutures held_out; ///< judged on
    Offering offering;      ///< planned with (at the bill's rates with bill_rates)
    RecommendStudy study;
    std::vector<HeldCommitment> held;  ///< what the recommendation started from (the bill's and the options')
    std::vector<SavingsPlan> held_savings_plans;  ///< the Savings Plans it started from (start_month < 0)
    std::vector<std::string> held_notes;  ///< each bill commitment taken or left out, and why
};

/// The reservations of `bill` in force at hour `start_hour` (since 1970 UTC; the plan's month 0) on
/// `offering`'s instance type and region, as held commitments (docs/models.md, "From a bill"):
/// usage-based commitments (CommitmentDiscountCategory Usage or absent; Spend ones, Savings Plans, are
/// held_savings_plans_from_bill's) whose GPU rows reach the bill's last day. GPUs: their Used and Unused GPU-hours over the
/// span of those rows; hourly charge: BilledCost per GPU-hour; upfront: (EffectiveCost − BilledCost)
/// per GPU-hour over the term. Its term: from the bill's contract commitment with its id (FOCUS 1.3,
/// Bill::contract_commitments; start and end to the nearest month, left out once ended) when there is
/// one; otherwise (cost rows carry no term) taken as bought at its first row, for the shortest whole
/// number of years, at least `term_years`, that keeps it in force at `start_hour`. Standard unless its
/// CommitmentDiscountType says Convertible. `notes` says what was taken or left out.
std::vector<HeldCommitment> held_from_bill(const Bill& bill, const Offering& offering, std::int64_t start_hour,
                                           int term_years, std::vector<std::string>* notes = nullptr);

/// The Savings Plans of `bill` (CommitmentDiscountCategory Spend) in force at hour `start_hour` whose Used
/// GPU rows are on `offering`'s instance type and region, as Savings Plans held (start_month < 0; docs/
/// models.md, "From a bill"): commitment per hour = (Used + Unused EffectiveCost) / the hours its rows
/// span; rate = EffectiveCost / GPU-hours of its Used GPU rows; payment from the share of its
/// EffectiveCost its Usage rows billed (none: all upfront, half: partial, all: no upfront); type from
/// CommitmentDiscountType (EC2 Instance, SageMaker, else the provider's compute plan). Its term: from
/// its contract commitment as held_from_bill's (1 or 3 years; its ContractCommitmentCost over the term
/// is then the commitment, when in the bill's currency); otherwise taken as bought at its first row for
/// the shorter of 1 and 3 years, at least `term_years`, that keeps it in force at `start_hour`. `notes`
/// says what was taken or left out (reservations are held_from_bill's).
std::vector<SavingsPlan> held_savings_plans_from_bill(const Bill& bill, const Offering& offering, std::int64_t start_hour,
                                                      int term_years, std::vector<std::string>* notes = nullptr);

/// The series of `bill` bought on `offering` (same provider, instance type and region). Throws
/// InvalidInput "offering = <provider>/<region>/<instance>: no usage of it in the bill".
const GpuSeries& bill_series_of(const Bill& bill, const Offering& offering);

/// The bill's history of `options.gpu` (default the offering's GPU), futures fitted to it
/// (DemandModel::from_history: the bootstrap of its month-to-month changes and its hour-of-week shape)
/// starting where it ends, and the recommendation study over `options.horizon_months` judged on fresh
/// futures beside all on demand and the providers' lookback advice on the same history. Prices are the
/// offering's (convert it to the bill's currency first when they differ). Throws InvalidInput.
BillPlan recommend_from_bill(const Bill& bill, const Offering& offering, const RecommendOptions& options = {},
                             const BillPlanOptions& plan_options = {});

/// The FinOps figures of a bill as rows: scope "all" (every row in the window), "gpu" (GPU rows).
struct BillFiguresRow {
    std::string scope;
    const FinOpsFigures* figures;
};
std::vector<BillFiguresRow> bill_figures_rows(const Bill& bill);

/// The columns of a bill's tables, for every front door.
const std::vector<Column<BillFiguresRow>>& bill_figures_columns();
const std::vector<Column<GpuSeries>>& bill_series_columns();
const std::vector<Column<UnmatchedSku>>& bill_unmatched_columns();
const std::vector<Column<CommitmentSummary>>& bill_commitment_columns();

}  // namespace gputco
