// From FOCUS rows to hourly GPU demand, unmatched SKUs and FinOps figures (one pass, bounded memory:
// the series' hours and the SKUs seen, never the rows).
#include "gputco/bills/bill.hpp"

#include "gputco/core/gzip_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gputco/catalog/gpu_names.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/core/time.hpp"
#include "fail_note.hpp"

namespace gputco {

namespace {
double ratio(double a, double b) { return b > 0 ? a / b : std::numeric_limits<double>::quiet_NaN(); }
}  // namespace

double CommitmentSummary::utilisation() const { return ratio(used_cost, used_cost + unused_cost); }

double GpuSeries::effective_per_gpu_hour() const { return ratio(effective_cost, gpu_hours); }
double GpuSeries::list_per_gpu_hour() const { return ratio(list_cost, gpu_hours); }

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

/// gputco's provider name for FOCUS ProviderName values ("AWS", "Microsoft", "Google Cloud").
std::string provider_key(std::string_view name) {
    const std::string l = lower(name);
    if (l.find("aws") != std::string::npos || l.find("amazon") != std::string::npos) return "aws";
    if (l.find("microsoft") != std::string::npos || l.find("azure") != std::string::npos) return "azure";
    if (l.find("google") != std::string::npos || l.find("gcp") != std::string::npos) return "gcp";
    return l;
}

/// Hours per unit of ConsumedQuantity for a time unit, or 0 when the unit is not a time.
double hours_per_unit(std::string_view unit) {
    std::string u = lower(unit);
    if (u.starts_with("1 ")) u.erase(0, 2);  // Azure writes "1 Hour"
    if (u == "hour" || u == "hours" || u == "hrs" || u == "hr" || u == "h") return 1.0;
    if (u == "second" || u == "seconds" || u == "s" || u == "sec") return 1.0 / 3600.0;
    return 0.0;
}

struct Match {
    std::string gpu, instance_type;
    int gpus_per_unit = 0;
};

}  // namespace

struct BillBuilder::State {
    const Catalog* catalog;
    BillOptions options;
    std::string currency;
    std::size_t currency_row = 0;
    std::size_t rows = 0, gpu_rows = 0;
    FinOpsFigures figures, gpu_figures;
    std::vector<GpuSeries> series;
    std::unordered_map<std::string, std::size_t> series_index;
    std::unordered_map<std::string, UnmatchedSku> unmatched;
    std::unordered_map<std::string, CommitmentSummary> commitments;
    /// Match by (provider, instance-type candidate): a map, so each distinct name is resolved once.
    std::unordered_map<std::string, std::optional<Match>> matches;
    /// What a row's identifying texts resolved to: a series index, or an unmatched SKU.
    struct RowKind {
        long series = -1;
        int gpus_per_unit = 0;
        std::string unmatched_key, tried;
    };
    static constexpr std::size_t max_row_kinds = 1'000'000;
    std::unordered_map<std::string, RowKind> row_kinds;
    std::string key_buffer;

    std::optional<Match> resolve(const std::string& provider, const std::string& name) {
        const std::string key = provider + '\x1f' + name;
        if (auto it = matches.find(key); it != matches.end()) return it->second;
        std::optional<Match> m;
        for (const Offering& o : catalog->offerings()) {
            if (o.provider == provider && o.instance_type == name) {
                m = Match{o.gpu, o.instance_type, o.gpus_per_instance};
                break;
            }
        }
        if (!m) {
            if (auto g = instance_gpus(provider, name)) m = Match{g->gpu, name, g->count};
        }
        matches.emplace(key, m);
        return m;
    }

    /// The GPU a usage row pays for, from (in order) the user's SKU map, AWS x_UsageType, Azure
    /// x_SkuMeterName, and a GPU named in ChargeDescription (GCP bills GPUs as their own SKUs, per GPU-hour).
    std::pair<std::optional<Match>, std::string> match(const FocusRow& row, const std::string& provider) {
        if (auto it = options.sku_instance_types.find(std::string(row.sku_id)); it != options.sku_instance_types.end())
            return {resolve(provider, it->second), it->second};
        std::string tried;
        if (!row.x_usage_type.empty()) {
            const auto colon = row.x_usage_type.rfind(':');
            tried = std::string(colon == std::string_view::npos ? row.x_usage_type : row.x_usage_type.substr(colon + 1));
            if (auto m = resolve(provider, tried)) return {m, tried};
        }
        if (!row.x_sku_meter_name.empty()) {
            std::string meter(row.x_sku_meter_name);
            for (std::string_view suffix : {" Spot", " Low Priority"})
                if (meter.ends_with(suffix)) meter.erase(meter.size() - suffix.size());
            std::string size = "Standard_" + meter;
            std::replace(size.begin(), size.end(), ' ', '_');
            tried = size;
            if (auto m = resolve(provider, size)) return {m, size};
        }
        if (!row.charge_description.empty()) {
            // "Nvidia Tesla A100 GPU running in Americas": the words before " GPU".
            const std::string_view d = row.charge_description;
            const auto at = d.find(" GPU");
            if (at != std::string_view::npos) {
                const std::string gpu = normalise_gpu_name(d.substr(0, at));
                const auto& gpus = catalog->gpus();
                if (std::any_of(gpus.begin(), gpus.end(), [&](const GpuSpec& g) { return g.name == gpu; }))
                    return {Match{gpu, "", 1}, std::string(d)};
            }
            if (tried.empty()) tried = std::string(d);
        }
        return {std::nullopt, tried};
    }

