// Invariants of the cost engine and the reservation advice, each over many seeded random inputs
// (docs/design.md, "Invariants"). A failing case prints its index; rerun with that seed to see it.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "gputco/engines/cost.hpp"
#include "gputco/optimise/optimise.hpp"
#include "random_cost_inputs.hpp"

using namespace gputco;

namespace {

constexpr int cases = 1000;
using testing::Inputs;
using testing::paid_for;
using testing::tolerance;

}  // namespace

TEST_CASE("invariant: every demanded GPU-hour is served exactly once, by exactly one tranche") {
    Inputs in(901);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Strategy strategy = in.strategy(o);
        const EvaluationOptions options = in.options();
        const CostReport r = evaluate(strategy, demand, o, options);
        CAPTURE(i);
        double served = 0;
        for (const MonthlyCashFlow& f : r.months) {
            const double month = f.owned_used_gpu_hours + f.reserved_used_gpu_hours + f.spot_gpu_hours + f.on_demand_gpu_hours;
            // Each month: served once in total, no tranche beyond what it holds or pays for.
            REQUIRE(std::abs(month - f.used_gpu_hours) <= tolerance(f.used_gpu_hours));
            REQUIRE(f.reserved_used_gpu_hours <= f.reserved_gpu_hours + tolerance(f.reserved_gpu_hours));
            REQUIRE(f.owned_used_gpu_hours <= f.owned_gpu_hours + tolerance(f.owned_gpu_hours));
            REQUIRE(f.spot_paid_gpu_hours >= f.spot_gpu_hours - tolerance(f.spot_gpu_hours));
            REQUIRE(f.on_demand_paid_gpu_hours >= f.on_demand_gpu_hours - tolerance(f.on_demand_gpu_hours));
            served += month;
        }
        REQUIRE(std::abs(served - demand.total_gpu_hours()) <= tolerance(demand.total_gpu_hours()));
        REQUIRE(std::abs(r.used_gpu_hours - demand.total_gpu_hours()) <= tolerance(demand.total_gpu_hours()));
    }
}

TEST_CASE("invariant: all on-demand costs the demand times the effective on-demand price, to the cent") {
    Inputs in(902);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        EvaluationOptions options = in.options();
        options.annual_discount_rate = 0;
        const CostReport r = evaluate(OnDemand{}, demand, o, options);
        // Paid GPU-hours hour by hour (whole instances or GPUs), less the free hours, at the list price
        // × region factor × (1 − on-demand discount) × voucher factor.
        const int g = options.units == Units::instances ? o.gpus_per_instance : 1;
        double paid = 0;
        for (const double d : demand.gpus_per_hour()) paid += paid_for(d, g);
        const auto& dis = options.discounts;
        const double expected = std::max(0.0, paid - dis.free_gpu_hours) * o.on_demand_per_gpu_hour() *
                                dis.region_price_factor * (1 - dis.on_demand_discount) * dis.voucher_price_factor;
        CAPTURE(i);
        REQUIRE(std::abs(r.total - expected) <= 0.005);
        REQUIRE(std::abs(r.savings) <= 0.005);
    }
}

TEST_CASE("invariant: the advised reservation is no worse than all on-demand, nor one unit more or fewer") {
    Inputs in(903);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Reserved reserved = in.reserved(o);
        const EvaluationOptions options = in.options();
        const ReservationAdvice advice = optimal_reservation(demand, o, reserved, options);
        const double unit = options.units == Units::instances ? o.gpus_per_instance : 1;
        const auto npv_at = [&](double r) {
            return evaluate(Mix{{{1.0, reserved}}, r, Rounding::none}, demand, o, options).npv;
        };
        const double best = advice.report.npv;
        CAPTURE(i);
        REQUIRE(std::fmod(advice.reserved_gpus, unit) == 0);
        REQUIRE(best == npv_at(advice.reserved_gpus));  // the advice's report is the engine's
        REQUIRE(best <= evaluate(OnDemand{}, demand, o, options).npv + tolerance(best));
        REQUIRE(best <= npv_at(advice.reserved_gpus + unit) + tolerance(best));
        if (advice.reserved_gpus >= unit) REQUIRE(best <= npv_at(advice.reserved_gpus - unit) + tolerance(best));
    }
}

