#pragma once
// Recommending a plan: which commitments to buy in which months (a ladder), how many GPUs to run on
// spot, the rest on demand, least expected cost over the demand futures and price paths given,
// within the risk limits given. A sample-average mixed-integer programme solved by COIN-OR CBC; the
// chosen plan is then priced by the plan engine (the engine has the last word) and can be checked on
// fresh futures with compare_plans(), beside baseline_plans() and the hindsight_plan_totals() bound.
//
//   RecommendOptions options;
//   options.commitments = {{.term_years = 1, .payment = Payment::no_upfront},
//                          {.term_years = 3, .payment = Payment::all_upfront}};
//   options.review_months = 6;                 // buy only in months 0, 6, 12, ...
//   options.limits.cvar95 = 2.0e6;             // worst 5% of futures cost at most 2.0 M on average
//   const Recommendation r = recommend_plan(futures, p4d, options);
//   describe(r.plan);
#include <functional>
#include <optional>
#include <span>
#include <limits>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/price_schedule.hpp"
#include "gputco/engines/capacity_risk.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/engines/spot.hpp"
#include "gputco/results/plan_distribution.hpp"
#include "gputco/strategy/plan.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/work/demand_futures.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// A kind of commitment the optimiser may buy (any count, at any allowed start month; lapsing).
struct CommitmentOption {
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    std::optional<double> reservation_discount;  ///< as Commitment's; default: the offering's prices
    /// A short term instead of term_years: 1, 3 or 6 months, as Commitment::term_months (priced from
    /// reservation_discount or the offering's month-term rate); 0 = a term of term_years.
    int term_months = 0;
};

/// A Savings Plan the optimiser may buy at each start month: its level (the $/hour commitment) is a
/// continuous decision, covering commitment / rate GPUs each hour after the reservations.
struct SavingsPlanOption {
    SavingsPlanType type = SavingsPlanType::aws_compute;
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    std::optional<double> rate_per_gpu_hour;  ///< as SavingsPlan::rate_per_gpu_hour; default: the offering's rate
};

/// Capacity blocks the optimiser may buy for the dated windows of demand (plan_options.windows): for
/// each window, a block from the window's first day (rounded down) of the shortest length sold whose
/// usable hours hold the window, and, when a shorter length sold leaves less than a day of it
/// uncovered, one of that length too (the window's last hours then fall to the other tiers). Each is a
/// whole number of instances, 0 to CapacityBlock::max_instances (and options.max_count), chosen with
/// the rest of the plan; a block serves first in its hours, steady demand included. A window no length
/// sold can hold inside the horizon gets no block.
struct CapacityBlockOption {
    int lead_days = 0;  ///< bought this many days before it starts (at most the start day), 0 to 56
    /// Per instance-hour, set at purchase; default: the offering's capacity-block rate in the catalog.
    std::optional<double> price_per_instance_hour;
    /// AWS blocks (lengths sold: 1–14 days or whole weeks; paid at purchase; stopped 30 minutes before
    /// the end) or GCP calendar mode (any whole days to 90, every hour usable, paid as the hours run;
    /// the price must be given, up to 80 VMs): the lengths offered are the kind's, as above.
    BlockKind kind = BlockKind::aws_capacity_block;
};

/// Flex-start requests (GCP Dynamic Workload Scheduler, docs/models.md section 5d) the optimiser may make
/// for the dated windows of demand (plan_options.windows): for each window, a request from its start for
/// its length (at most FlexStartRequest::max_days: a longer window's rest falls to the other tiers), a
/// whole number of instances, 0 to options.max_count. Granted in a future (drawn from
/// plan_options.seed as the engine draws it), it serves first in its hours and every GPU-hour it runs is
/// paid at (1 − discount) × on demand; refused, the window falls to the rest of the plan.
struct FlexStartOption {
    double discount = 0;           ///< off on demand, [0, 1): no default to trust (FlexStartRequest)
    double grant_probability = 1;  ///< (0, 1]: an assumption
};

