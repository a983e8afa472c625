// Scenario files: YAML (and JSON, a subset of it) read through yaml-cpp, which keeps every node's line
// and column, so each error can say where in the file it is.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "../core/yaml_check.hpp"
#include "gputco/catalog/importers.hpp"
#include "gputco/core/date.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/limits.hpp"
#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/plan_engine.hpp"
#include "gputco/scenario/scenario.hpp"

namespace gputco {
namespace {

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = up;
        }
    }
    return row[b.size()];
}

/// The closest allowed name, if close enough to be a typo.
std::optional<std::string> closest_name(std::string_view given, const std::vector<std::string>& allowed) {
    std::optional<std::string> best;
    std::size_t best_distance = std::max<std::size_t>(2, given.size() / 3) + 1;
    for (const auto& name : allowed) {
        const std::size_t d = edit_distance(given, name);
        if (d < best_distance) best = name, best_distance = d;
    }
    return best;
}

/// The text of 0-based line `line` (empty past the end), for showing where a syntax error is.
std::string_view line_at(std::string_view text, int line) {
    std::size_t start = 0;
    for (int i = 0; i < line; ++i) {
        start = text.find('\n', start);
        if (start == std::string_view::npos) return {};
        ++start;
    }
    const std::size_t end = text.find('\n', start);
    return text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

bool parses_as_number(const std::string& text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

/// A node and where it is: file, line, column, field path.
class Field {
public:
    Field(YAML::Node node, std::string path, std::shared_ptr<const std::string> file)
        : node_(std::move(node)), path_(std::move(path)), file_(std::move(file)) {}

    const std::string& path() const { return path_; }
    const YAML::Node& node() const { return node_; }

    std::string location() const {
        const YAML::Mark mark = node_.Mark();
        return fmt::format("{}:{}:{}", printable_utf8(*file_), mark.line + 1, mark.column + 1);
    }
    std::string shown_value() const {
        if (node_.IsMap()) return "{...}";
        if (node_.IsSequence()) return "[...]";
        if (node_.IsNull()) return "null";
        // A scalar may hold any bytes ("\0" is a valid YAML escape): shown as printable UTF-8.
        const std::string s = printable_utf8(node_.Scalar(), 80);
        return parses_as_number(s) || s == "true" || s == "false" ? s : fmt::format("\"{}\"", s);
    }
    [[noreturn]] void fail(std::string_view rule) const {
        throw InvalidInput(fmt::format("{}: {} = {}: {}", location(), printable_utf8(path_), shown_value(), rule));
    }
    /// Fails with this node's path and value at another node's place (a key's, for key errors).
    [[noreturn]] void fail_at(const Field& where, std::string_view rule) const {
        throw InvalidInput(fmt::format("{}: {} = {}: {}", where.location(), printable_utf8(path_), shown_value(), rule));
    }
    /// Runs a library check; its InvalidInput is prefixed with this node's place in the file.
    template <class F>
    auto checked(F&& f) const {
        try {
            return f();
        } catch (const InvalidInput& e) {
            throw InvalidInput(fmt::format("{}: {}", location(), e.what()));
        }
    }

    double number() const {
        if (!node_.IsScalar() || !parses_as_number(node_.Scalar())) fail("must be a number");
        double value = 0;
        std::from_chars(node_.Scalar().data(), node_.Scalar().data() + node_.Scalar().size(), value);
        if (!std::isfinite(value)) fail("must be a finite number");
        return value;
    }
    double non_negative() const {
        const double v = number();
        if (v < 0) fail("must be >= 0");
        return v;
    }
    /// A duration in hours within the library's range (a Job's work, its checkpoint interval, a mean
    /// time between failures): refused here, at its place in the file, rather than by the engine later.
    double duration() const {
        const double v = number();
        if (!(v >= limits::min_hours && v <= limits::max_hours))
            fail(fmt::format("must be in [{:g}, {:g}] hours", limits::min_hours, limits::max_hours));
        return v;
    }
    /// A duration that may be 0 (a checkpoint write, a restart, a wait), at most the library's limit.
    double hours_or_zero() const {
        const double v = non_negative();
        if (v > limits::max_hours) fail(fmt::format("must be <= {:g} hours", limits::max_hours));
        return v;
    }
    double fraction() const {
        const double v = number();
        if (v < 0 || v > 1) fail("must be in [0, 1]");
        return v;
    }
    long long integer() const {
        long long value = 0;
        const std::string& s = node_.IsScalar() ? node_.Scalar() : std::string();
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
        if (!node_.IsScalar() || s.empty() || ec != std::errc() || end != s.data() + s.size()) fail("must be an integer");
        return value;
    }
    std::string text() const {
        if (!node_.IsScalar()) fail("must be a string");
        return node_.Scalar();
    }
    std::string choice(const std::vector<std::string>& allowed) const {
        std::string s = text();
        if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
            const auto near = closest_name(s, allowed);
            fail(fmt::format("must be one of {}{}", fmt::join(allowed, ", "),
                             near ? fmt::format("; did you mean \"{}\"?", *near) : ""));
        }
        return s;
    }
    /// One of E's names (its EnumText table), with the same message and hint as choice().
    template <TextEnum E>
    E choice() const {
        return parse<E>(choice(text_names<E>()), "value");  // checked by choice(): parse cannot fail
    }
    /// An ISO date, YYYY-MM or YYYY-MM-DD, with a real month and day.
    std::string date() const {
        // The library's one date parser (sscanf read " 202-01" and "-001-01" as dates).
        const std::string s = text();
        if ((s.size() != 7 && s.size() != 10) || !Date::is_date(s)) fail("must be a date YYYY-MM or YYYY-MM-DD");
        return s;
    }
    std::vector<Field> list() const {
        if (!node_.IsSequence()) fail("must be a list");
        std::vector<Field> items;
        for (std::size_t i = 0; i < node_.size(); ++i)
            items.emplace_back(node_[i], fmt::format("{}[{}]", path_, i), file_);
        return items;
    }
    template <std::size_t N>
    std::array<double, N> numbers() const {
        const auto items = list();
        if (items.size() != N) fail(fmt::format("must have {} numbers", N));
        std::array<double, N> out{};
        for (std::size_t i = 0; i < N; ++i) out[i] = items[i].non_negative();
        return out;
    }

    class Map;
    Map map(std::vector<std::string> allowed) const;

private:
    YAML::Node node_;
    std::string path_;
    std::shared_ptr<const std::string> file_;
};

/// A mapping whose keys were checked: no duplicates, none outside `allowed`.
class Field::Map {
public:
    Map(const Field& self, std::vector<std::string> allowed) : self_(self) {
        if (!self.node().IsMap()) self.fail("must be a mapping");
        for (auto it = self.node().begin(); it != self.node().end(); ++it) {
            const YAML::Node key_node = it->first;
            const YAML::Node value_node = it->second;
            const std::string key = key_node.IsScalar() ? key_node.Scalar() : "?";
            const Field key_field(key_node, child_path(key), self.file_);
            if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
                const auto near = closest_name(key, allowed);
                Field(value_node, child_path(key), self.file_)
                    .fail_at(key_field, near ? fmt::format("unknown key; did you mean \"{}\"?", *near)
                                             : fmt::format("unknown key (allowed: {})", fmt::join(allowed, ", ")));
            }
            for (const auto& [seen, mark] : seen_) {
                if (seen == key)
                    Field(value_node, child_path(key), self.file_)
                        .fail_at(key_field, fmt::format("duplicate key (first at line {})", mark.line + 1));
            }
            seen_.emplace_back(key, key_node.Mark());
            values_.emplace_back(key, value_node);
        }
    }
    bool has(std::string_view key) const {
        return std::any_of(values_.begin(), values_.end(), [&](const auto& kv) { return kv.first == key; });
    }
    std::optional<Field> find(std::string_view key) const {
        for (const auto& [k, v] : values_)
            if (k == key) return Field(v, child_path(k), self_.file_);
        return std::nullopt;
    }
    Field get(std::string_view key, std::string_view rule = "required") const {
        if (auto f = find(key)) return *f;
        throw InvalidInput(fmt::format("{}: {} = (missing): {}", self_.location(), printable_utf8(child_path(key)), rule));
    }
    const Field& self() const { return self_; }

private:
    std::string child_path(std::string_view key) const {
        return self_.path().empty() ? std::string(key) : fmt::format("{}.{}", self_.path(), key);
    }
    Field self_;
    std::vector<std::pair<std::string, YAML::Mark>> seen_;
    std::vector<std::pair<std::string, YAML::Node>> values_;
};

