// The deterministic cost engine (see cost.hpp and reference conventions in docs/design.md).
#include "gputco/engines/cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>
#include <vector>

#include "gputco/results/statistics.hpp"

namespace gputco {
namespace {

constexpr Eigen::Index hours_in_month = Eigen::Index(whole_hours_per_month);

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

/// One owned tranche: `gpus` bought at month 0 and again at the end of each life inside the horizon.
struct PricedOwned {
    double gpus = 0;
    Owned terms;
    int life_months() const { return terms.life_years * months_per_year; }
    /// Power price of one GPU-hour at full load and idle, site overhead (PUE) included.
    double busy_power_per_hour() const { return terms.watts_per_gpu / 1000.0 * terms.pue * terms.electricity_per_kwh; }
    double idle_power_per_hour() const { return busy_power_per_hour() * terms.idle_power_fraction; }
    /// Costs of one GPU that do not depend on use, per hour: depreciation, colocation, maintenance, staff.
    double fixed_per_gpu_hour() const {
        const double depreciation = terms.capex_per_gpu * (1.0 - terms.residual_fraction) / (terms.life_years * hours_per_year);
        const double staff = gpus > 0 ? terms.staff_per_month / gpus / hours_per_month : 0.0;
        return depreciation + terms.colocation_per_gpu_month / hours_per_month +
               terms.maintenance_fraction_per_year * terms.capex_per_gpu / hours_per_year + staff;
    }
    /// Straight-line book value of one GPU `age_months` into its life.
    double book_value(int age_months) const {
        const double worn = double(age_months) / life_months();
        return terms.capex_per_gpu * (1.0 - (1.0 - terms.residual_fraction) * worn);
    }
};

struct PricedSpot {
    double gpus = 0;
    double price_per_gpu_hour = 0;
    double overhead = 1;
    double availability = 1;
    std::vector<double> overhead_samples;
};

struct PricedPlan {
    std::vector<PricedOwned> owned;
    std::vector<PricedReservation> reservations;
    std::vector<PricedSpot> spots;
    double on_demand_per_gpu_hour = 0;
    double fleet_gpus = 0;
    int gpus_per_unit = 1;  ///< the instance size in whole instances, 1 in the GPU-level view
};

/// GPU-hours paid for when each hour's demand d (mean GPUs in use over the hour) runs on instances of
/// g GPUs: floor(d) GPUs run all hour in ceil(floor(d) / g) whole instances, and the part-hour GPU
/// rides in a part-filled one or, when all are full, starts one more for its part of the hour.
/// Continuous and non-decreasing in d, >= d, and exactly d when g = 1. Summed over the hours given.
double paid_gpu_hours(const Eigen::ArrayXd& demand, int gpus_per_unit) {
    if (gpus_per_unit == 1) return demand.sum();
    // Floor by truncation (d >= 0) and whole-number division in doubles (exact for whole numbers below
    // 2^52): floor and ceil are library calls on baseline x86-64, integer division is slow, and this
    // runs for every hour of every month.
    const double g = gpus_per_unit;
    constexpr double exact_integers = 4503599627370496.0;  // 2^52
    double paid = 0;
    for (const double d : demand) {
        if (d >= exact_integers) {  // beyond any real fleet; kept exact rather than fast
            paid += g * std::ceil(std::floor(d) / g);
            continue;
        }
        const double full = double(static_cast<std::int64_t>(d));
        const double below = double(static_cast<std::int64_t>(full / g));  // floor(full / g)
        const double instances = full > below * g ? below + 1 : below;
        // A part-filled instance holds the part-hour GPU; with none, it starts one for its part of the hour.
        paid += g * instances + (full == g * instances ? g * (d - full) : 0.0);
    }
    return paid;
}

double round_gpus(double gpus, Rounding rounding) {
    switch (rounding) {
        case Rounding::nearest: return std::round(gpus);
        case Rounding::down: return std::floor(gpus + 1e-9);
        case Rounding::up: return std::ceil(gpus - 1e-9);
        case Rounding::none: return gpus;
    }
    return gpus;
}

Mix as_mix(const Strategy& strategy) {
    if (const auto* mix = std::get_if<Mix>(&strategy)) return *mix;
    if (const auto* reserved = std::get_if<Reserved>(&strategy)) return Mix{{{1.0, *reserved}}, {}, Rounding::none};
    if (const auto* owned = std::get_if<Owned>(&strategy)) return Mix{{{1.0, *owned}}, {}, Rounding::none};
    return Mix{{{1.0, OnDemand{}}}, {}, Rounding::none};
}

PricedReservation price_reservation(const Reserved& reserved, const Offering& offering, double region_factor,
                                    double on_demand_per_gpu_hour) {
    require(reserved.term_years >= 1 && reserved.term_years <= 5, "reserved.term_years", reserved.term_years,
            "must be in [1, 5]");
    PricedReservation priced;
    priced.term_months = reserved.term_years * months_per_year;
    priced.renewal = reserved.renewal;
    const double term_hours = reserved.term_years * hours_per_year;
    if (reserved.discount) {
        const double d = *reserved.discount;
        require(d >= 0.0 && d < 1.0, "reserved.discount", d, "must be in [0, 1)");
        const double effective = (1.0 - d) * on_demand_per_gpu_hour;
        const double upfront_share = reserved.payment == Payment::all_upfront       ? 1.0
                                     : reserved.payment == Payment::partial_upfront ? 0.5
                                                                                    : 0.0;
        priced.upfront_per_gpu = effective * upfront_share * term_hours;
        priced.hourly_per_gpu = effective * (1.0 - upfront_share);
        priced.source = fmt::format("reserved.discount {:g}% off on-demand", 100 * d);
        return priced;
    }
    const auto price = offering.reserved_price(reserved.term_years, reserved.payment);
    if (!price) {
        fail("reserved", fmt::format("{}y {}", reserved.term_years, to_string(reserved.payment)),
             fmt::format("offering {} lists no such reservation price; set reserved.discount", offering.key()));
    }
    const double per_gpu = region_factor / offering.gpus_per_instance;
    priced.upfront_per_gpu = price->upfront * per_gpu;
    priced.hourly_per_gpu = price->hourly * per_gpu;
    priced.source = fmt::format("{} ({})", price->source.name, price->source.as_of);
    return priced;
}

PricedSpot price_spot(const SpotTranche& spot, const Offering& offering, double region_factor) {
    spot.validate();  // the same rules and limits whether the tranche was built in C++ or Python
    PricedSpot priced;
    if (spot.price_per_gpu_hour) {
        priced.price_per_gpu_hour = *spot.price_per_gpu_hour;
    } else if (const auto listed = offering.spot_per_gpu_hour()) {
        priced.price_per_gpu_hour = *listed * region_factor;
    } else {
        fail("spot.price_per_gpu_hour", "none",
             fmt::format("offering {} lists no spot price; set spot.price_per_gpu_hour", offering.key()));
    }
    priced.overhead = spot.overhead;
    priced.availability = spot.availability;
    priced.overhead_samples = spot.overhead_samples;
    return priced;
}

PricedPlan price_plan(const Mix& mix, const DemandProfile& demand, const Offering& offering,
                      const Discounts& discounts, Units units) {
    require(!mix.tranches.empty(), "mix.tranches.size", mix.tranches.size(), "must be >= 1");
    mix.validate();  // fleet and tranche limits, also for a Mix built in C++
    double fraction_sum = 0;
    for (std::size_t i = 0; i < mix.tranches.size(); ++i) {
        fraction_sum += require_fraction(fmt::format("mix.tranches[{}].fraction", i), mix.tranches[i].fraction);
    }
    require(std::abs(fraction_sum - 1.0) <= 1e-9, "mix.fractions (sum)", fraction_sum, "must sum to 1");

    PricedPlan plan;
    plan.fleet_gpus = mix.fleet_gpus ? require_non_negative("mix.fleet_gpus", *mix.fleet_gpus) : demand.peak_gpus();
    plan.on_demand_per_gpu_hour = offering.on_demand_per_gpu_hour() * discounts.region_price_factor;
    plan.gpus_per_unit = units == Units::instances ? offering.gpus_per_instance : 1;
    // Cloud tranches are bought in whole units (instances or GPUs); owned hardware by the GPU.
    const double unit = plan.gpus_per_unit;
    const Rounding unit_rounding = unit > 1 && mix.rounding == Rounding::none ? Rounding::up : mix.rounding;
    for (const Tranche& tranche : mix.tranches) {
        const double share = tranche.fraction * plan.fleet_gpus;
        const double gpus = std::holds_alternative<Owned>(tranche.kind) ? round_gpus(share, mix.rounding)
                                                                         : unit * round_gpus(share / unit, unit_rounding);
        if (const auto* reserved = std::get_if<Reserved>(&tranche.kind)) {
            PricedReservation priced = price_reservation(*reserved, offering, discounts.region_price_factor,
                                                         plan.on_demand_per_gpu_hour);
            priced.gpus = gpus;
            plan.reservations.push_back(priced);
        } else if (const auto* owned = std::get_if<Owned>(&tranche.kind)) {
            owned->validate();
            plan.owned.push_back(PricedOwned{gpus, *owned});
        } else if (const auto* spot = std::get_if<SpotTranche>(&tranche.kind)) {
            PricedSpot priced = price_spot(*spot, offering, discounts.region_price_factor);
            priced.gpus = gpus;
            plan.spots.push_back(std::move(priced));
        }
    }
    return plan;
}

/// Monthly flows of a priced plan; `spot_useful_costs[i]` collects spot tranche i's paid GPU-hours ×
/// price, its cost per unit of overhead.
std::vector<MonthlyCashFlow> cash_flows(const PricedPlan& plan, const DemandProfile& demand,
                                        const Discounts& discounts, std::vector<double>& spot_useful_costs) {
    const int horizon_months = demand.horizon().month_count();
    int months = horizon_months;
    for (const auto& r : plan.reservations) {
        const int last_term_start = r.renewal == Renewal::lapse ? 0 : (horizon_months - 1) / r.term_months * r.term_months;
        months = std::max(months, last_term_start + r.term_months);
    }
    std::vector<MonthlyCashFlow> flows(static_cast<std::size_t>(months));
    double free_hours_left = discounts.free_gpu_hours;
    spot_useful_costs.assign(plan.spots.size(), 0.0);
    Eigen::ArrayXd remaining(hours_in_month);
    for (int m = 0; m < months; ++m) {
        MonthlyCashFlow& f = flows[std::size_t(m)];
        f.month = m;
        const bool in_horizon = m < horizon_months;
        if (in_horizon) remaining = demand.gpus_per_hour().segment(Eigen::Index(m) * hours_in_month, hours_in_month);
        else remaining.setZero();
        f.used_gpu_hours = remaining.sum();

        for (const auto& o : plan.owned) {
            if (!in_horizon) continue;
            const int life = o.life_months();
            if (m % life == 0) {
                f.capex += o.terms.capex_per_gpu * o.gpus;
                if (m > 0) f.resale -= o.book_value(life) * o.gpus;  // the old hardware, at its residual value
            }
            if (m == horizon_months - 1) f.resale -= o.book_value(m % life + 1) * o.gpus;  // still owned at the end
            const double busy = remaining.min(o.gpus).sum();
            const double available = o.gpus * hours_per_month;
            f.owned_gpu_hours += available;
            f.owned_used_gpu_hours += busy;
            f.operating += busy * o.busy_power_per_hour() + (available - busy) * o.idle_power_per_hour() +
                           o.gpus * (o.terms.colocation_per_gpu_month +
                                     o.terms.maintenance_fraction_per_year * o.terms.capex_per_gpu / months_per_year) +
                           o.terms.staff_per_month;
            remaining = (remaining - o.gpus).max(0.0);
        }
        for (const auto& r : plan.reservations) {
            if (!r.active(m, horizon_months)) continue;
            if (r.term_starts(m, horizon_months)) f.upfront += r.upfront_per_gpu * r.gpus;
            f.reserved_recurring += r.hourly_per_gpu * r.gpus * hours_per_month;
            f.reserved_gpu_hours += r.gpus * hours_per_month;
            const double used = remaining.min(r.gpus).sum();
            f.reserved_used_gpu_hours += used;
            remaining = (remaining - r.gpus).max(0.0);
        }
        // Spot capacity is there in a share `availability` of the hours, where it serves what it can of
        // the demand left; in the other hours that demand stays for the next tranche. Each spot tranche
        // splits the hours into weighted cases (independently of the others), so whole instances are
        // paid for the demand each case really leaves, not for its average over the cases.
        std::vector<std::pair<double, Eigen::ArrayXd>> cases{{1.0, remaining}};
        for (std::size_t i = 0; i < plan.spots.size(); ++i) {
            const PricedSpot& s = plan.spots[i];
            const std::size_t before = cases.size();
            for (std::size_t c = 0; c < before; ++c) {
                const double weight = cases[c].first * s.availability;
                if (weight == 0) continue;
                const Eigen::ArrayXd on_spot = cases[c].second.min(s.gpus);
                const double served = weight * on_spot.sum();
                const double paid = weight * paid_gpu_hours(on_spot, plan.gpus_per_unit);
                f.spot_gpu_hours += served;
                f.spot_paid_gpu_hours += paid;
                f.spot += paid * s.price_per_gpu_hour * s.overhead;
                spot_useful_costs[i] += paid * s.price_per_gpu_hour;
                Eigen::ArrayXd left = cases[c].second - on_spot;
                if (s.availability < 1.0) {
                    cases[c].first -= weight;  // the hours without spot keep their demand
                    cases.emplace_back(weight, std::move(left));
                } else {
                    cases[c].second = std::move(left);
                }
            }
        }
        for (const auto& [weight, left] : cases) {
            f.on_demand_gpu_hours += weight * left.sum();
            f.on_demand_paid_gpu_hours += weight * paid_gpu_hours(left, plan.gpus_per_unit);
        }
        f.on_demand = f.on_demand_paid_gpu_hours * plan.on_demand_per_gpu_hour;

        // Credits, in the order documented on Discounts.
        const double free_hours = std::min(free_hours_left, f.on_demand_paid_gpu_hours);
        free_hours_left -= free_hours;
        double credits = -free_hours * plan.on_demand_per_gpu_hour;
        credits -= discounts.plan_discount * (f.on_demand + credits);
        const double cloud_net = f.upfront + f.reserved_recurring + f.on_demand + f.spot + credits;
        credits -= (1.0 - discounts.voucher_price_factor) * cloud_net;  // vouchers are cloud credits
        f.credits = credits;
        f.total = f.upfront + f.reserved_recurring + f.on_demand + f.spot + f.credits + f.capex + f.operating + f.resale;
    }
    return flows;
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
    if (d.plan_discount > 0) lines.push_back(fmt::format("plan discount {:g}% on on-demand spend", 100 * d.plan_discount));
    if (d.voucher_price_factor < 1) lines.push_back(fmt::format("vouchers: pay {:g}% of the bill", 100 * d.voucher_price_factor));
    lines.push_back(fmt::format("cash flows at the start of each month; NPV at {:g}%/year", 100 * options.annual_discount_rate));
    return lines;
}

CostReport evaluate_plan(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                         const EvaluationOptions& options, bool with_baseline) {
    offering.validate();
    options.discounts.validate();
    require_discount_rate("annual_discount_rate", options.annual_discount_rate);
    const PricedPlan plan = price_plan(as_mix(strategy), demand, offering, options.discounts, options.units);

    CostReport report;
    report.strategy = describe(strategy);
    report.offering = offering.key();
    report.currency = offering.currency;
    report.horizon_months = demand.horizon().month_count();
    report.units = std::string(to_string(options.units));
    report.gpus_per_unit = plan.gpus_per_unit;
    report.annual_discount_rate = options.annual_discount_rate;
    std::vector<double> spot_useful_costs;
    report.months = cash_flows(plan, demand, options.discounts, spot_useful_costs);

    double reserved_paid = 0, reserved_used = 0, owned_available = 0, owned_used = 0;
    for (const auto& f : report.months) {
        report.total += f.total;
        report.used_gpu_hours += f.used_gpu_hours;
        reserved_paid += f.reserved_gpu_hours;
        reserved_used += f.reserved_used_gpu_hours;
        owned_available += f.owned_gpu_hours;
        owned_used += f.owned_used_gpu_hours;
    }
    report.owned_utilisation = owned_available > 0 ? owned_used / owned_available : 0.0;
    report.npv = npv_of(report.months, options.annual_discount_rate);
    report.effective_cost_per_used_gpu_hour =
        report.used_gpu_hours > 0 ? report.total / report.used_gpu_hours : std::nan("");
    report.reserved_utilisation = reserved_paid > 0 ? reserved_used / reserved_paid : 0.0;
    // Break-even against the on-demand price the user pays for one more hour: after the plan discount.
    // Vouchers scale reserved and on-demand spend alike but not owned hardware; free hours are a fixed
    // pool that does not change the price of the next hour.
    const double on_demand_paid = plan.on_demand_per_gpu_hour * (1.0 - options.discounts.plan_discount);
    if (!plan.owned.empty() && on_demand_paid > 0) {
        // Owning one GPU at utilisation u costs fixed + idle + u (busy − idle) per hour; renting, u p.
        const PricedOwned& o = plan.owned.front();
        const double margin = on_demand_paid * options.discounts.voucher_price_factor -
                              (o.busy_power_per_hour() - o.idle_power_per_hour());
        report.break_even_utilisation = margin > 0 ? (o.fixed_per_gpu_hour() + o.idle_power_per_hour()) / margin
                                                   : std::numeric_limits<double>::infinity();
    } else if (!plan.reservations.empty() && on_demand_paid > 0) {
        report.break_even_utilisation = plan.reservations.front().effective_per_gpu_hour() / on_demand_paid;
    }
    for (std::size_t i = 0; i < plan.spots.size(); ++i) {
        const PricedSpot& s = plan.spots[i];
        if (s.overhead_samples.empty()) continue;
        // Total cost is linear in the overhead: swap the tranche's mean overhead for each sample's.
        // (Only the first tranche with samples gets a spread; several spot tranches are rare.)
        const double per_unit_overhead = options.discounts.voucher_price_factor * spot_useful_costs[i];
        std::vector<double> totals(s.overhead_samples.size());
        std::transform(s.overhead_samples.begin(), s.overhead_samples.end(), totals.begin(),
                       [&](double o) { return report.total + per_unit_overhead * (o - s.overhead); });
        const Summary summary = summarize(totals);
        report.spread = CostSpread{summary.mean, quantile(totals, 0.05), summary.p50, summary.p95, summary.p99};
        break;
    }
    if (with_baseline) {  // the baseline's own report only lends its cash flows: no text for it
        report.assumptions = describe_assumptions(plan, demand, offering, options, int(report.months.size()));
        const CostReport baseline = evaluate_plan(OnDemand{}, demand, offering, options, false);
        report.baseline_total = baseline.total;
        report.savings = baseline.total - report.total;
        report.savings_fraction = baseline.total > 0 ? report.savings / baseline.total : 0.0;
        report.break_even_month = break_even_month(report.months, baseline.months);
    }
    return report;
}

}  // namespace

CostReport evaluate(const Strategy& strategy, const DemandProfile& demand, const Offering& offering,
                    const EvaluationOptions& options) {
    return evaluate_plan(strategy, demand, offering, options, true);
}

}  // namespace gputco