TEST_CASE("invariant: cost is non-decreasing in every price and in demand; free hours and vouchers never raise it") {
    Inputs in(904);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        Strategy strategy = in.strategy(o);
        // A fixed fleet: with the default (the demand's peak) more demand buys more commitments.
        if (auto* mix = std::get_if<Mix>(&strategy)) {
            if (!mix->fleet_gpus) mix->fleet_gpus = demand.peak_gpus();
        } else if (const auto* r = std::get_if<Reserved>(&strategy)) {
            const Reserved copy = *r;
            strategy = Mix{{{1.0, copy}}, demand.peak_gpus(), Rounding(in.integer(0, 3))};
        } else if (const auto* owned = std::get_if<Owned>(&strategy)) {
            const Owned copy = *owned;
            strategy = Mix{{{1.0, copy}}, demand.peak_gpus(), Rounding(in.integer(0, 3))};
        }
        EvaluationOptions options = in.options();
        options.annual_discount_rate = 0;
        const double base = evaluate(strategy, demand, o, options).total;
        const double slack = tolerance(base);
        const double up = in.uniform(1.0, 1.5);
        CAPTURE(i);
        CAPTURE(up);

        Offering dearer = o;  // every list price up
        dearer.on_demand_hourly *= up;
        if (dearer.spot_hourly) *dearer.spot_hourly *= up;
        for (ReservedPrice& p : dearer.reserved) {
            p.upfront *= up;
            p.hourly *= up;
        }
        REQUIRE(evaluate(strategy, demand, dearer, options).total >= base - slack);
        Offering on_demand_only = o;  // one price at a time: on-demand alone (a discount's price follows it)
        on_demand_only.on_demand_hourly *= up;
        REQUIRE(evaluate(strategy, demand, on_demand_only, options).total >= base - slack);
        EvaluationOptions region = options;
        region.discounts.region_price_factor *= up;
        REQUIRE(evaluate(strategy, demand, o, region).total >= base - slack);

        // More demand every hour (a fixed fleet).
        Eigen::ArrayXd more = demand.gpus_per_hour();
        for (auto& h : more) h += in.coin(0.3) ? in.uniform(0, 3) : 0.0;
        REQUIRE(evaluate(strategy, DemandProfile::hourly(more), o, options).total >= base - slack);

        // Free hours and vouchers never raise the cost.
        EvaluationOptions free = options;
        free.discounts.free_gpu_hours += in.uniform(0, 2000);
        REQUIRE(evaluate(strategy, demand, o, free).total <= base + slack);
        EvaluationOptions voucher = options;
        voucher.discounts.voucher_price_factor *= in.uniform(0.1, 1.0);
        REQUIRE(evaluate(strategy, demand, o, voucher).total <= base + slack);
    }
}

TEST_CASE("invariant: reports are finite and non-negative for every valid input") {
    Inputs in(905);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Strategy strategy = in.strategy(o);
        const EvaluationOptions options = in.options();
        const CostReport r = evaluate(strategy, demand, o, options);
        CAPTURE(i);
        for (const MonthlyCashFlow& f : r.months) {
            for (const double amount : {f.upfront, f.reserved_recurring, f.on_demand, f.spot, f.capex, f.operating,
                                        f.used_gpu_hours, f.reserved_gpu_hours, f.spot_gpu_hours, f.on_demand_gpu_hours,
                                        f.spot_paid_gpu_hours, f.on_demand_paid_gpu_hours, f.owned_gpu_hours}) {
                REQUIRE(std::isfinite(amount));
                REQUIRE(amount >= 0);
            }
            REQUIRE(std::isfinite(f.credits));
            REQUIRE(f.credits <= 0);  // credits and resale are the only negative categories
            REQUIRE(std::isfinite(f.resale));
            REQUIRE(f.resale <= 0);
            REQUIRE(std::isfinite(f.total));
        }
        for (const double figure : {r.total, r.baseline_total, r.reserved_utilisation, r.owned_utilisation}) {
            REQUIRE(std::isfinite(figure));
            REQUIRE(figure >= -tolerance(r.baseline_total));
        }
        REQUIRE(std::isfinite(r.npv));
        REQUIRE(std::isfinite(r.savings));
        REQUIRE(std::isfinite(r.savings_fraction));
        // Cost per used GPU-hour does not apply (none) exactly when nothing is used; finite otherwise.
        REQUIRE(r.effective_cost_per_used_gpu_hour.has_value() == (r.used_gpu_hours >= 1e-12));
        if (r.effective_cost_per_used_gpu_hour) REQUIRE(std::isfinite(*r.effective_cost_per_used_gpu_hour));
        // Break-even utilisation: finite and >= 0 when there is one (none when it never pays back).
        if (r.break_even_utilisation) REQUIRE(std::isfinite(*r.break_even_utilisation));
        if (r.break_even_utilisation) REQUIRE(*r.break_even_utilisation >= 0);
    }
}

