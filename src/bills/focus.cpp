// The FOCUS columns gputco reads, the spec's value rules, and the streamed CSV reader.
#include "gputco/bills/focus.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "csv_records.hpp"
#include "fail_note.hpp"

namespace gputco {
namespace {

// The columns read, by position in this list (FocusReader::index_). `required` marks the columns the
// spec makes mandatory in 1.0–1.3 (feature level "Mandatory"); the provider column is per version.
enum Col {
    billed_cost, effective_cost, list_cost, contracted_cost, billing_currency, charge_category, charge_class,
    charge_period_start, charge_period_end, pricing_category, consumed_quantity, consumed_unit,
    provider_name, service_provider_name, service_category, sku_id, sku_price_id, region_id, resource_id,
    commitment_discount_id, commitment_discount_type, commitment_discount_status, charge_description,
    x_usage_type, x_sku_meter_name, commitment_discount_category, known_count
};
constexpr std::array<std::string_view, known_count> names{
    "BilledCost", "EffectiveCost", "ListCost", "ContractedCost", "BillingCurrency", "ChargeCategory", "ChargeClass",
    "ChargePeriodStart", "ChargePeriodEnd", "PricingCategory", "ConsumedQuantity", "ConsumedUnit",
    "ProviderName", "ServiceProviderName", "ServiceCategory", "SkuId", "SkuPriceId", "RegionId", "ResourceId",
    "CommitmentDiscountId", "CommitmentDiscountType", "CommitmentDiscountStatus", "ChargeDescription",
    "x_UsageType", "x_SkuMeterName", "CommitmentDiscountCategory"};
constexpr std::array<Col, 10> mandatory{billed_cost, effective_cost, list_cost, contracted_cost, billing_currency,
                                         charge_category, charge_class, charge_period_start, charge_period_end,
                                         service_category};

template <class E, class Where>
E parse_value(std::string_view text, const Where& field, bool nullable) {
    if (text.empty() && nullable) return E{};
    for (const auto& [value, name] : EnumText<E>::names) {
        if (name == text && name != "(null)") return value;
    }
    std::string rule = "must be one of ";
    bool first = true;
    for (const auto& entry : EnumText<E>::names) {
        if (entry.second == "(null)") continue;
        rule += first ? "" : ", ";
        rule += entry.second;
        first = false;
    }
    if (nullable) rule += " or empty";
    fail(field(), text, rule);
}

}  // namespace

std::optional<std::int64_t> parse_focus_time(std::string_view s) {
    // YYYY-MM-DD[T ]HH:MM[:SS[.f+]][Z|+00:00]
    auto digits = [&](std::size_t at, std::size_t n, int& out) {
        if (at + n > s.size()) return false;
        out = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (s[i] < '0' || s[i] > '9') return false;
            out = out * 10 + (s[i] - '0');
        }
        return true;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (!digits(0, 4, y) || s.size() < 16 || s[4] != '-' || !digits(5, 2, mo) || s[7] != '-' || !digits(8, 2, d) ||
        (s[10] != 'T' && s[10] != ' ') || !digits(11, 2, h) || s[13] != ':' || !digits(14, 2, mi))
        return std::nullopt;
    std::size_t pos = 16;
    if (pos < s.size() && s[pos] == ':') {
        if (!digits(pos + 1, 2, sec)) return std::nullopt;
        pos += 3;
        if (pos < s.size() && s[pos] == '.') {
            ++pos;
            const std::size_t start = pos;
            while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') ++pos;
            if (pos == start) return std::nullopt;
        }
    }
    const std::string_view zone = s.substr(pos);
    if (!(zone.empty() || zone == "Z" || zone == "+00:00")) return std::nullopt;
    static constexpr int month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (mo < 1 || mo > 12 || d < 1 || d > month_days[mo - 1] + (mo == 2 && leap) || h > 23 || mi > 59 || sec > 59)
        return std::nullopt;
    // Days from civil (H. Hinnant's algorithm), proleptic Gregorian.
    const int yy = y - (mo <= 2);
    const int era = yy / 400;
    const int yoe = yy - era * 400;
    const int doy = (153 * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = std::int64_t(era) * 146097 + doe - 719468;
    return days * 86400 + h * 3600 + mi * 60 + sec;
}

std::vector<std::string> FocusReader::required_columns(FocusVersion version) {
    std::vector<std::string> out;
    for (Col c : mandatory) out.emplace_back(names[c]);
    out.emplace_back(names[version == FocusVersion::v1_3 ? service_provider_name : provider_name]);
    return out;
}

std::vector<std::string> FocusReader::summed_columns() {
    return {std::string(names[billed_cost]), std::string(names[effective_cost]), std::string(names[list_cost]),
            std::string(names[contracted_cost]), std::string(names[consumed_quantity])};
}

std::vector<std::string> FocusReader::grouped_columns() {
    std::vector<std::string> out;
    const std::vector<std::string> summed = summed_columns();
    for (int c = 0; c < known_count; ++c) {
        const std::string name(names[std::size_t(c)]);
        if (c != resource_id && std::find(summed.begin(), summed.end(), name) == summed.end()) out.push_back(name);
    }
    return out;
}

FocusReader::FocusReader(std::string file, const std::vector<std::string>& header, std::optional<FocusVersion> version)
    : file_(std::move(file)), column_count_(header.size()), index_(known_count, -1) {
    for (std::size_t i = 0; i < header.size(); ++i) {
        std::string_view name = header[i];
        if (i == 0 && name.starts_with("\xEF\xBB\xBF")) name.remove_prefix(3);  // a UTF-8 byte order mark
        for (int c = 0; c < known_count; ++c) {
            if (names[std::size_t(c)] != name) continue;
            if (index_[std::size_t(c)] >= 0)
                bills::fail_note(fmt::format("{}:1 {}", file_, name), fmt::format("column {}", i + 1),
                                 fmt::format("named twice (first as column {})", index_[std::size_t(c)] + 1));
            index_[std::size_t(c)] = int(i);
        }
    }
    version_ = version.value_or(index_[service_provider_name] >= 0 ? FocusVersion::v1_3 : FocusVersion::v1_2);
    const std::string rule = fmt::format("required by FOCUS {}", to_text(version_));
    for (const std::string& column : required_columns(version_)) {
        for (int c = 0; c < known_count; ++c) {
            if (names[std::size_t(c)] == column && index_[std::size_t(c)] < 0)
                bills::fail_note(fmt::format("{}:1 {}", file_, column), "(missing)", rule);
        }
    }
}

FocusRow FocusReader::parse(std::size_t row, const std::vector<std::string_view>& fields) const {
    if (fields.size() != column_count_) {
        bills::fail_note(fmt::format("{}:{}", file_, row), fmt::format("{} fields", fields.size()),
             fmt::format("the header has {}", column_count_));
    }
    auto text = [&](Col c) -> std::string_view { return index_[c] < 0 ? std::string_view() : fields[std::size_t(index_[c])]; };
    auto where = [&](Col c) { return fmt::format("{}:{} {}", file_, row, names[c]); };
    // Text the bill keeps (names shown in tables, Python str): FOCUS files are UTF-8, and a field that
    // is not would reach a user as bytes no front door can show.
    auto kept = [&](Col c) -> std::string_view {
        const std::string_view t = text(c);
        if (!is_utf8(t)) fail(where(c), t, "must be UTF-8 text");
        return t;
    };
    auto money = [&](Col c) {
        const std::string_view t = text(c);
        double value = 0;
        const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
        if (t.empty()) bills::fail_note(where(c), "(null)", "must not be null");
        if (!(ec == std::errc() && ptr == t.data() + t.size() && std::isfinite(value)))
            fail(where(c), t, "must be a finite number");
        return value;
    };
    auto time = [&](Col c) {
        const std::string_view t = text(c);
        if (t.empty()) bills::fail_note(where(c), "(null)", "must not be null");
        const auto seconds = parse_focus_time(t);
        if (!seconds) fail(where(c), t, "must be an ISO 8601 UTC time such as 2024-01-01T00:00:00Z");
        return *seconds;
    };
    FocusRow r;
    r.row = row;
    r.billed_cost = money(billed_cost);
    r.effective_cost = money(effective_cost);
    r.list_cost = money(list_cost);
    r.contracted_cost = money(contracted_cost);
    r.billing_currency = kept(billing_currency);
    if (r.billing_currency.empty()) bills::fail_note(where(billing_currency), "(null)", "must not be null");
    r.charge_category = parse_value<ChargeCategory>(text(charge_category), [&] { return where(charge_category); }, false);
    const std::string_view klass = text(charge_class);
    if (!(klass.empty() || klass == "Correction")) fail(where(charge_class), klass, "must be Correction or empty");
    r.correction = !klass.empty();
    r.period_start = time(charge_period_start);
    r.period_end = time(charge_period_end);
    if (r.period_end <= r.period_start)
        fail(where(charge_period_end), text(charge_period_end),
             fmt::format("must be after ChargePeriodStart ({})", text(charge_period_start)));
    r.pricing_category = parse_value<PricingCategory>(text(pricing_category), [&] { return where(pricing_category); }, true);
    const std::string_view quantity = text(consumed_quantity);
    if (quantity.empty()) {
        r.consumed_quantity = std::numeric_limits<double>::quiet_NaN();
    } else {
        const auto [ptr, ec] = std::from_chars(quantity.data(), quantity.data() + quantity.size(), r.consumed_quantity);
        if (!(ec == std::errc() && ptr == quantity.data() + quantity.size() && std::isfinite(r.consumed_quantity)))
            fail(where(consumed_quantity), quantity, "must be a finite number or empty");
    }
    r.consumed_unit = kept(consumed_unit);
    r.provider = kept(index_[service_provider_name] >= 0 ? service_provider_name : provider_name);
    r.service_category = kept(service_category);
    r.sku_id = kept(sku_id);
    r.sku_price_id = kept(sku_price_id);
    r.region_id = kept(region_id);
    r.resource_id = kept(resource_id);
    r.commitment_discount_id = kept(commitment_discount_id);
    r.commitment_discount_type = kept(commitment_discount_type);
    r.charge_description = kept(charge_description);
    r.x_usage_type = kept(x_usage_type);
    r.x_sku_meter_name = kept(x_sku_meter_name);
    r.commitment_discount_category = kept(commitment_discount_category);
    const std::string_view status = text(commitment_discount_status);
    r.commitment_status = parse_value<CommitmentStatus>(status, [&] { return where(commitment_discount_status); }, true);
    // The spec: null when CommitmentDiscountId is null; not null when it is not and the row is Usage.
    if (r.commitment_discount_id.empty()) {
        if (!status.empty()) fail(where(commitment_discount_status), status, "must be empty when CommitmentDiscountId is empty");
    } else if (r.charge_category == ChargeCategory::usage) {
        if (status.empty())
            bills::fail_note(where(commitment_discount_status), "(null)",
                             "must not be empty on a Usage row with a CommitmentDiscountId");
    }
    return r;
}


struct FocusCsvStream::State {
    State(std::string f, std::function<void(const FocusRow&)> r, const FocusOptions& o)
        : file(std::move(f)), on_row(std::move(r)), options(o), records(file, o.max_row_bytes) {}
    std::string file;
    std::function<void(const FocusRow&)> on_row;
    FocusOptions options;
    bills::CsvRecords records;
    std::optional<FocusReader> reader;
    std::size_t rows = 0;

    void feed(const char* data, std::size_t n, bool last) {
        records.feed(data, n, last, [this](std::size_t number, const std::vector<std::string_view>& fields) {
            if (!reader) {
                reader.emplace(file, std::vector<std::string>(fields.begin(), fields.end()), options.version);
                return;
            }
            on_row(reader->parse(number, fields));
            ++rows;
        });
    }
};

FocusCsvStream::FocusCsvStream(std::string file, std::function<void(const FocusRow&)> on_row, const FocusOptions& options)
    : state_(std::make_unique<State>(std::move(file), std::move(on_row), options)) {}
FocusCsvStream::~FocusCsvStream() = default;
FocusCsvStream::FocusCsvStream(FocusCsvStream&&) noexcept = default;
FocusCsvStream& FocusCsvStream::operator=(FocusCsvStream&&) noexcept = default;

void FocusCsvStream::feed(std::string_view bytes) { state_->feed(bytes.data(), bytes.size(), false); }

std::size_t FocusCsvStream::finish() {
    state_->feed(nullptr, 0, true);
    if (!state_->reader)
        bills::fail_note(fmt::format("{}:1", state_->file), "(empty file)", "must start with a FOCUS header row");
    return state_->rows;
}

FocusVersion FocusCsvStream::version() const {
    return state_->reader ? state_->reader->version() : state_->options.version.value_or(FocusVersion::v1_2);
}

std::size_t read_focus_csv(const std::string& path, const std::function<void(const FocusRow&)>& on_row,
                           const FocusOptions& options, FocusVersion* version_read) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path.c_str(), "rb"), &std::fclose);
    require(in != nullptr, "path", path, "cannot be opened for reading");
    FocusCsvStream stream(options.file.empty() ? path : options.file, on_row, options);
    std::vector<char> chunk(std::size_t(1) << 20);
    for (;;) {
        const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), in.get());
        require(!std::ferror(in.get()), "path", path, "read error");
        stream.feed(std::string_view(chunk.data(), n));
        if (n < chunk.size()) break;
    }
    const std::size_t rows = stream.finish();
    if (version_read) *version_read = stream.version();
    return rows;
}

}  // namespace gputco