/// Changes the optimiser may make to the reservations already held (RecommendOptions::held), each at a
/// start month where the engine allows it (docs/models.md section 2.2b: after month 0, while it runs,
/// inside the horizon), at most one per held reservation, each priced by the engine's rules
/// (instruments/commitment_change.hpp) and chosen where it pays. None when all are empty.
struct ChangeOptions {
    /// Sell a held standard reservation on the AWS Reserved Instance Marketplace, asking this share of
    /// its prorated upfront left (U × GPUs × months left / term: a price schedule falling with the months
    /// left, as the marketplace's allows); the seller receives it less AWS's 12% fee and the hourly
    /// charges left pass to the buyer. In [0, 1]: an assumption that no buyer pays more than that, and
    /// that the listing sells in its month.
    std::optional<double> resale_price_share;
    /// Exchange a held convertible reservation (AWS) for one of these terms, a whole number of units
    /// chosen with the rest of the plan, worth at least what is left of the old one (the true-up paid),
    /// of the same or a higher payment option than the held one (a lower one is not offered). Years
    /// terms only (term_months 0).
    std::vector<CommitmentOption> exchange_into;
    /// Return a held reservation for Azure's refund of its prorated upfront, within Azure's USD 50,000
    /// in any 12 months.
    bool refund = false;
    /// Exchange a held reservation the Azure way for one of these terms: its prorated upfront refunded
    /// (outside the refund cap) and a whole number of units of the new one bought in full from that
    /// month for its own term, their lifetime commitment at least what is left of the old one. Years
    /// terms only (term_months 0).
    std::vector<CommitmentOption> azure_exchange_into;
    bool empty() const {
        return !resale_price_share && exchange_into.empty() && !refund && azure_exchange_into.empty();
    }
};

/// The rules of `c` alone (resale_price_share in [0, 1], exchange_into of years terms), errors naming
/// `field` (options.changes for the recommender; a scenario's recommend.changes at its place).
void validate(const ChangeOptions& c, std::string_view field);

/// A way to run spot, e.g. one checkpoint interval: `overhead` billed per useful hour and
/// `availability` from the spot engine (spot_option() / simulate_spot at that interval).
struct SpotOption {
    std::string name;  ///< shown in the result, e.g. "spot, checkpoint every 1 h"
    double overhead = 1.0;
    double availability = 1.0;
    std::optional<double> price_per_gpu_hour;  ///< default: the offering's spot price
    /// P(a job run this way finishes after its deadline), SpotResult::deadline_miss_probability;
    /// empty = not known (then a limits.deadline_miss_probability excludes the option).
    std::optional<double> deadline_miss_probability;
};

/// The spot option a simulation of `job` stands for: overhead = mean charged hours per useful hour (as
/// spot_tranche()), the deadline-miss probability of the run, and `availability`.
SpotOption spot_option(std::string name, const SpotResult& simulated, const Job& job, double availability = 1.0);

/// Owned GPUs the optimiser may buy: any whole multiple of `step_gpus` up to `max_gpus` at each month in
/// `months`, each an OwnedPurchase costed as the plan engine costs it (capex, resale, power busy and
/// idle, colocation, maintenance, staff). Every combination of counts is tried (at most 4,096), each with
/// the best commitments and spot for it; owned GPUs serve demand first, as in the engine.
struct OwnedOption {
    Owned terms;
    std::vector<int> months{0};  ///< purchase months
    int max_gpus = 0;
    int step_gpus = 1;
};

/// Limits on the answer; each is off when empty. Money limits are in the offering's currency and
/// measured as the objective is (total, or NPV when annual_discount_rate > 0 and objective = npv).
struct RiskLimits {
    std::optional<double> cvar95;            ///< mean cost of the worst ⌈5% n⌉ futures, at most this (>= 0)
    /// Upfront paid in any `upfront_period_months` window: reservations' upfront, owned capex and
    /// capacity blocks (paid in full in their purchase month).
    std::optional<double> upfront_per_period;
    int upfront_period_months = 3;            ///< periods start at month 0 (quarters by default)
    /// Committed GPUs in any month at most this share of the month's mean demand level over futures
    /// (reservations and Savings Plans; a capacity block is bought for a window's demand, not counted).
    std::optional<double> committed_share;
    /// Spot options whose job misses its deadline with a higher probability are not tried (the plan
    /// then runs without them; on demand is always possible).
    std::optional<double> deadline_miss_probability;
    /// The plan's capacity assurance (capacity_assurance(), docs/models.md section 8) at least this: the
    /// expected share of demanded GPU-hours served by capacity that is there, with on-demand missing a
    /// share RecommendOptions::on_demand_capacity.unavailable_share of the time. In [0, 1].
    std::optional<double> capacity_assurance;
};

