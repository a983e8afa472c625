#pragma once
// The recommender's programme, shared by its source files (not installed): the columns it may buy,
// the served-hours curves it is built from, and one solve of it. The programme is written out in
// docs/design.md, "Recommending a plan".
#include <limits>
#include <string>
#include <vector>

#include "gputco/optimise/recommend.hpp"
#include "mip.hpp"

namespace gputco::detail {

constexpr double infinity = std::numeric_limits<double>::infinity();

/// One buyable column: an option at a start month, priced per GPU.
struct Candidate {
    std::size_t option = 0;
    int start = 0;
    int term_months = 12;
    double gpus_per_unit = 1;
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    /// Index into RecommendOptions::savings_plans for a Savings Plan (a continuous level in GPUs
    /// covered), else -1 (a reservation of whole units).
    int savings_plan = -1;
    double savings_plan_rate = 0;  ///< its rate per GPU-hour before price factors
    bool active(int m) const { return m >= start && m < start + term_months; }
};

/// A capacity block the optimiser may buy for a dated window (RecommendOptions::capacity_blocks): one
/// instance of it; the count is the programme's (whole, 0 to max_instances).
struct BlockCandidate {
    CapacityBlock block;               ///< instances = 1
    double gpus_per_instance = 1;
    double upfront_per_instance = 0;   ///< price × paid hours: paid in full in purchase_month (AWS)
    /// Per month, what one instance pays there: the upfront in the purchase month (AWS), or each
    /// month's share of the hours as they run (GCP calendar mode, which is not upfront).
    std::vector<std::pair<int, double>> payments;
    bool paid_as_it_runs = false;
    int purchase_month = 0;
    double start_hour = 0, end_hour = 0;  ///< its usable hours (stopped 30 minutes before the end)
    double max_instances = 0;
};

/// A flex-start request the optimiser may make for a dated window (RecommendOptions::flex_start): one
/// instance of it; the count is the programme's.
struct FlexCandidate {
    FlexStartRequest request;  ///< gpus = one instance's
    double gpus_per_instance = 1;
    double start_hour = 0, end_hour = 0;
    /// Per month, one instance's charge there at list prices (× the on-demand factor per future).
    std::vector<std::pair<int, double>> payments;
    std::vector<char> granted;  ///< per future, as the engine draws it (instruments::draw_grants)
};

/// A change of held reservation `held` at `month` the optimiser may make (RecommendOptions::changes):
/// a binary column; an exchange adds a whole-unit column for the new reservation's count. Costs are
/// weighted as the objective and the same in every future (values at list prices, as the engine's).
struct ChangeCandidate {
    ChangeKind kind = ChangeKind::resale;
    std::size_t held = 0;
    int month = 0;
    double gpus = 0;     ///< the held GPUs that stop from `month`
    int held_end = 0;    ///< one past the last month the held reservation would run
    double cost = 0;     ///< of making it: its money at `month` less the held hourly charges saved
    double amount = 0;   ///< a refund's amount (against Azure's cap) or a resale's asking price
    // An exchange: the new reservation (exchange_into[into], or azure_exchange_into[into] for an Azure
    // one: `amount` its refund, value_per_unit a unit's lifetime commitment, upfront_per_unit its full
    // upfront, in unit_cost; no true-up) per unit, running [month, end).
    std::size_t into = 0;
    int end = 0;
    double gpus_per_unit = 1;
    double value_per_unit = 0;  ///< what a unit is worth (instruments::exchange_value)
    double old_value = 0;       ///< what is left of the held one (instruments::remaining_value)
    double upfront_per_unit = 0;  ///< a unit's upfront over [month, end) (instruments::exchange_value)
    double old_upfront = 0;       ///< the held one's upfront left (instruments::remaining_upfront)
    double hourly_per_gpu = 0;  ///< the new reservation's hourly charge
    double unit_cost = 0;       ///< a unit's hourly charges, weighted
    /// The weight of its true-up (instruments::exchange_true_up: the units' upfront less old_upfront, if
    /// more), paid at `month`.
    double true_up_weight = 0;
};

/// A share `weight` of a month's hours with `extra` GPUs of window demand and the block candidates
/// `blocks` and flex-start candidates `flex` in force (as the engine's instruments::Piece, with them
/// named rather than summed).
struct WindowPiece {
    double weight = 0;
    double extra = 0;
    std::vector<std::size_t> blocks;
    std::vector<std::size_t> flex;
};

/// GPUs of the unit the recommender's plans are billed by: the offering's instance when it counts in
/// whole instances (options.unit; its plans then carry Plan::billing = Units::instances), else 1.
int billed_unit_gpus(const Offering& offering, const RecommendOptions& o);
/// How the recommender's plans are billed (Plan::billing): per whole instance when it counts in
/// instances, as providers bill, else per GPU-hour.
Units billed_units(const RecommendOptions& o);
/// `futures` with each hour's demand replaced by the GPU-hours a provider billing whole instances of
/// `gpus_per_instance` GPUs is paid for it (instruments::paid_for_hour), one shape per future and
/// month. Every tier below on demand and spot ending at a whole number of
/// instances, per-instance billing of the demand is per-GPU billing of this (docs/models.md section 8).
DemandFutures billed_demand(const DemandFutures& futures, int gpus_per_instance);

/// What every solve of one recommendation shares: the columns and the objective's month weights.
struct Setup {
    /// billed_unit_gpus: every capacity below on demand and spot is a whole number of these.
    int unit_gpus = 1;
    std::vector<Candidate> candidates;
    std::vector<double> weight;  ///< per month, objective discount weight (past the horizon too)
    int horizon = 0;
    /// Commitments already held (options.held): their GPUs in each horizon month, served before what
    /// is bought, and their hourly charges left, weighted as the objective (the same in every future).
    std::vector<double> held_gpus;
    double held_cost = 0;
    /// Changes of held reservations to choose from (options.changes).
    std::vector<ChangeCandidate> changes;
    /// Dated windows (options.plan_options.windows) and the capacity blocks to buy for them: per month,
    /// its pieces (empty when no window or candidate block touches it). windows.cpp.
    std::vector<BlockCandidate> blocks;
    std::vector<FlexCandidate> flex;
    std::vector<std::vector<WindowPiece>> pieces;
    /// The most window GPUs any hour of month m has (0 without windows).
    std::vector<double> window_peak;
};

/// The block and flex-start candidates and window pieces of `setup` over `futures` futures (set_up
/// calls it; windows.cpp).
void set_up_windows(Setup& setup, const Offering& offering, const RecommendOptions& o, std::size_t futures);

/// Checks every option against the futures and prices; throws InvalidInput naming the field.
void validate(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o, const PricePaths& prices);
Setup set_up(const DemandFutures& futures, const Offering& offering, const RecommendOptions& o);

/// The price factor of future f in month m from one of `prices`' tables (1 without a price path).
inline double factor_of(const PricePaths& prices, const Eigen::ArrayXXd& table, std::size_t f, int m) {
    return prices.empty() ? 1.0 : table(m, prices.column(f));
}

/// One affine piece of the served-hours curve S_L(C) = L × S_1(C / L) between two breakpoints:
/// S_L(C) <= L × (served − slope × value) + slope × C, with equality on [L value, L next value].
struct Cut {
    double value = 0;   ///< breakpoint as a multiple of the level
    double served = 0;  ///< S_1(value)
    double slope = 0;   ///< hours served per extra GPU up to the next breakpoint
};

/// The pieces of one month's S_1 through (at most max_blocks + 1) breakpoints: the curve itself when
/// the shape has no more distinct values, otherwise the chords between breakpoints at evenly spaced
/// ranks (below the curve: the engine's re-evaluation then says what the plan really costs).
std::vector<Cut> cuts_of(const MonthShape& shape, int max_blocks);
/// Σ_f weight_f × S_f(C) over a month's futures, S_f = level_f × the pieces of its shape: concave and
/// piecewise linear in C with a kink at every level_f × breakpoint; returned as its pieces
/// (value = the kink in GPUs, served = the sum there, slope to the next kink).
std::vector<Cut> sum_of_pieces(const std::vector<std::pair<double, const std::vector<Cut>*>>& terms,
                               const std::vector<double>& weights);
/// `pieces` of S_1 as pieces of S_L, in GPUs.
std::vector<Cut> scaled(const std::vector<Cut>& pieces, double level);
/// The pieces (in GPUs, of S_L) of the month with `extra` more GPUs every hour: S(C) = C × 730 up to
/// `extra`, then 730 × extra + S_L(C − extra).
std::vector<Cut> shifted(const std::vector<Cut>& pieces, double extra);

/// GPUs of `owned` held in month m (bought at or before it; replaced at the end of each life).
double owned_held(const std::vector<OwnedPurchase>& owned, int m);
/// Capex of `owned` paid in months [first, first + months) of the horizon: at purchase and at each
/// replacement, as the plan engine pays it.
double owned_capex_in(const std::vector<OwnedPurchase>& owned, int first, int months, int horizon);
/// Each future's cost of `owned` (capex, resale, power with the hours owned GPUs serve first, fixed
/// costs), weighted as the objective: the plan engine's own arithmetic (pricing::PricedOwned).
std::vector<double> owned_costs(const DemandFutures& futures, const std::vector<OwnedPurchase>& owned,
                                const Setup& setup);
/// The owned purchases to try: every combination of counts at the option's months (only "none"
/// without options.owned), less those whose capex alone breaks limits.upfront_per_period.
std::vector<std::vector<OwnedPurchase>> owned_combinations(const RecommendOptions& o, int horizon);

struct Solved {
    MipSolution solution;
    Plan plan;
};

/// Builds and solves the programme with `spot` (or none) and `owned` bought; the plan it finds. `billed`
/// is the demand as billed (billed_demand of `futures` by setup.unit_gpus): on-demand and spot are
/// priced on it; owned GPUs' power, the capacity assurance and the committed share on `futures`.
Solved solve_one(const DemandFutures& futures, const DemandFutures& billed, const Offering& offering, const RecommendOptions& o,
                 const PricePaths& prices, const Setup& setup, const SpotOption* spot,
                 const std::vector<OwnedPurchase>& owned);

}  // namespace gputco::detail
