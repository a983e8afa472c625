// FOCUS 1.3 Contract Commitment files (include/gputco/bills/contract.hpp).
#include "gputco/bills/contract.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "gputco/bills/focus.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/gzip_file.hpp"
#include "csv_records.hpp"
#include "fail_note.hpp"

namespace gputco {
namespace {

enum Col {
    billing_currency, category, cost, description, id, period_end, period_start, quantity, type, unit, contract_id,
    contract_period_end, contract_period_start, column_count
};
// FOCUS 1.3, Contract Commitment dataset: every column Mandatory.
const std::vector<std::string> names{"BillingCurrency", "ContractCommitmentCategory", "ContractCommitmentCost",
                                     "ContractCommitmentDescription", "ContractCommitmentId",
                                     "ContractCommitmentPeriodEnd", "ContractCommitmentPeriodStart",
                                     "ContractCommitmentQuantity", "ContractCommitmentType", "ContractCommitmentUnit",
                                     "ContractId", "ContractPeriodEnd", "ContractPeriodStart"};

/// Parses the rows of one file against its header.
class ContractReader {
public:
    ContractReader(std::string file, const std::vector<std::string>& header)
        : file_(std::move(file)), width_(header.size()), index_(column_count, -1) {
        for (std::size_t i = 0; i < header.size(); ++i) {
            std::string_view name = header[i];
            if (i == 0 && name.starts_with("\xEF\xBB\xBF")) name.remove_prefix(3);  // a UTF-8 byte order mark
            for (int c = 0; c < column_count; ++c) {
                if (names[std::size_t(c)] != name) continue;
                if (index_[std::size_t(c)] >= 0)
                    bills::fail_note(fmt::format("{}:1 {}", file_, name), fmt::format("column {}", i + 1),
                                     fmt::format("named twice (first as column {})", index_[std::size_t(c)] + 1));
                index_[std::size_t(c)] = int(i);
            }
        }
        for (int c = 0; c < column_count; ++c)
            if (index_[std::size_t(c)] < 0)
                bills::fail_note(fmt::format("{}:1 {}", file_, names[std::size_t(c)]), "(missing)",
                                 "required by the FOCUS 1.3 Contract Commitment dataset");
    }

    ContractCommitment parse(std::size_t row, const std::vector<std::string_view>& fields) {
        if (fields.size() != width_)
            bills::fail_note(fmt::format("{}:{}", file_, row), fmt::format("{} fields", fields.size()),
                             fmt::format("the header has {}", width_));
        const auto text = [&](Col c) { return fields[std::size_t(index_[std::size_t(c)])]; };
        const auto where = [&](Col c) { return fmt::format("{}:{} {}", file_, row, names[std::size_t(c)]); };
        const auto kept = [&](Col c, bool nullable) {
            const std::string_view t = text(c);
            if (!is_utf8(t)) fail(where(c), t, "must be UTF-8 text");
            if (t.empty() && !nullable) bills::fail_note(where(c), "(null)", "must not be null");
            return std::string(t);
        };
        const auto time = [&](Col c) {
            const std::string_view t = text(c);
            if (t.empty()) bills::fail_note(where(c), "(null)", "must not be null");
            const auto seconds = parse_focus_time(t);
            if (!seconds) fail(where(c), t, "must be an ISO 8601 UTC time such as 2024-01-01T00:00:00Z");
            return *seconds;
        };
        const auto number = [&](Col c) -> std::optional<double> {
            const std::string_view t = text(c);
            if (t.empty()) return std::nullopt;
            double value = 0;
            const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
            if (!(ec == std::errc() && ptr == t.data() + t.size() && std::isfinite(value)))
                fail(where(c), t, "must be a finite number or empty");
            return value;
        };
        ContractCommitment k;
        k.row = row;
        k.id = kept(id, false);
        if (!ids_.insert(k.id).second) fail(where(id), k.id, "given twice: one row per contract commitment");
        k.contract_id = kept(contract_id, false);
        k.category = kept(category, false);
        if (k.category != "Spend" && k.category != "Usage") fail(where(category), k.category, "must be Spend or Usage");
        k.type = kept(type, false);
        k.description = kept(description, true);
        k.unit = kept(unit, true);
        k.currency = kept(billing_currency, true);
        k.period_start = time(period_start);
        k.period_end = time(period_end);
        if (k.period_end <= k.period_start)
            fail(where(period_end), text(period_end),
                 fmt::format("must be after ContractCommitmentPeriodStart ({})", text(period_start)));
        k.contract_period_start = time(contract_period_start);
        k.contract_period_end = time(contract_period_end);
        if (k.contract_period_end <= k.contract_period_start)
            fail(where(contract_period_end), text(contract_period_end),
                 fmt::format("must be after ContractPeriodStart ({})", text(contract_period_start)));
        k.cost = number(cost);
        k.quantity = number(quantity);
        // The spec: cost not null when quantity is null (and the other way round).
        if (!k.cost && !k.quantity)
            bills::fail_note(where(cost), "(null)", "must not be null when ContractCommitmentQuantity is null");
        if (k.quantity && k.unit.empty())
            bills::fail_note(where(unit), "(null)", "must not be null when ContractCommitmentQuantity is not");
        return k;
    }

private:
    std::string file_;
    std::size_t width_ = 0;
    std::vector<int> index_;
    std::set<std::string> ids_;
};

}  // namespace

const std::vector<std::string>& contract_commitment_columns() { return names; }

std::vector<ContractCommitment> read_contract_commitments(const std::string& path) {
    std::vector<ContractCommitment> out;
    bills::CsvRecords records(path, std::size_t(1) << 20);
    std::optional<ContractReader> reader;
    const auto on_record = [&](std::size_t number, const std::vector<std::string_view>& fields) {
        if (!reader) {
            reader.emplace(path, std::vector<std::string>(fields.begin(), fields.end()));
            return;
        }
        out.push_back(reader->parse(number, fields));
    };
    read_file_chunks(path, [&](std::string_view bytes) { records.feed(bytes.data(), bytes.size(), false, on_record); });
    records.feed(nullptr, 0, true, on_record);
    if (!reader) bills::fail_note(fmt::format("{}:1", path), "(empty file)", "must start with a header row");
    return out;
}

std::vector<ContractCommitment> contract_commitments_from_rows(const std::string& file,
                                                               const std::vector<std::string>& header,
                                                               const std::vector<std::vector<std::string>>& rows) {
    ContractReader reader(file, header);
    std::vector<ContractCommitment> out;
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        fields.assign(rows[i].begin(), rows[i].end());
        out.push_back(reader.parse(i + 2, fields));
    }
    return out;
}

}  // namespace gputco
