// FOCUS 1.3 Contract Commitment files (bills/contract.hpp), on files made from the spec's dataset
// (FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec, specification/datasets/contract_commitment/): its 13
// mandatory columns, their nullability and allowed values, each error to the letter.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gputco/bills/contract.hpp"
#include "gputco/core/error.hpp"

using namespace gputco;

namespace {

const std::string header =
    "BillingCurrency,ContractCommitmentCategory,ContractCommitmentCost,ContractCommitmentDescription,"
    "ContractCommitmentId,ContractCommitmentPeriodEnd,ContractCommitmentPeriodStart,ContractCommitmentQuantity,"
    "ContractCommitmentType,ContractCommitmentUnit,ContractId,ContractPeriodEnd,ContractPeriodStart";

// A Savings Plan's terms (spend: its amount over the year) and a reservation's (usage: instance-hours).
const std::string sp_row = "USD,Spend,438000,\"Compute Savings Plan, 1 year\",sp-9,2025-10-01T00:00:00Z,"
                           "2024-10-01T00:00:00Z,,Savings Plan,,c-1,2025-10-01T00:00:00Z,2024-10-01T00:00:00Z";
const std::string ri_row = "USD,Usage,,p4d 3-year,ri-1,2027-06-01T00:00:00Z,2024-06-01T00:00:00Z,26280,Reserved "
                           "Instance,Hours,c-1,2027-06-01T00:00:00Z,2024-06-01T00:00:00Z";

std::string file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

}  // namespace

TEST_CASE("a Contract Commitment file: every row's terms, column order free, extra columns ignored") {
    const auto rows = read_contract_commitments(file("cc.csv", header + ",x_Note\r\n" + sp_row + ",a\r\n" + ri_row + ",b\r\n"));
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].row == 2);
    CHECK(rows[0].id == "sp-9");
    CHECK(rows[0].category == "Spend");
    CHECK(rows[0].type == "Savings Plan");
    CHECK(rows[0].description == "Compute Savings Plan, 1 year");
    CHECK(rows[0].period_start == 1727740800);  // 2024-10-01T00:00Z
    CHECK(rows[0].period_end == 1759276800);    // 2025-10-01T00:00Z
    CHECK(rows[0].cost == 438000);
    CHECK(!rows[0].quantity);
    CHECK(rows[1].id == "ri-1");
    CHECK(rows[1].category == "Usage");
    CHECK(!rows[1].cost);
    CHECK(rows[1].quantity == 26280);
    CHECK(rows[1].unit == "Hours");
    // The same rules on rows given as text (Parquet from Python); columns in another order.
    const auto given = contract_commitments_from_rows(
        "cc.parquet", {"ContractCommitmentId", "BillingCurrency", "ContractCommitmentCategory", "ContractCommitmentCost",
                       "ContractCommitmentDescription", "ContractCommitmentPeriodEnd", "ContractCommitmentPeriodStart",
                       "ContractCommitmentQuantity", "ContractCommitmentType", "ContractCommitmentUnit", "ContractId",
                       "ContractPeriodEnd", "ContractPeriodStart"},
        {{"sp-1", "EUR", "Spend", "100", "", "2026-01-01T00:00:00Z", "2025-01-01T00:00:00Z", "", "Savings Plan", "",
          "c", "2026-01-01T00:00:00Z", "2025-01-01T00:00:00Z"}});
    REQUIRE(given.size() == 1);
    CHECK(given[0].currency == "EUR");
    CHECK(given[0].row == 2);
    CHECK(contract_commitment_columns().size() == 13);
}

TEST_CASE("a bad Contract Commitment file is refused naming file, row and column") {
    const auto bad = [&](const std::string& row) { return read_contract_commitments(file("bad_cc.csv", header + "\n" + row + "\n")); };
    const auto with = [&](std::size_t column, const std::string& value) {  // sp_row with field `column` replaced
        std::vector<std::string> fields(1);
        bool quoted = false;
        for (char c : sp_row) {
            if (c == '"') quoted = !quoted;
            if (c == ',' && !quoted) fields.emplace_back();
            else fields.back() += c;
        }
        fields[column] = value;
        std::string row = fields[0];
        for (std::size_t k = 1; k < fields.size(); ++k) row += "," + fields[k];
        return row;
    };
    const std::string path = (std::filesystem::temp_directory_path() / "bad_cc.csv").string();
    CHECK_THROWS_WITH_AS(bad(with(1, "Other")), (path + ":2 ContractCommitmentCategory = \"Other\": must be Spend or Usage").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(with(4, "")), (path + ":2 ContractCommitmentId = (null): must not be null").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(with(5, "2024-09-01T00:00:00Z")),
                         (path + ":2 ContractCommitmentPeriodEnd = \"2024-09-01T00:00:00Z\": must be after "
                                 "ContractCommitmentPeriodStart (2024-10-01T00:00:00Z)").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(with(6, "October 2024")),
                         (path + ":2 ContractCommitmentPeriodStart = \"October 2024\": must be an ISO 8601 UTC time such "
                                 "as 2024-01-01T00:00:00Z").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(with(2, "")),
                         (path + ":2 ContractCommitmentCost = (null): must not be null when ContractCommitmentQuantity "
                                 "is null").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(with(2, "1e999")),
                         (path + ":2 ContractCommitmentCost = \"1e999\": must be a finite number or empty").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(with(7, "3")),
                         (path + ":2 ContractCommitmentUnit = (null): must not be null when ContractCommitmentQuantity "
                                 "is not").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(sp_row + "\n" + sp_row),
                         (path + ":3 ContractCommitmentId = \"sp-9\": given twice: one row per contract commitment").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(bad(sp_row + ",extra"), (path + ":2 = 14 fields: the header has 13").c_str(), InvalidInput);
    // A mandatory column missing (ContractPeriodStart, the last of the header).
    const std::string short_header = header.substr(0, header.rfind(','));
    CHECK_THROWS_WITH_AS(read_contract_commitments(file("bad_cc.csv", short_header + "\n")),
                         (path + ":1 ContractPeriodStart = (missing): required by the FOCUS 1.3 Contract Commitment "
                                 "dataset").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(read_contract_commitments(file("bad_cc.csv", "")),
                         (path + ":1 = (empty file): must start with a header row").c_str(), InvalidInput);
}
