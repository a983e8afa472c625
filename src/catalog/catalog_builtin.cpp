// The catalog's rules (validation, look-ups, conversion) and the built-in catalog, whose rows are
// data (data/catalog/builtin.json, compiled in at build time). docs/catalog.md lists the sources,
// their dates and every derivation.
#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>
#include <tuple>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco {

// ---------------------------------------------------------------------------------------------
// Payment
// ---------------------------------------------------------------------------------------------

ReservedPrice reserved_from_discount(double on_demand_hourly, double discount, int term_years,
                                     Payment payment, Source source) {
    require_non_negative("on_demand_hourly", on_demand_hourly);
    require_fraction("discount", discount);
    require(term_years >= 1, "term_years", term_years, "must be >= 1");
    const double effective = (1.0 - discount) * on_demand_hourly;
    const double term_hours = term_years * hours_per_year;
    ReservedPrice r;
    r.term_years = term_years;
    r.payment = payment;
    r.source = std::move(source);
    const double share = upfront_share(payment);
    r.upfront = share * effective * term_hours;
    r.hourly = (1.0 - share) * effective;
    return r;
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

namespace {

std::string join(std::string_view prefix, std::string_view name) {
    return fmt::format("{}.{}", prefix, name);
}

void require_text(std::string_view prefix, std::string_view name, const std::string& value) {
    // Valid text passes before the field's name is joined: validate runs on every imported row.
    if (!value.empty() && is_utf8(value)) return;
    require(!value.empty(), join(prefix, name), value, "must not be empty");
    require_utf8(join(prefix, name), value);
}

/// require_at_most, its field name and message made only when the value is outside [0, max]: an
/// imported file validates 10^4 to 10^5 offerings.
void at_most(std::string_view prefix, std::string_view name, double value, double max) {
    if (std::isfinite(value) && value >= 0 && value <= max) return;
    require_at_most(join(prefix, name), value, max);
}

void validate_source(std::string_view prefix, const Source& source) {
    require_text(prefix, "source.name", source.name);
    require_text(prefix, "source.as_of", source.as_of);
}

}  // namespace

void GpuSpec::validate(std::string_view field) const {
    require_text(field, "name", name);
    require_text(field, "vendor", vendor);
    require_positive(join(field, "memory_gb"), memory_gb);
    require_positive(join(field, "memory_bandwidth_gbps"), memory_bandwidth_gbps);
    require_positive(join(field, "fp16_tflops"), fp16_tflops);
    require_positive(join(field, "fp32_tflops"), fp32_tflops);
    require_positive(join(field, "tdp_watts"), tdp_watts);
    validate_source(field, source);
    require_utf8(join(field, "notes"), notes);
    require_utf8(join(field, "interconnect"), interconnect);
}

void require_gpus_per_instance(std::string_view field, long long gpus) {
    require(gpus >= 1 && gpus <= limits::max_gpus_per_instance, field, gpus,
            fmt::format("must be in [1, {}]", limits::max_gpus_per_instance));
}

std::string_view Offering::no_on_demand_reason() const {
    if (spot_only) return "is sold only as spot capacity";
    if (reservation_only) return "is sold only through capacity blocks or reservations";
    return {};
}

void Offering::require_on_demand(std::string_view what) const {
    require_terms(what);
    if (reservation_only)
        fail("offering.reservation_only", key(), fmt::format("{}: {} cannot be priced", no_on_demand_reason(), what));
}

void Offering::require_terms(std::string_view what) const {
    if (spot_only) fail("offering.spot_only", key(), fmt::format("{}: {} cannot be priced", no_on_demand_reason(), what));
}

void Offering::validate(std::string_view field) const {
    require_text(field, "provider", provider);
    require_text(field, "region", region);
    require_text(field, "instance_type", instance_type);
    require_text(field, "gpu", gpu);
    require_gpus_per_instance(join(field, "gpus_per_instance"), gpus_per_instance);
    require_text(field, "currency", currency);
    if (!(on_demand_hourly == 0 || (on_demand_hourly >= limits::min_on_demand_price && on_demand_hourly <= limits::max_money)))
        require_on_demand_price(join(field, "on_demand_hourly"), on_demand_hourly);  // the rule's own words
    if (spot_hourly) at_most(field, "spot_hourly", *spot_hourly, limits::max_money);
    if (spot_only) {
        // A spot-only row has one price: its 0 on-demand price must not read as a price at all.
        require(!reservation_only, join(field, "spot_only"), true, "cannot be set with reservation_only");
        require(spot_hourly.has_value(), join(field, "spot_only"), true, "needs a spot_hourly price");
        require(on_demand_hourly == 0, join(field, "on_demand_hourly"), on_demand_hourly,
                "must be 0 on a spot-only offering (it sells no on-demand hours)");
        require(reserved.empty() && savings_plans.empty() && month_terms.empty() && !capacity_block_hourly,
                join(field, "spot_only"), true,
                "cannot be set with reservations, Savings Plans, month terms or a capacity-block price");
    }
    if (capacity_block_hourly) {
        require_at_most(join(field, "capacity_block_hourly"), *capacity_block_hourly, limits::max_money);
        if (capacity_block_source != Source{}) {  // given: whole (an empty one stands for `source`)
            require_text(field, "capacity_block_source.name", capacity_block_source.name);
            require_text(field, "capacity_block_source.as_of", capacity_block_source.as_of);
        }
    }
    for (std::size_t i = 0; i < month_terms.size(); ++i) {
        const std::string at = fmt::format("{}.month_terms[{}]", field, i);
        const int m = month_terms[i].months;
        // Which terms a commitment may take (1, 3 or 6 months) is the engine's rule (Commitment::month_terms).
        require(m >= 1 && m <= 12, join(at, "months"), m, "must be in [1, 12]");
        require_at_most(join(at, "hourly"), month_terms[i].hourly, limits::max_money);
        validate_source(at, month_terms[i].source);
    }
    for (std::size_t i = 0; i < reserved.size(); ++i) {
        const ReservedPrice& r = reserved[i];
        const std::string at = fmt::format("{}.reserved[{}]", field, i);
        if (r.term_years < 1) fail(join(at, "term_years"), r.term_years, "must be >= 1");
        at_most(at, "upfront", r.upfront, limits::max_money);
        at_most(at, "hourly", r.hourly, limits::max_money);
        validate_source(at, r.source);
        for (std::size_t j = 0; j < i; ++j) {
            if (reserved[j].term_years == r.term_years && reserved[j].payment == r.payment &&
                reserved[j].convertible == r.convertible) {
                fail(join(at, "payment"), to_string(r.payment),
                     fmt::format("duplicate of reserved[{}] (same term_years, payment and class)", j));
            }
        }
    }
    for (std::size_t i = 0; i < savings_plans.size(); ++i) {
        const SavingsPlanRate& r = savings_plans[i];
        const std::string at = fmt::format("{}.savings_plans[{}]", field, i);
        require(r.term_years == 1 || r.term_years == 3, join(at, "term_years"), r.term_years, "must be 1 or 3");
        require_positive(join(at, "hourly"), r.hourly);
        require_at_most(join(at, "hourly"), r.hourly, limits::max_money);
        validate_source(at, r.source);
        for (std::size_t j = 0; j < i; ++j) {
            const SavingsPlanRate& o = savings_plans[j];
            if (o.type == r.type && o.term_years == r.term_years && o.payment == r.payment)
                fail(join(at, "payment"), to_string(r.payment),
                     fmt::format("duplicate of savings_plans[{}] (same type, term_years and payment)", j));
        }
    }
    require_positive(join(field, "billing_increment_seconds"), billing_increment_seconds);
    require_non_negative(join(field, "minimum_billed_seconds"), minimum_billed_seconds);
    validate_source(field, source);
    for (std::size_t i = 0; i < history.size(); ++i) {
        const PriceSnapshot& s = history[i];
        const std::string at = fmt::format("{}.history[{}]", field, i);
        if (!s.spot_only) require_on_demand_price(join(at, "on_demand_hourly"), s.on_demand_hourly);
        if (s.spot_hourly) require_non_negative(join(at, "spot_hourly"), *s.spot_hourly);
        validate_source(at, s.source);
        // The snapshot as it is priced (price_at): a spot-only one by the spot-only rules.
        Offering as_listed = price_at(s.effective_from);
        as_listed.validate(at);
        require(s.effective_from != effective_from, join(at, "effective_from"), s.effective_from.iso(),
                "same date as the listed prices");
        for (std::size_t j = 0; j < i; ++j) {
            require(history[j].effective_from != s.effective_from, join(at, "effective_from"), s.effective_from.iso(),
                    fmt::format("same date as history[{}]", j));
        }
    }
    require_utf8(join(field, "notes"), notes);
}

// ---------------------------------------------------------------------------------------------
// Offering
// ---------------------------------------------------------------------------------------------

std::optional<ReservedPrice> Offering::reserved_price(int term_years, Payment payment,
                                                     bool convertible) const {
    for (const ReservedPrice& r : reserved) {
        if (r.term_years == term_years && r.payment == payment && r.convertible == convertible) return r;
    }
    return std::nullopt;
}

std::optional<SavingsPlanRate> Offering::savings_plan_rate(SavingsPlanType type, int term_years, Payment payment) const {
    for (const SavingsPlanRate& r : savings_plans)
        if (r.type == type && r.term_years == term_years && r.payment == payment) return r;
    return std::nullopt;
}

Offering Offering::converted(std::string_view to_currency, double rate) const {
    require(!to_currency.empty(), "to_currency", to_currency, "must not be empty");
    require_positive("rate", rate);
    if (to_currency == currency) {
        require(rate == 1.0, "rate", rate,
                fmt::format("must be 1 when converting {} to {}", currency, to_currency));
        return *this;
    }
    Offering out = *this;
    out.currency = std::string(to_currency);
    out.on_demand_hourly *= rate;
    if (out.spot_hourly) *out.spot_hourly *= rate;
    if (out.capacity_block_hourly) *out.capacity_block_hourly *= rate;
    for (MonthTermPrice& t : out.month_terms) t.hourly *= rate;
    for (ReservedPrice& r : out.reserved) {
        r.upfront *= rate;
        r.hourly *= rate;
    }
    for (SavingsPlanRate& r : out.savings_plans) r.hourly *= rate;
    const std::string note =
        fmt::format("prices converted from {} at {} {} per {}", currency, rate, to_currency, currency);
    out.notes = out.notes.empty() ? note : out.notes + "; " + note;
    return out;
}

// ---------------------------------------------------------------------------------------------
// Catalog
// ---------------------------------------------------------------------------------------------

Catalog::Catalog(std::vector<GpuSpec> gpus, std::vector<Offering> offerings)
    : gpus_(std::move(gpus)), offerings_(std::move(offerings)) {
    // Duplicates found through a hash map: linear in the rows (a pairwise scan of 10^5 rows hung).
    std::unordered_map<std::string, std::size_t> first_gpu;
    for (std::size_t i = 0; i < gpus_.size(); ++i) {
        const std::string at = fmt::format("gpus[{}]", i);
        gpus_[i].validate(at);
        if (const auto [it, fresh] = first_gpu.emplace(gpus_[i].name, i); !fresh) {
            fail(join(at, "name"), gpus_[i].name, fmt::format("duplicate of gpus[{}]", it->second));
        }
    }
    std::unordered_map<std::string, std::size_t> first_offering;
    for (std::size_t i = 0; i < offerings_.size(); ++i) {
        const std::string at = fmt::format("offerings[{}]", i);
        offerings_[i].validate(at);
        if (const auto [it, fresh] = first_offering.emplace(offerings_[i].key(), i); !fresh) {
            fail(at, it->first, fmt::format("duplicate key of offerings[{}]", it->second));
        }
    }
}

Catalog Catalog::overridden_by(const Catalog& other) const {
    // Rows matched through hash maps of name/key to index: linear in the rows of both catalogs.
    std::vector<GpuSpec> gpus = gpus_;
    std::unordered_map<std::string, std::size_t> gpu_at;
    for (std::size_t i = 0; i < gpus.size(); ++i) gpu_at.emplace(gpus[i].name, i);
    for (const GpuSpec& g : other.gpus_) {
        if (const auto [it, fresh] = gpu_at.emplace(g.name, gpus.size()); fresh) {
            gpus.push_back(g);
        } else {
            gpus[it->second] = g;
        }
    }
    std::vector<Offering> offerings = offerings_;
    std::unordered_map<std::string, std::size_t> offering_at;
    for (std::size_t i = 0; i < offerings.size(); ++i) offering_at.emplace(offerings[i].key(), i);
    for (const Offering& o : other.offerings_) {
        if (const auto [it, fresh] = offering_at.emplace(o.key(), offerings.size()); fresh) {
            offerings.push_back(o);
        } else {
            offerings[it->second] = o;
        }
    }
    return Catalog(std::move(gpus), std::move(offerings));
}

namespace {

template <class Range, class Project>
std::string known_list(const Range& range, Project project) {
    std::set<std::string> names;
    for (const auto& item : range) names.insert(project(item));
    return fmt::format("{}", fmt::join(names, ", "));
}

}  // namespace

const GpuSpec& Catalog::gpu(std::string_view name) const {
    for (const GpuSpec& g : gpus_) {
        if (g.name == name) return g;
    }
    fail("gpu", name,
         fmt::format("unknown GPU (known: {})",
                     known_list(gpus_, [](const GpuSpec& g) { return g.name; })));
}

bool Catalog::knows_gpu(std::string_view name) const {
    const auto share = parse_gpu_share(name);
    const std::string_view card = share ? std::string_view(share->card) : name;
    return std::any_of(gpus_.begin(), gpus_.end(), [&](const GpuSpec& g) { return g.name == card; });
}

const Offering& Catalog::offering(std::string_view provider, std::string_view instance_type,
                                  std::string_view region) const {
    std::vector<const Offering*> of_provider;
    for (const Offering& o : offerings_) {
        if (o.provider == provider) of_provider.push_back(&o);
    }
    if (of_provider.empty()) {
        fail("provider", provider,
             fmt::format("unknown provider (known: {})", fmt::join(providers(), ", ")));
    }
    std::vector<const Offering*> of_type;
    for (const Offering* o : of_provider) {
        if (o->instance_type == instance_type) of_type.push_back(o);
    }
    if (of_type.empty()) {
        fail("instance_type", instance_type,
             fmt::format("unknown instance type for provider \"{}\" (known: {})", provider,
                         known_list(of_provider, [](const Offering* o) { return o->instance_type; })));
    }
    if (region.empty()) return *of_type.front();
    for (const Offering* o : of_type) {
        if (o->region == region) return *o;
    }
    fail("region", region,
         fmt::format("no \"{}\" offering of provider \"{}\" in this region (known: {})", instance_type,
                     provider, known_list(of_type, [](const Offering* o) { return o->region; })));
}

std::vector<Offering> Catalog::find(std::string_view provider, std::string_view gpu,
                                    std::string_view region) const {
    std::vector<Offering> out;
    for (const Offering& o : offerings_) {
        if (!provider.empty() && o.provider != provider) continue;
        if (!gpu.empty() && o.gpu != gpu) continue;
        if (!region.empty() && o.region != region) continue;
        out.push_back(o);
    }
    return out;
}

std::vector<std::string> Catalog::providers() const {
    std::set<std::string> names;
    for (const Offering& o : offerings_) names.insert(o.provider);
    return {names.begin(), names.end()};
}

// ---------------------------------------------------------------------------------------------
// The built-in catalog: data/catalog/builtin.json, compiled in (cmake/embed.cmake)
// ---------------------------------------------------------------------------------------------

namespace detail {
extern const char builtin_catalog_json[];
extern const std::size_t builtin_catalog_json_size;
}  // namespace detail

const Catalog& Catalog::builtin() {
    // Built once, on first use (thread-safe static initialisation), never modified.
    static const Catalog catalog =
        Catalog::from_json(std::string_view(detail::builtin_catalog_json, detail::builtin_catalog_json_size));
    return catalog;
}

}  // namespace gputco