Field::Map Field::map(std::vector<std::string> allowed) const { return Map(*this, std::move(allowed)); }

Source read_source(const Field& f) {
    const auto m = f.map({"name", "as_of"});
    Source s;
    if (auto n = m.find("name")) s.name = n->text();
    if (auto d = m.find("as_of")) s.as_of = d->date();
    return s;
}

Payment read_payment(const Field& f) {
    return f.choice<Payment>();
}

int read_term(const Field& f) {
    const long long t = f.integer();
    if (t != 1 && t != 3) f.fail("must be 1 or 3");
    return int(t);
}

Offering read_offering(const Field& f) {
    const auto m = f.map({"provider", "region", "instance_type", "gpu", "gpus_per_instance", "currency",
                          "on_demand_hourly", "spot_hourly", "reserved", "billing_increment_seconds",
                          "minimum_billed_seconds", "source", "notes"});
    Offering o;
    o.provider = m.get("provider").text();
    o.region = m.get("region").text();
    o.instance_type = m.get("instance_type").text();
    o.gpu = m.get("gpu").text();
    const Field g = m.get("gpus_per_instance");
    const long long gpus = g.integer();
    g.checked([&] { require_gpus_per_instance(g.path(), gpus); return 0; });  // the catalog's rule
    o.gpus_per_instance = int(gpus);
    if (auto c = m.find("currency")) o.currency = c->text();
    o.on_demand_hourly = m.get("on_demand_hourly").non_negative();
    if (auto s = m.find("spot_hourly")) o.spot_hourly = s->non_negative();
    if (auto r = m.find("reserved")) {
        for (const Field& item : r->list()) {
            const auto rm = item.map({"term_years", "payment", "upfront", "hourly", "source"});
            ReservedPrice p;
            p.term_years = read_term(rm.get("term_years"));
            p.payment = read_payment(rm.get("payment"));
            if (auto u = rm.find("upfront")) p.upfront = u->non_negative();
            if (auto h = rm.find("hourly")) p.hourly = h->non_negative();
            if (auto s = rm.find("source")) p.source = read_source(*s);
            o.reserved.push_back(p);
        }
    }
    if (auto b = m.find("billing_increment_seconds")) o.billing_increment_seconds = b->non_negative();
    if (auto b = m.find("minimum_billed_seconds")) o.minimum_billed_seconds = b->non_negative();
    if (auto s = m.find("source")) o.source = read_source(*s);
    if (auto n = m.find("notes")) o.notes = n->text();
    f.checked([&] { o.validate(f.path()); return 0; });
    return o;
}

DemandSpec read_demand(const Field& f) {
    const auto m = f.map({"kind", "gpus", "start_gpus", "end_gpus", "annual_growth_rate", "steps",
                          "daily_pattern", "weekly_pattern", "scale"});
    DemandSpec d;
    d.kind = m.get("kind").choice({"constant", "linear_growth", "compound_growth", "steps"});
    const auto needs = [&](std::string_view key) { return m.get(key); };
    if (d.kind == "constant") d.gpus = needs("gpus").non_negative();
    if (d.kind == "linear_growth") {
        d.start_gpus = needs("start_gpus").non_negative();
        d.end_gpus = needs("end_gpus").non_negative();
    }
    if (d.kind == "compound_growth") {
        d.start_gpus = needs("start_gpus").non_negative();
        const Field g = needs("annual_growth_rate");
        d.annual_growth_rate = g.number();
        if (d.annual_growth_rate <= -1) g.fail("must be > -1");
    }
    if (d.kind == "steps") {
        for (const Field& item : needs("steps").list()) {
            const auto sm = item.map({"start_month", "gpus"});
            d.steps.push_back({int(sm.get("start_month").integer()), sm.get("gpus").non_negative()});
        }
    }
    for (const char* key : {"gpus", "start_gpus", "end_gpus", "annual_growth_rate", "steps"}) {
        const bool used = (d.kind == "constant" && std::string_view(key) == "gpus") ||
                          (d.kind == "linear_growth" && (std::string_view(key) == "start_gpus" || std::string_view(key) == "end_gpus")) ||
                          (d.kind == "compound_growth" && (std::string_view(key) == "start_gpus" || std::string_view(key) == "annual_growth_rate")) ||
                          (d.kind == "steps" && std::string_view(key) == "steps");
        if (!used && m.has(key)) m.get(key).fail(fmt::format("not used by kind \"{}\"", d.kind));
    }
    if (auto p = m.find("daily_pattern")) d.daily_pattern = p->numbers<24>();
    if (auto p = m.find("weekly_pattern")) d.weekly_pattern = p->numbers<7>();
    if (auto s = m.find("scale")) d.scale = s->non_negative();
    return d;
}

Reserved read_reserved(const Field& f) {
    const auto m = f.map({"term_years", "payment", "discount", "renewal"});
    Reserved r;
    r.term_years = read_term(m.get("term_years"));
    r.payment = read_payment(m.get("payment"));
    if (auto d = m.find("discount")) {
        r.discount = d->number();
        if (*r.discount < 0 || *r.discount >= 1) d->fail("must be in [0, 1)");
    }
    if (auto rn = m.find("renewal")) r.renewal = rn->choice<Renewal>();
    return r;
}

