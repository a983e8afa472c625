#pragma once
// How capacity is bought. A strategy says *how* (on-demand, reserved, spot, a mix); the offering
// (catalog.hpp) says *at what price*; the cost engine (cost.hpp) combines them with a demand profile.
//
//   const Mix hybrid{{{0.7, Reserved{.term_years = 3, .payment = Payment::all_upfront}}, {0.3, OnDemand{}}}};
#include <cmath>
#include <optional>
#include <type_traits>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// Pay the list price for every GPU-hour used.
struct OnDemand {};

/// What happens when a reservation term ends before the horizon does.
enum class Renewal {
    renew,  ///< buy a new term at the same price (paid in full even if it outlasts the horizon)
    lapse,  ///< let it expire; demand falls to the other tranches
};

/// A 1- or 3-year reservation: upfront at the start of each term plus an hourly fee for every hour
/// of the term, used or not. Prices come from the offering unless `reservation_discount` is given.
struct Reserved {
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    /// The reservation's price off on-demand, in [0, 1): effective rate = (1 − reservation_discount) ×
    /// on-demand (docs/models.md, section 1, "Discounts"). Split by payment: all upfront → all of it
    /// upfront; no upfront → all hourly; partial → half each.
    std::optional<double> reservation_discount;
    Renewal renewal = Renewal::renew;
};

/// Spot/preemptible capacity. Every useful GPU-hour costs `overhead` billed hours (checkpoints, lost
/// work, restarts; 1 = none) — typically billed/useful hours from simulate_spot. In hours when spot
/// capacity cannot be had (1 − availability of them) the demand falls to on-demand.
struct SpotTranche {
    std::optional<double> price_per_gpu_hour;  ///< default: the offering's spot price
    double overhead = 1.0;                      ///< billed GPU-hours per useful GPU-hour, >= 1
    double availability = 1.0;                  ///< fraction of hours spot capacity is available
    /// Optional per-path overheads (e.g. billed/useful of each simulated path): the report then shows
    /// the spread of the total cost, taking one path's overhead for all spot hours (a conservative,
    /// fully correlated spread).
    std::vector<double> overhead_samples;

    /// The rules the cost engine applies, plus the limits (price <= limits::max_money, overheads
    /// <= 1e6) that keep every cost finite. Checked where a SpotTranche is built from user input.
    void validate() const {
        if (price_per_gpu_hour)
            require_at_most("spot.price_per_gpu_hour", *price_per_gpu_hour, limits::max_money);
        require(std::isfinite(overhead) && overhead >= 1.0, "spot.overhead", overhead,
                "must be finite and >= 1 (billed per useful hour)");
        require(overhead <= max_overhead, "spot.overhead", overhead, fmt::format("must be <= {:g}", max_overhead));
        require_fraction("spot.availability", availability);
        for (std::size_t i = 0; i < overhead_samples.size(); ++i) {
            const double o = overhead_samples[i];
            const std::string field = fmt::format("spot.overhead_samples[{}]", i);
            require(std::isfinite(o) && o >= 1.0, field, o, "must be finite and >= 1 (billed per useful hour)");
            require(o <= max_overhead, field, o, fmt::format("must be <= {:g}", max_overhead));
        }
    }
    static constexpr double max_overhead = 1e6;
};

/// Owning the GPUs instead of renting them (buy vs rent). Capex per GPU at the start and again when
/// the hardware's life ends inside the horizon, resold at `residual_fraction` of capex at the end of
/// each life; at the horizon's end the hardware still owned is credited at its straight-line book
/// value. Power follows use: busy GPUs draw `watts_per_gpu`, idle ones `idle_power_fraction` of it,
/// times the PUE. Colocation and maintenance per GPU, staff per month for the whole owned fleet.
/// Amounts are in the offering's currency (the offering supplies the on-demand price for bursts).
struct Owned {
    double capex_per_gpu = 0;               ///< purchase price per GPU incl. its share of server and network
    int life_years = 4;                     ///< depreciation period, 1..10
    double residual_fraction = 0.1;         ///< resale value at end of life, fraction of capex, in [0, 1)
    double watts_per_gpu = 400;             ///< full-load power per GPU incl. its share of the host
    double idle_power_fraction = 0.3;       ///< idle power, fraction of full load, in [0, 1]
    double pue = 1.3;                       ///< power usage effectiveness of the site, >= 1
    double electricity_per_kwh = 0.12;
    double colocation_per_gpu_month = 0;    ///< rack space, cooling contracts, ...
    double maintenance_fraction_per_year = 0;  ///< of capex, e.g. 0.05 for a support contract
    double staff_per_month = 0;             ///< operations staff for the owned fleet

