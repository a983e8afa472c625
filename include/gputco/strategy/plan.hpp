#pragma once
// A plan over time: commitments bought at given months (a ladder), owned hardware bought at a month,
// a spot share, and on-demand for the rest. Where a Mix is one split of one fleet for the whole
// horizon, a plan says *when* each piece of capacity is bought.
//
//   Plan ladder;
//   ladder.commitments.push_back({.count = 8, .term_years = 3, .payment = Payment::all_upfront});
//   ladder.commitments.push_back({.count = 8, .term_years = 1, .start_month = 9});
//   // everything above 8 (then 16) GPUs runs on demand
#include <algorithm>
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
    /// The commitment's price off on-demand in [0, 1), as Reserved::reservation_discount; default: the
    /// offering's prices.
    std::optional<double> reservation_discount;
    /// Where the commitment is bought; default: the plan's offering. Must price in the plan's currency.
    std::optional<Offering> offering;
    /// A short term instead of term_years: 1, 3 or 6 months (neocloud terms), priced from
    /// `reservation_discount` or the offering's month-term rate; 0 = a term of term_years.
    int term_months = 0;
    static constexpr std::array<int, 3> month_terms{1, 3, 6};
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
    /// exchange: the new reservation (its count, unit, term, payment, reservation_discount or offering; its start
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

/// A Savings Plan (savings_plans.hpp) on the plan's offering: `commitment_per_hour` (in the plan's
/// currency) for `term_years`, bought at the start of month `start_month`. Each hour it pays for up to
/// commitment / rate GPU-hours of demand at `rate`, the rate under the plan of the month it was bought;
/// the commitment is paid whether used or not. All upfront pays the term's commitment at purchase,
/// partial upfront half of it (AWS: at least half), no upfront nothing; the rest is paid hourly.
/// A negative `start_month` is a plan held: bought before the horizon (month 0 is its first) and still
/// running in month 0. Its upfront is sunk — only the hourly part of the months left is paid — and its
/// rate is the one agreed then (price paths do not move that term; a renewal is bought at the prices
/// of its own start month, upfront included).
struct SavingsPlan {
    double commitment_per_hour = 0;
    SavingsPlanType type = SavingsPlanType::aws_compute;
    int term_years = 1;
    Payment payment = Payment::no_upfront;
    int start_month = 0;
    Renewal renewal = Renewal::lapse;
    /// Rate per GPU-hour under the plan; default: the offering's catalog rate for this type, term and
    /// payment (per instance-hour / GPUs per instance, × the region price factor).
    std::optional<double> rate_per_gpu_hour;
    /// How the report names it (e.g. a bill's CommitmentDiscountId); default "plan.savings_plans[i]".
    std::string id;
};

/// Whose rules a capacity block follows (docs/models.md, section 7.1).
enum class BlockKind {
    /// AWS EC2 Capacity Blocks for ML: 1–64 instances; 1–14 days, or whole weeks to 182; a start at most
    /// 56 days after the purchase; paid in full at purchase; stopped 30 minutes before the end.
    aws_capacity_block,
    /// GCP Dynamic Workload Scheduler future reservation in calendar mode: 1–80 VMs; 1–90 days; charged
    /// for the whole period, used or not, as it runs; no stop before the end; a price must be given.
    gcp_calendar_mode,
};

template <>
struct EnumText<BlockKind> {
    static constexpr std::array<EnumName<BlockKind>, 2> names{{
        {BlockKind::aws_capacity_block, "aws_capacity_block"},
        {BlockKind::gcp_calendar_mode, "gcp_calendar_mode"},
    }};
};

/// An EC2 Capacity Block for ML (or a block bought the same way): `instances` whole instances of the
/// plan's offering reserved from day `start_day` for `days` days, bought `lead_days` before it starts
/// and paid in full then, at a price per instance-hour fixed at purchase, for every hour of the block;
/// no cancellation. The instances stop 30 minutes before the block ends, so each gives 24 × days − 0.5
/// usable hours. AWS's rules, checked: 1–64 instances; 1–14 days, or 7–182 days in whole weeks; a
/// start at most 8 weeks (56 days) after the purchase. A block serves demand first in its hours (it is
/// bought for a dated window, PlanOptions::windows), and what it leaves falls to the other tiers.
struct CapacityBlock {
    int instances = 1;
    int days = 1;
    int start_day = 0;  ///< day of the horizon the block starts (day 0 = the horizon's first hour)
    int lead_days = 0;  ///< days between purchase and start; the purchase must be inside the horizon
    /// Per instance-hour, set at purchase; default: the offering's capacity-block rate in the catalog.
    std::optional<double> price_per_instance_hour;
    /// AWS's rules (the default) or GCP calendar mode's (BlockKind); `kind`'s limits replace the AWS
    /// constants below, and a calendar-mode block is paid month by month as its hours run.
    BlockKind kind = BlockKind::aws_capacity_block;