    std::string commitment_key;  ///< reused: no allocation per row
    /// The summary of commitment_key: rows of one commitment come in runs, so most find it without a
    /// hash (elements of an unordered_map keep their address).
    CommitmentSummary* commitment = nullptr;
    void add_commitment(const FocusRow& row, const std::string& file) {
        if (commitment == nullptr || row.commitment_discount_id != commitment_key) {
            commitment_key.assign(row.commitment_discount_id);
            commitment = &find_commitment(row, file);
        }
        update_commitment(*commitment, row);
    }
    CommitmentSummary& find_commitment(const FocusRow& row, const std::string& file) {
        auto it = commitments.find(commitment_key);
        if (it == commitments.end()) {
            if (commitments.size() >= options.max_commitments)
                bills::fail_note(fmt::format("{}:{} CommitmentDiscountId", file, row.row),
                                 fmt::format("{} commitments", commitments.size() + 1),
                                 fmt::format("more than the limit of {} (BillOptions::max_commitments)",
                                             options.max_commitments));
            CommitmentSummary c;
            c.id = std::string(row.commitment_discount_id);
            c.first_start = row.period_start;
            c.last_end = row.period_end;
            it = commitments.emplace(c.id, std::move(c)).first;
        }
        return it->second;
    }
    void update_commitment(CommitmentSummary& c, const FocusRow& row) {
        if (c.type.empty()) c.type = std::string(row.commitment_discount_type);
        if (c.category.empty()) c.category = std::string(row.commitment_discount_category);
        c.first_start = std::min(c.first_start, row.period_start);
        c.last_end = std::max(c.last_end, row.period_end);
        if (row.charge_category == ChargeCategory::purchase) c.purchase_billed += row.billed_cost;
        if (row.charge_category != ChargeCategory::usage) return;
        c.usage_billed += row.billed_cost;
        if (row.commitment_status == CommitmentStatus::used) {
            c.used_cost += row.effective_cost;
            c.covered_list_cost += row.list_cost;
        } else if (row.commitment_status == CommitmentStatus::unused) {
            c.unused_cost += row.effective_cost;
        }
    }

    GpuSeries& series_for(const std::string& provider, const Match& m, std::string_view region, const FocusRow& row,
                          const std::string& file) {
        std::string key = fmt::format("{}\x1f{}\x1f{}\x1f{}", provider, m.gpu, m.instance_type, region);
        if (auto it = series_index.find(key); it != series_index.end()) return series[it->second];
        if (series.size() >= options.max_series)
            bills::fail_note(fmt::format("{}:{}", file, row.row), fmt::format("{} series", series.size() + 1),
                             fmt::format("more GPU series than the limit of {} (BillOptions::max_series)", options.max_series));
        series_index.emplace(std::move(key), series.size());
        GpuSeries s;
        s.provider = provider;
        s.gpu = m.gpu;
        s.instance_type = m.instance_type;
        s.region = std::string(region);
        s.gpus_per_unit = m.gpus_per_unit;
        s.first_hour = row.period_start / 3600;
        series.push_back(std::move(s));
        return series.back();
    }

