#pragma once
// The plan engine: a plan (commitments bought at given months, owned hardware, spot, on-demand) over
// many demand futures and price paths in, the distribution of its cost out. It is the one engine for
// money: evaluate() is this engine on one deterministic future (docs/design.md, "One engine"), so with
// one future and constant prices it gives evaluate()'s cash flows, per GPU or per whole instance
// (Plan::billing).
//
//   const DemandFutures futures = DemandFutures::generate(model, Horizon::years(3), 10'000, 42);
//   const PricePaths prices = price_paths(price_model, Horizon::years(3), futures.count(), 7);
//   const PlanDistribution d = evaluate_plan(ladder, futures, p4d, prices);
//   fmt::print("P95 {:.0f}, CVaR95 {:.0f}\n", d.total.p95, d.total.cvar95);
#include <cstdint>
#include <optional>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/currency.hpp"
#include "gputco/catalog/price_schedule.hpp"
#include "gputco/core/cancel.hpp"
#include "gputco/results/plan_distribution.hpp"
#include "gputco/strategy/plan.hpp"
#include "gputco/strategy/strategy.hpp"
#include "gputco/work/demand_futures.hpp"
#include "gputco/work/demand_window.hpp"

namespace gputco {

/// How commitments priced in another currency are converted: every price of their offering at the
/// rate of `rates` in force at `date` (fixed for the whole plan; a commitment bought in another
/// currency is a contract in it, so the rate's later moves are not modelled).
struct CurrencyConversion {
    ExchangeRates rates;
    Date date;
};

struct PlanOptions {
    Discounts discounts;              ///< as in evaluate(), applied per future
    double annual_discount_rate = 0;  ///< NPV rate per year, monthly factor (1 + r)^(1/12)
    unsigned threads = 0;             ///< 0 = all hardware threads; results do not depend on it
    /// Needed when a commitment's offering prices in another currency than the plan's; never implied.
    std::optional<CurrencyConversion> conversion;
    /// Polled on the calling thread between chunks of 256 futures; true throws Cancelled.
    StopCheck should_stop;
    /// Futures done of all, from the calling thread between chunks, at most every 50 ms, and at the
    /// end; compare_plans() counts every plan's futures (plans × futures in all).
    ProgressReport progress;
    /// Dated windows of demand on top of every future (the same for every plan compared).
    std::vector<DemandWindow> windows;
    /// Seeds the plan's chance events: whether a flex-start request is granted in future f is drawn from
    /// (seed, f, its start hour) alone, so results do not depend on the thread count, and plans holding
    /// a request at the same start see the same outcome in each future.
    std::uint64_t seed = 0;
};

/// The plan over every future. `prices` empty = list prices throughout; otherwise one column per
/// future or one shared column, over the futures' horizon. Every demanded GPU-hour is served once:
/// owned, commitments in order, spot (in a fraction `availability` of hours; otherwise on demand),
/// then on demand. Throws InvalidInput naming the field (a start month outside the horizon, a
/// commitment priced in another currency without `options.conversion`, ...).
PlanDistribution evaluate_plan(const Plan& plan, const DemandFutures& futures, const Offering& offering,
                               const PricePaths& prices = {}, const PlanOptions& options = {});

/// Several plans over the same futures and prices, with each future's regret: the plan's total minus
/// the cheapest total of the plans compared in that future (the best of them in hindsight).
std::vector<PlanDistribution> compare_plans(const std::vector<Plan>& plans, const DemandFutures& futures,
                                            const Offering& offering, const PricePaths& prices = {},
                                            const PlanOptions& options = {});

/// The cheapest plan in hindsight for each future among "c GPUs of (term_years, payment) committed
/// from month 0 and renewed, the rest on demand", over every whole c from 0 to the future's peak:
/// a real optimum per future that any plan of that shape, on-demand included, cannot beat. The total
/// is linear in c between the future's hourly demand levels (and the counts where free hours run out),
/// so only the whole counts either side of those are priced — at most 2 × (distinct hourly levels +
/// months) + 2 per future, whatever the peak — or every count when the peak is smaller.
/// Returns the total of each future's optimum; `best_gpus`, if given, receives each optimum's c.
std::vector<double> hindsight_reservation_totals(const DemandFutures& futures, const Offering& offering,
                                                 int term_years, Payment payment, const PricePaths& prices = {},
                                                 const PlanOptions& options = {},
                                                 std::vector<double>* best_gpus = nullptr);

}  // namespace gputco