Owned read_owned(const Field& f) {
    const auto m = f.map({"capex_per_gpu", "life_years", "residual_fraction", "watts_per_gpu", "idle_power_fraction",
                          "pue", "electricity_per_kwh", "colocation_per_gpu_month", "maintenance_fraction_per_year",
                          "staff_per_month"});
    Owned o;
    o.capex_per_gpu = m.get("capex_per_gpu").non_negative();
    if (auto v = m.find("life_years")) o.life_years = int(v->integer());
    if (auto v = m.find("residual_fraction")) o.residual_fraction = v->number();
    if (auto v = m.find("watts_per_gpu")) o.watts_per_gpu = v->number();
    if (auto v = m.find("idle_power_fraction")) o.idle_power_fraction = v->number();
    if (auto v = m.find("pue")) o.pue = v->number();
    if (auto v = m.find("electricity_per_kwh")) o.electricity_per_kwh = v->number();
    if (auto v = m.find("colocation_per_gpu_month")) o.colocation_per_gpu_month = v->number();
    if (auto v = m.find("maintenance_fraction_per_year")) o.maintenance_fraction_per_year = v->number();
    if (auto v = m.find("staff_per_month")) o.staff_per_month = v->number();
    f.checked([&] { o.validate(); return 0; });
    return o;
}

/// A spot tranche: either its own overhead, or the name of a spot job whose simulation gives it.
SpotTranche read_spot(const Field& f, std::string& job) {
    const auto m = f.map({"price_per_gpu_hour", "overhead", "availability", "job"});
    SpotTranche s;
    if (auto v = m.find("price_per_gpu_hour")) s.price_per_gpu_hour = v->non_negative();
    if (auto v = m.find("overhead")) {
        s.overhead = v->number();
        if (s.overhead < 1) v->fail("must be >= 1");
    }
    if (auto v = m.find("availability")) s.availability = v->fraction();
    if (auto v = m.find("job")) {
        if (m.has("overhead")) v->fail("give either job or overhead, not both");
        job = v->text();
    }
    return s;
}

/// One of on_demand / reserved / owned / spot, as the only key of a mapping.
template <class Out>
Out read_kind(const Field::Map& m, std::string& job, bool spot_allowed) {
    std::vector<std::string> present;
    for (const char* k : {"on_demand", "reserved", "owned", "spot", "mix"})
        if (m.has(k)) present.emplace_back(k);
    if (present.size() != 1)
        m.self().fail(present.empty() ? "needs one of on_demand, reserved, owned, " + std::string(spot_allowed ? "spot" : "mix")
                                      : fmt::format("has {} kinds ({}); give exactly one", present.size(), fmt::join(present, ", ")));
    const std::string& kind = present.front();
    const Field v = m.get(kind);
    if (kind == "on_demand") {
        v.map({});
        return OnDemand{};
    }
    if (kind == "reserved") return read_reserved(v);
    if (kind == "owned") return read_owned(v);
    if constexpr (std::is_same_v<Out, decltype(Tranche::kind)>) {
        return read_spot(v, job);
    } else {
        v.fail("a spot share is a tranche of a mix");
    }
}