    /// GPU-hours q over [start, end), each hour getting q × (its overlap / the period's length).
    static void spread(GpuSeries& s, std::int64_t start, std::int64_t end, double gpu_hours, const std::string& file,
                       std::size_t row) {
        // The usual row: one whole hour already inside the series.
        if (end - start == 3600 && start % 3600 == 0 && !s.gpus.empty()) {
            const std::int64_t h = start / 3600 - s.first_hour;
            if (h >= 0 && h < std::int64_t(s.gpus.size())) {
                s.gpus[std::size_t(h)] += gpu_hours;
                s.gpu_hours += gpu_hours;
                return;
            }
        }
        const std::int64_t first = start / 3600 - (start % 3600 < 0);
        const std::int64_t last = (end + 3599) / 3600;  // exclusive
        const std::int64_t max_span = std::int64_t(limits::max_horizon_months) * std::int64_t(whole_hours_per_month);
        const std::int64_t lo = std::min(first, s.gpus.empty() ? first : s.first_hour);
        const std::int64_t hi = std::max(last, s.first_hour + std::int64_t(s.gpus.size()));
        if (hi - lo > max_span)
            bills::fail_note(fmt::format("{}:{} ChargePeriodStart", file, row), fmt::format("{} hours", hi - lo),
                             fmt::format("a GPU series spanning more than {} hours (100 years)", max_span));
        if (s.gpus.empty()) {
            s.first_hour = first;
        } else if (first < s.first_hour) {
            s.gpus.insert(s.gpus.begin(), std::size_t(s.first_hour - first), 0.0);
            s.first_hour = first;
        }
        if (std::size_t(last - s.first_hour) > s.gpus.size()) s.gpus.resize(std::size_t(last - s.first_hour), 0.0);
        const double length = double(end - start);
        for (std::int64_t h = first; h < last; ++h) {
            const std::int64_t overlap = std::min(end, (h + 1) * 3600) - std::max(start, h * 3600);
            s.gpus[std::size_t(h - s.first_hour)] += gpu_hours * (double(overlap) / length);
        }
        s.gpu_hours += gpu_hours;
    }
};

BillBuilder::BillBuilder(const Catalog& catalog, BillOptions options) : state_(std::make_unique<State>()) {
    state_->catalog = &catalog;
    state_->options = std::move(options);
}
BillBuilder::~BillBuilder() = default;
BillBuilder::BillBuilder(BillBuilder&&) noexcept = default;
BillBuilder& BillBuilder::operator=(BillBuilder&&) noexcept = default;

