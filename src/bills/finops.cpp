// The FinOps figures, row by row (docs/models.md, section 11).
#include "gputco/bills/finops.hpp"

#include <limits>

namespace gputco {

namespace {
double finops_ratio(double a, double b) { return b > 0 ? a / b : std::numeric_limits<double>::quiet_NaN(); }
}  // namespace

double FinOpsFigures::commitment_utilisation() const {
    return finops_ratio(used_commitment_cost, used_commitment_cost + unused_commitment_cost);
}
double FinOpsFigures::coverage() const { return finops_ratio(covered_list_cost, eligible_list_cost); }
double FinOpsFigures::effective_savings_rate() const {
    return list_cost > 0 ? 1.0 - effective_cost / list_cost : std::numeric_limits<double>::quiet_NaN();
}

void FinOpsFigures::add(const FocusRow& row) {
    ++rows;
    billed_cost += row.billed_cost;
    billed_by_charge[std::size_t(row.charge_category)] += row.billed_cost;
    if (row.charge_category != ChargeCategory::usage) return;
    list_cost += row.list_cost;
    contracted_cost += row.contracted_cost;
    effective_cost += row.effective_cost;
    effective_by_pricing[std::size_t(row.pricing_category)] += row.effective_cost;
    if (row.commitment_status == CommitmentStatus::used) {
        used_commitment_cost += row.effective_cost;
        covered_list_cost += row.list_cost;
    } else if (row.commitment_status == CommitmentStatus::unused) {
        unused_commitment_cost += row.effective_cost;
    }
    if (row.commitment_status != CommitmentStatus::unused) eligible_list_cost += row.list_cost;
}

}  // namespace gputco