enum class Objective { expected_total, expected_npv };

template <>
struct EnumText<Objective> {
    static constexpr std::array<EnumName<Objective>, 2> names{{
        {Objective::expected_total, "expected_total"},
        {Objective::expected_npv, "expected_npv"},
    }};
};

struct RecommendOptions {
    /// What may be bought; empty = every reservation the offering lists.
    std::vector<CommitmentOption> commitments;
    /// Months commitments may start in; empty = every `review_months` months from 0.
    std::vector<int> start_months;
    int review_months = 6;
    /// Counts are whole GPUs or whole instances; in instances the plans are billed per whole instance
    /// (Plan::billing, as providers bill), spot and Savings Plan levels come in whole instances, and what
    /// is held, owned steps and window GPUs must be whole instances (docs/models.md section 8).
    CountUnit unit = CountUnit::gpus;
    double max_count = 1e6;            ///< at most this many of each (option, start month)
    /// Savings Plans that may be bought at the start months (their $/hour levels chosen); none when empty.
    std::vector<SavingsPlanOption> savings_plans;
    /// Capacity blocks for the dated windows of plan_options.windows; none when empty.
    std::optional<CapacityBlockOption> capacity_blocks;
    /// Flex-start requests for the dated windows of plan_options.windows; none when empty.
    std::optional<FlexStartOption> flex_start;
    /// Ways to run spot; the optimiser tries each (and none) and keeps the cheapest. Empty = no spot.
    std::vector<SpotOption> spot;
    /// Owned hardware the optimiser may buy; none when empty.
    std::optional<OwnedOption> owned;
    Objective objective = Objective::expected_total;
    RiskLimits limits;
    PlanOptions plan_options;  ///< NPV rate, on-demand discount, voucher, region factor, threads
    /// A month's hours are grouped into at most this many demand-level blocks (exact when a month
    /// has no more distinct hourly levels; otherwise the engine's re-evaluation is the true cost).
    int max_blocks = 32;
    double time_limit_seconds = 60;  ///< the solver stops here and returns its best plan so far
    /// Reservations already held: taken as given (every plan, on demand included, holds them and pays
    /// their hourly charges left); the recommendation says what to add.
    std::vector<HeldCommitment> held;
    /// Savings Plans already held (start_month < 0, not renewed): as `held`, every plan holds them and
    /// pays the hourly part of their commitment left; served as the engine serves Savings Plans.
    std::vector<SavingsPlan> held_savings_plans;
    /// What may be done with `held`: sold, exchanged or refunded where demand falls below it; none when empty.
    ChangeOptions changes;
    /// The risk that on-demand capacity is not there (a stated assumption per offering); used by
    /// limits.capacity_assurance. Default: always there.
    OnDemandCapacity on_demand_capacity;
};

/// One solve: the plan for one spot option (or none), or why the option was not tried.
struct CandidateResult {
    std::string spot_option;     ///< "none" or the option's name
    /// Empty when solved; otherwise why not, e.g. "deadline-miss probability 0.2 > limits.deadline_miss_probability = 0.05".
    std::string excluded;
    double solver_objective = 0; ///< the programme's mean cost of its plan over the sample
    double engine_objective = 0; ///< the plan engine's mean of the same
    bool proven_optimal = false;
    Plan plan;
    /// The plan's capacity assurance in the engine (1 when options.on_demand_capacity is always there);
    /// a plan below limits.capacity_assurance there is not taken.
    double capacity_assurance = 1;
};

