#pragma once
// Spend-based commitments (Savings Plans): a $/hour commitment for 1 or 3 years that pays, each hour,
// for eligible usage at the plan's lower rate; what it does not reach runs on demand and what it does
// not spend is paid anyway. This header holds the kinds of plan and the rule for one hour,
// apply_savings_plans(), in the order AWS publishes (docs/models.md, "Savings Plans"):
// Reserved Instances first, then EC2 Instance Savings Plans, then the other plans, each plan to the
// eligible usage with the highest savings percentage first.
//
//   std::vector<SavingsPlanUsage> hour{{.family = "p5", .region = "us-east-1", .hours = 3, ...}};
//   std::vector<HourlySavingsPlan> plans{{.type = SavingsPlanType::aws_compute, .commitment_per_hour = 50}};
//   const SavingsPlanHour billed = apply_savings_plans(hour, plans);
#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "gputco/catalog/catalog.hpp"

namespace gputco {

/// Whether plans of this type are applied before the others: AWS applies EC2 Instance Savings Plans
/// (bound to a family and region, the deeper discount) before Compute Savings Plans.
constexpr bool applied_first(SavingsPlanType type) { return type == SavingsPlanType::aws_ec2_instance; }

/// One line of an hour's usage (one offering): instance-hours used, of which `reserved_hours` are
/// already covered by reservations (they come first and are not for a Savings Plan to pay).
struct SavingsPlanUsage {
    std::string offering;  ///< e.g. "aws/us-east-1/p5.48xlarge", for the caller's reports
    std::string family;    ///< e.g. "p5"; an EC2 Instance Savings Plan covers only its own family
    std::string region;    ///< e.g. "us-east-1"; an EC2 Instance Savings Plan covers only its own region
    std::string size;      ///< e.g. "48xlarge" (any size of the family is covered)
    double hours = 0;
    double reserved_hours = 0;
    double on_demand_rate = 0;  ///< per instance-hour
    /// Per plan type (indexed by SavingsPlanType): the rate per instance-hour under a plan of that type,
    /// none when that type does not cover this usage.
    std::array<std::optional<double>, savings_plan_type_count> rates{};
    std::optional<double>& rate(SavingsPlanType t) { return rates[std::size_t(t)]; }
    const std::optional<double>& rate(SavingsPlanType t) const { return rates[std::size_t(t)]; }
};

/// A Savings Plan in force in the hour: its commitment, paid whether used or not.
struct HourlySavingsPlan {
    SavingsPlanType type = SavingsPlanType::aws_compute;
    double commitment_per_hour = 0;
    std::string family;  ///< an EC2 Instance Savings Plan's family (required for it, ignored otherwise)
    std::string region;  ///< an EC2 Instance Savings Plan's region (required for it, ignored otherwise)
};

/// Instance-hours of one usage line a plan paid for, and what they cost out of its commitment.
struct SavingsPlanCoverage {
    std::size_t plan = 0;  ///< index into the plans given
    std::size_t line = 0;  ///< index into the usage given
    double hours = 0;
    double cost = 0;  ///< hours × the plan type's rate for the line
};

/// The hour billed: what each plan covered (in the order applied), what is left on demand, and each
/// plan's used and unused commitment. `total` = every commitment in full + on-demand cost (the
/// reservations' own fees are not in it).
struct SavingsPlanHour {
    std::vector<SavingsPlanCoverage> covered;
    std::vector<double> on_demand_hours;     ///< per line: hours − reserved − covered
    std::vector<double> used_commitment;     ///< per plan
    std::vector<double> unused_commitment;   ///< per plan, paid anyway
    double on_demand_cost = 0;
    double total = 0;
};

/// Applies the plans to one hour's usage: EC2 Instance plans first, then the others, plans of the same
/// rank in the order given; each plan pays for eligible usage in decreasing savings percentage
/// (1 − rate / on-demand rate; ties in the order given) until its commitment is spent. Throws
/// InvalidInput naming the field ("usage[1].reserved_hours", "savings_plans[0].family").
SavingsPlanHour apply_savings_plans(std::span<const SavingsPlanUsage> usage, std::span<const HourlySavingsPlan> plans);

}  // namespace gputco