// The same invariants for plans (commitments at any month, owned purchases, several spot shares with
// periods, GPUs or whole instances) through evaluate_plan() on the demand as its one future, whose mean
// flows are then that future's flows.
namespace {

PlanDistribution one_future(const Plan& plan, const DemandProfile& demand, const Offering& o, const PlanOptions& options) {
    return evaluate_plan(plan, DemandFutures::from_profile(demand), o, {}, options);
}

}  // namespace

TEST_CASE("invariant (plans): every demanded GPU-hour is served exactly once, by exactly one instrument") {
    Inputs in(911);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Plan plan = in.plan(o, demand.horizon().month_count(), true);
        const PlanDistribution d = one_future(plan, demand, o, Inputs::plan_options(in.options()));
        CAPTURE(i);
        double served = 0;
        for (const MonthlyCashFlow& f : d.mean_months) {
            const double month = f.owned_used_gpu_hours + f.reserved_used_gpu_hours + f.spot_gpu_hours + f.on_demand_gpu_hours;
            REQUIRE(std::abs(month - f.used_gpu_hours) <= tolerance(f.used_gpu_hours));
            REQUIRE(f.reserved_used_gpu_hours <= f.reserved_gpu_hours + tolerance(f.reserved_gpu_hours));
            REQUIRE(f.owned_used_gpu_hours <= f.owned_gpu_hours + tolerance(f.owned_gpu_hours));
            REQUIRE(f.spot_paid_gpu_hours >= f.spot_gpu_hours - tolerance(f.spot_gpu_hours));
            REQUIRE(f.on_demand_paid_gpu_hours >= f.on_demand_gpu_hours - tolerance(f.on_demand_gpu_hours));
            // Held commitments are part of the reserved hours, and use no more than they pay for.
            REQUIRE(f.held_used_gpu_hours <= f.held_gpu_hours + tolerance(f.held_gpu_hours));
            REQUIRE(f.held_gpu_hours <= f.reserved_gpu_hours + tolerance(f.reserved_gpu_hours));
            REQUIRE(f.held_used_gpu_hours <= f.reserved_used_gpu_hours + tolerance(f.reserved_used_gpu_hours));
            served += month;
        }
        REQUIRE(std::abs(served - demand.total_gpu_hours()) <= tolerance(demand.total_gpu_hours()));
        // Per commitment (held, bought, exchanged): the hours each uses sum to the reserved hours used,
        // and what each pays to the reserved hours paid.
        double used = 0, paid = 0, reserved_used = 0, reserved_paid = 0;
        for (const CommitmentUse& c : d.commitment_use) {
            REQUIRE(c.used_gpu_hours <= c.paid_gpu_hours + tolerance(c.paid_gpu_hours));
            used += c.used_gpu_hours;
            paid += c.paid_gpu_hours;
        }
        for (const MonthlyCashFlow& f : d.mean_months) {
            reserved_used += f.reserved_used_gpu_hours;
            reserved_paid += f.reserved_gpu_hours;
        }
        REQUIRE(std::abs(used - reserved_used) <= tolerance(reserved_used));
        REQUIRE(std::abs(paid - reserved_paid) <= tolerance(reserved_paid));
        REQUIRE(std::abs(d.futures[0].demand_gpu_hours - demand.total_gpu_hours()) <= tolerance(demand.total_gpu_hours()));
    }
}