struct Recommendation {
    Plan plan;                        ///< the recommendation (name "recommended" unless on demand won)
    PlanDistribution in_sample;       ///< the plan engine over the futures it was fitted to
    double solver_objective = 0;      ///< the programme's objective for `plan`
    bool proven_optimal = false;      ///< false when the solver stopped at its time limit
    /// (solver_objective − the least the solver proved possible) / solver_objective: 0 when proven
    /// optimal, the most the plan may be above the programme's optimum when stopped at the time limit.
    double gap = 0;
    std::string status;               ///< what the solver reported, in words
    /// Share of the demanded GPU-hours spot serves (in sample: over all futures and months). The spot
    /// capacity that takes is plan.spot->gpus: the most any month needs, at most the peak demand.
    double spot_share = 0;
    /// "none", then one per spot option (solved or excluded); with `owned`, that again for each
    /// combination of owned counts tried (its plan lists the owned purchases; exclusions once).
    std::vector<CandidateResult> candidates;
    double solve_seconds = 0;
    /// The plan's capacity assurance in sample (the engine's hours, options.on_demand_capacity).
    double capacity_assurance = 1;
};

/// The sample-average optimum over `futures` (and `prices`: one column per future or one shared).
/// Throws InvalidInput naming the field for bad options, and naming the limit when the limits leave
/// no plan ("limits.cvar95 = 1e+06: no plan meets it; all on demand has CVaR95 1.3e+06, ...").
Recommendation recommend_plan(const DemandFutures& futures, const Offering& offering,
                              const RecommendOptions& options = {}, const PricePaths& prices = {});

/// The best plan in hindsight, future by future: recommend_plan on each future alone with the same
/// decision (options, start months, unit, spot options within limits.deadline_miss_probability, which
/// is a property of the option, not of the future) and no other limits, so a lower bound in that future
/// on every plan of that decision space, limited or not, the recommendation and baselines within it
/// included. It is a bound, not a plan one can buy: it knows the future. Futures are solved in
/// parallel on `options.plan_options.threads` (each solve single-threaded; the same result for any count).
struct HindsightBound {
    std::vector<double> totals;  ///< per future, the objective measure (total, or NPV) of its optimum
    std::vector<Plan> plans;     ///< per future, the optimum
    /// Every solve proven optimal and every month exact (at most `max_blocks` distinct hourly levels):
    /// only then is each total a proven bound; otherwise it is the best plan found.
    bool exact = true;
};
HindsightBound hindsight_plan_totals(const DemandFutures& futures, const Offering& offering,
                                     const RecommendOptions& options = {}, const PricePaths& prices = {});

/// A plan's risk judged on futures it was not fitted to, against a CVaR95 limit.
struct RiskCheck {
    double confidence = 0.95;  ///< one-sided confidence of meets_limit
    double cvar95 = 0;    ///< the engine's CVaR95 of the objective measure over the futures
    /// Its standard error: the sample sd of η + (X − η)⁺ / 0.05 over √n with η the P95 (Rockafellar–
    /// Uryasev: CVaR95 is the mean of that at η = VaR95).
    double cvar95_standard_error = 0;
    double p95 = 0;
    double limit = 0;
    double upper = 0;  ///< CVaR95 + z standard errors: the one-sided upper confidence bound
    /// upper <= limit, z the standard normal's `confidence` quantile (1.645 at 95%):
    /// the limit holds at that one-sided confidence.
    bool meets_limit = false;
};
/// `judged` (e.g. evaluate_plan on fresh futures) against `cvar95_limit`, in the objective's measure.
RiskCheck check_risk(const PlanDistribution& judged, double cvar95_limit, Objective objective = Objective::expected_total,
                     double confidence = 0.95);

/// How recommend_holding_limit() makes limits.cvar95 hold on futures the plan was not fitted to.
struct LimitHolding {
    /// That the plan returned as holding has CVaR95 within the limit, over all its rounds: each round's
    /// check is at 1 − (1 − confidence) / max_rounds one-sided (a union bound over the rounds).
    double confidence = 0.95;
    int max_rounds = 8;  ///< solves at most
    /// `count` futures of the model the fitted futures came from, each `draw` independent of every
    /// other (e.g. DemandFutures::generate(model, horizon, count, seed + draw)). With it each round is
    /// judged on fresh futures (as many as held_out) and the fitted sample can grow; empty = every round
    /// is judged on held_out and only the limit solved with is tightened.
    std::function<DemandFutures(std::size_t count, std::uint64_t draw)> draw_futures;
    std::size_t max_futures = 1600;  ///< the fitted sample doubles up to this many futures, then the limit tightens
};

