// The deterministic cost engine's front door (see cost.hpp): a strategy becomes a Plan (a Mix through
// plan_from_mix, a single strategy as a Mix of one tranche), priced by the one engine (plan_core.hpp)
// on the demand profile as its one future, against the same demand all on demand.
#include "gputco/engines/cost.hpp"

#include <utility>
#include <vector>

#include "gputco/core/limits.hpp"
#include "plan_core.hpp"

namespace gputco {
namespace {

/// A single strategy as the Mix it stands for: one tranche of the whole fleet, counted without rounding.
Mix single_tranche(const Strategy& strategy) {
    Tranche single{1.0, OnDemand{}};
    if (const auto* reserved = std::get_if<Reserved>(&strategy)) single.kind = *reserved;
    if (const auto* owned = std::get_if<Owned>(&strategy)) single.kind = *owned;
    return Mix{{single}, std::nullopt, Rounding::none};
}

/// The strategy's plan priced, with what its report says about the fleet.
struct PricedStrategy {
    plan_core::PricedPlan plan;
    plan_core::AssumptionContext context;
};

PricedStrategy price_strategy(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                              const PlanOptions& plan_options, Units units) {
    const Mix* given = std::get_if<Mix>(&strategy);
    const Mix single = given ? Mix{} : single_tranche(strategy);
    const Mix& mix = given ? *given : single;
    PricedStrategy out;
    const Plan plan = plan_from_mix_in_units(mix, demand.peak_gpus(), units, offering.gpus_per_instance);
    out.plan = plan_core::price_plan(plan, offering, plan_options, demand.horizon().month_count(),
                                     plan_core::Naming::mix);
    out.context.fleet_gpus = mix.fleet_gpus ? *mix.fleet_gpus : demand.peak_gpus();
    if (given) out.context.rounding = mix.rounding;
    return out;
}

PlanOptions plan_options_of(const EvaluationOptions& options) {
    PlanOptions p;
    p.discounts = options.discounts;
    p.annual_discount_rate = options.annual_discount_rate;
    return p;
}

/// Buffers one evaluation fills, kept across the strategies of a batch so that only the first
/// allocates.
struct Workspace {
    std::vector<MonthlyCashFlow> flows;
    plan_core::Scratch scratch;
};

/// The figures of a plan's flows (in `work`) against `baseline` (the same demand all on demand).
CostFigures figures_of(const plan_core::PricedPlan& plan, const Workspace& work, const EvaluationOptions& options,
                       const std::vector<MonthlyCashFlow>& baseline) {
    CostFigures out;
    double reserved_paid = 0, reserved_used = 0, owned_available = 0, owned_used = 0;
    for (const auto& f : work.flows) {
        out.total += f.total;
        out.used_gpu_hours += f.used_gpu_hours;
        reserved_paid += f.reserved_gpu_hours;
        reserved_used += f.reserved_used_gpu_hours;
        owned_available += f.owned_gpu_hours;
        owned_used += f.owned_used_gpu_hours;
    }
    out.owned_utilisation = owned_available > 0 ? owned_used / owned_available : 0.0;
    out.npv = plan_core::npv_of(work.flows, options.annual_discount_rate);
    out.annual_discount_rate = options.annual_discount_rate;
    if (out.used_gpu_hours >= limits::min_ratio_divisor)
        out.effective_cost_per_used_gpu_hour = out.total / out.used_gpu_hours;
    out.reserved_utilisation = reserved_paid > 0 ? reserved_used / reserved_paid : 0.0;
    out.break_even_utilisation = plan_core::break_even_utilisation(plan, options.discounts);
    out.spread = plan_core::spot_spread(plan, work.scratch, out.total, options.discounts.voucher_price_factor);
    double baseline_total = 0;
    for (const auto& f : baseline) baseline_total += f.total;
    out.baseline_total = baseline_total;
    out.savings = baseline_total - out.total;
    out.savings_fraction = baseline_total >= limits::min_ratio_divisor ? out.savings / baseline_total : 0.0;
    out.break_even_month = plan_core::break_even_month(work.flows, baseline);
    return out;
}

/// The flows of all on-demand (the baseline every strategy is compared with) into `work.flows`.
void baseline_flows(const DemandProfile& demand, const Offering& offering, const EvaluationOptions& options,
                    Workspace& work) {
    const PricedStrategy baseline = price_strategy(OnDemand{}, demand, offering, plan_options_of(options), options.units);
    plan_core::profile_cash_flows(baseline.plan, demand, options.discounts, work.flows, work.scratch);
}

}  // namespace

CostReport evaluate(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                    const EvaluationOptions& options) {
    plan_core::check_options(offering, options.discounts, options.annual_discount_rate);
    const PricedStrategy priced = price_strategy(strategy, demand, offering, plan_options_of(options), options.units);
    Workspace work, baseline;
    plan_core::profile_cash_flows(priced.plan, demand, options.discounts, work.flows, work.scratch);
    baseline_flows(demand, offering, options, baseline);
    const CostFigures figures = figures_of(priced.plan, work, options, baseline.flows);

    CostReport report;
    report.strategy = describe(strategy);
    report.offering = offering.key();
    report.currency = offering.currency;
    report.horizon_months = demand.horizon().month_count();
    report.units = std::string(to_string(options.units));
    report.gpus_per_unit = priced.plan.gpus_per_unit;
    report.annual_discount_rate = options.annual_discount_rate;
    report.total = figures.total;
    report.npv = figures.npv;
    report.used_gpu_hours = figures.used_gpu_hours;
    report.effective_cost_per_used_gpu_hour = figures.effective_cost_per_used_gpu_hour;
    report.reserved_utilisation = figures.reserved_utilisation;
    report.owned_utilisation = figures.owned_utilisation;
    report.baseline_total = figures.baseline_total;
    report.savings = figures.savings;
    report.savings_fraction = figures.savings_fraction;
    report.break_even_utilisation = figures.break_even_utilisation;
    report.break_even_month = figures.break_even_month;
    report.spread = figures.spread;
    report.assumptions = plan_core::describe_assumptions(priced.plan, demand, offering, options.discounts,
                                                         options.annual_discount_rate, priced.context);
    report.months = std::move(work.flows);
    return report;
}

std::vector<CostFigures> evaluate_batch(std::span<const Strategy> strategies, const DemandProfile& demand,
                                        const Offering& offering, const EvaluationOptions& options) {
    plan_core::check_options(offering, options.discounts, options.annual_discount_rate);
    const PlanOptions plan_options = plan_options_of(options);
    Workspace work, baseline;
    baseline_flows(demand, offering, options, baseline);
    std::vector<CostFigures> out;
    out.reserve(strategies.size());
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        try {
            const PricedStrategy priced = price_strategy(strategies[i], demand, offering, plan_options, options.units);
            plan_core::profile_cash_flows(priced.plan, demand, options.discounts, work.flows, work.scratch);
            out.push_back(figures_of(priced.plan, work, options, baseline.flows));
        } catch (const InvalidInput& e) {  // name the strategy: "strategies[3].mix.tranches[0].fraction = ..."
            throw InvalidInput(fmt::format("strategies[{}].{}", i, e.what()));
        }
    }
    return out;
}

}  // namespace gputco
