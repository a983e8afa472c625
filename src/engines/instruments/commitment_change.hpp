#pragma once
// Changing a commitment before its end (docs/models.md, "Changing a commitment"): an AWS Convertible
// RI exchange (for equal or greater value, the true-up paid at the exchange), an AWS Standard RI sold
// on the Reserved Instance Marketplace (the seller's price less AWS's 12% fee; the hourly charges left
// pass to the buyer), an Azure reservation refund (the prorated remaining value, at most USD 50,000
// in any 12 months) and an Azure exchange (that refund, not capped, and a new reservation bought in full
// with at least the value left). Each is dated: the commitment stops at its month.
#include <string>
#include <vector>

#include "commitment.hpp"

namespace gputco::instruments {

/// AWS keeps this share of the upfront price a Reserved Instance Marketplace sale fetches.
inline constexpr double marketplace_fee = 0.12;
/// Azure refunds at most this much (USD) in any rolling 12 months.
inline constexpr double azure_refund_cap = 50'000;

/// The month field a change writes (plan_core.hpp's price_tiers), beside its commitments' own.
inline constexpr std::array<std::string_view, 1> change_columns{"commitment_changes"};

/// Money of one change at its month: paid (> 0, a true-up) or received (< 0, a sale or a refund).
struct ChangeFlow {
    int month = 0;
    double amount = 0;
    std::string line;  ///< what happened, for the report
};

/// Every change checked (messages "plan.changes[i].<field> = <value>: <rule>") and applied in order:
/// the changed commitment stops at its month and an exchange's new reservation is appended to the
/// list the exchanged one is in (held or bought), at a fixed price. Values are at list prices.
std::vector<ChangeFlow> apply_changes(const std::vector<CommitmentChange>& changes, std::vector<PricedCommitment>& held,
                                      std::vector<PricedCommitment>& bought, const Offering& plan_offering,
                                      const PlanOptions& options, int horizon, std::vector<std::string>& conversions);

}  // namespace gputco::instruments