/// One solve of recommend_holding_limit().
struct HoldingRound {
    std::size_t fitted_futures = 0;
    double solved_limit = 0;  ///< the CVaR95 limit the programme was given
    bool feasible = false;
    RiskCheck judged;         ///< the plan's check against the caller's limit on the round's held-out futures
    std::string reason;       ///< not feasible: recommend_plan's error
};

struct HeldRecommendation {
    Recommendation recommendation;  ///< the last plan found (the one that holds when `holds`)
    bool holds = false;             ///< the last round's check met the limit
    /// The plan on the caller's held_out futures against the limit at `confidence`: the figure to report.
    RiskCheck held_out;
    std::size_t fitted_futures = 0; ///< the sample the plan was fitted to
    double solved_limit = 0;        ///< the limit it was solved with (<= options.limits.cvar95)
    std::vector<HoldingRound> rounds;
    std::string verdict;            ///< in words: held, or why it could not be made to hold
};

/// A recommendation under options.limits.cvar95 whose CVaR95 on futures it was not fitted to meets the
/// limit at `holding.confidence` (docs/models.md, "Risk limits that hold out of sample"): recommend_plan
/// on `fitted`, judged on fresh futures (holding.draw_futures, else `held_out`) at `held_out_prices`;
/// while the check fails the fitted sample doubles (up to max_futures, with draw_futures), then the
/// limit solved with is tightened by the factor the check's upper bound overshoots it, until a check
/// holds, no plan meets the tightened limit, or max_rounds solves were made; `verdict` says which.
/// Prices: one shared path (or none) when futures are drawn. Throws InvalidInput without
/// options.limits.cvar95, for fewer than 2 held-out futures, or as recommend_plan does.
HeldRecommendation recommend_holding_limit(const DemandFutures& fitted, const DemandFutures& held_out,
                                           const Offering& offering, const RecommendOptions& options,
                                           const PricePaths& prices = {}, const PricePaths& held_out_prices = {},
                                           const LimitHolding& holding = {});

/// A point of the cost–risk frontier: the recommendation under `cvar95_limit`.
/// A limit no plan meets has no figures: mean, cvar95 and p95 are NaN (not 0, which reads as a cost)
/// and `reason` says why.
struct FrontierPoint {
    double cvar95_limit = 0;
    bool feasible = false;
    double mean = std::numeric_limits<double>::quiet_NaN();    ///< in-sample mean of the objective measure (engine)
    double cvar95 = std::numeric_limits<double>::quiet_NaN();  ///< in-sample CVaR95 (engine)
    double p95 = std::numeric_limits<double>::quiet_NaN();
    std::string reason;  ///< infeasible: why no plan meets the limit (or none was found in time); empty otherwise
    /// The solver stopped at options.time_limit_seconds: the point is the best plan found (feasible, its
    /// `gap` above the proven bound) or none (not feasible, `reason` says so); the other points go on.
    bool timed_out = false;
    double gap = std::numeric_limits<double>::quiet_NaN();  ///< Recommendation::gap of the point's plan
    std::string plan;   ///< describe(recommended)
    Plan recommended;   ///< the plan itself, to judge on fresh futures
};

/// The recommendation for each limit in `cvar95_limits` (other limits as in `options`); a point that
/// reaches the time limit is marked and the rest are still computed.
std::vector<FrontierPoint> cost_risk_frontier(const DemandFutures& futures, const Offering& offering,
                                              const std::vector<double>& cvar95_limits,
                                              const RecommendOptions& options = {}, const PricePaths& prices = {});

