#pragma once
// FOCUS 1.3's Contract Commitment dataset: the terms of the commitments a customer agreed with a
// provider (start, end, amount), a second file beside the cost and usage export. gputco reads it so
// that a commitment held gets its real term instead of one assumed from its first cost row.
//
//   const auto terms = read_contract_commitments("contract_commitments.csv");
//   Bill bill = read_bill("focus.csv.gz", Catalog::builtin());
//   bill.contract_commitments = terms;   // held_from_bill and held_savings_plans_from_bill use them
//
// Source: FOCUS 1.3, "Contract Commitment" dataset (https://focus.finops.org/focus-specification/v1-3/;
// FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec, specification/datasets/contract_commitment/).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gputco {

/// One row of a Contract Commitment file. Times are seconds since 1970-01-01 UTC; the periods are
/// [start, end) as the spec bounds them.
struct ContractCommitment {
    std::size_t row = 0;  ///< CSV record number, the header being row 1
    std::string id;       ///< ContractCommitmentId: the join key (see held_from_bill)
    std::string contract_id;
    std::string category;  ///< ContractCommitmentCategory: "Spend" or "Usage"
    std::string type, description, unit, currency;
    std::int64_t period_start = 0, period_end = 0;              ///< ContractCommitmentPeriodStart/End
    std::int64_t contract_period_start = 0, contract_period_end = 0;  ///< ContractPeriodStart/End
    std::optional<double> cost;      ///< ContractCommitmentCost over the period, in `currency`; null allowed
    std::optional<double> quantity;  ///< ContractCommitmentQuantity in `unit`; null allowed
};

/// The 13 columns the spec makes mandatory in a Contract Commitment dataset, in its spelling.
const std::vector<std::string>& contract_commitment_columns();

/// Reads a Contract Commitment CSV (plain or gzip, streamed). Extra columns are ignored. Throws
/// InvalidInput naming file, row and column ("<file>:<row> <Column> = <value>: <rule>"): a mandatory
/// column missing, a null where the spec forbids one, a time that is not ISO 8601 UTC, a period that
/// ends before it starts, a category other than Spend or Usage, a cost and a quantity both null, an id
/// given twice.
std::vector<ContractCommitment> read_contract_commitments(const std::string& path);

/// The same rules on rows given as text (a header and records, e.g. from Parquet): row i is record i + 2.
std::vector<ContractCommitment> contract_commitments_from_rows(const std::string& file,
                                                               const std::vector<std::string>& header,
                                                               const std::vector<std::vector<std::string>>& rows);

}  // namespace gputco