NamedStrategy read_strategy(const Field& f, const std::vector<SpotJobSpec>& jobs) {
    const auto m = f.map({"name", "on_demand", "reserved", "owned", "mix"});
    NamedStrategy s;
    s.name = m.get("name").text();
    if (!m.has("mix")) {
        std::string unused;
        s.strategy = std::visit([](auto&& k) -> Strategy { return k; }, read_kind<Strategy>(m, unused, false));
        return s;
    }
    std::string unused;
    if (m.has("on_demand") || m.has("reserved") || m.has("owned")) read_kind<Strategy>(m, unused, false);
    const auto mm = m.get("mix").map({"tranches", "fleet_gpus", "rounding"});
    Mix mix;
    double sum = 0;
    const Field tranches = mm.get("tranches");
    for (const Field& item : tranches.list()) {
        const auto tm = item.map({"fraction", "on_demand", "reserved", "owned", "spot"});
        Tranche t;
        t.fraction = tm.get("fraction").fraction();
        std::string job;
        t.kind = read_kind<decltype(Tranche::kind)>(tm, job, true);
        if (!job.empty() && std::none_of(jobs.begin(), jobs.end(), [&](const SpotJobSpec& j) { return j.name == job; })) {
            std::vector<std::string> names;
            for (const auto& j : jobs) names.push_back(j.name);
            const auto near = closest_name(job, names);
            tm.get("spot").map({"price_per_gpu_hour", "overhead", "availability", "job"}).get("job").fail(
                fmt::format("no spot job of that name{}", near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
        }
        s.spot_jobs.push_back(job);
        sum += t.fraction;
        mix.tranches.push_back(std::move(t));
    }
    if (mix.tranches.empty()) tranches.fail("must have at least one tranche");
    if (std::abs(sum - 1.0) > 1e-9) tranches.fail(fmt::format("fractions must sum to 1 (they sum to {})", sum));
    if (auto v = mm.find("fleet_gpus")) mix.fleet_gpus = v->non_negative();
    if (auto v = mm.find("rounding")) mix.rounding = v->choice<Rounding>();
    s.strategy = std::move(mix);
    return s;
}


ProviderRules read_rules(const Field& f, std::string& preset) {
    if (f.node().IsScalar()) {
        preset = f.choice({"aws", "gcp_preemptible", "alibaba"});
        return preset == "aws" ? aws_rules() : preset == "gcp_preemptible" ? gcp_preemptible_rules() : alibaba_rules();
    }
    const auto m = f.map({"notice_hours", "emergency_checkpoint", "protection_hours", "max_lifetime_hours"});
    ProviderRules rules;
    if (auto v = m.find("notice_hours")) rules.notice_hours = v->non_negative();
    if (auto v = m.find("emergency_checkpoint")) {
        const std::string b = v->choice({"true", "false"});
        rules.emergency_checkpoint = b == "true";
    }
    if (auto v = m.find("protection_hours")) rules.protection_hours = v->non_negative();
    if (auto v = m.find("max_lifetime_hours")) {
        rules.max_lifetime_hours = v->number();
        if (rules.max_lifetime_hours <= 0) v->fail("must be > 0");
    }
    return rules;
}

double positive(const Field& f) {
    const double v = f.number();
    if (v <= 0) f.fail("must be > 0");
    return v;
}

/// One of poisson / weibull / advisor_bucket / trace / price_driven, and optional rules.
InterruptionSpec read_interruptions(const Field& f, const std::string& base_dir) {
    const std::vector<std::string> kinds{"poisson", "weibull", "advisor_bucket", "trace", "price_driven"};
    std::vector<std::string> allowed = kinds;
    allowed.emplace_back("rules");
    const auto m = f.map(allowed);
    std::vector<std::string> present;
    for (const auto& k : kinds)
        if (m.has(k)) present.push_back(k);
    if (present.size() != 1)
        f.fail(present.empty() ? "needs one of poisson, weibull, advisor_bucket, trace, price_driven"
                               : fmt::format("has {} models ({}); give exactly one", present.size(), fmt::join(present, ", ")));
    InterruptionSpec spec;
    ProviderRules rules;
    if (auto r = m.find("rules")) rules = read_rules(*r, spec.rules_preset);
    const std::string& kind = present.front();
    const Field v = m.get(kind);
    if (kind == "poisson") {
        const auto pm = v.map({"mtbf_hours"});
        spec.model = Poisson{.mtbf_hours = positive(pm.get("mtbf_hours")), .rules = rules};
    } else if (kind == "weibull") {
        const auto wm = v.map({"shape", "scale_hours"});
        spec.model = Weibull{.shape = positive(wm.get("shape")), .scale_hours = positive(wm.get("scale_hours")), .rules = rules};
    } else if (kind == "advisor_bucket") {
        const long long bucket = v.integer();
        if (bucket < 0 || bucket > 4) v.fail("must be in [0, 4] (<5%, 5-10%, 10-15%, 15-20%, >20% a month)");
        spec.advisor_bucket = int(bucket);
        if (!m.has("rules")) spec.rules_preset = "aws", rules = aws_rules();  // advisor_bucket()'s default
        spec.model = advisor_bucket(int(bucket), rules);
    } else if (kind == "trace") {
        const auto tm = v.map({"file"});
        const Field file = tm.get("file");
        spec.trace_file = file.text();
        const std::string path = !spec.trace_file.empty() && spec.trace_file.front() == '/' ? spec.trace_file
                                                                                            : base_dir + "/" + spec.trace_file;
        Trace trace = file.checked([&] { return Trace::load(path); });
        trace.rules = rules;
        spec.model = std::move(trace);
    } else {
        const auto pm = v.map({"reversion_per_hour", "volatility_per_sqrt_hour", "price_cap_per_hour", "step_hours"});
        PriceDriven model;
        if (auto x = pm.find("reversion_per_hour")) model.reversion_per_hour = positive(*x);
        if (auto x = pm.find("volatility_per_sqrt_hour")) model.volatility_per_sqrt_hour = x->non_negative();
        if (auto x = pm.find("price_cap_per_hour")) model.price_cap_per_hour = positive(*x);
        if (auto x = pm.find("step_hours")) model.step_hours = positive(*x);
        model.rules = rules;
        spec.model = model;
    }
    f.checked([&] { validate(spec.model); return 0; });
    return spec;
}

SpotJobSpec read_spot_job(const Field& f, const std::string& base_dir) {
    const auto m = f.map({"name", "work_hours", "checkpoint_interval_hours", "checkpoint_write_hours", "restart_hours",
                          "capacity_wait_hours", "deadline_hours", "mtbf_hours", "interruptions", "price_per_gpu_hour",
                          "paths"});
    SpotJobSpec j;
    j.name = m.get("name").text();
    const Field w = m.get("work_hours");
    j.job.work_hours = w.duration();
    if (auto v = m.find("checkpoint_interval_hours")) {
        j.job.checkpoint_interval_hours = v->duration();
    }
    if (auto v = m.find("checkpoint_write_hours")) j.job.checkpoint_write_hours = v->hours_or_zero();
    if (!m.has("checkpoint_interval_hours")) {  // the optimal interval needs the write's cost
        constexpr std::string_view rule = "must be > 0 for the optimal checkpoint interval (or give checkpoint_interval_hours)";
        const Field write = m.get("checkpoint_write_hours", rule);
        if (j.job.checkpoint_write_hours == 0) write.fail(rule);
    }
    if (auto v = m.find("restart_hours")) j.job.restart_hours = v->hours_or_zero();
    if (auto v = m.find("capacity_wait_hours")) j.job.capacity_wait_hours = v->hours_or_zero();
    if (auto v = m.find("deadline_hours")) {
        j.job.deadline_hours = v->number();
        if (j.job.deadline_hours <= 0) v->fail("must be > 0");
    }
    if (auto i = m.find("interruptions")) {
        if (auto mtbf = m.find("mtbf_hours")) mtbf->fail("give either mtbf_hours or interruptions, not both");
        j.interruptions = read_interruptions(*i, base_dir);
        if (!j.interruptions->mean_lifetime_hours() && !m.has("checkpoint_interval_hours"))
            m.get("checkpoint_interval_hours", "required with price_driven interruptions (no mean lifetime for the optimal interval)");
    } else {
        const Field mtbf = m.get("mtbf_hours");
        j.mtbf_hours = mtbf.number();
        if (!(j.mtbf_hours >= limits::min_hours && j.mtbf_hours <= limits::max_mtbf_hours))  // as the checkpoint formulas take it
            mtbf.fail(fmt::format("must be in [{:g}, {:g}] hours", limits::min_hours, limits::max_mtbf_hours));
    }
    if (auto v = m.find("price_per_gpu_hour")) j.price_per_gpu_hour = v->non_negative();
    if (auto v = m.find("paths")) {
        const long long p = v->integer();
        if (p < 1 || p > 10'000'000) v->fail("must be in [1, 10000000]");
        j.paths = std::size_t(p);
    }
    return j;
}


/// A month of the horizon, [0, months).
int read_month(const Field& f, int months) {
    const long long m = f.integer();
    if (m < 0 || m >= months) f.fail(fmt::format("must be in [0, {}) (the horizon's months)", months));
    return int(m);
}

std::vector<double> read_factors(const Field& f, std::size_t count) {
    const auto items = f.list();
    if (items.size() != count) f.fail(fmt::format("must have {} numbers", count));
    std::vector<double> out;
    for (const Field& item : items) out.push_back(item.non_negative());
    return out;
}

FuturesSpec read_futures(const Field& f, int months) {
    const auto m = f.map({"count", "base_gpus", "monthly_log_growth", "monthly_log_volatility", "events",
                          "seasonality", "hour_of_week", "history_monthly_gpus"});
    FuturesSpec spec;
    if (auto v = m.find("count")) {
        const long long n = v->integer();
        if (n < 1 || n > 1'000'000) v->fail("must be in [1, 1000000]");
        spec.count = std::size_t(n);
    }
    DemandModel& model = spec.model;
    model.base_gpus = m.get("base_gpus").non_negative();
    if (auto v = m.find("monthly_log_growth")) model.monthly_log_growth = v->number();
    if (auto v = m.find("monthly_log_volatility")) model.monthly_log_volatility = v->non_negative();
    if (auto e = m.find("events")) {
        for (const Field& item : e->list()) {
            const auto em = item.map({"gpus", "probability", "first_month", "last_month"});
            DemandEvent event;
            event.gpus = em.get("gpus").non_negative();
            if (auto v = em.find("probability")) event.probability = v->fraction();
            event.first_month = read_month(em.get("first_month"), months);
            const Field last = em.get("last_month");
            event.last_month = read_month(last, months);
            if (event.last_month < event.first_month) last.fail("must be >= first_month");
            model.events.push_back(event);
        }
    }
    if (auto v = m.find("seasonality")) model.seasonality = read_factors(*v, 12);
    if (auto v = m.find("hour_of_week")) model.hour_of_week = read_factors(*v, 168);
    if (auto v = m.find("history_monthly_gpus")) {
        const auto items = v->list();
        if (items.size() < 2) v->fail("must have at least 2 months");
        for (const Field& item : items) {
            const double g = item.number();
            if (g <= 0) item.fail("must be > 0");
            model.history_monthly_gpus.push_back(g);
        }
    }
    f.checked([&] { model.validate(Horizon::months(months)); return 0; });
    return spec;
}

Plan read_plan(const Field& f, int months) {
    const auto m = f.map({"name", "commitments", "owned", "spot"});
    Plan plan;
    plan.name = m.get("name").text();
    if (auto c = m.find("commitments")) {
        for (const Field& item : c->list()) {
            const auto cm = item.map({"count", "unit", "term_years", "payment", "start_month", "renewal", "discount"});
            Commitment commitment;
            commitment.count = cm.get("count").non_negative();
            if (auto v = cm.find("unit")) commitment.unit = v->choice({"gpus", "instances"}) == "gpus" ? CountUnit::gpus : CountUnit::instances;
            commitment.term_years = read_term(cm.get("term_years"));
            commitment.payment = read_payment(cm.get("payment"));
            if (auto v = cm.find("start_month")) commitment.start_month = read_month(*v, months);
            if (auto v = cm.find("renewal")) commitment.renewal = v->choice({"renew", "lapse"}) == "renew" ? Renewal::renew : Renewal::lapse;
            if (auto v = cm.find("discount")) {
                commitment.discount = v->number();
                if (*commitment.discount < 0 || *commitment.discount >= 1) v->fail("must be in [0, 1)");
            }
            plan.commitments.push_back(commitment);
        }
    }
    if (auto o = m.find("owned")) {
        for (const Field& item : o->list()) {
            const auto om = item.map({"gpus", "month", "terms"});
            OwnedPurchase purchase;
            purchase.gpus = om.get("gpus").non_negative();
            if (auto v = om.find("month")) purchase.month = read_month(*v, months);
            purchase.terms = read_owned(om.get("terms"));
            plan.owned.push_back(purchase);
        }
    }
    if (auto sp = m.find("spot")) {
        const auto sm = sp->map({"gpus", "price_per_gpu_hour", "overhead", "availability", "periods"});
        SpotShare share;
        share.gpus = sm.get("gpus").non_negative();
        if (auto v = sm.find("price_per_gpu_hour")) share.price_per_gpu_hour = v->non_negative();
        const auto overhead = [](const Field& v) {
            const double x = v.number();
            if (x < 1) v.fail("must be >= 1");
            return x;
        };
        if (auto v = sm.find("overhead")) share.overhead = overhead(*v);
        if (auto v = sm.find("availability")) share.availability = v->fraction();
        if (auto ps = sm.find("periods")) {
            for (const Field& item : ps->list()) {
                const auto pm = item.map({"first_month", "overhead", "availability"});
                SpotPeriod period;
                const Field first = pm.get("first_month");
                period.first_month = read_month(first, months);
                if (!share.periods.empty() && period.first_month <= share.periods.back().first_month)
                    first.fail("must be after the previous period's first_month");
                if (auto v = pm.find("overhead")) period.overhead = overhead(*v);
                if (auto v = pm.find("availability")) period.availability = v->fraction();
                share.periods.push_back(period);
            }
        }
        plan.spot = share;
    }
    return plan;
}


DeadlineJobSpec read_deadline_job(const Field& f) {
    const auto m = f.map({"name", "compute_hours", "deadline_hours", "changeover_hours", "tick_hours", "availability",
                          "policies", "spot_price_per_hour", "on_demand_price_per_hour", "paths", "omniscient"});
    DeadlineJobSpec d;
    d.name = m.get("name").text();
    d.job.compute_hours = positive(m.get("compute_hours"));
    d.job.deadline_hours = positive(m.get("deadline_hours"));
    if (auto v = m.find("changeover_hours")) d.job.changeover_hours = v->non_negative();
    if (auto v = m.find("tick_hours")) d.job.tick_hours = positive(*v);
    f.checked([&] { d.job.validate(); return 0; });
    const Field a = m.get("availability");
    const auto am = a.map({"mean_up_hours", "mean_down_hours"});
    d.availability.mean_up_hours = positive(am.get("mean_up_hours"));
    d.availability.mean_down_hours = positive(am.get("mean_down_hours"));
    a.checked([&] { d.availability.validate(d.job.tick_hours); return 0; });
    if (auto p = m.find("policies")) {
        std::vector<std::string> names;
        for (const DeadlinePolicy policy : all_deadline_policies()) names.emplace_back(to_string(policy));
        d.policies.clear();
        for (const Field& item : p->list()) d.policies.push_back(parse_deadline_policy(item.choice(names)));
        if (d.policies.empty()) p->fail("must name at least one policy");
    }
    if (auto v = m.find("spot_price_per_hour")) d.spot_price_per_hour = positive(*v);
    if (auto v = m.find("on_demand_price_per_hour")) d.on_demand_price_per_hour = positive(*v);
    if (auto v = m.find("paths")) {
        const long long n = v->integer();
        if (n < 1 || n > 1'000'000) v->fail("must be in [1, 1000000]");
        d.paths = std::size_t(n);
    }
    if (auto v = m.find("omniscient")) d.omniscient = v->choice({"true", "false"}) == "true";
    return d;
}

/// A service on spot across zones (`services:`): its zones' traces are read here, relative to the
/// scenario's folder, and checked together with the config by the serving engine.
ServiceSpec read_service(const Field& f, const std::string& base_dir) {
    const auto m = f.map({"name", "replicas", "zones", "launch_hours", "notice_hours", "on_demand_price_per_hour",
                          "availability_target", "policies", "max_extra", "max_on_demand_base"});
    ServiceSpec svc;
    svc.name = m.get("name").text();
    const Field replicas = m.get("replicas");
    const long long n = replicas.integer();
    if (n < 1 || n > static_cast<long long>(ServingLimits::max_replicas))
        replicas.fail(fmt::format("must be in [1, {}]", ServingLimits::max_replicas));
    svc.replicas = std::size_t(n);
    const Field zones = m.get("zones");
    for (const Field& item : zones.list()) {
        const auto zm = item.map({"name", "trace", "spot_price_per_hour"});
        ServiceZoneSpec z;
        z.name = zm.get("name").text();
        const Field trace = zm.get("trace");
        z.trace_file = trace.text();
        const std::string path = !z.trace_file.empty() && z.trace_file.front() == '/' ? z.trace_file
                                                                                      : base_dir + "/" + z.trace_file;
        z.availability = trace.checked([&] {
            return SpotAvailability::from_json(read_scenario_file(path),
                                               {.values = TraceValues::available_nodes, .nodes_needed = 1});
        });
        z.spot_price_per_hour = positive(zm.get("spot_price_per_hour"));
        svc.zones.push_back(std::move(z));
    }
    if (svc.zones.empty()) zones.fail("must list at least one zone");
    if (auto v = m.find("launch_hours")) svc.launch_hours = v->non_negative();
    if (auto v = m.find("notice_hours")) svc.notice_hours = v->non_negative();
    if (auto v = m.find("on_demand_price_per_hour")) svc.on_demand_price_per_hour = positive(*v);
    if (auto v = m.find("availability_target")) {
        svc.search.availability_target = v->number();
        if (!(svc.search.availability_target > 0 && svc.search.availability_target <= 1)) v->fail("must be in (0, 1]");
    }
    if (auto p = m.find("policies")) {
        svc.search.policies.clear();
        for (const Field& item : p->list()) svc.search.policies.push_back(item.choice<ServingPolicy>());
        if (svc.search.policies.empty()) p->fail("must name at least one policy");
    }
    const auto count = [&](std::string_view key, std::size_t max) -> std::optional<std::size_t> {
        const auto v = m.find(key);
        if (!v) return std::nullopt;
        const long long x = v->integer();
        if (x < 0 || x > static_cast<long long>(max)) v->fail(fmt::format("must be in [0, {}]", max));
        return std::size_t(x);
    };
    if (auto x = count("max_extra", ServingLimits::max_replicas)) svc.search.max_extra = *x;
    if (auto x = count("max_on_demand_base", svc.replicas)) svc.search.max_on_demand_base = *x;
    // The zones and the config as the engine checks them (one price stands in for the offering's).
    f.checked([&] {
        ServingConfig config = svc.config(svc.on_demand_price_per_hour.value_or(1.0));
        config.extra_spot = svc.search.max_extra;
        config.on_demand_base = svc.search.max_on_demand_base;
        config.record_ready = false;
        return serving_lower_bound(svc.regions(), config).cost;
    });
    return svc;
}

/// An offering named as the top-level `offering` is: a row of `catalog`, with a did-you-mean if not.
OfferingRef read_offering_ref(const Field& f, const Catalog& catalog) {
    const auto m = f.map({"provider", "instance_type", "region", "zone"});
    OfferingRef ref{m.get("provider").text(), m.get("instance_type").text(),
                    m.find("region") ? m.get("region").text() : std::string(),
                    m.find("zone") ? m.get("zone").text() : std::string()};
    if (!ref.in(catalog)) {
        std::vector<std::string> keys;
        for (const Offering& o : catalog.offerings()) keys.push_back(o.key());
        const std::string key = ref.key();
        const auto near = closest_name(key, keys);
        throw InvalidInput(fmt::format("{}: {} = \"{}\": not in the catalog{}", f.location(), printable_utf8(f.path()),
                                       printable_utf8(key), near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
    }
    return ref;
}

const std::vector<std::string> workload_keys{"name", "model", "work_per_epoch", "epochs", "precision", "memory_gb",
                                             "utilisation", "offerings", "gpus", "buying", "deadline_hours",
                                             "allow_estimates", "spot"};

/// A workload, checked against the built-in throughput table and the scenario's catalog; its
/// ranking is tried once without spot (no Monte Carlo at load) so that a workload no offering can
/// run fails here, at its place, rather than when the scenario runs.
WorkloadSpec read_workload(const Field& f, const Catalog& catalog, const Offering& scenario_offering,
                           const std::string& currency) {
    const auto m = f.map(workload_keys);
    WorkloadSpec w;
    Workload& work = w.workload;
    work.name = m.get("name").text();
    work.model = m.get("model").choice(ThroughputTable::builtin().models());
    work.work_per_epoch = positive(m.get("work_per_epoch"));
    if (auto v = m.find("epochs")) work.epochs = positive(*v);
    if (auto v = m.find("precision")) work.precision = v->choice<Precision>();
    if (auto v = m.find("memory_gb")) work.memory_gb = v->non_negative();
    if (auto v = m.find("utilisation")) {
        work.utilisation = v->number();
        if (work.utilisation <= 0 || work.utilisation > 1) v->fail("must be in (0, 1]");
    }
    if (auto o = m.find("offerings")) {
        const auto items = o->list();
        if (items.empty()) o->fail("must name at least one offering (or leave it out: the scenario's offering)");
        for (const Field& item : items) w.offerings.push_back(read_offering_ref(item, catalog));
    }
    if (auto g = m.find("gpus")) {
        std::vector<std::string> names;
        for (const GpuSpec& spec : catalog.gpus()) names.push_back(spec.name);
        for (const Field& item : g->list()) {
            const std::string gpu = item.text();
            if (std::find(names.begin(), names.end(), gpu) == names.end()) {
                const auto near = closest_name(gpu, names);
                item.fail(fmt::format("not a GPU of the catalog{}",
                                      near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
            }
            if (std::none_of(catalog.offerings().begin(), catalog.offerings().end(), [&](const Offering& o) { return o.gpu == gpu; }))
                item.fail("no offering of the catalog has this GPU");
            w.gpus.push_back(gpu);
        }
    }
    if (auto b = m.find("buying")) {
        w.buying.clear();
        for (const Field& item : b->list()) {
            const BuyingWay way = item.choice<BuyingWay>();
            if (std::find(w.buying.begin(), w.buying.end(), way) != w.buying.end()) item.fail("listed twice");
            w.buying.push_back(way);
        }
        if (w.buying.empty()) b->fail("must name at least one way of buying");
    }
    if (auto v = m.find("deadline_hours")) w.deadline_hours = positive(*v);
    if (auto v = m.find("allow_estimates")) w.allow_estimates = v->choice({"true", "false"}) == "true";
    if (auto sp = m.find("spot")) {
        const auto sm = sp->map({"mtbf_hours", "checkpoint_write_hours", "restart_hours", "capacity_wait_hours", "paths"});
        if (auto v = sm.find("mtbf_hours")) w.mtbf_hours = positive(*v);
        if (auto v = sm.find("checkpoint_write_hours")) w.checkpoint_write_hours = positive(*v);
        if (auto v = sm.find("restart_hours")) w.restart_hours = v->non_negative();
        if (auto v = sm.find("capacity_wait_hours")) w.capacity_wait_hours = v->non_negative();
        if (auto v = sm.find("paths")) {
            const long long p = v->integer();
            if (p < 1 || p > 10'000'000) v->fail("must be in [1, 10000000]");
            w.paths = std::size_t(p);
        }
    }
    // The library's own checks (limits, memory that fits no GPU), then a trial ranking without the
    // Monte Carlo: on demand says which offerings can run the workload at all (a measured or
    // estimated GPU, memory, a rate to the currency), their rows which of the ways asked for exist.
    RankOptions options = w.rank_options(currency);
    const bool on_demand = options.on_demand, spot = options.spot, reserved = options.reserved;
    const bool offering_ways = on_demand || spot || reserved;
    options.on_demand = true;
    options.spot = false;
    options.owned = true;  // owned rows never fail, so the ranking returns its skipped offerings
    // "workload.memory_gb = ..." → "<file:line:column of memory_gb>: workloads[2].memory_gb = ..."
    const auto renamed = [&](const InvalidInput& e) {
        const std::string_view what = e.what();
        if (!what.starts_with("workload.")) return fmt::format("{}: {}", f.location(), what);
        const std::string_view rest = what.substr(9);
        const auto key = m.find(rest.substr(0, rest.find(' ')));
        return fmt::format("{}: {}.{}", key ? key->location() : f.location(), f.path(), rest);
    };
    try {
        const Catalog chosen = w.offerings_in(catalog, scenario_offering);
        const WorkRanking trial = rank_offerings(work, chosen, ThroughputTable::builtin(), options);
        std::vector<std::string> reasons;
        for (const SkippedOffering& skipped : trial.skipped)
            if (!skipped.offering.starts_with("owned/")) reasons.push_back(skipped.offering + ": " + skipped.reason);
        bool costed = false;
        for (const WorkCostRow& row : trial.rows) {
            if (row.provider == "owned" || row.buying != BuyingWay::on_demand) continue;
            const Offering* o = OfferingRef{row.provider, row.instance_type, row.region, {}}.in(chosen);
            const bool spot_priced = o && o->spot_hourly, reservable = o && !o->reserved.empty();
            if (on_demand || (spot && spot_priced) || (reserved && reservable)) costed = true;
            if (spot && spot_priced) {  // a spot run the engine would refuse (too long, too many launches)
                Job job;
                job.work_hours = row.run_hours;
                job.checkpoint_write_hours = w.checkpoint_write_hours;
                job.checkpoint_interval_hours = optimal_checkpoint_interval(w.checkpoint_write_hours, w.mtbf_hours);
                job.restart_hours = w.restart_hours;
                job.capacity_wait_hours = w.capacity_wait_hours;
                try {
                    estimate_spot_work(job, Poisson{.mtbf_hours = w.mtbf_hours});
                } catch (const InvalidInput& e) {
                    f.fail(fmt::format("its run of {:g} h on {} cannot be simulated on spot: {}", row.run_hours,
                                       o->key(), e.what()));
                }
            }
            else reasons.push_back(fmt::format("{}/{}/{}: {}", row.provider, row.region, row.instance_type,
                                               spot && reserved ? "no spot price and no reservation listed"
                                               : spot           ? "no spot price listed"
                                                                : "no reservation listed"));
        }
        if (offering_ways && !costed) f.fail(fmt::format("no offering can run it ({})", fmt::join(reasons, "; ")));
    } catch (const InvalidInput& e) {
        if (std::string_view(e.what()).starts_with(f.location())) throw;
        throw InvalidInput(renamed(e));
    }
    return w;
}

Scenario read_scenario(const Field& root, std::string base_dir) {
    const auto m = root.map({"version", "name", "description", "horizon_months", "currency", "annual_discount_rate",
                             "units", "seed", "catalog", "offering", "demand", "discounts", "spot_jobs", "deadline_jobs",
                             "services", "strategies", "futures", "plans", "workloads", "outputs"});
    Scenario s;
    s.base_dir = std::move(base_dir);
    // Every error of the file, not only the first: each top-level key is read on its own, its error
    // kept, and all are reported together in file order (a key that depends on a broken one may add
    // its own error; the checks across keys below run only on a file without errors).
    std::vector<std::pair<int, std::string>> errors;  // (line of the key, message)
    std::vector<std::string_view> failed;              // the keys whose reading failed
    const auto broken = [&](std::string_view key) { return std::find(failed.begin(), failed.end(), key) != failed.end(); };
    const auto part = [&](std::string_view key, auto&& read) {
        try {
            read();
        } catch (const InvalidInput& e) {
            const auto field = m.find(key);
            errors.emplace_back(field ? field->node().Mark().line : root.node().Mark().line, e.what());
            failed.push_back(key);
        }
    };
    // A key read from a broken one (a strategy naming a spot job that did not load, plans over a
    // horizon that did not) would only repeat its error: it is read once that one is fixed.
    const auto part_after = [&](std::initializer_list<std::string_view> needs, std::string_view key, auto&& read) {
        for (const std::string_view need : needs)
            if (broken(need)) return;
        part(key, read);
    };
    // Another version may mean another schema: its error alone, before any other key is read.
    const Field version = m.get("version");
    if (version.integer() != scenario_schema_version)
        version.fail(fmt::format("this gputco reads scenario version {}", scenario_schema_version));
    part("name", [&] {
        s.name = m.get("name").text();
    });
    part("description", [&] {
        if (auto v = m.find("description")) s.description = v->text();
    });
    part("horizon_months", [&] {
        const Field h = m.get("horizon_months");
        const long long months = h.integer();
        if (months < 1 || months > 600) h.fail("must be in [1, 600]");
        s.horizon_months = int(months);
    });
    part("currency", [&] {
        if (auto v = m.find("currency")) s.currency = v->text();
    });
    part("annual_discount_rate", [&] {
        if (auto v = m.find("annual_discount_rate")) {
            s.annual_discount_rate = v->number();
            if (!(s.annual_discount_rate >= limits::min_annual_discount_rate &&
                  s.annual_discount_rate <= limits::max_annual_discount_rate))
                v->fail(fmt::format("must be in [{:g}, {:g}] (a fraction a year: 0.05 for 5%)",
                                    limits::min_annual_discount_rate, limits::max_annual_discount_rate));
        }
    });
    part("units", [&] {
        if (auto v = m.find("units")) s.units = v->choice<Units>();
    });
    part("seed", [&] {
        if (auto v = m.find("seed")) {
            const long long seed = v->integer();
            if (seed < 0) v->fail("must be >= 0");
            s.seed = std::uint64_t(seed);
        }
    });
    // The catalog is built here step by step, so that a file that does not load is named at its place.
    Catalog catalog = Catalog::builtin();
    part("catalog", [&] {
        if (auto c = m.find("catalog")) {
            const auto cm = c->map({"file", "imports", "offerings"});
            if (auto f = cm.find("file")) {
                s.catalog_file = f->text();
                const std::string path = !s.catalog_file->empty() && s.catalog_file->front() == '/' ? *s.catalog_file : s.base_dir + "/" + *s.catalog_file;
                catalog = f->checked([&] { return catalog.overridden_by(Catalog::from_json_file(path)); });
            }
            if (auto i = cm.find("imports")) {
                for (const Field& item : i->list()) {
                    const auto im = item.map({"file", "format", "published", "provider", "currency", "operating_system"});
                    PriceFileImport p;
                    p.file = im.get("file").text();
                    p.format = im.get("format").choice(price_file_formats());
                    if (auto v = im.find("published")) p.published = v->date();
                    if (auto v = im.find("provider")) p.provider = v->text();
                    if (auto v = im.find("currency")) p.currency = v->text();
                    if (auto v = im.find("operating_system")) p.operating_system = v->text();
                    catalog = item.checked([&] { return catalog.overridden_by(import_price_file(p, s.base_dir)); });
                    s.imports.push_back(std::move(p));
                }
            }
            if (s.catalog_file || !s.imports.empty())  // kept, so that running the scenario reads no file again
                s.file_rows = std::make_shared<const Scenario::FileRows>(
                    Scenario::FileRows{s.catalog_file, s.imports, s.base_dir, catalog});
            if (auto o = cm.find("offerings")) {
                for (const Field& item : o->list()) s.offerings.push_back(read_offering(item));
                catalog = o->checked([&] { return catalog.overridden_by(Catalog({}, s.offerings)); });
            }
        }
    });
    std::optional<Field> offering_field;
    part("offering", [&] {
        const auto om = m.get("offering").map({"provider", "instance_type", "region", "zone"});
        offering_field = om.self();
        s.offering = {om.get("provider").text(), om.get("instance_type").text(),
                      om.find("region") ? om.get("region").text() : std::string(),
                      om.find("zone") ? om.get("zone").text() : std::string()};
    });
    part("demand", [&] {
        s.demand = read_demand(m.get("demand"));
    });
    part("discounts", [&] {
        if (auto d = m.find("discounts")) {
            const auto dm = d->map({"plan_discount", "free_gpu_hours", "voucher_price_factor", "region_price_factor"});
            if (auto v = dm.find("plan_discount")) s.discounts.plan_discount = v->number();
            if (auto v = dm.find("free_gpu_hours")) s.discounts.free_gpu_hours = v->number();
            if (auto v = dm.find("voucher_price_factor")) s.discounts.voucher_price_factor = v->number();
            if (auto v = dm.find("region_price_factor")) s.discounts.region_price_factor = v->number();
            d->checked([&] { s.discounts.validate(); return 0; });
        }
    });
    part("spot_jobs", [&] {
        if (auto j = m.find("spot_jobs")) {
            for (const Field& item : j->list()) {
                s.spot_jobs.push_back(read_spot_job(item, s.base_dir));
                for (std::size_t i = 0; i + 1 < s.spot_jobs.size(); ++i)
                    if (s.spot_jobs[i].name == s.spot_jobs.back().name) item.fail("duplicate spot job name");
            }
        }
    });
    std::vector<Field> deadline_fields;
    part("deadline_jobs", [&] {
        if (auto j = m.find("deadline_jobs")) {
            deadline_fields = j->list();
            for (const Field& item : deadline_fields) {
                s.deadline_jobs.push_back(read_deadline_job(item));
                for (std::size_t i = 0; i + 1 < s.deadline_jobs.size(); ++i)
                    if (s.deadline_jobs[i].name == s.deadline_jobs.back().name) item.fail("duplicate deadline job name");
            }
        }
    });
    part("services", [&] {
        if (auto v = m.find("services")) {
            for (const Field& item : v->list()) {
                s.services.push_back(read_service(item, s.base_dir));
                for (std::size_t i = 0; i + 1 < s.services.size(); ++i)
                    if (s.services[i].name == s.services.back().name) item.fail("duplicate service name");
            }
        }
    });
    part_after({"horizon_months"}, "futures", [&] {
        if (auto f = m.find("futures")) s.futures = read_futures(*f, s.horizon_months);
    });
    std::vector<Field> plan_fields;
    part_after({"horizon_months"}, "plans", [&] {
        if (auto p = m.find("plans")) {
            plan_fields = p->list();
            for (const Field& item : plan_fields) {
                s.plans.push_back(read_plan(item, s.horizon_months));
                for (std::size_t i = 0; i + 1 < s.plans.size(); ++i)
                    if (s.plans[i].name == s.plans.back().name) item.fail("duplicate plan name");
            }
        }
    });
    // With plans, jobs or workloads, strategies may be left out; otherwise they are the scenario's question.
    const bool workloads = m.has("workloads") || m.has("services");
    part_after({"spot_jobs", "deadline_jobs", "plans", "catalog"}, "strategies", [&] {
        if ((s.plans.empty() && s.spot_jobs.empty() && s.deadline_jobs.empty() && !workloads) || m.has("strategies")) {
            const Field strategies = m.get("strategies");
            for (const Field& item : strategies.list()) s.strategies.push_back(read_strategy(item, s.spot_jobs));
            if (s.strategies.empty() && s.spot_jobs.empty() && s.plans.empty() && s.deadline_jobs.empty() && !workloads)
                strategies.fail("must have at least one strategy (or a spot job, a deadline job, a plan or a workload)");
        }
    });
    part_after({"plans", "futures", "horizon_months"}, "futures", [&] {
        if (s.futures && s.plans.empty()) m.get("futures").fail("needs plans to evaluate over the futures");
    });
    part("outputs", [&] {
        if (auto o = m.find("outputs"))
            for (const Field& item : o->list()) s.outputs.push_back(item.choice(scenario_output_names()));
    });
    if (!errors.empty()) {
        std::stable_sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::string all;
        for (const auto& [line, message] : errors) all += (all.empty() ? "" : "\n") + message;
        throw InvalidInput(all);
    }
    // The scenario's figures must be computable: the demand builds, the offering exists.
    m.get("demand").checked([&] { s.demand.build(Horizon::months(s.horizon_months)); return 0; });
    const Offering* found = s.offering.in(catalog);
    if (!found) {
        std::vector<std::string> keys;
        for (const Offering& o : catalog.offerings()) keys.push_back(o.key());
        const std::string key = s.offering.key();
        const auto near = closest_name(key, keys);
        throw InvalidInput(fmt::format("{}: offering = \"{}\": not in the catalog{}", offering_field->location(),
                                       printable_utf8(key), near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
    }
    const Offering& offering = *found;
    if (s.currency && offering.currency != *s.currency)
        m.get("currency").fail(fmt::format("must be the offering's currency ({})", offering.currency));
    // A deadline job without its own prices needs the offering's spot price.
    for (std::size_t i = 0; i < s.deadline_jobs.size(); ++i)
        if (!s.deadline_jobs[i].spot_price_per_hour && !offering.spot_hourly)
            deadline_fields[i].map({"name", "compute_hours", "deadline_hours", "changeover_hours", "tick_hours",
                                    "availability", "policies", "spot_price_per_hour", "on_demand_price_per_hour",
                                    "paths", "omniscient"})
                .get("spot_price_per_hour", fmt::format("required: {} lists no spot price", offering.key()));
    if (auto wl = m.find("workloads")) {
        const auto items = wl->list();
        if (items.empty()) wl->fail("must have at least one workload (or leave it out)");
        for (const Field& item : items) {
            s.workloads.push_back(read_workload(item, catalog, offering, s.currency.value_or(offering.currency)));
            for (std::size_t i = 0; i + 1 < s.workloads.size(); ++i)
                if (s.workloads[i].workload.name == s.workloads.back().workload.name) item.fail("duplicate workload name");
        }
    }
    // Each plan must price on the offering (a reservation it lists, a spot price): one future tells.
    if (!s.plans.empty()) {
        const DemandFutures one = DemandFutures::from_profile(s.demand.build(Horizon::months(s.horizon_months)));
        PlanOptions options;
        options.discounts = s.discounts;
        options.threads = 1;
        for (std::size_t i = 0; i < s.plans.size(); ++i)
            plan_fields[i].checked([&] { return evaluate_plan(s.plans[i], one, offering, {}, options); });
    }
    return s;
}

}  // namespace

const std::vector<std::string>& scenario_output_names() {
    static const std::vector<std::string> names{"total", "npv", "savings", "savings_fraction", "baseline_total",
                                                "cost_per_used_gpu_hour", "break_even_utilisation", "p95"};
    return names;
}

Scenario parse_scenario(std::string_view text, std::string_view file) {
    auto name = std::make_shared<const std::string>(file);
    // Aliases past the node limit, before reading expands them (duplicate keys the reader reports itself).
    detail::check_yaml(text, file, false);
    YAML::Node root;
    try {
        root = YAML::Load(std::string(text));
    } catch (const YAML::Exception& e) {
        // "<file>:<line>:<column>: yaml = \"<that line>\": syntax error: <yaml-cpp's reason>"
        throw InvalidInput(fmt::format("{}:{}:{}: yaml = \"{}\": syntax error: {}", printable_utf8(file), e.mark.line + 1,
                                       e.mark.column + 1, printable_utf8(line_at(text, e.mark.line), 60),
                                       printable_utf8(e.msg)));
    }
    const auto slash = file.find_last_of('/');
    return read_scenario(Field(root, "", name), slash == std::string_view::npos ? "." : std::string(file.substr(0, slash)));
}

std::string read_scenario_file(const std::string& path) {
    // Through the importers' reader: a folder or a missing file is an error naming it, and a device or
    // pipe without end is read only up to the limit.
    return read_text_file(path, max_scenario_bytes);
}

Scenario load_scenario(const std::string& path) {
    return parse_scenario(read_scenario_file(path), path);
}

}  // namespace gputco