TEST_CASE("invariant (plans): the empty plan costs the demand times the effective on-demand price, to the cent") {
    Inputs in(912);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        Plan plan;
        plan.billing = in.coin() ? Units::instances : Units::gpus;
        PlanOptions options = Inputs::plan_options(in.options());
        options.annual_discount_rate = 0;
        const PlanDistribution d = one_future(plan, demand, o, options);
        const int g = plan.billing == Units::instances ? o.gpus_per_instance : 1;
        double paid = 0;
        for (const double h : demand.gpus_per_hour()) paid += paid_for(h, g);
        const auto& dis = options.discounts;
        const double expected = std::max(0.0, paid - dis.free_gpu_hours) * o.on_demand_per_gpu_hour() *
                                dis.region_price_factor * (1 - dis.on_demand_discount) * dis.voucher_price_factor;
        CAPTURE(i);
        REQUIRE(std::abs(d.total.mean - expected) <= 0.005);
    }
}

TEST_CASE("invariant (plans): the hindsight reservation is no worse than all on-demand, nor one GPU more or fewer") {
    Inputs in(913);
    for (int i = 0; i < cases / 4; ++i) {  // each case prices every candidate count
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Reserved reserved = in.reserved(o);
        PlanOptions options = Inputs::plan_options(in.options());
        if (reserved.reservation_discount) continue;  // hindsight prices the catalog's reservation
        const DemandFutures futures = DemandFutures::from_profile(demand);
        std::vector<double> best_gpus;
        const std::vector<double> best =
            hindsight_reservation_totals(futures, o, reserved.term_years, reserved.payment, {}, options, &best_gpus);
        const auto total_at = [&](double c) {
            Plan p;
            if (c > 0)
                p.commitments.push_back(Commitment{.count = c, .term_years = reserved.term_years, .payment = reserved.payment,
                                                   .renewal = Renewal::renew});
            return evaluate_plan(p, futures, o, {}, options).total.mean;
        };
        CAPTURE(i);
        REQUIRE(std::abs(best[0] - total_at(best_gpus[0])) <= tolerance(best[0]));
        REQUIRE(best[0] <= total_at(0) + tolerance(best[0]));
        REQUIRE(best[0] <= total_at(best_gpus[0] + 1) + tolerance(best[0]));
        if (best_gpus[0] >= 1) REQUIRE(best[0] <= total_at(best_gpus[0] - 1) + tolerance(best[0]));
    }
}

TEST_CASE("invariant (plans): cost is non-decreasing in every price and in demand; free hours and vouchers never raise it") {
    Inputs in(914);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Plan plan = in.plan(o, demand.horizon().month_count(), true);
        PlanOptions options = Inputs::plan_options(in.options());
        options.annual_discount_rate = 0;
        const double base = one_future(plan, demand, o, options).total.mean;
        const double slack = tolerance(base);
        const double up = in.uniform(1.0, 1.5);
        CAPTURE(i);
        CAPTURE(up);
        const std::string described = describe(plan);
        CAPTURE(described);
        Offering dearer = o;
        dearer.on_demand_hourly *= up;
        if (dearer.spot_hourly) *dearer.spot_hourly *= up;
        for (ReservedPrice& p : dearer.reserved) {
            p.upfront *= up;
            p.hourly *= up;
        }
        for (SavingsPlanRate& p : dearer.savings_plans) p.hourly *= up;
        REQUIRE(one_future(plan, demand, dearer, options).total.mean >= base - slack);
        Offering on_demand_only = o;
        on_demand_only.on_demand_hourly *= up;
        REQUIRE(one_future(plan, demand, on_demand_only, options).total.mean >= base - slack);
        PlanOptions region = options;
        region.discounts.region_price_factor *= up;
        REQUIRE(one_future(plan, demand, o, region).total.mean >= base - slack);
        Eigen::ArrayXd more = demand.gpus_per_hour();
        for (auto& h : more) h += in.coin(0.3) ? in.uniform(0, 3) : 0.0;
        REQUIRE(one_future(plan, DemandProfile::hourly(more), o, options).total.mean >= base - slack);
        PlanOptions free = options;
        free.discounts.free_gpu_hours += in.uniform(0, 2000);
        REQUIRE(one_future(plan, demand, o, free).total.mean <= base + slack);
        PlanOptions voucher = options;
        voucher.discounts.voucher_price_factor *= in.uniform(0.1, 1.0);
        REQUIRE(one_future(plan, demand, o, voucher).total.mean <= base + slack);
    }
}