void BillBuilder::add(const FocusRow& row) {
    State& st = *state_;
    const std::string& file = st.options.focus.file;
    ++st.rows;
    // One currency per calculation: a second BillingCurrency is an error, not a silent sum.
    if (st.currency.empty()) {
        st.currency = std::string(row.billing_currency);
        st.currency_row = row.row;
    } else if (row.billing_currency != st.currency) {
        fail(fmt::format("{}:{} BillingCurrency", file, row.row), row.billing_currency,
             fmt::format("differs from {} (row {}): one currency per bill", st.currency, st.currency_row));
    }
    if (st.options.window_start && row.period_start < *st.options.window_start) return;
    if (st.options.window_end && row.period_start >= *st.options.window_end) return;
    st.figures.add(row);
    if (!row.commitment_discount_id.empty()) st.add_commitment(row, file);
    // Demand: Usage rows that ran something. Unused commitment rows are idle capacity (counted above
    // for their commitment only), and corrections re-state earlier invoices' money: neither is usage of
    // this period.
    if (row.charge_category != ChargeCategory::usage || row.correction) return;
    if (!(row.consumed_quantity > 0)) return;
    const double unit_hours = hours_per_unit(row.consumed_unit);
    // FOCUS ServiceCategory: GPU machines are Compute, managed training/inference "AI and Machine Learning".
    if (!row.service_category.empty() && row.service_category != "Compute" &&
        row.service_category != "AI and Machine Learning")
        return;
    const bool unused = row.commitment_status == CommitmentStatus::unused;
    // The row's series (or unmatched SKU) depends only on these texts: resolved once per distinct
    // combination, then found by one hash of a reused buffer.
    std::string& key = st.key_buffer;
    key.clear();
    for (std::string_view part : {row.provider, row.sku_id, row.x_usage_type, row.x_sku_meter_name, row.region_id,
                                  row.charge_description}) {
        key.append(part);
        key.push_back('\x1f');
    }
    auto kind = st.row_kinds.find(key);
    if (kind == st.row_kinds.end()) {
        if (st.row_kinds.size() >= State::max_row_kinds) st.row_kinds.clear();  // a cache: only speed is lost
        const std::string provider = provider_key(row.provider);
        auto [m, tried] = st.match(row, provider);
        State::RowKind k;
        k.tried = tried;
        k.unmatched_key = row.sku_id.empty() ? tried : std::string(row.sku_id);
        if (m) {
            k.series = long(&st.series_for(provider, *m, row.region_id, row, file) - st.series.data());
            k.gpus_per_unit = m->gpus_per_unit;
        }
        kind = st.row_kinds.emplace(key, std::move(k)).first;
    }
    const State::RowKind& k = kind->second;
    if (!row.commitment_discount_id.empty() && k.series >= 0 && unit_hours > 0.0) {
        // What a commitment holds on GPUs: its Used and Unused hours, its hourly charges (BilledCost)
        // and its upfront spread over them (EffectiveCost − BilledCost), for held commitments.
        CommitmentSummary& c = *st.commitment;  // add_commitment found it
        const GpuSeries& s = st.series[std::size_t(k.series)];
        c.provider = s.provider;
        c.gpu = s.gpu;
        c.instance_type = s.instance_type;
        c.region = s.region;
        c.committed_gpu_hours += row.consumed_quantity * unit_hours * k.gpus_per_unit;
        c.recurring_billed += row.billed_cost;
        c.amortised_upfront += row.effective_cost - row.billed_cost;
        if (row.commitment_status == CommitmentStatus::used) {
            c.used_gpu_hours += row.consumed_quantity * unit_hours * k.gpus_per_unit;
            c.used_gpu_effective += row.effective_cost;
        }
        c.gpu_first_start = c.gpu_last_end == 0 ? row.period_start : std::min(c.gpu_first_start, row.period_start);
        c.gpu_last_end = std::max(c.gpu_last_end, row.period_end);
    }
    if (unused) return;
    if (unit_hours == 0.0 && k.series < 0) return;  // neither a GPU nor compute time: not ours
    if (k.series < 0 || unit_hours == 0.0) {
        // A GPU in a unit that is not a time cannot become GPU-hours: reported, not dropped.
        const bool unit = k.series >= 0;
        UnmatchedSku& u = st.unmatched[unit ? k.unmatched_key + '\x1f' + std::string(row.consumed_unit) : k.unmatched_key];
        if (u.rows == 0) {
            u.sku_id = std::string(row.sku_id);
            u.name = unit ? fmt::format("{} in {} (not a unit of time)", k.tried, row.consumed_unit) : k.tried;
        }
        ++u.rows;
        u.billed_cost += row.billed_cost;
        u.effective_cost += row.effective_cost;
        return;
    }
    ++st.gpu_rows;
    st.gpu_figures.add(row);
    GpuSeries& s = st.series[std::size_t(k.series)];
    const double gpu_hours = row.consumed_quantity * unit_hours * k.gpus_per_unit;
    State::spread(s, row.period_start, row.period_end, gpu_hours, file, row.row);
    s.list_cost += row.list_cost;
    s.effective_cost += row.effective_cost;
    s.gpu_hours_by_pricing[std::size_t(row.pricing_category)] += gpu_hours;
    s.effective_by_pricing[std::size_t(row.pricing_category)] += row.effective_cost;
}

Bill BillBuilder::finish(std::string file, FocusVersion version) {
    State& st = *state_;
    Bill bill;
    bill.file = std::move(file);
    bill.version = version;
    bill.currency = st.currency;
    bill.rows_read = st.rows;
    bill.gpu_rows = st.gpu_rows;
    bill.figures = st.figures;
    bill.gpu_figures = st.gpu_figures;
    bill.series = std::move(st.series);
    // A series made for a row whose hours could not be used (its unit is not a time) holds none.
    std::erase_if(bill.series, [](const GpuSeries& s) { return s.gpus.empty(); });
    std::sort(bill.series.begin(), bill.series.end(), [](const GpuSeries& a, const GpuSeries& b) {
        return std::tie(a.provider, a.gpu, a.instance_type, a.region) < std::tie(b.provider, b.gpu, b.instance_type, b.region);
    });
    for (auto& [key, u] : st.unmatched) bill.unmatched.push_back(std::move(u));
    std::sort(bill.unmatched.begin(), bill.unmatched.end(), [](const UnmatchedSku& a, const UnmatchedSku& b) {
        return std::tie(b.effective_cost, a.sku_id, a.name) < std::tie(a.effective_cost, b.sku_id, b.name);
    });
    for (auto& [id, c] : st.commitments) bill.commitments.push_back(std::move(c));
    std::sort(bill.commitments.begin(), bill.commitments.end(),
              [](const CommitmentSummary& a, const CommitmentSummary& b) { return a.id < b.id; });
    state_ = std::make_unique<State>();
    return bill;
}

