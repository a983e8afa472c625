#pragma once
// The FinOps figures of a bill: commitment utilisation, coverage, waste, effective savings rate and
// spend by pricing and charge category, summed row by row (definitions and sources: docs/models.md,
// section 11, "FinOps figures of a bill").
//
//   FinOpsFigures f;
//   for (const FocusRow& row : rows) f.add(row);
//   f.effective_savings_rate();   // 1 − Σ EffectiveCost / Σ ListCost of the usage
#include <array>
#include <cstddef>

#include "gputco/bills/focus.hpp"

namespace gputco {

/// Sums over a bill's rows. The ratios are NaN when their denominator is 0 (nothing to state).
struct FinOpsFigures {
    double list_cost = 0;        ///< Σ ListCost of Usage rows (what the usage costs at list prices)
    double contracted_cost = 0;  ///< Σ ContractedCost of Usage rows
    double effective_cost = 0;   ///< Σ EffectiveCost of Usage rows, unused commitment included
    double billed_cost = 0;      ///< Σ BilledCost of all rows (the invoice)
    double used_commitment_cost = 0;    ///< Σ EffectiveCost, CommitmentDiscountStatus = Used
    double unused_commitment_cost = 0;  ///< Σ EffectiveCost, CommitmentDiscountStatus = Unused: the waste
    double covered_list_cost = 0;       ///< Σ ListCost of Usage rows with status Used
    double eligible_list_cost = 0;      ///< Σ ListCost of Usage rows not Unused
    std::array<double, 5> effective_by_pricing{};  ///< Usage rows' EffectiveCost by PricingCategory (index = enum)
    std::array<double, 5> billed_by_charge{};      ///< BilledCost by ChargeCategory (index = enum)
    std::size_t rows = 0;

    /// Used / (Used + Unused) commitment cost.
    double commitment_utilisation() const;
    /// List cost covered by commitments / list cost of all usage that could be covered.
    double coverage() const;
    /// The unused commitment cost (= unused_commitment_cost).
    double waste() const { return unused_commitment_cost; }
    /// 1 − effective cost / list cost of the usage: what the discounts saved, net of waste.
    double effective_savings_rate() const;
    void add(const FocusRow& row);
};

}  // namespace gputco