/// A point of the frontier of price against assurance: the cheapest plan whose capacity assurance is
/// at least `required` (other limits as in the options).
struct AssurancePoint {
    double required = 0;
    bool feasible = false;
    double mean = std::numeric_limits<double>::quiet_NaN();        ///< in-sample mean of the objective measure (engine)
    double assurance = std::numeric_limits<double>::quiet_NaN();   ///< the plan's capacity assurance (engine)
    std::string reason;  ///< infeasible: why no plan meets it (or none was found in time); empty otherwise
    bool timed_out = false;
    double gap = std::numeric_limits<double>::quiet_NaN();
    std::string plan;   ///< describe(recommended)
    Plan recommended;
};

/// The recommendation for each level in `required` (limits.capacity_assurance set to it); a point
/// that reaches the time limit is marked and the rest are still computed.
std::vector<AssurancePoint> capacity_assurance_frontier(const DemandFutures& futures, const Offering& offering,
                                                        const std::vector<double>& required,
                                                        const RecommendOptions& options = {},
                                                        const PricePaths& prices = {});

/// The providers' reservation advice as AWS Cost Explorer and Azure Advisor document it: the whole
/// number of units (instances of `gpus_per_unit` GPUs) that would have saved most over `window` (hourly
/// GPUs, e.g. the last 7, 30 or 60 days), counting only usage not already covered by `held_gpus`, a
/// unit costing `reserved_rate` per GPU-hour (upfront spread over the term) against `on_demand_rate`;
/// 0 when no unit saves. Ties go to fewer units.
double provider_advice_units(std::span<const double> window, double held_gpus, double gpus_per_unit,
                             double reserved_rate, double on_demand_rate);

/// The providers' Savings Plan recommendation as AWS Cost Explorer documents it (docs/models.md): the
/// $/hour commitment that would have saved most over `window` (hourly GPUs, e.g. the last 7, 30 or 60
/// days), counting only usage not already covered by `held_gpus`, the plan paying `rate` per GPU-hour
/// against `on_demand_rate`; 0 when no commitment saves. Ties go to the smaller commitment.
double provider_savings_plan_advice(std::span<const double> window, double held_gpus, double rate,
                                    double on_demand_rate);

/// The providers' Savings Plan advice over the last 7, 30 and 60 days of `history` as three plans (a
/// plan of `option` from month 0 at that $/hour, renewed), beside baseline_plans' reservations.
std::vector<Plan> savings_plan_baselines(const DemandProfile& history, const Offering& offering,
                                         const SavingsPlanOption& option, const PlanOptions& options = {});

/// Plans people would pick without the optimiser, to compare on held-out futures: all on demand;
/// the providers' advice (provider_advice_units) over the last 7, 30 and 60 days of `history`, in whole
/// instances; and optimal_reservation over the history (today's newsvendor advice), the history
/// repeated to the term's length when it is shorter. Reservations of (term_years, payment) from month 0,
/// renewed. `history` may be empty: then only all on demand.
/// The providers' advice as they run it over the horizon, in one future (`future` of `futures`): in
/// month 0 provider_advice_units over the last `lookback_days` of `history`, then again at the start of
/// every month over that future's own use so far with the GPUs still held left out, each purchase that
/// many instances of (term_years, payment) from that month, lapsing at its end. The futures keep each
/// month's hours as a distribution, not in order, so a window is whole months: the last month for 7 and
/// 30 days, the last two for 60 (the advice depends on the window's distribution, not its length).
Plan provider_policy_plan(const DemandProfile& history, const DemandFutures& futures, std::size_t future,
                          const Offering& offering, int lookback_days, int term_years, Payment payment,
                          const PlanOptions& options = {}, const std::vector<HeldCommitment>& held = {});

/// With `held` commitments every baseline holds them too and advises only for the demand they leave:
/// the providers' advice counts their GPUs as held, the newsvendor prices the history less them.
/// `held_savings_plans` (bought before the horizon) likewise, their GPUs at their rate.
std::vector<Plan> baseline_plans(const DemandProfile& history, const Offering& offering, int term_years,
                                 Payment payment, const PlanOptions& options = {},
                                 const std::vector<HeldCommitment>& held = {},
                                 const std::vector<SavingsPlan>& held_savings_plans = {});

}  // namespace gputco
