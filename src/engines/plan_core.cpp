// The one engine for money (plan_core.hpp): pricing a plan once, its flows on a demand profile, and
// the report's extras (break-even, spread, assumptions).
#include "plan_core.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gputco/core/limits.hpp"
#include "gputco/results/statistics.hpp"

namespace gputco::plan_core {

void check_options(const Offering& offering, const Discounts& discounts, double annual_discount_rate) {
    offering.validate();
    discounts.validate();
    require_discount_rate("annual_discount_rate", annual_discount_rate);
}

PricedPlan price_plan(const Plan& plan, const Offering& offering, const PlanOptions& options, int horizon,
                      Naming naming, std::vector<std::string>* conversions) {
    std::vector<std::string> notes;
    const double region = options.discounts.region_price_factor;
    PricedPlan priced;
    priced.horizon_months = horizon;
    priced.report_months = horizon;
    priced.on_demand_per_gpu_hour = offering.on_demand_per_gpu_hour() * region;
    priced.gpus_per_unit = plan.billing == Units::instances ? offering.gpus_per_instance : 1;
    if (offering.reservation_only) priced.reservation_only = offering.key();
    if (offering.spot_only) priced.spot_only = offering.key();
    // A spot-only offering sells no terms: the first one bought on it is named (a commitment bought
    // on another offering, and what is already held, are priced as given).
    for (std::size_t i = 0; i < plan.commitments.size(); ++i)
        (plan.commitments[i].offering ? *plan.commitments[i].offering : offering)
            .require_terms(fmt::format("plan.commitments[{}]", i));
    if (!plan.savings_plans.empty()) offering.require_terms("plan.savings_plans[0]");
    if (!plan.capacity_blocks.empty()) offering.require_terms("plan.capacity_blocks[0]");
    // In the order a Mix's tranches are checked when it came from one, else by kind.
    for (std::size_t i = 0; i < plan.owned.size(); ++i)
        priced.owned.push_back(instruments::price_owned(plan.owned[i], i, naming, horizon));
    for (std::size_t i = 0; i < plan.held.size(); ++i)
        priced.held.push_back(instruments::price_held(plan.held[i], i, offering, options, notes));
    for (std::size_t i = 0; i < plan.commitments.size(); ++i)
        priced.commitments.push_back(
            instruments::price_commitment(plan.commitments[i], i, naming, offering, options, horizon, notes));
    priced.changes = instruments::apply_changes(plan.changes, priced.held, priced.commitments, offering, options,
                                                horizon, notes);
    for (const PricedCommitment* c : all_commitments(priced))  // terms outlasting the horizon are paid in full
        priced.report_months = std::max(priced.report_months, c->last_month(horizon));
    const std::string& currency = offering.currency;
    for (std::size_t i = 0; i < plan.commitments.size(); ++i) {
        const Commitment& c = plan.commitments[i];
        if (c.term_months > 0 && !c.reservation_discount && !c.offering)
            priced.catalog_rates.push_back(fmt::format("plan.commitments[{}]: {}-month term at the catalog's month-term "
                                                       "rate of {}, {}", i, c.term_months, offering.key(),
                                                       priced.commitments[i].source));
    }
    for (std::size_t i = 0; i < plan.savings_plans.size(); ++i) {
        priced.savings_plans.push_back(
            instruments::price_savings_plan(plan.savings_plans[i], i, offering, region, horizon));
        priced.report_months = std::max(priced.report_months, priced.savings_plans.back().last_month(horizon));
        if (!plan.savings_plans[i].rate_per_gpu_hour)
            priced.catalog_rates.push_back(fmt::format(
                "plan.savings_plans[{}]: {:.4f} {}/GPU-h, the catalog's {} Savings Plan rate of {}, {}", i,
                priced.savings_plans.back().rate_per_gpu_hour, currency, to_text(plan.savings_plans[i].type),
                offering.key(), priced.savings_plans.back().source));
    }
    // AWS applies EC2 Instance Savings Plans before the others (savings_plans.hpp); on one offering the
    // highest-savings-first rule has nothing else to order.
    std::stable_sort(priced.savings_plans.begin(), priced.savings_plans.end(),
                     [](const PricedSavingsPlan& a, const PricedSavingsPlan& b) {
                         return applied_first(a.type) && !applied_first(b.type);
                     });
    if (plan.spot) priced.spots.push_back(instruments::price_spot(*plan.spot, 0, naming, offering, region, horizon));
    for (std::size_t i = 0; i < plan.more_spot.size(); ++i)
        priced.spots.push_back(instruments::price_spot(plan.more_spot[i], i + 1, naming, offering, region, horizon));
    // Dated windows of demand and capacity blocks: where their hours fall in each month.
    std::vector<instruments::HourSpan> windows, blocks;
    for (std::size_t i = 0; i < options.windows.size(); ++i) {
        const DemandWindow& w = options.windows[i];
        check_window(w, fmt::format("options.windows[{}]", i), horizon);
        windows.push_back({24.0 * w.start_day, 24.0 * (w.start_day + w.days), w.gpus});
    }
    for (std::size_t i = 0; i < plan.capacity_blocks.size(); ++i) {
        priced.blocks.push_back(instruments::price_capacity_block(plan.capacity_blocks[i], i, offering, region, horizon));
        blocks.push_back(priced.blocks.back().span());
        if (!plan.capacity_blocks[i].price_per_instance_hour)
            priced.catalog_rates.push_back(fmt::format("plan.capacity_blocks[{}]: {:.4f} {}/instance-h, {}", i,
                                                       priced.blocks.back().price_per_instance_hour, currency,
                                                       priced.blocks.back().source));
    }
    if (!windows.empty() || !blocks.empty()) priced.pieces = instruments::month_pieces(windows, blocks, horizon);
    for (std::size_t i = 0; i < plan.flex_starts.size(); ++i)
        priced.flex_starts.push_back(
            instruments::price_flex_start(plan.flex_starts[i], i, offering, priced.on_demand_per_gpu_hour, horizon));
    if (!priced.flex_starts.empty()) {
        priced.window_spans = std::move(windows);
        priced.block_spans = std::move(blocks);
        priced.seed = options.seed;
    }
    if (conversions) *conversions = std::move(notes);
    return priced;
}

void start_future(const PricedPlan& plan, std::size_t f, Scratch& scratch) {
    if (plan.flex_starts.empty()) return;
    instruments::draw_grants(plan.flex_starts, plan.seed, f, scratch.granted);
    if (scratch.pieces_ready && scratch.pieces_granted == scratch.granted) return;
    std::vector<instruments::HourSpan> blocks = plan.block_spans;
    for (std::size_t j = 0; j < plan.flex_starts.size(); ++j)
        if (scratch.granted[j]) blocks.push_back(plan.flex_starts[j].run.span());
    scratch.pieces = plan.window_spans.empty() && blocks.empty()
                         ? std::vector<std::vector<instruments::Piece>>{}
                         : instruments::month_pieces(plan.window_spans, blocks, plan.horizon_months);
    scratch.pieces_granted = scratch.granted;
    scratch.pieces_ready = true;
}

void profile_cash_flows(const PricedPlan& plan, const DemandProfile& demand, const Discounts& discounts,
                        std::vector<MonthlyCashFlow>& flows, Scratch& scratch) {
    const SortedMonths& months = demand.sorted_months();
    flows.assign(std::size_t(plan.report_months), MonthlyCashFlow{});
    scratch.spot_costs.assign(plan.spots.size(), 0.0);
    start_future(plan, 0, scratch);  // the profile is future 0 of the plan's draws
    double free_hours_left = discounts.free_gpu_hours;
    const Factors list_prices;
    for (int m = 0; m < plan.report_months; ++m) {
        const ProfileMonth month{&months, m};
        price_month(plan, m, m < plan.horizon_months ? &month : nullptr, list_prices, discounts, free_hours_left,
                    flows[std::size_t(m)], scratch, nullptr);
    }
}

double npv_of(std::span<const MonthlyCashFlow> flows, double annual_rate) {
    const double monthly_factor = std::pow(1.0 + annual_rate, 1.0 / months_per_year);
    double npv = 0;
    double discount = 1;
    for (const auto& f : flows) {
        npv += f.total / discount;
        discount *= monthly_factor;
    }
    return npv;
}

std::optional<double> break_even_utilisation(const PricedPlan& plan, const Discounts& discounts) {
    // Against the on-demand price the user pays for one more hour: after the on-demand discount. Vouchers
    // scale reserved and on-demand spend alike but not owned hardware; free hours are a fixed pool that
    // does not change the price of the next hour.
    const double on_demand_paid = plan.on_demand_per_gpu_hour * (1.0 - discounts.on_demand_discount);
    std::optional<double> out;
    if (!plan.owned.empty() && on_demand_paid > 0) {
        // Owning one GPU at utilisation u costs fixed + idle + u (busy − idle) per hour; renting, u p.
        const PricedOwned& o = plan.owned.front();
        const double margin =
            on_demand_paid * discounts.voucher_price_factor - (o.busy_power_per_hour() - o.idle_power_per_hour());
        // margin <= 0: no utilisation pays back, so there is no break-even (none, not +infinity).
        if (margin > 0) out = (o.fixed_per_gpu_hour() + o.idle_power_per_hour()) / margin;
    } else if (!plan.commitments.empty() && on_demand_paid > 0) {
        out = plan.commitments.front().effective_per_gpu_hour() / on_demand_paid;
    }
    // A margin or paid price of almost nothing asks for a utilisation beyond any double: that never
    // pays back either.
    if (out && !std::isfinite(*out)) out.reset();
    return out;
}

std::optional<int> break_even_month(std::span<const MonthlyCashFlow> flows, std::span<const MonthlyCashFlow> baseline) {
    const std::size_t n = std::max(flows.size(), baseline.size());
    std::vector<double> gap(n);  // cumulative plan − cumulative baseline
    double cumulative = 0;
    for (std::size_t m = 0; m < n; ++m) {
        if (m < flows.size()) cumulative += flows[m].total;
        if (m < baseline.size()) cumulative -= baseline[m].total;
        gap[m] = cumulative;
    }
    const double tolerance = 1e-9 * std::max(1.0, std::abs(cumulative));
    std::optional<int> month;
    for (std::size_t m = n; m-- > 0;) {
        if (gap[m] > tolerance) break;
        month = int(m) + 1;
    }
    return month;
}

namespace {

/// Type-7 quantile q of ascending samples.
double sorted_quantile(const std::vector<double>& sorted, double q) {
    const double h = double(sorted.size() - 1) * q;
    const auto k = std::size_t(h);
    if (k + 1 >= sorted.size()) return sorted.back();
    return sorted[k] + (h - double(k)) * (sorted[k + 1] - sorted[k]);
}

}  // namespace

std::optional<CostSpread> spot_spread(const PricedPlan& plan, const Scratch& scratch, double total,
                                      double voucher_price_factor) {
    std::size_t paths = 0;
    for (const PricedSpot& s : plan.spots) paths = std::max(paths, s.overhead_samples.size());
    if (paths == 0) return std::nullopt;
    // Path k takes quantile k / (paths − 1) of every share's samples (the k-th sample itself when the
    // share has `paths` of them): its spend scales with its overhead, so each share adds its spend ×
    // (sample / overhead − 1), after vouchers.
    std::vector<double> totals(paths, total);
    for (std::size_t i = 0; i < plan.spots.size(); ++i) {
        const PricedSpot& s = plan.spots[i];
        if (s.overhead_samples.empty()) continue;
        const double per_unit_overhead = voucher_price_factor * scratch.spot_costs[i] / s.overhead;
        for (std::size_t k = 0; k < paths; ++k) {
            const double o = s.overhead_samples.size() == paths
                                 ? s.overhead_samples[k]
                                 : sorted_quantile(s.overhead_samples, paths == 1 ? 0.5 : double(k) / double(paths - 1));
            totals[k] += per_unit_overhead * (o - s.overhead);
        }
    }
    const Summary summary = summarize(totals);
    return CostSpread{summary.mean, quantile(totals, 0.05), summary.p50, summary.p95, summary.p99};
}

std::vector<std::string> describe_assumptions(const PricedPlan& plan, const DemandProfile& demand,
                                              const Offering& offering, const Discounts& d,
                                              double annual_discount_rate, const AssumptionContext& context) {
    std::vector<std::string> lines;
    const auto& c = offering.currency;
    lines.push_back(fmt::format("offering {} ({}×{}), list prices from {} ({})", offering.key(),
                                offering.gpus_per_instance, offering.gpu, offering.source.name,
                                offering.source.as_of));
    for (std::string& line :
         instruments::on_demand_assumptions(offering, plan.on_demand_per_gpu_hour, d.region_price_factor))
        lines.push_back(std::move(line));
    lines.push_back(fmt::format("demand: {} months × 730 h, mean {:.3f} GPUs, peak {:.3f} GPUs, {:.0f} GPU-h; "
                                "fleet {:g} GPUs",
                                demand.horizon().month_count(), demand.mean_gpus(), demand.peak_gpus(),
                                demand.total_gpu_hours(), context.fleet_gpus));
    if (context.rounding)  // a default that changes the answer, said out loud
        lines.push_back(fmt::format("mix shares of the fleet rounded: {} ({})", to_text(*context.rounding),
                                    *context.rounding == Rounding::none ? "fractional GPUs kept"
                                                                        : "to whole GPUs, or whole instances"));
    if (plan.gpus_per_unit > 1) {
        lines.push_back(fmt::format("bought in whole instances of {} GPUs: reserved and spot shares rounded to "
                                    "instances, on-demand and spot paid per instance each hour, part-filled ones in "
                                    "full",
                                    plan.gpus_per_unit));
    } else if (offering.gpus_per_instance > 1) {
        lines.push_back(fmt::format("counted in single GPUs (the GPU-level view), although {} sells instances of {} "
                                    "GPUs",
                                    offering.provider, offering.gpus_per_instance));
    }
    for (const auto& r : plan.held) lines.push_back(instruments::describe_held(r, c));
    for (const auto& r : plan.commitments) lines.push_back(instruments::describe_commitment(r, c, plan.on_demand_per_gpu_hour));
    for (const auto& change : plan.changes) lines.push_back(change.line);
    for (const auto& o : plan.owned) lines.push_back(instruments::describe_owned(o, c));
    for (const auto& sp : plan.savings_plans)
        lines.push_back(instruments::describe_savings_plan(sp, c, plan.on_demand_per_gpu_hour));
    for (const auto& s : plan.spots) lines.push_back(instruments::describe_spot(s, c));
    for (const auto& b : plan.blocks) lines.push_back(instruments::describe_capacity_block(b, c));
    for (const auto& r : plan.flex_starts) lines.push_back(instruments::describe_flex_start(r, c));
    if (plan.report_months > demand.horizon().month_count()) {
        lines.push_back(fmt::format("reservation terms run {} months past the horizon and are paid in full",
                                    plan.report_months - demand.horizon().month_count()));
    }
    if (d.free_gpu_hours > 0) lines.push_back(fmt::format("{:g} free on-demand GPU-hours", d.free_gpu_hours));
    if (d.on_demand_discount > 0)
        lines.push_back(fmt::format("on-demand discount {:g}% on on-demand spend", 100 * d.on_demand_discount));
    if (d.voucher_price_factor < 1) lines.push_back(fmt::format("vouchers: pay {:g}% of the bill", 100 * d.voucher_price_factor));
    lines.push_back(fmt::format("cash flows at the start of each month; NPV at {:g}%/year", 100 * annual_discount_rate));
    return lines;
}

}  // namespace gputco::plan_core

