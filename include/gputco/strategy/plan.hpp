#pragma once
// A plan over time: commitments bought at given months (a ladder), owned hardware bought at a month,
// a spot share, and on-demand for the rest. Where a Mix is one split of one fleet for the whole
// horizon, a plan says *when* each piece of capacity is bought.
//
//   Plan ladder;
//   ladder.commitments.push_back({.count = 8, .term_years = 3, .payment = Payment::all_upfront});
//   ladder.commitments.push_back({.count = 8, .term_years = 1, .start_month = 9});
//   // everything above 8 (then 16) GPUs runs on demand
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"
#include "gputco/core/error.hpp"
#include "gputco/strategy/strategy.hpp"
#include "gputco/core/enum_text.hpp"

namespace gputco {

/// What a commitment's `count` counts.
enum class CountUnit {
    gpus,       ///< GPUs (fractional GPUs allowed, as in Rounding::none)
    instances,  ///< whole instances of the commitment's offering: count × gpus_per_instance GPUs
};

template <>
struct EnumText<CountUnit> {
    static constexpr std::array<EnumName<CountUnit>, 2> names{{
        {CountUnit::gpus, "gpus"},
        {CountUnit::instances, "instances"},
    }};
};

/// Whether a reservation can be exchanged (convertible) or resold on a marketplace (standard).
enum class CommitmentClass {
    standard,     ///< AWS Standard RI: may be sold on the Reserved Instance Marketplace, not exchanged
    convertible,  ///< AWS Convertible RI: may be exchanged for one of equal or greater value, not sold
};

template <>
struct EnumText<CommitmentClass> {
    static constexpr std::array<EnumName<CommitmentClass>, 2> names{{
        {CommitmentClass::standard, "standard"},
        {CommitmentClass::convertible, "convertible"},
    }};
};

/// A reservation of `count` GPUs (or instances) for `term_years`, bought at the start of month
/// `start_month` at the prices of that month; with Renewal::renew a new term is bought (at the
/// prices of its own start month) each time one ends inside the horizon.
struct Commitment {
    double count = 0;
    CountUnit unit = CountUnit::gpus;
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    int start_month = 0;
    Renewal renewal = Renewal::lapse;
    /// Effective discount vs on-demand in [0, 1), as Reserved::discount; default: the offering's prices.
    std::optional<double> discount;
    /// Where the commitment is bought; default: the plan's offering. Must price in the plan's currency.
    std::optional<Offering> offering;
    /// Standard (resold, not exchanged) or convertible (exchanged, not resold); see CommitmentChange.
    CommitmentClass kind = CommitmentClass::standard;
};

/// A reservation bought before the horizon and still running: `count` GPUs (or instances) from month
/// `start_month` (<= 0; month 0 is the horizon's first) to `end_month` (> 0, the first month it no
/// longer runs). What was paid upfront is sunk: the plan pays only the hourly charges left, for every
/// hour of months [0, end_month), used or not, at the rate agreed when it was bought (price paths do
/// not move it). `upfront_per_gpu` is kept only for what an exchange or a refund is worth.
struct HeldCommitment {
    std::string id;  ///< how the report names it, e.g. a bill's CommitmentDiscountId; default "held[i]"
    double count = 0;
    CountUnit unit = CountUnit::gpus;
    int start_month = -12;
    int end_month = 24;
    /// The hourly charge per GPU-hour still paid; default: the offering's hourly price for `payment`
    /// and a term of (end_month − start_month) / 12 years (then a whole number the offering lists).
    std::optional<double> hourly_per_gpu;
    Payment payment = Payment::no_upfront;
    double upfront_per_gpu = 0;  ///< paid at purchase (sunk); counts in an exchange's or a refund's value
    CommitmentClass kind = CommitmentClass::standard;
    /// What it covers; default: the plan's offering. Must price in the plan's currency.
    std::optional<Offering> offering;
};

/// How a commitment is changed before its end (docs/models.md, "Changing a commitment").
enum class ChangeKind {
    exchange,  ///< AWS Convertible RI exchange: for one of equal or greater value, the true-up paid now
    resale,    ///< AWS Standard RI sold on the Reserved Instance Marketplace at a price the seller sets
    refund,    ///< Azure reservation returned: the prorated remaining value back, within a yearly cap
    /// Azure reservation exchanged: returned (its prorated upfront refunded) for a new one bought in full,
    /// whose lifetime commitment is at least what is left of the returned one
    azure_exchange,
};

template <>
struct EnumText<ChangeKind> {
    static constexpr std::array<EnumName<ChangeKind>, 4> names{{
        {ChangeKind::exchange, "exchange"},
        {ChangeKind::resale, "resale"},
        {ChangeKind::refund, "refund"},
        {ChangeKind::azure_exchange, "azure_exchange"},
    }};
};

/// A dated change of one commitment of the plan: `held[index]` when `held`, else `commitments[index]`.
/// From `month` on the commitment no longer runs (nor is paid); an exchange starts `into` there.
struct CommitmentChange {
    ChangeKind kind = ChangeKind::exchange;
    bool held = true;
    std::size_t index = 0;
    int month = 1;
    /// exchange: the new reservation (its count, unit, term, payment, discount or offering; its start
    /// month and renewal are ignored: it starts at `month`, lapses, and runs to the later of the
    /// exchanged one's end and its own full term). azure_exchange: the new reservation, a full term
    /// from `month`, paid as its payment says.
    std::optional<Commitment> into;
    /// resale: the upfront price the buyer pays for the whole reservation (the seller sets it).
    double price = 0;
};

/// `gpus` owned GPUs bought at the start of `month`, replaced at the end of each life inside the
/// horizon (as Owned in a Mix, shifted to start at `month`).
struct OwnedPurchase {
    double gpus = 0;
    int month = 0;
    Owned terms;
};

/// From `first_month` on (until the next period), spot runs with these interruption figures, e.g.
/// from simulate_spot under that period's interruption rate.
struct SpotPeriod {
    int first_month = 0;
    double overhead = 1.0;
    double availability = 1.0;
};

/// Spot capacity of `gpus` GPUs; each useful GPU-hour bills `overhead` GPU-hours (from
/// simulate_spot, see spot_tranche()); in a fraction 1 − availability of hours there is none and the
/// demand it would have served runs on demand. `periods` (increasing first months) change overhead and
/// availability over time; the spot price moves with the price model's spot factor.
struct SpotShare {
    double gpus = 0;
    std::optional<double> price_per_gpu_hour;  ///< default: the offering's spot price; either way × the price model's spot factor
    double overhead = 1.0;
    double availability = 1.0;
    std::vector<SpotPeriod> periods;
    /// Optional per-path overheads (as SpotTranche::overhead_samples): evaluate() then reports the
    /// spread of the total, every spot share with samples taking its path at the same quantile.
    std::vector<double> overhead_samples;
};

/// Each hour demand is served by owned GPUs first, then the held commitments, then the commitments in order, then the spot shares
/// in order (`spot`, then `more_spot`), then on demand (which takes everything above).
struct Plan {
    std::string name;  ///< shown in results; default: a description
    std::vector<Commitment> commitments;
    std::vector<OwnedPurchase> owned;
    std::optional<SpotShare> spot;
    /// Further spot shares after `spot` (a Mix with several spot tranches), each splitting the hours
    /// it is available in independently of the others.
    std::vector<SpotShare> more_spot;
    /// How on-demand and spot hours are paid: per GPU (the default of plans) or per whole instance of
    /// the plan's offering each hour (evaluate()'s default, Units::instances).
    Units billing = Units::gpus;
    /// Reservations bought before the horizon, served before `commitments` (after owned GPUs).
    std::vector<HeldCommitment> held;
    /// Exchanges, resales and refunds of the held or planned commitments, each at its month.
    std::vector<CommitmentChange> changes;
};

/// GPUs of the `held` commitments running in `month` (instances × their offering's GPUs, else
/// `gpus_per_instance`, the plan offering's).
double held_gpus_in(const std::vector<HeldCommitment>& held, int month, int gpus_per_instance);

/// The plan a Mix stands for in GPUs (evaluate() with Units::gpus): each tranche's share of the fleet
/// (`mix.fleet_gpus`, else `default_fleet_gpus`, usually the demand's peak) rounded as the mix says, reservations starting in
/// month 0 with the tranche's renewal, spot tranches in order. Throws InvalidInput as evaluate() does.
Plan plan_from_mix(const Mix& mix, double default_fleet_gpus);

/// The plan a Mix stands for in `units` on an offering of `gpus_per_instance` GPUs per instance (what
/// evaluate() prices): with Units::instances, reserved and spot shares are whole instances (each share
/// / gpus_per_instance rounded as the mix says, `none` rounding up) and on-demand and spot are billed
/// per instance each hour; owned hardware is counted in GPUs either way. The plan is left unnamed
/// (describe() then lists its parts); the overload above names it after the mix.
Plan plan_from_mix_in_units(const Mix& mix, double default_fleet_gpus, Units units, int gpus_per_instance);

/// "3y all_upfront × 8 GPUs @0 + 1y no_upfront × 8 GPUs @9 + on-demand", unless the plan has a name.
std::string describe(const Plan& plan);

}  // namespace gputco