TEST_CASE("invariant (plans): flows are finite and non-negative for every valid plan") {
    Inputs in(915);
    for (int i = 0; i < cases; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const Plan plan = in.plan(o, demand.horizon().month_count(), true);
        const PlanDistribution d = one_future(plan, demand, o, Inputs::plan_options(in.options()));
        CAPTURE(i);
        double changes = 0;
        for (const MonthlyCashFlow& f : d.mean_months) {
            for (const double amount : {f.upfront, f.reserved_recurring, f.on_demand, f.spot, f.capex, f.operating,
                                        f.used_gpu_hours, f.reserved_gpu_hours, f.spot_gpu_hours, f.on_demand_gpu_hours,
                                        f.spot_paid_gpu_hours, f.on_demand_paid_gpu_hours, f.owned_gpu_hours}) {
                REQUIRE(std::isfinite(amount));
                REQUIRE(amount >= 0);
            }
            REQUIRE(f.credits <= 0);
            REQUIRE(f.resale <= 0);
            REQUIRE(std::isfinite(f.total));
            REQUIRE(std::isfinite(f.commitment_changes));
            changes += f.commitment_changes;
        }
        REQUIRE(std::isfinite(d.total.mean));
        // A sale or a refund of a held commitment is income against no cost in the plan (its upfront is
        // sunk): the total less the changes' money is never negative.
        REQUIRE(d.total.mean - changes >= -tolerance(d.total.mean));
        REQUIRE(std::isfinite(d.npv.mean));
        REQUIRE(std::isfinite(d.futures[0].stranded_unused));
        REQUIRE(d.futures[0].stranded_unused >= -tolerance(d.total.mean));
    }
}

TEST_CASE("invariant (plans with fixed windows): each GPU-hour served once; flows finite and >= 0; dearer never cheaper") {
    Inputs in(916);
    for (int i = 0; i < cases / 2; ++i) {
        const Offering o = in.offering();
        const DemandProfile demand = in.demand();
        const int months = demand.horizon().month_count();
        Plan plan = in.plan(o, months);
        PlanOptions options = Inputs::plan_options(in.options());
        in.add_windows(plan, options, months);
        double window_hours = 0;
        for (const DemandWindow& w : options.windows) window_hours += 24 * w.days * w.gpus;
        CAPTURE(i);
        const PlanDistribution d = one_future(plan, demand, o, options);
        const double wanted = demand.total_gpu_hours() + window_hours;
        double served = 0;
        for (const MonthlyCashFlow& f : d.mean_months) {
            const double month = f.owned_used_gpu_hours + f.reserved_used_gpu_hours + f.spot_gpu_hours + f.on_demand_gpu_hours;
            REQUIRE(std::abs(month - f.used_gpu_hours) <= tolerance(f.used_gpu_hours));
            REQUIRE(f.reserved_used_gpu_hours <= f.reserved_gpu_hours + tolerance(f.reserved_gpu_hours));
            for (const double amount : {f.upfront, f.reserved_recurring, f.on_demand, f.spot, f.used_gpu_hours,
                                        f.reserved_gpu_hours, f.spot_gpu_hours, f.on_demand_gpu_hours}) {
                REQUIRE(std::isfinite(amount));
                REQUIRE(amount >= 0);
            }
            served += month;
        }
        REQUIRE(std::abs(served - wanted) <= tolerance(wanted));
        REQUIRE(d.futures[0].stranded_unused >= -tolerance(d.total.mean));
        PlanOptions zero = options;
        zero.annual_discount_rate = 0;
        const double base = one_future(plan, demand, o, zero).total.mean;
        Offering dearer = o;
        const double up = in.uniform(1.0, 1.5);
        dearer.on_demand_hourly *= up;
        if (dearer.spot_hourly) *dearer.spot_hourly *= up;
        Plan dearer_plan = plan;
        for (CapacityBlock& b : dearer_plan.capacity_blocks) *b.price_per_instance_hour *= up;
        REQUIRE(one_future(dearer_plan, demand, dearer, zero).total.mean >= base - tolerance(base));
        PlanOptions more = zero;
        for (DemandWindow& w : more.windows) w.gpus += in.uniform(0, 3);
        REQUIRE(one_future(plan, demand, o, more).total.mean >= base - tolerance(base));
    }
}
