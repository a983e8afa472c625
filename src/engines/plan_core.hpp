#pragma once
// The one engine for money (docs/design.md, "One engine"): a Plan priced once (PricedPlan: every
// instrument checked and its prices resolved), then month by month against a demand month — a
// DemandProfile's month (evaluate(), evaluate_batch()) or one future's month (evaluate_plan(),
// compare_plans(), hindsight_reservation_totals()). Each hour demand is served by owned GPUs, then the
// commitments in order, then the Savings Plans, then the spot shares, then on demand; on-demand and spot
// pay per GPU or per whole instance (Plan::billing).
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/results/plan_distribution.hpp"
#include "gputco/results/report.hpp"
#include "gputco/work/demand.hpp"
#include "gputco/work/demand_futures.hpp"
#include "instruments/capacity_block.hpp"
#include "instruments/commitment.hpp"
#include "instruments/commitment_change.hpp"
#include "instruments/flex_start.hpp"
#include "instruments/on_demand.hpp"
#include "instruments/owned.hpp"
#include "instruments/savings_plan.hpp"
#include "instruments/spot.hpp"
#include "instruments/windows.hpp"
#include "pricing.hpp"

namespace gputco::plan_core {

using instruments::Naming;
using instruments::PricedCommitment;
using instruments::PricedOwned;
using instruments::PricedSavingsPlan;
using instruments::PricedSpot;

struct PricedPlan {
    std::vector<PricedOwned> owned;
    std::vector<PricedCommitment> held;  ///< held before the horizon (and what they were exchanged for)
    std::vector<PricedCommitment> commitments;
    std::vector<PricedSavingsPlan> savings_plans;  ///< in the order applied (EC2 Instance plans first)
    std::vector<instruments::ChangeFlow> changes;  ///< exchanges' true-ups, sales and refunds, by month
    std::vector<PricedSpot> spots;
    double on_demand_per_gpu_hour = 0;
    int gpus_per_unit = 1;  ///< the instance size when billed per instance, else 1
    int horizon_months = 0;
    int report_months = 0;  ///< horizon_months, or more while a term bought inside it runs
    std::vector<instruments::PricedBlock> blocks;
    /// Per month, its pieces of dated windows and blocks (windows.hpp); empty without any.
    std::vector<std::vector<instruments::Piece>> pieces;
    /// The offering's key when it is sold only through capacity blocks or reservations: then no demand
    /// may reach on demand (price_month refuses it).
    std::optional<std::string> reservation_only;
    /// The offering's key when it is sold only as spot capacity: no demand may reach on demand either.
    std::optional<std::string> spot_only;
    /// Flex-start requests; which are granted is drawn per future (start_future), and a future's pieces
    /// are cut from the windows, the blocks and its granted runs.
    std::vector<instruments::PricedFlexStart> flex_starts;
    std::vector<instruments::HourSpan> window_spans, block_spans;
    std::uint64_t seed = 0;  ///< PlanOptions::seed
    /// One line per 2026 instrument priced at the catalog's rate because the plan gave none (capacity
    /// blocks, Savings Plans, month terms): what, at what rate, from which source and date.
    std::vector<std::string> catalog_rates;
};

/// The checks on an offering and options that do not depend on the plan.
void check_options(const Offering& offering, const Discounts& discounts, double annual_discount_rate);

/// Every instrument of `plan` checked and priced (the options are checked by check_options). Notes of
/// currency conversions go to `conversions`.
PricedPlan price_plan(const Plan& plan, const Offering& offering, const PlanOptions& options, int horizon,
                      Naming naming, std::vector<std::string>* conversions = nullptr);

/// A month of a DemandProfile: its sorted hours as they are (level 1).
struct ProfileMonth {
    const SortedMonths* months;
    int m;
    double total() const { return months->total(m); }
    double served_up_to(double capacity) const { return months->served_up_to(m, capacity); }
    double peak() const { return months->peak(m); }
    std::span<const double> sorted() const { return months->sorted(m); }
    double level() const { return 1.0; }
    double offset() const { return 0.0; }
};

/// A month of one demand future: its shape scaled by its level.
struct FutureMonth {
    const MonthShape* shape;
    double scale;
    double total() const { return scale * shape->total(); }
    double served_up_to(double capacity) const { return shape->served_up_to(scale, capacity); }
    double peak() const { return scale * shape->sorted.back(); }
    std::span<const double> sorted() const { return shape->sorted; }
    double level() const { return scale; }
    double offset() const { return 0.0; }
};

/// The price path's factors of one future (all 1 without a path).
struct Factors {
    const PricePaths* prices = nullptr;
    Eigen::Index column = 0;
    double on_demand(int m) const { return prices ? prices->on_demand(m, column) : 1.0; }
    /// A commitment's factor: its term's table (PricePaths::reserved_for) at month m.
    double reserved(int m, int term_months) const { return prices ? prices->reserved_for(term_months)(m, column) : 1.0; }
    double spot(int m) const { return prices ? prices->spot(m, column) : 1.0; }
};

/// One share of the hours while spot shares split them: its weight, the GPUs of the tiers below (so
/// its load each hour is d − low) and S(low), the GPU-hours those tiers serve.
struct HoursCase {
    double weight = 1;
    double low = 0;
    double served_below = 0;
};

/// Buffers of one evaluation, kept across the futures of a chunk or the strategies of a batch.
struct Scratch {
    std::vector<HoursCase> cases;
    std::vector<double> spot_costs;  ///< per spot share: its spend so far (before credits)
    /// Per commitment (held, then bought): GPU-hours used so far; filled when sized to them.
    std::vector<double> commitment_used;
    /// Per Savings Plan (in serving order): GPU-hours paid for and used so far (what a plan pays for
    /// moves with the price path); filled when sized to them.
    std::vector<double> savings_plan_paid, savings_plan_used;
    /// Per flex-start request: granted in the future being priced (start_future), and the month pieces
    /// cut for that pattern (kept while the next future draws the same one).
    std::vector<char> granted, pieces_granted;
    std::vector<std::vector<instruments::Piece>> pieces;
    bool pieces_ready = false;
};

/// Draws which flex-start requests future `f` grants and cuts its month pieces (nothing without
/// requests). Call before the future's first price_month.
void start_future(const PricedPlan& plan, std::size_t f, Scratch& scratch);

/// Every commitment of a priced plan in serving order (held, then bought): for per-commitment rows.
inline std::vector<const PricedCommitment*> all_commitments(const PricedPlan& plan) {
    std::vector<const PricedCommitment*> out;
    for (const auto& c : plan.held) out.push_back(&c);
    for (const auto& c : plan.commitments) out.push_back(&c);
    return out;
}

/// The tiers' part of price_month on `demand` (a month, or a month with windows after its blocks).
template <class Month>
void price_tiers(const PricedPlan& plan, int m, const Month* demand, const Factors& factors, const Discounts& discounts,
                 double& free_hours_left, MonthlyCashFlow& flow, Scratch& scratch, FutureOutcome* out) {
    flow.month = m;
    const bool in_horizon = demand != nullptr;
    const double total = in_horizon ? demand->total() : 0.0;
    const double on_demand_price = in_horizon ? plan.on_demand_per_gpu_hour * factors.on_demand(m) : 0.0;
    flow.used_gpu_hours = total;
    double low = 0, served_below = 0;  // GPUs of the tiers so far and the GPU-hours they serve
    const auto next_tier = [&](double gpus) {  // GPU-hours the next tier of `gpus` serves
        low += gpus;
        const double served = in_horizon ? demand->served_up_to(low) : 0.0;
        const double used = served - served_below;
        served_below = served;
        return used;
    };
    if (in_horizon) {
        for (const PricedOwned& o : plan.owned) {
            if (m < o.month) continue;
            o.add_month(m, plan.horizon_months, next_tier(o.gpus), flow);
        }
    }
    // Held commitments, then the plan's, in order; held ones keep the rate agreed before (factor 1).
    const bool per_commitment = scratch.commitment_used.size() == plan.held.size() + plan.commitments.size();
    std::size_t index = 0;
    for (const auto* list : {&plan.held, &plan.commitments}) {
        for (const PricedCommitment& c : *list) {
            const std::size_t i = index++;
            if (!c.active(m, plan.horizon_months)) continue;
            // The prices of the month it was bought, unless agreed before the horizon or in an exchange.
            const double price_factor = c.fixed_price ? 1.0 : factors.reserved(c.term_start(m), c.term_months);
            const double used = next_tier(c.gpus);
            c.add_month(m, price_factor, used, flow);
            if (list == &plan.held) {
                flow.held_gpu_hours += c.gpus * hours_per_month;
                flow.held_used_gpu_hours += used;
            }
            if (per_commitment) scratch.commitment_used[i] += used;
            if (out) {
                const double rate = c.effective_per_gpu_hour() * price_factor;
                out->stranded_unused += (c.gpus * hours_per_month - used) * rate;
                if (in_horizon) out->stranded_above_market += used * std::max(0.0, rate - on_demand_price);
            }
        }
    }
    // Savings Plans: each a tier of commitment / rate GPUs at the rate of the month it was bought (the
    // rate agreed before the horizon for one held).
    const bool per_savings_plan = scratch.savings_plan_used.size() == plan.savings_plans.size();
    for (std::size_t j = 0; j < plan.savings_plans.size(); ++j) {
        const PricedSavingsPlan& sp = plan.savings_plans[j];
        if (!sp.active(m, plan.horizon_months)) continue;
        const double price_factor = sp.price_factor(m, factors);
        const double gpus = sp.gpus(price_factor);
        const double used = next_tier(gpus);
        sp.add_month(m, price_factor, used, flow);
        if (per_savings_plan) {
            scratch.savings_plan_paid[j] += gpus * hours_per_month;
            scratch.savings_plan_used[j] += used;
        }
        if (out) {
            const double rate = sp.rate_per_gpu_hour * price_factor;
            out->stranded_unused += (gpus * hours_per_month - used) * rate;  // the commitment not spent
            if (in_horizon) out->stranded_above_market += used * std::max(0.0, rate - on_demand_price);
        }
    }
    for (const instruments::ChangeFlow& change : plan.changes)
        // Vouchers pay a share of every cloud charge, so money back for a charge comes back at that share.
        if (change.month == m) flow.commitment_changes += change.amount * discounts.voucher_price_factor;
    if (in_horizon) {
        const int g = plan.gpus_per_unit;
        if (plan.spots.empty()) {
            // Everything above the tiers runs on demand.
            flow.on_demand_gpu_hours = std::max(0.0, total - served_below);
            flow.on_demand_paid_gpu_hours =
                g == 1 ? flow.on_demand_gpu_hours
                       : instruments::paid_between(*demand, low, std::numeric_limits<double>::infinity(), g);
        } else if (plan.spots.size() == 1) {
            // One spot share (the usual case): the two cases below without the list — the hours with
            // spot (weight a) leave the demand above it, the others (1 − a) all above the tiers.
            const PricedSpot& s = plan.spots.front();
            const double availability = s.availabilities[std::size_t(m)];
            const double price = s.price_per_gpu_hour * factors.spot(m) * s.overheads[std::size_t(m)];
            const double high = low + s.gpus;
            const double rest = 1.0 - availability;
            constexpr double infinity = std::numeric_limits<double>::infinity();
            if (availability == 0) {
                flow.on_demand_gpu_hours = 0.0 + (total - served_below);
                flow.on_demand_paid_gpu_hours = 0.0 + (g == 1 ? total - served_below
                                                               : instruments::paid_between(*demand, low, infinity, g));
            } else {
                const double served_up_to_high = demand->served_up_to(high);
                const double served = availability * (served_up_to_high - served_below);
                const double paid = g == 1 ? served : availability * instruments::paid_between(*demand, low, high, g);
                flow.spot_gpu_hours += served;
                flow.spot_paid_gpu_hours += paid;
                flow.spot += paid * price;
                scratch.spot_costs[0] += paid * price;
                double on_demand = 0, on_demand_paid = 0;
                if (availability < 1.0) {
                    const double below = rest * (total - served_below);
                    on_demand += below;
                    on_demand_paid += g == 1 ? below : rest * instruments::paid_between(*demand, low, infinity, g);
                }
                const double above = availability * (total - served_up_to_high);
                on_demand += above;
                on_demand_paid += g == 1 ? above : availability * instruments::paid_between(*demand, high, infinity, g);
                flow.on_demand_gpu_hours = on_demand;
                flow.on_demand_paid_gpu_hours = on_demand_paid;
            }
        } else {
            // Spot capacity is there in a share `availability` of the hours, where it serves what it can
            // of the demand left; in the other hours that demand stays for the next share. Each spot
            // share splits the hours into weighted cases (independently of the others), so whole
            // instances are paid for the demand each case really leaves, not for its average.
            auto& cases = scratch.cases;
            cases.assign(1, HoursCase{1.0, low, served_below});
            const double spot_factor = factors.spot(m);
            for (std::size_t i = 0; i < plan.spots.size(); ++i) {
                const PricedSpot& s = plan.spots[i];
                const double availability = s.availabilities[std::size_t(m)];
                const double price = s.price_per_gpu_hour * spot_factor * s.overheads[std::size_t(m)];
                const std::size_t before = cases.size();
                for (std::size_t c = 0; c < before; ++c) {
                    const double weight = cases[c].weight * availability;
                    if (weight == 0) continue;
                    const double high = cases[c].low + s.gpus;
                    const double served_up_to_high = demand->served_up_to(high);
                    const double served = weight * (served_up_to_high - cases[c].served_below);
                    const double paid = g == 1 ? served : weight * instruments::paid_between(*demand, cases[c].low, high, g);
                    flow.spot_gpu_hours += served;
                    flow.spot_paid_gpu_hours += paid;
                    flow.spot += paid * price;
                    scratch.spot_costs[i] += paid * price;
                    const HoursCase left{weight, high, served_up_to_high};
                    if (availability < 1.0) {
                        cases[c].weight -= weight;  // the hours without spot keep their demand
                        cases.push_back(left);
                    } else {
                        cases[c] = HoursCase{cases[c].weight, high, served_up_to_high};
                    }
                }
            }
            for (const HoursCase& c : cases) {
                const double served = c.weight * (total - c.served_below);
                flow.on_demand_gpu_hours += served;
                flow.on_demand_paid_gpu_hours +=
                    g == 1 ? served
                           : c.weight * instruments::paid_between(*demand, c.low, std::numeric_limits<double>::infinity(), g);
            }
        }
    }
    if (plan.spot_only && flow.on_demand_gpu_hours > 1e-9) {
        fail("offering.spot_only", *plan.spot_only,
             fmt::format("is sold only as spot capacity, but {:g} GPU-hours of month {} are left to on-demand; "
                         "give the spot share availability 1 and enough GPUs, or price another offering",
                         flow.on_demand_gpu_hours, m));
    }
    if (plan.reservation_only && flow.on_demand_gpu_hours > 1e-9) {
        fail("offering.reservation_only", *plan.reservation_only,
             fmt::format("is sold only through capacity blocks or reservations, but {:g} GPU-hours of month {} are "
                         "left to on-demand; cover them with blocks or commitments, or price another offering",
                         flow.on_demand_gpu_hours, m));
    }
    flow.on_demand = flow.on_demand_paid_gpu_hours * on_demand_price;
    pricing::add_credits_and_total(flow, discounts, flow.on_demand_paid_gpu_hours, on_demand_price, free_hours_left);
}

/// Month m's flows into `flow` (zeroed by the caller), `demand` null past the horizon. `free_hours_left`
/// is the pool of free on-demand hours still unused; `out`, when given, collects the commitments' and
/// blocks' stranded spend; `scratch.spot_costs` (sized to the spot shares) adds each share's spend.
/// Capacity blocks are paid in their purchase month and serve first in their hours, as do the flex-start
/// runs granted in this future (scratch.granted, from start_future), paid as they run; a month touched
/// by windows, blocks or runs is priced as the mixture of its pieces (windows.hpp).
template <class Month>
void price_month(const PricedPlan& plan, int m, const Month* demand, const Factors& factors, const Discounts& discounts,
                 double& free_hours_left, MonthlyCashFlow& flow, Scratch& scratch, FutureOutcome* out) {
    double block_hours = 0;
    for (const instruments::PricedBlock& b : plan.blocks) {
        if (b.paid_as_it_runs) flow.reserved_recurring += b.paid_in(m);  // GCP calendar mode
        else if (m == b.purchase_month) flow.upfront += b.upfront;
        block_hours += b.gpu_hours_in(m);
    }
    // Granted flex-start runs: each GPU-hour at the discounted on-demand rate of its month.
    const bool flex = !plan.flex_starts.empty();
    const auto for_each_run = [&](auto f) {
        for (std::size_t j = 0; j < plan.flex_starts.size(); ++j)
            if (scratch.granted[j] && plan.flex_starts[j].run.gpu_hours_in(m) > 0) f(plan.flex_starts[j].run);
    };
    for_each_run([&](const instruments::PricedBlock& b) {
        flow.reserved_recurring += b.paid_in(m) * factors.on_demand(m);
        block_hours += b.gpu_hours_in(m);
    });
    const auto& pieces = flex ? scratch.pieces : plan.pieces;
    const bool windows = demand != nullptr && !pieces.empty() && !pieces[std::size_t(m)].empty();
    if (!windows) {
        price_tiers(plan, m, demand, factors, discounts, free_hours_left, flow, scratch, out);
    } else {
        const instruments::WindowMonth<Month> month(*demand, pieces[std::size_t(m)]);
        price_tiers(plan, m, &month, factors, discounts, free_hours_left, flow, scratch, out);
        // The tiers saw the demand the blocks left; the month's demand is all of it.
        const double block_used = month.block_used;
        flow.used_gpu_hours += block_used;
        flow.reserved_used_gpu_hours += block_used;
        if (out) {
            // Each block's unused usable hours at its own price per usable GPU-hour, the used ones
            // shared in proportion to the blocks' hours this month.
            const auto strand = [&](const instruments::PricedBlock& b, double factor) {
                const double hours = b.gpu_hours_in(m);
                if (hours <= 0) return;
                out->stranded_unused += (hours - block_used * hours / block_hours) * b.per_usable_gpu_hour() * factor;
            };
            for (const instruments::PricedBlock& b : plan.blocks) strand(b, 1.0);
            for_each_run([&](const instruments::PricedBlock& b) { strand(b, factors.on_demand(m)); });
        }
    }
    flow.reserved_gpu_hours += block_hours;
}

/// The flows of `plan` on `demand` (every report month) into `flows`, spend per spot share into
/// `scratch.spot_costs`.
void profile_cash_flows(const PricedPlan& plan, const DemandProfile& demand, const Discounts& discounts,
                        std::vector<MonthlyCashFlow>& flows, Scratch& scratch);

/// NPV of monthly totals at an annual rate, cash at the start of each month.
double npv_of(std::span<const MonthlyCashFlow> flows, double annual_rate);

/// The utilisation at which the plan's first owned tranche (else its first commitment) costs what
/// on-demand does at the price paid for one more hour; none when nothing pays back.
std::optional<double> break_even_utilisation(const PricedPlan& plan, const Discounts& discounts);

/// 1-based count of months after which the cumulative cost stays at or below the baseline's.
std::optional<int> break_even_month(std::span<const MonthlyCashFlow> flows, std::span<const MonthlyCashFlow> baseline);

/// The spread of `total` over the spot shares' overhead samples: the total is linear in each share's
/// overhead, and every share with samples takes the same quantile of its samples (a conservative,
/// fully correlated spread; with one share, exactly its samples). None when no share has samples.
std::optional<CostSpread> spot_spread(const PricedPlan& plan, const Scratch& scratch, double total,
                                      double voucher_price_factor);

/// What a plan's report says it assumed (offering, prices, demand, each instrument, credits, NPV).
struct AssumptionContext {
    double fleet_gpus = 0;
    std::optional<Rounding> rounding;  ///< a Mix's rounding of its shares
};
std::vector<std::string> describe_assumptions(const PricedPlan& plan, const DemandProfile& demand,
                                              const Offering& offering, const Discounts& discounts,
                                              double annual_discount_rate, const AssumptionContext& context);

}  // namespace gputco::plan_core
