// FROZEN REFERENCE — do not edit, do not call from the library.
// The deterministic cost engine as it was before evaluate() became the plan engine on one future
// (src/engines/cost.cpp copied unchanged into the namespace gputco::legacy; the pricing it used is
// frozen beside it, legacy_pricing.cpp). It is the oracle of one test (test_cost_agreement.cpp: the one engine
// equals it to the cent over random plans and mixes) and one benchmark (bench_cost.cpp: new against
// old in the same run). It keeps its two known bugs (an Owned tranche of 0 GPUs is charged staff;
// only the first spot tranche with samples gets a spread); the agreement test says where.
#include "legacy_cost.hpp"
#include "legacy_pricing.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <utility>
#include <vector>

#include "gputco/core/limits.hpp"
#include "gputco/results/statistics.hpp"

namespace gputco::legacy {

namespace {

using pricing::PricedOwned;

/// One reserved tranche with its per-GPU prices resolved.
struct PricedReservation {
    double gpus = 0;
    double upfront_per_gpu = 0;
    double hourly_per_gpu = 0;
    int term_months = 12;
    Renewal renewal = Renewal::renew;
    std::string source;
    double effective_per_gpu_hour() const { return hourly_per_gpu + upfront_per_gpu / (term_months * hours_per_month); }
    /// Whether the reservation runs in month m (0-based): every term that starts inside the horizon.
    bool active(int month, int horizon_months) const {
        if (renewal == Renewal::lapse) return month < term_months;
        const int term_start = month - month % term_months;
        return term_start < horizon_months;
    }
    bool term_starts(int month, int horizon_months) const {
        return month % term_months == 0 && month < horizon_months && (renewal == Renewal::renew || month == 0);
    }
};

/// One spot tranche: the same price, overhead and availability every month (the plan engine's may
/// change by period). The samples are the strategy's, which outlives the evaluation.
struct PricedSpot {
    double gpus = 0;
    double price_per_gpu_hour = 0;
    double overhead = 1;
    double availability = 1;
    std::span<const double> overhead_samples;
};

struct PricedPlan {
    std::vector<PricedOwned> owned;
    std::vector<PricedReservation> reservations;
    std::vector<PricedSpot> spots;
    double on_demand_per_gpu_hour = 0;
    double fleet_gpus = 0;
    int gpus_per_unit = 1;  ///< the instance size in whole instances, 1 in the GPU-level view
    std::optional<Rounding> rounding;  ///< a mix's rounding of its shares (none for a single strategy)
};

/// GPU-hours paid for when an hour's load x (mean GPUs in use over the hour) runs on instances of g
/// GPUs: floor(x) GPUs run all hour in ceil(floor(x) / g) whole instances, and the part-hour GPU
/// rides in a part-filled one or, when all are full, starts one more for its part of the hour.
/// Continuous and non-decreasing in x, >= x, and exactly x when g = 1.
double paid_for_hour(double x, double g) {
    // Floor by truncation (x >= 0) and whole-number division in doubles (exact for whole numbers below
    // 2^52): floor and ceil are library calls on baseline x86-64 and integer division is slow.
    constexpr double exact_integers = 4503599627370496.0;  // 2^52
    if (x >= exact_integers) return g * std::ceil(std::floor(x) / g);  // beyond any real fleet: exact, not fast
    const double full = double(static_cast<std::int64_t>(x));
    const double below = double(static_cast<std::int64_t>(full / g));  // floor(full / g)
    const double instances = full > below * g ? below + 1 : below;
    // A part-filled instance holds the part-hour GPU; with none, it starts one for its part of the hour.
    return g * instances + (full == g * instances ? g * (x - full) : 0.0);
}

/// Ramps (instances any hour reaches) beyond which one pass over the month's hours is cheaper than
/// two binary searches per ramp.
constexpr double max_ramps = 32;

/// GPU-hours paid in month m by the tier holding the GPUs from `low` to `high` (high may be +inf),
/// whose load each hour is x = clamp(d − low, 0, high − low). Paid per GPU when g = 1; per whole
/// instance of g GPUs otherwise: paid_for_hour(x) = g Σ_k min(max(x − k g, 0), 1), one unit ramp at
/// each whole instance, and the sum over the hours of the ramp at k g is
/// S(low + k g + 1) − S(low + k g) (each capped at `high`), S the GPU-hours served up to a capacity.
double paid_between(const SortedMonths& months, int m, double low, double high, int gpus_per_unit) {
    if (gpus_per_unit == 1) return months.served_between(m, low, high);
    const double top = std::min(high, months.peak(m));  // no hour's load reaches above the peak
    if (!(top > low)) return 0.0;
    const double g = gpus_per_unit;
    const double ramps = std::ceil((top - low) / g);
    if (ramps > max_ramps) {
        const auto hours = months.sorted(m);
        const double width = high - low;
        double paid = 0;
        for (auto d = std::upper_bound(hours.begin(), hours.end(), low); d != hours.end(); ++d) {
            paid += paid_for_hour(std::min(*d - low, width), g);
        }
        return paid;
    }
    const auto at = [&](double offset) { return offset >= high - low ? high : low + offset; };
    double paid = 0;
    for (double k = 0; k < ramps; ++k) paid += months.served_between(m, at(k * g), at(k * g + 1));
    return g * paid;
}

PricedReservation price_reservation(const Reserved& reserved, const Offering& offering, double region_factor) {
    require(reserved.term_years >= 1 && reserved.term_years <= 5, "reserved.term_years", reserved.term_years,
            "must be in [1, 5]");
    pricing::ReservationPrice price = pricing::reservation("reserved", reserved.term_years, reserved.payment,
                                                           reserved.reservation_discount, offering, region_factor,
                                                           "reserved.reservation_discount");
    PricedReservation priced;
    priced.term_months = reserved.term_years * months_per_year;
    priced.renewal = reserved.renewal;
    priced.upfront_per_gpu = price.upfront_per_gpu;
    priced.hourly_per_gpu = price.hourly_per_gpu;
    priced.source = std::move(price.source);
    return priced;
}

PricedSpot price_spot(const SpotTranche& spot, const Offering& offering, double region_factor) {
    spot.validate();  // the same rules and limits whether the tranche was built in C++ or Python
    PricedSpot priced;
    priced.price_per_gpu_hour = pricing::spot_price("spot.price_per_gpu_hour", spot.price_per_gpu_hour, offering,
                                                    region_factor);
    pricing::check_spot_terms("spot", spot.overhead, spot.availability);
    priced.overhead = spot.overhead;
    priced.availability = spot.availability;
    for (std::size_t i = 0; i < spot.overhead_samples.size(); ++i) {
        const double o = spot.overhead_samples[i];
        require(std::isfinite(o) && o >= 1.0, fmt::format("spot.overhead_samples[{}]", i), o,
                "must be finite and >= 1 (billed per useful hour)");
    }
    priced.overhead_samples = spot.overhead_samples;
    return priced;
}

/// The strategy's tranches priced. A single strategy is a mix of one tranche, counted without rounding.
PricedPlan price_plan(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                      const Discounts& discounts, Units units) {
    const Mix* mix = std::get_if<Mix>(&strategy);
    Tranche single{1.0, OnDemand{}};
    if (const auto* reserved = std::get_if<Reserved>(&strategy)) single.kind = *reserved;
    if (const auto* owned = std::get_if<Owned>(&strategy)) single.kind = *owned;
    const std::span<const Tranche> tranches = mix ? std::span<const Tranche>(mix->tranches) : std::span(&single, 1);
    const Rounding rounding = mix ? mix->rounding : Rounding::none;

    require(!tranches.empty(), "mix.tranches.size", tranches.size(), "must be >= 1");
    if (mix) mix->validate();  // fleet and tranche limits, also for a Mix built in C++
    double fraction_sum = 0;
    for (std::size_t i = 0; i < tranches.size(); ++i) {
        fraction_sum += require_fraction(fmt::format("mix.tranches[{}].fraction", i), tranches[i].fraction);
    }
    require(std::abs(fraction_sum - 1.0) <= 1e-9, "mix.fractions (sum)", fraction_sum, "must sum to 1");

    PricedPlan plan;
    if (mix) plan.rounding = mix->rounding;
    plan.fleet_gpus = mix && mix->fleet_gpus ? require_non_negative("mix.fleet_gpus", *mix->fleet_gpus)
                                             : demand.peak_gpus();
    plan.on_demand_per_gpu_hour = offering.on_demand_per_gpu_hour() * discounts.region_price_factor;
    plan.gpus_per_unit = units == Units::instances ? offering.gpus_per_instance : 1;
    // Cloud tranches are bought in whole units (instances or GPUs); owned hardware by the GPU.
    const double unit = plan.gpus_per_unit;
    const Rounding unit_rounding = unit > 1 && rounding == Rounding::none ? Rounding::up : rounding;
    for (const Tranche& tranche : tranches) {
        const double share = tranche.fraction * plan.fleet_gpus;
        const double gpus = std::holds_alternative<Owned>(tranche.kind) ? round_count(share, rounding)
                                                                         : unit * round_count(share / unit, unit_rounding);
        if (const auto* reserved = std::get_if<Reserved>(&tranche.kind)) {
            PricedReservation priced = price_reservation(*reserved, offering, discounts.region_price_factor);
            priced.gpus = gpus;
            plan.reservations.push_back(std::move(priced));
        } else if (const auto* owned = std::get_if<Owned>(&tranche.kind)) {
            owned->validate();
            plan.owned.push_back(PricedOwned{gpus, 0, *owned});
        } else if (const auto* spot = std::get_if<SpotTranche>(&tranche.kind)) {
            PricedSpot priced = price_spot(*spot, offering, discounts.region_price_factor);
            priced.gpus = gpus;
            plan.spots.push_back(priced);
        }
    }
    return plan;
}

/// One share of the hours while spot tranches split them: its weight, the GPUs of the tiers below
/// (so its load each hour is d − low) and S(low), the GPU-hours those tiers serve.
struct HoursCase {
    double weight = 1;
    double low = 0;
    double served_below = 0;
};

/// Monthly flows of a priced plan into `flows`; `spot_useful_costs[i]` collects spot tranche i's paid
/// GPU-hours × price, its cost per unit of overhead. Every tier's use is read from the demand's
/// sorted months: the tier holding GPUs low..high serves S(high) − S(low) GPU-hours.
void cash_flows(const PricedPlan& plan, const DemandProfile& demand, const Discounts& discounts,
                std::vector<MonthlyCashFlow>& flows, std::vector<double>& spot_useful_costs,
                std::vector<HoursCase>& cases) {
    const SortedMonths& hours = demand.sorted_months();
    const int horizon_months = demand.horizon().month_count();
    int months = horizon_months;
    for (const auto& r : plan.reservations) {
        const int last_term_start = r.renewal == Renewal::lapse ? 0 : (horizon_months - 1) / r.term_months * r.term_months;
        months = std::max(months, last_term_start + r.term_months);
    }
    flows.assign(static_cast<std::size_t>(months), MonthlyCashFlow{});
    double free_hours_left = discounts.free_gpu_hours;
    spot_useful_costs.assign(plan.spots.size(), 0.0);
    const int g = plan.gpus_per_unit;
    for (int m = 0; m < months; ++m) {
        MonthlyCashFlow& f = flows[std::size_t(m)];
        f.month = m;
        const bool in_horizon = m < horizon_months;
        f.used_gpu_hours = in_horizon ? hours.total(m) : 0.0;
        double low = 0, served_below = 0;  // GPUs of the tiers so far and the GPU-hours they serve
        const auto next_tier = [&](double gpus) {  // GPU-hours the next tier of `gpus` serves
            low += gpus;
            const double served = in_horizon ? hours.served_up_to(m, low) : 0.0;
            const double used = served - served_below;
            served_below = served;
            return used;
        };

        for (const auto& o : plan.owned) {
            if (!in_horizon) continue;
            o.add_month(m, horizon_months, next_tier(o.gpus), f);
        }
        for (const auto& r : plan.reservations) {
            if (!r.active(m, horizon_months)) continue;
            if (r.term_starts(m, horizon_months)) f.upfront += r.upfront_per_gpu * r.gpus;
            f.reserved_recurring += r.hourly_per_gpu * r.gpus * hours_per_month;
            f.reserved_gpu_hours += r.gpus * hours_per_month;
            f.reserved_used_gpu_hours += next_tier(r.gpus);
        }
        if (in_horizon) {
            // Spot capacity is there in a share `availability` of the hours, where it serves what it can
            // of the demand left; in the other hours that demand stays for the next tranche. Each spot
            // tranche splits the hours into weighted cases (independently of the others), so whole
            // instances are paid for the demand each case really leaves, not for its average.
            cases.assign(1, HoursCase{1.0, low, served_below});
            for (std::size_t i = 0; i < plan.spots.size(); ++i) {
                const PricedSpot& s = plan.spots[i];
                const std::size_t before = cases.size();
                for (std::size_t c = 0; c < before; ++c) {
                    const double weight = cases[c].weight * s.availability;
                    if (weight == 0) continue;
                    const double high = cases[c].low + s.gpus;
                    const double served_up_to_high = hours.served_up_to(m, high);
                    const double served = weight * (served_up_to_high - cases[c].served_below);
                    const double paid = g == 1 ? served : weight * paid_between(hours, m, cases[c].low, high, g);
                    f.spot_gpu_hours += served;
                    f.spot_paid_gpu_hours += paid;
                    f.spot += paid * s.price_per_gpu_hour * s.overhead;
                    spot_useful_costs[i] += paid * s.price_per_gpu_hour;
                    const HoursCase left{weight, high, served_up_to_high};
                    if (s.availability < 1.0) {
                        cases[c].weight -= weight;  // the hours without spot keep their demand
                        cases.push_back(left);
                    } else {
                        cases[c] = HoursCase{cases[c].weight, high, served_up_to_high};
                    }
                }
            }
            const double total = hours.total(m);
            for (const HoursCase& c : cases) {
                const double served = c.weight * (total - c.served_below);
                f.on_demand_gpu_hours += served;
                f.on_demand_paid_gpu_hours +=
                    g == 1 ? served : c.weight * paid_between(hours, m, c.low, std::numeric_limits<double>::infinity(), g);
            }
        }
        f.on_demand = f.on_demand_paid_gpu_hours * plan.on_demand_per_gpu_hour;
        pricing::add_credits_and_total(f, discounts, f.on_demand_paid_gpu_hours, plan.on_demand_per_gpu_hour,
                                       free_hours_left);
    }
}

double npv_of(const std::vector<MonthlyCashFlow>& flows, double annual_rate) {
    const double monthly_factor = std::pow(1.0 + annual_rate, 1.0 / months_per_year);
    double npv = 0;
    double discount = 1;
    for (const auto& f : flows) {
        npv += f.total / discount;
        discount *= monthly_factor;
    }
    return npv;
}

/// 1-based count of months after which the cumulative cost stays at or below the baseline's.
std::optional<int> break_even_month(const std::vector<MonthlyCashFlow>& flows,
                                    const std::vector<MonthlyCashFlow>& baseline) {
    const std::size_t n = std::max(flows.size(), baseline.size());
    std::vector<double> gap(n);  // cumulative strategy − cumulative baseline
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

std::vector<std::string> describe_assumptions(const PricedPlan& plan, const DemandProfile& demand,
                                              const Offering& offering, const EvaluationOptions& options,
                                              int report_months) {
    std::vector<std::string> lines;
    const auto& c = offering.currency;
    lines.push_back(fmt::format("offering {} ({}×{}), list prices from {} ({})", offering.key(),
                                offering.gpus_per_instance, offering.gpu, offering.source.name,
                                offering.source.as_of));
    lines.push_back(fmt::format("on-demand {:.4f} {}/GPU-h (instance {:.4f} {}/h{})", plan.on_demand_per_gpu_hour, c,
                                offering.on_demand_hourly, c,
                                options.discounts.region_price_factor != 1.0
                                    ? fmt::format(", region factor {:g}", options.discounts.region_price_factor)
                                    : std::string()));
    lines.push_back(fmt::format("demand: {} months × 730 h, mean {:.3f} GPUs, peak {:.3f} GPUs, {:.0f} GPU-h; "
                                "fleet {:g} GPUs",
                                demand.horizon().month_count(), demand.mean_gpus(), demand.peak_gpus(),
                                demand.total_gpu_hours(), plan.fleet_gpus));
    if (plan.rounding)  // a default that changes the answer, said out loud
        lines.push_back(fmt::format("mix shares of the fleet rounded: {} ({})", to_text(*plan.rounding),
                                    *plan.rounding == Rounding::none ? "fractional GPUs kept"
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
    for (const auto& r : plan.reservations) {
        lines.push_back(fmt::format(
            "reserved {:g} GPUs, {}-month terms, upfront {:.2f} {}/GPU per term + {:.4f} {}/GPU-h every hour of "
            "the term; effective {:.4f} {}/GPU-h ({:.1f}% off on-demand); {}; price from {}",
            r.gpus, r.term_months, r.upfront_per_gpu, c, r.hourly_per_gpu, c, r.effective_per_gpu_hour(), c,
            100.0 * (1.0 - r.effective_per_gpu_hour() / plan.on_demand_per_gpu_hour),
            r.renewal == Renewal::renew ? "renewed at the same price until the horizon ends"
                                        : "not renewed",
            r.source));
    }
    for (const auto& o : plan.owned) {
        const Owned& t = o.terms;
        lines.push_back(fmt::format(
            "owned {:g} GPUs at {} {} each, bought again every {} years, resold at {:g}% of capex (book value at the "
            "horizon's end); {:g} W per GPU busy, {:g}% of it idle, PUE {:g}, {:g} {}/kWh; colocation {:g} {}/GPU-month, "
            "maintenance {:g}%/year of capex, staff {:g} {}/month; fixed cost {:.4f} {}/GPU-h",
            o.gpus, format_money(t.capex_per_gpu, 0), c, t.life_years, 100 * t.residual_fraction, t.watts_per_gpu,
            100 * t.idle_power_fraction, t.pue, t.electricity_per_kwh, c, t.colocation_per_gpu_month, c,
            100 * t.maintenance_fraction_per_year, t.staff_per_month, c, o.fixed_per_gpu_hour(), c));
    }
    for (const auto& s : plan.spots) {
        lines.push_back(fmt::format("spot {:g} GPUs at {:.4f} {}/GPU-h, overhead {:.4f} billed h per useful h, "
                                    "available {:.0f}% of hours (the rest on-demand)",
                                    s.gpus, s.price_per_gpu_hour, c, s.overhead, 100.0 * s.availability));
    }
    if (report_months > demand.horizon().month_count()) {
        lines.push_back(fmt::format("reservation terms run {} months past the horizon and are paid in full",
                                    report_months - demand.horizon().month_count()));
    }
    const auto& d = options.discounts;
    if (d.free_gpu_hours > 0) lines.push_back(fmt::format("{:g} free on-demand GPU-hours", d.free_gpu_hours));
    if (d.on_demand_discount > 0) lines.push_back(fmt::format("on-demand discount {:g}% on on-demand spend", 100 * d.on_demand_discount));
    if (d.voucher_price_factor < 1) lines.push_back(fmt::format("vouchers: pay {:g}% of the bill", 100 * d.voucher_price_factor));
    lines.push_back(fmt::format("cash flows at the start of each month; NPV at {:g}%/year", 100 * options.annual_discount_rate));
    return lines;
}

void check_options(const Offering& offering, const EvaluationOptions& options) {
    offering.validate();
    options.discounts.validate();
    require_discount_rate("annual_discount_rate", options.annual_discount_rate);
}

/// Buffers one evaluation fills, kept across the strategies of a batch so that only the first
/// allocates.
struct Workspace {
    std::vector<MonthlyCashFlow> flows;
    std::vector<double> spot_useful_costs;
    std::vector<HoursCase> cases;
};

/// The figures of a strategy's flows (in `work`), against `baseline` (the same demand all on
/// demand) when given.
CostFigures figures_of(const PricedPlan& plan, const Workspace& work, const EvaluationOptions& options,
                       const std::vector<MonthlyCashFlow>* baseline) {
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
    out.npv = npv_of(work.flows, options.annual_discount_rate);
    out.annual_discount_rate = options.annual_discount_rate;
    if (out.used_gpu_hours >= limits::min_ratio_divisor)
        out.effective_cost_per_used_gpu_hour = out.total / out.used_gpu_hours;
    out.reserved_utilisation = reserved_paid > 0 ? reserved_used / reserved_paid : 0.0;
    // Break-even against the on-demand price the user pays for one more hour: after the plan discount.
    // Vouchers scale reserved and on-demand spend alike but not owned hardware; free hours are a fixed
    // pool that does not change the price of the next hour.
    const double on_demand_paid = plan.on_demand_per_gpu_hour * (1.0 - options.discounts.on_demand_discount);
    if (!plan.owned.empty() && on_demand_paid > 0) {
        // Owning one GPU at utilisation u costs fixed + idle + u (busy − idle) per hour; renting, u p.
        const PricedOwned& o = plan.owned.front();
        const double margin = on_demand_paid * options.discounts.voucher_price_factor -
                              (o.busy_power_per_hour() - o.idle_power_per_hour());
        // margin <= 0: no utilisation pays back, so there is no break-even (none, not +infinity).
        if (margin > 0) out.break_even_utilisation = (o.fixed_per_gpu_hour() + o.idle_power_per_hour()) / margin;
    } else if (!plan.reservations.empty() && on_demand_paid > 0) {
        out.break_even_utilisation = plan.reservations.front().effective_per_gpu_hour() / on_demand_paid;
    }
    // A margin or paid price of almost nothing (power a hair below the price, a discount a hair below
    // 100%) asks for a utilisation beyond any double: that never pays back either.
    if (out.break_even_utilisation && !std::isfinite(*out.break_even_utilisation)) out.break_even_utilisation.reset();
    for (std::size_t i = 0; i < plan.spots.size(); ++i) {
        const PricedSpot& s = plan.spots[i];
        if (s.overhead_samples.empty()) continue;
        // Total cost is linear in the overhead: swap the tranche's mean overhead for each sample's.
        // (Only the first tranche with samples gets a spread; several spot tranches are rare.)
        const double per_unit_overhead = options.discounts.voucher_price_factor * work.spot_useful_costs[i];
        std::vector<double> totals(s.overhead_samples.size());
        std::transform(s.overhead_samples.begin(), s.overhead_samples.end(), totals.begin(),
                       [&](double o) { return out.total + per_unit_overhead * (o - s.overhead); });
        const Summary summary = summarize(totals);
        out.spread = CostSpread{summary.mean, quantile(totals, 0.05), summary.p50, summary.p95, summary.p99};
        break;
    }
    if (baseline) {
        double baseline_total = 0;
        for (const auto& f : *baseline) baseline_total += f.total;
        out.baseline_total = baseline_total;
        out.savings = baseline_total - out.total;
        out.savings_fraction = baseline_total >= limits::min_ratio_divisor ? out.savings / baseline_total : 0.0;
        out.break_even_month = break_even_month(work.flows, *baseline);
    }
    return out;
}

/// The flows of all on-demand (the baseline every strategy is compared with) into `work.flows`.
void baseline_flows(const DemandProfile& demand, const Offering& offering, const EvaluationOptions& options,
                    Workspace& work) {
    const PricedPlan plan = price_plan(OnDemand{}, demand, offering, options.discounts, options.units);
    cash_flows(plan, demand, options.discounts, work.flows, work.spot_useful_costs, work.cases);
}

}  // namespace

CostReport evaluate(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                    const EvaluationOptions& options) {
    check_options(offering, options);
    const PricedPlan plan = price_plan(strategy, demand, offering, options.discounts, options.units);
    Workspace work, baseline;
    cash_flows(plan, demand, options.discounts, work.flows, work.spot_useful_costs, work.cases);
    baseline_flows(demand, offering, options, baseline);
    const CostFigures figures = figures_of(plan, work, options, &baseline.flows);

    CostReport report;
    report.strategy = describe(strategy);
    report.offering = offering.key();
    report.currency = offering.currency;
    report.horizon_months = demand.horizon().month_count();
    report.units = std::string(to_string(options.units));
    report.gpus_per_unit = plan.gpus_per_unit;
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
    report.assumptions = describe_assumptions(plan, demand, offering, options, int(work.flows.size()));
    report.months = std::move(work.flows);
    return report;
}

std::vector<CostFigures> evaluate_batch(std::span<const Strategy> strategies, const DemandProfile& demand,
                                        const Offering& offering, const EvaluationOptions& options) {
    check_options(offering, options);
    Workspace work, baseline;
    baseline_flows(demand, offering, options, baseline);
    std::vector<CostFigures> out;
    out.reserve(strategies.size());
    for (std::size_t i = 0; i < strategies.size(); ++i) {
        try {
            const PricedPlan plan = price_plan(strategies[i], demand, offering, options.discounts, options.units);
            cash_flows(plan, demand, options.discounts, work.flows, work.spot_useful_costs, work.cases);
            out.push_back(figures_of(plan, work, options, &baseline.flows));
        } catch (const InvalidInput& e) {  // name the strategy: "strategies[3].mix.tranches[0].fraction = ..."
            throw InvalidInput(fmt::format("strategies[{}].{}", i, e.what()));
        }
    }
    return out;
}

}  // namespace gputco::legacy
