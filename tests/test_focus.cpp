// The FOCUS reader: required columns per version, the spec's allowed values, CSV quoting, and
// errors naming file, row and column, checked to the letter.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "gputco/bills/focus.hpp"
#include "gputco/core/error.hpp"

using namespace gputco;

namespace {

const std::string focus_header =
    "BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeClass,ChargePeriodStart,"
    "ChargePeriodEnd,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,ServiceCategory,SkuId,"
    "CommitmentDiscountId,CommitmentDiscountStatus,x_Extra";
const std::string good_row =
    "1,1,2,2,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,1,Hrs,AWS,Compute,S1,,,anything";

std::string focus_temp_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("gputco_test_focus_" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

/// The message of reading `rows` under the header, or "" when it reads.
std::string error_of(const std::string& rows, const std::string& header_row = focus_header) {
    const std::string path = focus_temp_file("bad.csv", header_row + "\n" + rows);
    try {
        read_focus_csv(path, [](const FocusRow&) {}, {.file = "bill.csv"});
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "";
}

/// good_row with field `index` replaced by `value`.
std::string with_field(std::size_t index, const std::string& value) {
    std::vector<std::string> fields;
    std::size_t start = 0;
    for (;;) {
        const auto comma = good_row.find(',', start);
        fields.push_back(good_row.substr(start, comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    fields[index] = value;
    std::string out;
    for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + fields[i];
    return out;
}

}  // namespace

TEST_CASE("parse_focus_time reads the forms FOCUS exports write, in UTC") {
    CHECK(parse_focus_time("1970-01-01T00:00:00Z") == 0);
    CHECK(parse_focus_time("2025-01-01T01:00:00Z") == 1735693200);  // date -u -d 2025-01-01T01:00Z +%s
    CHECK(parse_focus_time("2025-01-01 01:00:00.000000Z") == 1735693200);
    CHECK(parse_focus_time("2025-01-01T01:00:00+00:00") == 1735693200);
    CHECK(parse_focus_time("2025-01-01T01:00") == 1735693200);
    CHECK(parse_focus_time("2024-02-29T00:00:00Z") == 1709164800);
    CHECK_FALSE(parse_focus_time("2025-02-29T00:00:00Z"));  // not a leap year
    CHECK_FALSE(parse_focus_time("2025-01-01T01:00:00+01:00"));  // FOCUS times are UTC
    CHECK_FALSE(parse_focus_time("2025-01-01"));
    CHECK_FALSE(parse_focus_time("2025-13-01T00:00:00Z"));
}

TEST_CASE("a good row is read; column order is free and unknown columns are ignored") {
    std::vector<FocusRow> rows;
    std::vector<std::string> kept;
    const std::string path = focus_temp_file("good.csv", focus_header + "\r\n" + good_row + "\r\n\r\n");
    FocusVersion version{};
    const auto n = read_focus_csv(path, [&](const FocusRow& r) { rows.push_back(r); kept.emplace_back(r.sku_id); }, {}, &version);
    CHECK(n == 1);
    CHECK(version == FocusVersion::v1_2);
    REQUIRE(rows.size() == 1);
    CHECK(rows[0].row == 2);
    CHECK(rows[0].billed_cost == 1.0);
    CHECK(rows[0].list_cost == 2.0);
    CHECK(rows[0].pricing_category == PricingCategory::standard);
    CHECK(rows[0].period_end - rows[0].period_start == 3600);
    CHECK(kept[0] == "S1");
}

TEST_CASE("a UTF-8 byte order mark before the header is not part of the first column's name") {
    const std::string path = focus_temp_file("bom.csv", "\xEF\xBB\xBF" + focus_header + "\n" + good_row + "\n");
    std::size_t rows = 0;
    read_focus_csv(path, [&](const FocusRow& r) { rows += r.billed_cost == 1.0; });
    CHECK(rows == 1);
}

TEST_CASE("quoted fields: commas, doubled quotes and newlines inside quotes") {
    const std::string row = "1,1,2,2,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,1,Hrs,AWS,Compute,"
                            "\"S,\"\"1\"\"\n2\",,,\"{\"\"a\"\": 1}\"";
    const std::string path = focus_temp_file("quoted.csv", focus_header + "\n" + row + "\n" + good_row + "\n");
    std::vector<std::string> skus;
    std::vector<std::size_t> numbers;
    read_focus_csv(path, [&](const FocusRow& r) { skus.emplace_back(r.sku_id); numbers.push_back(r.row); });
    REQUIRE(skus.size() == 2);
    CHECK(skus[0] == "S,\"1\"\n2");
    CHECK(numbers == std::vector<std::size_t>{2, 3});
}

TEST_CASE("property: records read from the whole chunk read as byte by byte (quotes, CRLF, blank lines, stray CR)") {
    // Whole records without quotes are split in place; every other record, and every record fed a byte at
    // a time, goes through the general path. Over seeded random files of both kinds, both give the same rows.
    const std::vector<std::string> skus{"S1", "\"S,2\"", "\"S\"\"3\"", "S\r4", "\"S\n5\"", ""};
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        std::uint64_t x = seed * 0x9E3779B97F4A7C15ULL;
        const auto next = [&] { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; };
        // SkuId last, so a line end read into it would show.
        std::string text = focus_header.substr(0, focus_header.find(",SkuId")) + ",CommitmentDiscountId,CommitmentDiscountStatus,SkuId" +
                           (next() % 2 ? "\r\n" : "\n");
        const std::string row = good_row.substr(0, good_row.find(",S1"));
        for (int r = 0; r < 20; ++r) {
            if (next() % 8 == 0) text += next() % 2 ? "\n" : "\r\n";  // a blank line
            text += row + ",,," + skus[next() % skus.size()] + (next() % 2 ? "\r\n" : "\n");
        }
        if (next() % 2) text.pop_back();  // a last record without its newline
        CAPTURE(seed);
        const auto read = [&](std::size_t chunk) {
            std::vector<std::pair<std::size_t, std::string>> rows;
            FocusCsvStream stream("x.csv", [&](const FocusRow& read_row) { rows.emplace_back(read_row.row, std::string(read_row.sku_id)); });
            for (std::size_t at = 0; at < text.size(); at += chunk) stream.feed(std::string_view(text).substr(at, chunk));
            stream.finish();
            return rows;
        };
        const auto whole = read(text.size());
        CHECK(whole.size() == 20);
        CHECK(read(1) == whole);
    }
}

TEST_CASE("required columns per version, named in the error") {
    // ProviderName is required through 1.2; 1.3 renamed it ServiceProviderName.
    std::string no_provider = focus_header;
    no_provider.replace(no_provider.find("ProviderName"), 12, "Vendor");
    CHECK(error_of(good_row, no_provider) == "bill.csv:1 ProviderName = (missing): required by FOCUS 1.2");
    std::string v13 = focus_header;
    v13.replace(v13.find("ProviderName"), 12, "ServiceProviderName");
    CHECK(error_of(good_row, v13).empty());
    for (FocusVersion v : {FocusVersion::v1_0, FocusVersion::v1_1, FocusVersion::v1_2}) {
        const std::string expected = "f:1 EffectiveCost = (missing): required by FOCUS " + std::string(to_text(v));
        CHECK_THROWS_WITH_AS(FocusReader("f", {"BilledCost"}, v), expected.c_str(), InvalidInput);
    }
    std::vector<std::string> cols;
    for (const auto& c : FocusReader::required_columns(FocusVersion::v1_3)) cols.push_back(c);
    CHECK_THROWS_WITH_AS(FocusReader("f", cols, FocusVersion::v1_2), "f:1 ProviderName = (missing): required by FOCUS 1.2", InvalidInput);
    CHECK(FocusReader("f", cols).version() == FocusVersion::v1_3);
    CHECK(error_of(good_row, focus_header + ",BilledCost") == "bill.csv:1 BilledCost = column 19: named twice (first as column 1)");
}

TEST_CASE("the spec's allowed values, each error naming file, row and column") {
    CHECK(error_of(with_field(5, "Refund")) ==
          "bill.csv:2 ChargeCategory = \"Refund\": must be one of Usage, Purchase, Tax, Credit, Adjustment");
    CHECK(error_of(with_field(5, "")) ==
          "bill.csv:2 ChargeCategory = \"\": must be one of Usage, Purchase, Tax, Credit, Adjustment");
    CHECK(error_of(with_field(6, "Adjustment")) == "bill.csv:2 ChargeClass = \"Adjustment\": must be Correction or empty");
    CHECK(error_of(with_field(9, "On-Demand")) ==
          "bill.csv:2 PricingCategory = \"On-Demand\": must be one of Standard, Dynamic, Committed, Other or empty");
    CHECK(error_of(with_field(16, "Used")) ==
          "bill.csv:2 CommitmentDiscountStatus = \"Used\": must be empty when CommitmentDiscountId is empty");
    CHECK(error_of(with_field(15, "cd-1")) ==
          "bill.csv:2 CommitmentDiscountStatus = (null): must not be empty on a Usage row with a CommitmentDiscountId");
    std::string unused = good_row;
    unused.replace(unused.find(",S1,,,"), 6, ",S1,cd-1,Partly,");
    CHECK(error_of(good_row + "\n" + unused) ==
          "bill.csv:3 CommitmentDiscountStatus = \"Partly\": must be one of Used, Unused or empty");
    CHECK(error_of(with_field(0, "12x")) == "bill.csv:2 BilledCost = \"12x\": must be a finite number");
    CHECK(error_of(with_field(2, "")) == "bill.csv:2 ListCost = (null): must not be null");
    CHECK(error_of(with_field(1, "inf")) == "bill.csv:2 EffectiveCost = \"inf\": must be a finite number");
    CHECK(error_of(with_field(10, "one")) == "bill.csv:2 ConsumedQuantity = \"one\": must be a finite number or empty");
    CHECK(error_of(with_field(7, "01/01/2025")) ==
          "bill.csv:2 ChargePeriodStart = \"01/01/2025\": must be an ISO 8601 UTC time such as 2024-01-01T00:00:00Z");
    CHECK(error_of(with_field(8, "2025-01-01T00:00:00Z")) ==
          "bill.csv:2 ChargePeriodEnd = \"2025-01-01T00:00:00Z\": must be after ChargePeriodStart (2025-01-01T00:00:00Z)");
    CHECK(error_of(with_field(4, "")) == "bill.csv:2 BillingCurrency = (null): must not be null");
    CHECK(error_of(good_row + "\n" + good_row + ",x") == "bill.csv:3 = 19 fields: the header has 18");
    CHECK(error_of(good_row + "\n\"open") == "bill.csv:3 = (end of file): inside a quoted field");
    CHECK(error_of("", "") == "bill.csv:1 = (empty file): must start with a FOCUS header row");
    // A bad row after good ones: every row before it was handed on, in order.
    std::size_t seen = 0;
    const std::string path = focus_temp_file("late.csv", focus_header + "\n" + good_row + "\n" + good_row + "\n" + with_field(5, "X") + "\n");
    CHECK_THROWS_WITH_AS(read_focus_csv(path, [&](const FocusRow&) { ++seen; }, {.file = "late.csv"}),
                         "late.csv:4 ChargeCategory = \"X\": must be one of Usage, Purchase, Tax, Credit, Adjustment", InvalidInput);
    CHECK(seen == 2);
}

TEST_CASE("memory is bounded by the longest row") {
    const std::string path = focus_temp_file("long.csv", focus_header + "\n" + good_row + std::string(300, 'x') + "\n");
    CHECK_THROWS_WITH_AS(read_focus_csv(path, [](const FocusRow&) {}, {.max_row_bytes = 256, .file = "long.csv"}),
                         "long.csv:2 = more than 256 bytes: a row longer than the limit (FocusOptions::max_row_bytes)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(read_focus_csv("/nonexistent/bill.csv", [](const FocusRow&) {}),
                         "path = \"/nonexistent/bill.csv\": cannot be opened for reading", InvalidInput);
}