    /// Amounts within limits::max_money, power within limits::max_watts, PUE in [1, 100], maintenance
    /// at most 10 × capex a year: every valid Owned gives finite costs.
    void validate() const {
        require_at_most("owned.capex_per_gpu", capex_per_gpu, limits::max_money);
        require(life_years >= 1 && life_years <= 10, "owned.life_years", life_years, "must be in [1, 10]");
        require(residual_fraction >= 0.0 && residual_fraction < 1.0, "owned.residual_fraction", residual_fraction,
                "must be in [0, 1)");
        require_at_most("owned.watts_per_gpu", watts_per_gpu, limits::max_watts);
        require_fraction("owned.idle_power_fraction", idle_power_fraction);
        require(std::isfinite(pue) && pue >= 1.0, "owned.pue", pue, "must be finite and >= 1");
        require(pue <= 100.0, "owned.pue", pue, "must be <= 100");
        require_at_most("owned.electricity_per_kwh", electricity_per_kwh, limits::max_money);
        require_at_most("owned.colocation_per_gpu_month", colocation_per_gpu_month, limits::max_money);
        require_at_most("owned.maintenance_fraction_per_year", maintenance_fraction_per_year, 10.0);
        require_at_most("owned.staff_per_month", staff_per_month, limits::max_money);
    }
};

/// One share of a mix: `fraction` of the fleet bought as `kind`.
struct Tranche {
    double fraction = 0;
    std::variant<Reserved, Owned, SpotTranche, OnDemand> kind;
};

/// How a tranche's share of the fleet becomes a GPU count (with Units::instances, an instance count:
/// share / GPUs per instance, rounded by this rule; `none` then rounds up, as instances are whole).
enum class Rounding {
    nearest,  ///< round(fraction × fleet), the default of docs/models.md (section 2.5)
    down,
    up,
    none,     ///< fractional GPUs: the share holds exactly (useful for "70% × 52%" arithmetic)
};

/// `count` rounded by `rounding` (down and up forgive 1e-9, so 0.7 × 10 GPUs is 7, not 6).
inline double round_count(double count, Rounding rounding) {
    switch (rounding) {
        case Rounding::nearest: return std::round(count);
        case Rounding::down: return std::floor(count + 1e-9);
        case Rounding::up: return std::ceil(count - 1e-9);
        case Rounding::none: return count;
    }
    return count;
}

/// What cloud capacity is bought in. Providers sell instances: p4d.24xlarge is 8 A100s, and a 1-GPU
/// row exists only where the provider sells one.
enum class Units {
    instances,  ///< whole instances: reserved and spot tranches rounded to instances, on-demand billed
                ///< per instance each hour (the same as `gpus` on a 1-GPU offering)
    gpus,       ///< single GPUs: the GPU-level view, e.g. for "70% × 52%" arithmetic
};

template <>
struct EnumText<Units> {
    static constexpr std::array<EnumName<Units>, 2> names{{
        {Units::instances, "instances"},
        {Units::gpus, "gpus"},
    }};
};
template <>
struct EnumText<Renewal> {
    static constexpr std::array<EnumName<Renewal>, 2> names{{
        {Renewal::renew, "renew"},
        {Renewal::lapse, "lapse"},
    }};
};
template <>
struct EnumText<Rounding> {
    static constexpr std::array<EnumName<Rounding>, 4> names{{
        {Rounding::nearest, "nearest"},
        {Rounding::down, "down"},
        {Rounding::up, "up"},
        {Rounding::none, "none"},
    }};
};
inline std::string_view to_string(Units units) { return to_text(units); }

