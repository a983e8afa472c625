#pragma once
// Changing a commitment before its end (docs/models.md, "Changing a commitment"): an AWS Convertible
// RI exchange (for equal or greater value, the true-up paid at the exchange), an AWS Standard RI sold
// on the Reserved Instance Marketplace (the seller's price less AWS's 12% fee; the hourly charges left
// pass to the buyer), an Azure reservation refund (the prorated remaining value, at most USD 50,000
// in any 12 months) and an Azure exchange (that refund, not capped, and a new reservation bought in full
// with at least the value left). Each is dated: the commitment stops at its month.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "commitment.hpp"

namespace gputco::instruments {

/// AWS keeps this share of the upfront price a Reserved Instance Marketplace sale fetches.
inline constexpr double marketplace_fee = 0.12;
/// Azure refunds at most this much (USD) in any rolling 12 months.
inline constexpr double azure_refund_cap = 50'000;

/// Azure's refund cap holds over any this many consecutive months.
inline constexpr int refund_window_months = 12;

/// What is left of commitment c from month k to the end of the term running then, at list prices: the
/// prorated upfront plus the hourly charges of the hours left (AWS's "remaining value" of a reservation).
double remaining_value(const PricedCommitment& c, int k);

/// The prorated upfront left of commitment c at month k (what Azure refunds: later monthly payments stop).
double remaining_upfront(const PricedCommitment& c, int k);

/// The months [first, last) commitment c may be changed in: after it is bought, while it runs, inside
/// the horizon (and not in month 0, where the plan starts).
inline std::pair<int, int> change_months(const PricedCommitment& c, int horizon) {
    return {std::max(1, c.start + 1), std::min(horizon, c.last_month(horizon))};
}

/// Whether AWS lets a convertible reservation paid `from` be exchanged for one paid `to`: only for the
/// same or a higher payment option (Amazon EC2 User Guide, "Exchanging Convertible Reserved
/// Instances": Partial Upfront ones "can be exchanged for All Upfront Convertible Reserved
/// Instances—but they cannot be exchanged for No Upfront Convertible Reserved Instances").
/// (Payment lists them from the least upfront to the most.)
inline bool exchange_payment_allowed(Payment from, Payment to) { return int(to) >= int(from); }

/// What a Reserved Instance Marketplace sale asking `price` brings the seller: the price less AWS's fee.
inline double resale_received(double price) { return price * (1.0 - marketplace_fee); }

/// An AWS exchange at month k of `old` for `next` (priced for its own terms): the new reservation runs
/// from k to `end`, the later of the old term's end and its own full term, and is worth `value` (its
/// upfront prorated to those months plus their hourly charges; linear in next.gpus), of which `upfront`
/// is upfront.
struct ExchangeValue {
    int end = 0;
    double per_gpu_upfront = 0;  ///< its upfront per GPU prorated to [k, end)
    double value = 0;
    double upfront = 0;  ///< next.gpus × per_gpu_upfront
};
ExchangeValue exchange_value(const PricedCommitment& old, const PricedCommitment& next, int k);

/// An Azure exchange's new reservation, bought in full for its own term: its lifetime commitment (the
/// upfront and every hour's charge of the term), which must be at least what is left of the old one.
inline double azure_lifetime_commitment(const PricedCommitment& next) {
    return next.gpus * (next.upfront_per_gpu + next.hourly_per_gpu * next.term_months * hours_per_month);
}

/// The true-up AWS charges for it: the new reservation's upfront less the old one's upfront left, if
/// more (the EC2 User Guide's "prorated upfront cost of the difference"; PaymentDue in AWS's exchange
/// quote). The old one's hourly charges left are not a credit: they stop, and the new one's are paid.
inline double exchange_true_up(const ExchangeValue& next, double old_upfront_left) {
    return std::max(0.0, next.upfront - old_upfront_left);
}

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