namespace gputco {

// A plan's short name (plan.hpp), here beside price_plan and describe_assumptions so that a new kind of
// instrument adds its part in this file (docs/design.md, "Adding an instrument").
std::string describe(const Plan& plan) {
    if (!plan.name.empty()) return plan.name;
    std::string name;
    const auto add = [&](const std::string& part) { name += (name.empty() ? "" : " + ") + part; };
    for (const OwnedPurchase& o : plan.owned) add(fmt::format("owned {:g} GPUs @{}", o.gpus, o.month));
    for (std::size_t i = 0; i < plan.held.size(); ++i) {  // already bought: what is held and until when
        const HeldCommitment& h = plan.held[i];
        add(fmt::format("held {} {:g} {} to @{}", h.id.empty() ? fmt::format("[{}]", i) : h.id, h.count,
                        h.unit == CountUnit::gpus ? "GPUs" : h.count == 1.0 ? "instance" : "instances", h.end_month));
    }
    for (const Commitment& c : plan.commitments) {
        add(fmt::format("{} {} × {:g} {} @{}{}",
                        c.term_months != 0 ? fmt::format("{}m", c.term_months) : fmt::format("{}y", c.term_years),
                        to_string(c.payment), c.count,
                        c.unit == CountUnit::gpus ? "GPUs" : c.count == 1.0 ? "instance" : "instances", c.start_month,
                        c.renewal == Renewal::renew ? " renewed" : ""));
    }
    for (const SavingsPlan& sp : plan.savings_plans) {
        add(fmt::format("{} savings plan {}y {} {:g}/h @{}{}", to_text(sp.type), sp.term_years, to_string(sp.payment),
                        sp.commitment_per_hour, sp.start_month, sp.renewal == Renewal::renew ? " renewed" : ""));
    }
    for (const CommitmentChange& c : plan.changes)
        add(fmt::format("{} of {}[{}] @{}", to_text(c.kind), c.held ? "held" : "commitments", c.index, c.month));
    if (plan.spot) add(fmt::format("spot {:g} GPUs", plan.spot->gpus));
    for (const SpotShare& s : plan.more_spot) add(fmt::format("spot {:g} GPUs", s.gpus));
    for (const CapacityBlock& b : plan.capacity_blocks)
        add(fmt::format("block {} × {}d @day {}", b.instances, b.days, b.start_day));
    for (const FlexStartRequest& r : plan.flex_starts)
        add(fmt::format("flex-start {:g} GPUs × {:g}d @day {:g} (p {:g})", r.gpus, r.days, r.start_day, r.grant_probability));
    add("on-demand");
    return name;
}

}  // namespace gputco