/// A hybrid fleet, e.g. 70% reserved / 30% on-demand. Fractions are of the fleet size (default: peak
/// demand) and must sum to 1. Each hour, demand is served by owned GPUs first (their cost is sunk),
/// then reserved, then spot, then on-demand (which also absorbs bursts above the fleet size).
struct Mix {
    std::vector<Tranche> tranches;
    std::optional<double> fleet_gpus;  ///< default: the demand's peak; at most limits::max_gpus
    Rounding rounding = Rounding::nearest;

    /// The limits of the fleet and of each tranche's own fields (the cost engine checks fractions and
    /// prices against the offering). Checked where a Mix is built from user input.
    void validate() const {
        if (fleet_gpus) require_at_most("mix.fleet_gpus", *fleet_gpus, limits::max_gpus);
        for (std::size_t i = 0; i < tranches.size(); ++i) {
            if (const auto* spot = std::get_if<SpotTranche>(&tranches[i].kind)) spot->validate();
            if (const auto* owned = std::get_if<Owned>(&tranches[i].kind)) owned->validate();
        }
    }
};

using Strategy = std::variant<OnDemand, Reserved, Owned, Mix>;

/// Price adjustments the seeds name. Applied in this order each month: free credit hours against
/// on-demand hours, the on-demand discount on the remaining on-demand spend, then the voucher factor on
/// the month's whole net spend. Region factor scales every list price first. Each figure's meaning:
/// docs/models.md, section 1, "Discounts".
struct Discounts {
    double on_demand_discount = 0;     ///< fraction off on-demand spend, e.g. Lambda annual plan 0.30
    double free_gpu_hours = 0;         ///< on-demand GPU-hours free, e.g. Paperspace 100 A100 hours
    double voucher_price_factor = 1;   ///< pay this fraction of the bill, in (0, 1], e.g. 0.6
    double region_price_factor = 1;    ///< multiplies list prices, > 0, e.g. 0.75 for a 25% cheaper region

    void validate() const {
        require(on_demand_discount >= 0.0 && on_demand_discount < 1.0, "discounts.on_demand_discount",
                on_demand_discount, "must be in [0, 1)");
        // At most every GPU-hour a valid demand can hold (1e9 GPUs × 100 years).
        require_at_most("discounts.free_gpu_hours", free_gpu_hours, 1e15);
        require(voucher_price_factor > 0.0 && voucher_price_factor <= 1.0, "discounts.voucher_price_factor",
                voucher_price_factor, "must be in (0, 1]");
        require(voucher_price_factor >= limits::min_price_factor, "discounts.voucher_price_factor",
                voucher_price_factor, fmt::format("must be >= {:g}", limits::min_price_factor));
        require_positive("discounts.region_price_factor", region_price_factor);
        require(region_price_factor >= limits::min_price_factor, "discounts.region_price_factor",
                region_price_factor, fmt::format("must be >= {:g}", limits::min_price_factor));
        require(region_price_factor <= 1e3, "discounts.region_price_factor", region_price_factor, "must be <= 1000");
    }
};

namespace detail {
inline std::string describe_kind(const Reserved& r) {
    return fmt::format("reserved {}y {}", r.term_years, to_string(r.payment));
}
inline std::string describe_kind(const Owned& o) { return fmt::format("owned {}y life", o.life_years); }
inline std::string describe_kind(const SpotTranche&) { return "spot"; }
inline std::string describe_kind(const OnDemand&) { return "on-demand"; }
}  // namespace detail

/// A short human name, e.g. "70% reserved 3y all_upfront + 30% on-demand".
inline std::string describe(const Strategy& strategy) {
    return std::visit(
        [](const auto& s) -> std::string {
            if constexpr (std::is_same_v<std::decay_t<decltype(s)>, Mix>) {
                std::string name;
                for (const Tranche& t : s.tranches) {
                    if (!name.empty()) name += " + ";
                    name += fmt::format("{:g}% ", t.fraction * 100.0);
                    name += std::visit([](const auto& kind) { return detail::describe_kind(kind); }, t.kind);
                }
                return name;
            } else {
                return "100% " + detail::describe_kind(s);
            }
        },
        strategy);
}

}  // namespace gputco