std::pair<std::int64_t, std::size_t> Bill::demand_hours(const std::string& gpu) const {
    std::int64_t lo = std::numeric_limits<std::int64_t>::max(), hi = std::numeric_limits<std::int64_t>::min();
    for (const GpuSeries& s : series) {
        if (!gpu.empty() && s.gpu != gpu) continue;
        lo = std::min(lo, s.first_hour);
        hi = std::max(hi, s.first_hour + std::int64_t(s.gpus.size()));
    }
    require(lo <= hi, "bill.gpu", gpu.empty() ? std::string("(any)") : gpu, "no GPU usage of it in the bill");
    const std::size_t span = std::size_t(hi - lo);
    const std::size_t whole = span / whole_hours_per_month * whole_hours_per_month;
    require(whole > 0, "bill.hours", span, "must be >= 730 (one whole month of usage) to make a demand history");
    return {hi - std::int64_t(whole), whole};
}

DemandProfile Bill::demand(const std::string& gpu) const {
    const auto [first, count] = demand_hours(gpu);
    Eigen::ArrayXd gpus = Eigen::ArrayXd::Zero(Eigen::Index(count));
    for (const GpuSeries& s : series) {
        if (!gpu.empty() && s.gpu != gpu) continue;
        for (std::size_t i = 0; i < s.gpus.size(); ++i) {
            const std::int64_t h = s.first_hour + std::int64_t(i) - first;
            if (h >= 0 && h < std::int64_t(count)) gpus[Eigen::Index(h)] += s.gpus[i];
        }
    }
    return DemandProfile::hourly(std::move(gpus));
}

namespace {
BillOptions named(BillOptions options, const std::string& file) {
    options.focus.file = file;
    return options;
}
}  // namespace

BillStream::BillStream(std::string file, const Catalog& catalog, BillOptions options)
    : file_(std::move(file)),
      builder_(catalog, named(options, file_)),
      csv_(file_, [this](const FocusRow& row) { builder_.add(row); }, named(options, file_).focus) {}

Bill BillStream::finish() {
    csv_.finish();
    return builder_.finish(file_, csv_.version());
}

Offering at_bill_rates(const Offering& offering, const Bill& bill, const GpuSeries& series) {
    require(series.gpu == offering.gpu, "series.gpu", series.gpu, fmt::format("must be the offering's GPU ({})", offering.gpu));
    require(bill.currency == offering.currency, "offering.currency", offering.currency,
            fmt::format("must be the bill's currency ({}): convert the offering first", bill.currency));
    Offering out = offering;
    std::vector<std::string> notes;
    auto rate = [&](PricingCategory c) -> std::optional<double> {
        const double hours = series.gpu_hours_by_pricing[std::size_t(c)];
        if (!(hours > 0)) return std::nullopt;
        return series.effective_by_pricing[std::size_t(c)] / hours * offering.gpus_per_instance;
    };
    if (auto r = rate(PricingCategory::standard)) {
        out.on_demand_hourly = *r;
        notes.push_back(fmt::format("on demand at the bill's effective rate ({:.4g} per instance-hour)", *r));
    } else {
        notes.push_back("on demand at the catalog price (no Standard hours in the bill)");
    }
    if (auto r = rate(PricingCategory::dynamic)) {
        out.spot_hourly = *r;
        notes.push_back(fmt::format("spot at the bill's effective rate ({:.4g} per instance-hour)", *r));
    }
    out.notes = fmt::format("{}{}{} ({})", offering.notes, offering.notes.empty() ? "" : "; ", fmt::join(notes, "; "), bill.file);
    out.validate();
    return out;
}

Bill read_bill(const std::string& path, const Catalog& catalog, const BillOptions& options) {
    if (is_gzip_file(path)) {  // .csv.gz exports: decompressed as they are read
        BillStream stream(options.focus.file.empty() ? path : options.focus.file, catalog, options);
        read_file_chunks(path, [&](std::string_view bytes) { stream.feed(bytes); });
        return stream.finish();
    }
    BillOptions opts = options;
    if (opts.focus.file.empty()) opts.focus.file = path;
    BillBuilder builder(catalog, opts);
    FocusVersion version = FocusVersion::v1_2;
    read_focus_csv(path, [&](const FocusRow& row) { builder.add(row); }, opts.focus, &version);
    return builder.finish(opts.focus.file, version);
}

Bill bill_from_rows(const std::string& file, const std::vector<std::string>& header,
                    const std::vector<std::vector<std::string>>& rows, const Catalog& catalog, const BillOptions& options) {
    BillOptions opts = options;
    opts.focus.file = file;
    FocusReader reader(file, header, opts.focus.version);
    BillBuilder builder(catalog, opts);
    std::vector<std::string_view> fields;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        fields.assign(rows[i].begin(), rows[i].end());
        builder.add(reader.parse(i + 2, fields));
    }
    return builder.finish(file, reader.version());
}

}  // namespace gputco