    static constexpr int max_instances = 64;
    static constexpr int max_daily_days = 14;   ///< bought by the day up to here
    static constexpr int max_weekly_days = 182; ///< by the week (multiples of 7) up to here
    static constexpr int max_lead_days = 56;    ///< 8 weeks
    static constexpr double stop_before_end_hours = 0.5;
    static constexpr int calendar_max_instances = 80;  ///< GCP calendar mode: VMs per request
    static constexpr int calendar_max_days = 90;
    double usable_hours() const {
        return 24.0 * days - (kind == BlockKind::aws_capacity_block ? stop_before_end_hours : 0.0);
    }
    /// A length sold: 1 to 14 days, or whole weeks up to 182 days.
    static constexpr bool sellable_days(int d) {
        return (d >= 1 && d <= max_daily_days) || (d >= 7 && d <= max_weekly_days && d % 7 == 0);
    }
    /// The shortest length sold whose usable hours hold `hours` of work (> 0, finite); none past 182 days.
    static std::optional<int> shortest_days_for(double hours) {
        const double days = std::ceil((hours + stop_before_end_hours) / 24.0);
        if (!(days <= max_weekly_days)) return std::nullopt;
        int d = std::max(1, int(days));
        if (d > max_daily_days) d = (d + 6) / 7 * 7;
        if (d > max_weekly_days) return std::nullopt;
        return d;
    }
};

/// A GCP Dynamic Workload Scheduler flex-start request for a dated window of demand (docs/models.md,
/// section 5d): `gpus` GPUs of the plan's offering from day `start_day` for `days` days (at most seven:
/// a granted request runs uninterrupted for at most seven days), billed for every hour they run at
/// (1 − `discount`) × the on-demand price, used or not. The request is queued up to two hours before
/// the start (queued hours are not billed); it is granted with probability `grant_probability`, drawn
/// per future (PlanOptions::seed). Granted, it serves first in its hours, as a capacity block does;
/// refused, the window's demand falls to the plan's other tiers (on demand unless the plan holds more).
struct FlexStartRequest {
    double gpus = 1;
    double start_day = 0;   ///< day of the horizon the run starts, if granted (fractions allowed)
    double days = 1;        ///< the run's length, (0, 7]
    /// Off the on-demand price, in [0, 1): Google publishes flex-start SKUs per machine type, not one
    /// rate, so there is no default to trust; give the discount of your machine type's SKU.
    double discount = 0;
    /// P(the request is granted within its queue time), (0, 1]: an assumption (no public figure).
    double grant_probability = 1;

    static constexpr double max_days = 7;          ///< a run's limit: seven days uninterrupted
    static constexpr double max_queue_hours = 2;   ///< how long a request may wait in the queue
};

/// Each hour demand is served by the capacity blocks and granted flex-start requests in their hours, then owned GPUs, then the held
/// commitments, then the commitments in order, then the Savings Plans (EC2 Instance plans before the
/// others, else in order), then the spot shares in order (`spot`, then `more_spot`), then on demand
/// (which takes everything above).
struct Plan {
    std::string name;  ///< shown in results; default: a description
    std::vector<Commitment> commitments;
    std::vector<OwnedPurchase> owned;
    /// Spend-based commitments, served after the commitments and before spot.
    std::vector<SavingsPlan> savings_plans;
    std::optional<SpotShare> spot;
    /// Further spot shares after `spot` (a Mix with several spot tranches), each splitting the hours
    /// it is available in independently of the others.
    std::vector<SpotShare> more_spot;
    /// How on-demand and spot hours are paid: per GPU (the default of plans) or per whole instance of
    /// the plan's offering each hour (evaluate()'s default, Units::instances).
    Units billing = Units::gpus;
    /// Capacity blocks, which serve demand before every other tier in their hours.
    std::vector<CapacityBlock> capacity_blocks;
    /// Reservations bought before the horizon, served before `commitments` (after owned GPUs).
    std::vector<HeldCommitment> held;
    /// Exchanges, resales and refunds of the held or planned commitments, each at its month.
    std::vector<CommitmentChange> changes;
    /// Flex-start requests; in a future where one is granted it serves first in its hours, beside the
    /// capacity blocks.
    std::vector<FlexStartRequest> flex_starts;
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
