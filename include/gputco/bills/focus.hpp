#pragma once
// Reading a FOCUS cost export (FinOps Open Cost and Usage Specification 1.0–1.3,
// https://github.com/FinOps-Open-Cost-and-Usage-Spec/FOCUS_Spec): the columns gputco reads, the
// spec's allowed values, and a streamed CSV reader that hands each row to a callback, so a file of
// any length is read in memory bounded by its longest row.
//
//   FocusReader reader("bill.csv", header);               // checks the required columns
//   FocusRow row = reader.parse(2, fields);                // checks the row's values
//   read_focus_csv("bill.csv", [&](const FocusRow& r) { ... });
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gputco/core/enum_text.hpp"

namespace gputco {

/// The FOCUS version a file follows. 1.3 renamed ProviderName to ServiceProviderName; the other
/// columns gputco reads are mandatory and unchanged in 1.0–1.3.
enum class FocusVersion { v1_0, v1_1, v1_2, v1_3 };
template <>
struct EnumText<FocusVersion> {
    static constexpr std::array<EnumName<FocusVersion>, 4> names{{
        {FocusVersion::v1_0, "1.0"}, {FocusVersion::v1_1, "1.1"}, {FocusVersion::v1_2, "1.2"}, {FocusVersion::v1_3, "1.3"}}};
};

/// ChargeCategory (spec: mandatory, not null).
enum class ChargeCategory { usage, purchase, tax, credit, adjustment };
template <>
struct EnumText<ChargeCategory> {
    static constexpr std::array<EnumName<ChargeCategory>, 5> names{{{ChargeCategory::usage, "Usage"},
                                                                     {ChargeCategory::purchase, "Purchase"},
                                                                     {ChargeCategory::tax, "Tax"},
                                                                     {ChargeCategory::credit, "Credit"},
                                                                     {ChargeCategory::adjustment, "Adjustment"}}};
};

/// PricingCategory (null for rows without a price, e.g. taxes). Dynamic = spot/interruptible.
enum class PricingCategory { none, standard, dynamic, committed, other };
template <>
struct EnumText<PricingCategory> {
    static constexpr std::array<EnumName<PricingCategory>, 5> names{{{PricingCategory::none, "(null)"},
                                                                     {PricingCategory::standard, "Standard"},
                                                                     {PricingCategory::dynamic, "Dynamic"},
                                                                     {PricingCategory::committed, "Committed"},
                                                                     {PricingCategory::other, "Other"}}};
};

/// CommitmentDiscountStatus: null exactly when CommitmentDiscountId is null; never null on a Usage
/// row with a CommitmentDiscountId.
enum class CommitmentStatus { none, used, unused };
template <>
struct EnumText<CommitmentStatus> {
    static constexpr std::array<EnumName<CommitmentStatus>, 3> names{
        {{CommitmentStatus::none, "(null)"}, {CommitmentStatus::used, "Used"}, {CommitmentStatus::unused, "Unused"}}};
};

/// One charge as gputco reads it. The text fields view the reader's row buffer: valid during the
/// callback only. Times are seconds since 1970-01-01 UTC; a null ConsumedQuantity is NaN.
struct FocusRow {
    std::size_t row = 0;  ///< CSV record number, the header being row 1
    std::int64_t period_start = 0;
    std::int64_t period_end = 0;
    ChargeCategory charge_category = ChargeCategory::usage;
    bool correction = false;  ///< ChargeClass = Correction
    PricingCategory pricing_category = PricingCategory::none;
    CommitmentStatus commitment_status = CommitmentStatus::none;
    double billed_cost = 0;
    double effective_cost = 0;
    double list_cost = 0;
    double contracted_cost = 0;
    double consumed_quantity = 0;
    std::string_view billing_currency, consumed_unit, provider, service_category, sku_id, sku_price_id,
        region_id, resource_id, commitment_discount_id, commitment_discount_type, charge_description;
    /// The providers' extra columns gputco uses to name an instance: AWS x_UsageType
    /// ("USE1-BoxUsage:p4d.24xlarge"), Azure x_SkuMeterName ("ND96asr v4"); empty when absent.
    std::string_view x_usage_type, x_sku_meter_name;
    /// CommitmentDiscountCategory: "Usage" (a reservation) or "Spend" (a Savings Plan); empty when absent.
    std::string_view commitment_discount_category;
};

struct FocusOptions {
    /// Empty = from the header (ServiceProviderName → 1.3, else 1.0–1.2, read as 1.2).
    std::optional<FocusVersion> version;
    /// Longest CSV record in bytes: the reader's memory bound (a longer one is an error, not a cut).
    std::size_t max_row_bytes = std::size_t(1) << 20;
    /// Name used in messages; default the path.
    std::string file;
};

/// The columns of one file: built from the header, then parses rows. Column order is free, names
/// are case-sensitive as in the spec, extra columns (x_ provider columns and others) are ignored.
class FocusReader {
public:
    /// Throws InvalidInput "<file>:1 <Column> = (missing): required by FOCUS <version>" for the first
    /// required column absent, and for a column named twice.
    FocusReader(std::string file, const std::vector<std::string>& header, std::optional<FocusVersion> version = {});
    /// Parses record `row` (1-based, header = 1). Throws InvalidInput "<file>:<row> <Column> = <value>: <rule>".
    FocusRow parse(std::size_t row, const std::vector<std::string_view>& fields) const;
    FocusVersion version() const { return version_; }
    std::size_t column_count() const { return column_count_; }
    /// The columns required for `version`, in the spec's spelling.
    static std::vector<std::string> required_columns(FocusVersion version);
    /// What an export may be reduced to before it is read (an engine such as DuckDB, Arrow or Dask
    /// grouping a Parquet export): group by `grouped_columns()` and sum `summed_columns()`, and the bill
    /// is the same, because no other column is read and the amounts only ever add up. ResourceId is
    /// left out: a bill does not use it, and it would keep one row per instance.
    static std::vector<std::string> grouped_columns();
    static std::vector<std::string> summed_columns();

private:
    std::string file_;
    FocusVersion version_ = FocusVersion::v1_2;
    std::size_t column_count_ = 0;
    std::vector<int> index_;  ///< per known column (see focus.cpp), its position or -1
};

/// The CSV reader fed bytes in chunks of any size (a decompressor's output, a pipe): a record may
/// straddle chunks. read_focus_csv is this fed from a file in 1 MiB chunks.
class FocusCsvStream {
public:
    FocusCsvStream(std::string file, std::function<void(const FocusRow&)> on_row, const FocusOptions& options = {});
    ~FocusCsvStream();
    FocusCsvStream(FocusCsvStream&&) noexcept;
    FocusCsvStream& operator=(FocusCsvStream&&) noexcept;
    void feed(std::string_view bytes);
    /// Ends the input (a last record without a newline is read); returns the number of data rows.
    /// Throws InvalidInput inside a quoted field or when there was no header.
    std::size_t finish();
    /// The version read from the header (or given); 1.2 before the header.
    FocusVersion version() const;

private:
    struct State;
    std::unique_ptr<State> state_;
};

/// Streams a CSV file (RFC 4180: quoted fields, doubled quotes, newlines inside quotes, CRLF) row by
/// row into `on_row`. Returns the number of data rows. Throws InvalidInput naming file, row and column.
std::size_t read_focus_csv(const std::string& path, const std::function<void(const FocusRow&)>& on_row,
                           const FocusOptions& options = {}, FocusVersion* version_read = nullptr);

/// Seconds since 1970-01-01 UTC of an ISO 8601 time as FOCUS writes it: "2024-01-01T00:00:00Z", with
/// a space for T, optional fractional seconds, and Z, +00:00 or nothing for UTC. nullopt otherwise.
std::optional<std::int64_t> parse_focus_time(std::string_view text);

}  // namespace gputco
