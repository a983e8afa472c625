// The catalog's JSON format (docs/catalog.md): users' own prices and overrides of the built-in ones.
// Reading is strict: unknown fields, wrong types and bad values are errors naming a JSON path.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "gputco/catalog/catalog.hpp"

namespace gputco {

namespace {

using nlohmann::json;

constexpr int format_version = 1;

constexpr std::size_t preview_bytes = 40;

/// Appends compact JSON of `value` to `out`, stopping once `out` is past the preview length, so a
/// huge value costs no more than a small one (nesting is bounded by the parser's depth limit).
void preview_into(const json& value, std::string& out) {
    if (out.size() > preview_bytes) return;
    if (value.is_object() || value.is_array()) {
        const bool object = value.is_object();
        out += object ? '{' : '[';
        bool first = true;
        for (const auto& item : value.items()) {
            if (out.size() > preview_bytes) return;
            if (!first) out += ',';
            first = false;
            if (object) out += json(item.key()).dump() + ":";
            preview_into(item.value(), out);
        }
        out += object ? '}' : ']';
    } else if (value.is_string() && value.get_ref<const std::string&>().size() > preview_bytes) {
        out += json(printable_utf8(value.get_ref<const std::string&>(), preview_bytes)).dump();
    } else {
        out += value.dump();
    }
}

/// A short view of a value for a message: compact JSON cut to 40 bytes on a character boundary.
std::string preview(const json& value) {
    std::string out;
    preview_into(value, out);
    return printable_utf8(out, preview_bytes);
}

/// Throws "<path> = <json value>: <rule>".
[[noreturn]] void fail_json(const std::string& path, const json& value, std::string_view rule) {
    throw InvalidInput(fmt::format("{} = {}: {}", printable_utf8(path), preview(value), rule));
}

/// The array under `key`, at most limits::max_catalog_rows long.
const json* rows(const json* list, std::string_view key) {
    if (!list) return nullptr;
    if (!list->is_array()) fail_json(std::string(key), *list, "must be an array");
    if (list->size() > limits::max_catalog_rows) {
        fail_json(std::string(key), *list, fmt::format("must have at most {} rows", limits::max_catalog_rows));
    }
    return list;
}

/// Parses with the limits a loader of user files needs: nesting depth (the DOM and its destructor
/// recurse per level), duplicate keys (nlohmann keeps the last silently), cancellation, and every
/// parser exception (syntax, number overflow such as 1e400) as InvalidInput. One pass: the checks
/// run on the SAX events that build the DOM (nlohmann's own DOM builder), before each is forwarded,
/// so a too-deep text stops before the DOM nests. (nlohmann's callback parser would do the same, but
/// it is quadratic in the length of an array of objects: each object's end scans its whole parent
/// array, in 3.11.2.) The built-in catalog is parsed once per process: lexing it twice, a checking
/// pass and then the DOM, was a third of its load time.
class CheckedDom {
public:
    using Dom = nlohmann::detail::json_sax_dom_parser<json>;
    CheckedDom(json& root, const StopCheck& should_stop)
        : dom_(root, false), poll_(should_stop, 16'384, "catalog loading cancelled") {}

    bool null() { return value() && dom_.null(); }
    bool boolean(bool v) { return value() && dom_.boolean(v); }
    bool number_integer(json::number_integer_t v) { return value() && dom_.number_integer(v); }
    bool number_unsigned(json::number_unsigned_t v) { return value() && dom_.number_unsigned(v); }
    bool number_float(json::number_float_t v, const json::string_t& text) { return value() && dom_.number_float(v, text); }
    bool string(json::string_t& v) { return value() && dom_.string(v); }
    bool binary(json::binary_t& v) { return value() && dom_.binary(v); }
    bool start_object(std::size_t n) {
        open();
        // The keys of each open object, innermost last; the lists are kept for reuse (no allocation
        // per object once the deepest level has been seen).
        if (keys_.size() < std::size_t(depth_)) keys_.emplace_back();
        keys_[depth_ - 1].used = 0;
        return dom_.start_object(n);
    }
    bool key(json::string_t& key) {
        poll_.step();
        Keys& seen = keys_[depth_ - 1];
        // Objects of a catalog have at most about twenty keys: a linear look beats a set's nodes.
        const auto end = seen.keys.begin() + std::ptrdiff_t(seen.used);
        if (std::find(seen.keys.begin(), end, key) != end) {
            throw InvalidInput(
                fmt::format("catalog json key = \"{}\": appears twice in one object", printable_utf8(key, 80)));
        }
        if (seen.used == seen.keys.size()) seen.keys.emplace_back();
        seen.keys[seen.used++].assign(key);  // reuses the string's buffer
        return dom_.key(key);
    }
    bool end_object() {
        --depth_;
        return dom_.end_object();
    }
    bool start_array(std::size_t n) {
        open();
        if (keys_.size() < std::size_t(depth_)) keys_.emplace_back();
        return dom_.start_array(n);
    }
    bool end_array() {
        --depth_;
        return dom_.end_array();
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
        error_ = e.what();
        return false;
    }
    /// The parser's message when the text is not JSON, else empty.
    const std::string& error() const { return error_; }

private:
    bool value() {
        poll_.step();
        return true;
    }
    void open() {
        poll_.step();
        if (depth_ >= limits::max_json_depth) {
            throw InvalidInput(fmt::format("catalog json depth = {}: must be at most {} nested objects/arrays",
                                           depth_ + 1, limits::max_json_depth));
        }
        ++depth_;
    }

    struct Keys {
        std::vector<std::string> keys;  // the first `used` are the open object's keys
        std::size_t used = 0;
    };
    Dom dom_;
    StopPoll poll_;
    int depth_ = 0;
    std::vector<Keys> keys_;  // by depth - 1: the keys seen in the object open there
    std::string error_;
};

json parse_limited(std::string_view text, const StopCheck& should_stop) {
    const auto fail_text = [&](std::string message) -> void {
        // Drop nlohmann's "[json.exception.parse_error.101] " prefix: the rest says what went wrong.
        if (auto pos = message.find("] "); message.starts_with("[json.exception") && pos != std::string::npos) {
            message = message.substr(pos + 2);
        }
        throw InvalidInput(fmt::format("catalog json = \"{}\": not valid JSON ({})", printable_utf8(text, 40),
                                       printable_utf8(message)));
    };
    json root;
    CheckedDom handler(root, should_stop);
    if (!json::sax_parse(text.begin(), text.end(), &handler)) fail_text(handler.error());
    return root;
}

[[noreturn]] void fail_missing(const std::string& path) {
    throw InvalidInput(fmt::format("{} = (missing): required", path));
}

/// The path of `key` inside `path`: "a.b" for a plain name, `a[":"]` (JSON-quoted) for any other key,
/// so an empty or odd key still gives a field that can be read.
std::string at(const std::string& path, std::string_view key) {
    const bool plain = !key.empty() && !std::isdigit(static_cast<unsigned char>(key[0])) &&
                       std::all_of(key.begin(), key.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                       });
    if (!plain) return fmt::format("{}[{}]", path.empty() ? "catalog" : path, json(std::string(key)).dump());
    return path.empty() ? std::string(key) : fmt::format("{}.{}", path, key);
}

/// A JSON object whose keys must all be known, read field by field.
class Reader {
public:
    Reader(const json& object, std::string path, std::initializer_list<std::string_view> known)
        : object_(object), path_(std::move(path)) {
        if (!object_.is_object()) fail_json(path_.empty() ? "catalog" : path_, object_, "must be an object");
        for (const auto& item : object_.items()) {
            bool ok = false;
            for (std::string_view k : known) ok = ok || item.key() == k;
            if (!ok) {
                fail_json(at(path_, item.key()), item.value(),
                          fmt::format("unknown field (known: {})", fmt::join(known, ", ")));
            }
        }
    }

    bool has(std::string_view key) const { return object_.contains(key); }
    const json* find(std::string_view key) const {
        auto it = object_.find(key);
        return it == object_.end() ? nullptr : &*it;
    }
    std::string path(std::string_view key) const { return at(path_, key); }

    const json& required(std::string_view key) const {
        const json* v = find(key);
        if (!v) fail_missing(path(key));
        return *v;
    }

    // The field's path is made only for a message: a catalog reads about 20 fields per offering.
    std::string text(std::string_view key) const { return text_at(required(key), key); }
    std::string text_or(std::string_view key, std::string fallback) const {
        const json* v = find(key);
        return v ? text_at(*v, key) : std::move(fallback);
    }
    double number(std::string_view key) const { return number_at(required(key), key); }
    double number_or(std::string_view key, double fallback) const {
        const json* v = find(key);
        return v ? number_at(*v, key) : fallback;
    }
    int whole(std::string_view key) const { return as_whole(required(key), path(key)); }
    int whole_or(std::string_view key, int fallback) const {
        const json* v = find(key);
        return v ? as_whole(*v, path(key)) : fallback;
    }
    /// number(key), finite and >= 0 (require_non_negative's rule and message).
    double non_negative(std::string_view key) const { return non_negative_at(required(key), key); }
    double non_negative_at(const json& v, std::string_view key) const {
        const double x = number_at(v, key);
        return std::isfinite(x) && x >= 0 ? x : require_non_negative(path(key), x);
    }

    static std::string as_text(const json& v, const std::string& path) {
        if (!v.is_string()) fail_json(path, v, "must be a string");
        return v.get<std::string>();
    }
    static double as_number(const json& v, const std::string& path) {
        if (!v.is_number()) fail_json(path, v, "must be a number");
        return v.get<double>();
    }
    static int as_whole(const json& v, const std::string& path) {
        if (!v.is_number_integer()) fail_json(path, v, "must be a whole number");
        const auto n = v.get<long long>();
        if (n < -1'000'000 || n > 1'000'000) fail_json(path, v, "must be a whole number in [-1e6, 1e6]");
        return static_cast<int>(n);
    }

private:
    std::string text_at(const json& v, std::string_view key) const {
        return v.is_string() ? v.get<std::string>() : as_text(v, path(key));
    }
    double number_at(const json& v, std::string_view key) const {
        return v.is_number() ? v.get<double>() : as_number(v, path(key));
    }

    const json& object_;
    std::string path_;
};

Source read_source(const json& j, const std::string& path) {
    Reader r(j, path, {"name", "as_of", "row"});
    return Source{r.text("name"), r.text("as_of"), r.text_or("row", "")};
}

GpuSpec read_gpu(const json& j, const std::string& path) {
    Reader r(j, path,
             {"name", "vendor", "memory_gb", "memory_bandwidth_gbps", "fp16_tflops", "fp32_tflops",
              "tdp_watts", "source", "notes", "interconnect"});
    GpuSpec g;
    g.name = r.text("name");
    g.vendor = r.text("vendor");
    g.memory_gb = r.number("memory_gb");
    g.memory_bandwidth_gbps = r.number("memory_bandwidth_gbps");
    g.fp16_tflops = r.number("fp16_tflops");
    g.fp32_tflops = r.number("fp32_tflops");
    g.tdp_watts = r.number("tdp_watts");
    g.source = read_source(r.required("source"), r.path("source"));
    g.notes = r.text_or("notes", "");
    g.interconnect = r.text_or("interconnect", "");
    return g;  // validated by the Catalog it goes into (the same field paths)
}

ReservedPrice read_reserved(const json& j, const std::string& path, double on_demand_hourly,
                            const Source& offering_source) {
    Reader r(j, path, {"term_years", "payment", "upfront", "hourly", "discount", "source", "convertible"});
    const int term_years = r.whole("term_years");
    require(term_years >= 1, r.path("term_years"), term_years, "must be >= 1");
    const Payment payment = parse_payment(r.text("payment"), r.path("payment"));
    const Source source = r.has("source") ? read_source(r.required("source"), r.path("source"))
                                          : offering_source;
    if (const json* d = r.find("discount")) {
        if (r.has("upfront") || r.has("hourly")) {
            fail_json(r.path("discount"), *d, "give either discount or upfront/hourly, not both");
        }
        const double discount = Reader::as_number(*d, r.path("discount"));
        require_fraction(r.path("discount"), discount);
        return reserved_from_discount(on_demand_hourly, discount, term_years, payment, source);
    }
    if (!r.has("upfront") && !r.has("hourly")) {
        fail_json(path, j, "needs a discount, or an upfront and/or hourly price");
    }
    ReservedPrice p;
    p.term_years = term_years;
    p.payment = payment;
    p.upfront = require_non_negative(r.path("upfront"), r.number_or("upfront", 0.0));
    p.hourly = require_non_negative(r.path("hourly"), r.number_or("hourly", 0.0));
    p.source = source;
    if (const json* c = r.find("convertible")) {
        if (!c->is_boolean()) fail_json(r.path("convertible"), *c, "must be true or false");
        p.convertible = c->get<bool>();
    }
    return p;
}

SavingsPlanRate read_savings_plan_rate(const json& j, const std::string& path, const Source& offering_source) {
    Reader r(j, path, {"type", "term_years", "payment", "hourly", "source"});
    SavingsPlanRate p;
    p.type = parse<SavingsPlanType>(r.text("type"), r.path("type"));
    p.term_years = r.whole("term_years");
    p.payment = parse_payment(r.text("payment"), r.path("payment"));
    p.hourly = r.number("hourly");
    p.source = r.has("source") ? read_source(r.required("source"), r.path("source")) : offering_source;
    return p;  // the rules (term 1 or 3, rate > 0, no duplicates) are Offering::validate's
}

PriceSnapshot read_snapshot(const json& j, const std::string& path) {
    Reader r(j, path, {"effective_from", "on_demand_hourly", "spot_hourly", "reserved", "source", "notes", "spot_only"});
    PriceSnapshot s;
    s.effective_from = Date::parse(r.text("effective_from"), r.path("effective_from"));
    s.on_demand_hourly = r.non_negative("on_demand_hourly");
    if (const json* v = r.find("spot_hourly"); v && !v->is_null()) s.spot_hourly = r.non_negative_at(*v, "spot_hourly");
    s.source = read_source(r.required("source"), r.path("source"));
    s.notes = r.text_or("notes", "");
    if (const json* b = r.find("spot_only")) {
        if (!b->is_boolean()) fail_json(r.path("spot_only"), *b, "must be true or false");
        s.spot_only = b->get<bool>();
    }
    if (const json* list = r.find("reserved")) {
        if (!list->is_array()) fail_json(r.path("reserved"), *list, "must be an array");
        for (std::size_t i = 0; i < list->size(); ++i) {
            s.reserved.push_back(read_reserved((*list)[i], fmt::format("{}.reserved[{}]", path, i), s.on_demand_hourly, s.source));
        }
    }
    return s;
}

Offering read_offering(const json& j, const std::string& path) {
    Reader r(j, path,
             {"provider", "region", "instance_type", "gpu", "gpus_per_instance", "currency",
              "on_demand_hourly", "spot_hourly", "reserved", "billing_increment_seconds",
              "minimum_billed_seconds", "source", "notes", "zone", "effective_from", "history", "savings_plans",
              "capacity_block_hourly", "capacity_block_source", "reservation_only", "spot_only", "month_terms"});
    Offering o;
    o.provider = r.text("provider");
    o.region = r.text("region");
    o.instance_type = r.text("instance_type");
    o.zone = r.text_or("zone", "");
    o.gpu = r.text("gpu");
    o.gpus_per_instance = r.whole_or("gpus_per_instance", 1);
    o.currency = r.text_or("currency", "USD");
    o.on_demand_hourly = r.non_negative("on_demand_hourly");
    if (const json* s = r.find("spot_hourly"); s && !s->is_null()) o.spot_hourly = r.non_negative_at(*s, "spot_hourly");
    o.billing_increment_seconds = r.number_or("billing_increment_seconds", 3600.0);
    o.minimum_billed_seconds = r.number_or("minimum_billed_seconds", 0.0);
    o.source = read_source(r.required("source"), r.path("source"));
    o.notes = r.text_or("notes", "");
    if (const json* list = r.find("reserved")) {
        if (!list->is_array()) fail_json(r.path("reserved"), *list, "must be an array");
        for (std::size_t i = 0; i < list->size(); ++i) {
            o.reserved.push_back(read_reserved((*list)[i], fmt::format("{}.reserved[{}]", path, i),
                                               o.on_demand_hourly, o.source));
        }
    }
    if (const json* list = r.find("savings_plans")) {
        if (!list->is_array()) fail_json(r.path("savings_plans"), *list, "must be an array");
        for (std::size_t i = 0; i < list->size(); ++i)
            o.savings_plans.push_back(
                read_savings_plan_rate((*list)[i], fmt::format("{}.savings_plans[{}]", path, i), o.source));
    }
    if (r.has("effective_from")) o.effective_from = Date::parse(r.text("effective_from"), r.path("effective_from"));
    if (const json* list = r.find("history")) {
        if (!list->is_array()) fail_json(r.path("history"), *list, "must be an array");
        for (std::size_t i = 0; i < list->size(); ++i) o.history.push_back(read_snapshot((*list)[i], fmt::format("{}.history[{}]", path, i)));
    }
    // Fixed windows of capacity and short terms: a capacity-block rate, reservation-only, month terms.
    if (const json* b = r.find("capacity_block_hourly"); b && !b->is_null())
        o.capacity_block_hourly = require_non_negative(r.path("capacity_block_hourly"),
                                                       Reader::as_number(*b, r.path("capacity_block_hourly")));
    // A block price's own source and date; a file that gives none means the offering's (left empty).
    if (r.has("capacity_block_source"))
        o.capacity_block_source = read_source(r.required("capacity_block_source"), r.path("capacity_block_source"));
    if (const json* b = r.find("reservation_only")) {
        if (!b->is_boolean()) fail_json(r.path("reservation_only"), *b, "must be true or false");
        o.reservation_only = b->get<bool>();
    }
    if (const json* b = r.find("spot_only")) {
        if (!b->is_boolean()) fail_json(r.path("spot_only"), *b, "must be true or false");
        o.spot_only = b->get<bool>();
    }
    if (const json* list = r.find("month_terms")) {
        if (!list->is_array()) fail_json(r.path("month_terms"), *list, "must be an array");
        for (std::size_t i = 0; i < list->size(); ++i) {
            const std::string at = fmt::format("{}.month_terms[{}]", path, i);
            Reader t((*list)[i], at, {"months", "hourly", "source"});
            o.month_terms.push_back({int(t.whole_or("months", 0)), require_non_negative(t.path("hourly"), t.number("hourly")),
                                     read_source(t.required("source"), t.path("source"))});
        }
    }
    return o;  // validated by the Catalog it goes into (the same field paths): once, not twice
}

json write_source(const Source& s) {
    json j = {{"name", s.name}, {"as_of", s.as_of}};
    if (!s.row.empty()) j["row"] = s.row;
    return j;
}

json write_gpu(const GpuSpec& g) {
    json j = {{"name", g.name},
              {"vendor", g.vendor},
              {"memory_gb", g.memory_gb},
              {"memory_bandwidth_gbps", g.memory_bandwidth_gbps},
              {"fp16_tflops", g.fp16_tflops},
              {"fp32_tflops", g.fp32_tflops},
              {"tdp_watts", g.tdp_watts},
              {"source", write_source(g.source)}};
    if (!g.notes.empty()) j["notes"] = g.notes;
    if (!g.interconnect.empty()) j["interconnect"] = g.interconnect;
    return j;
}

json write_reserved(const std::vector<ReservedPrice>& list) {
    json reserved = json::array();
    for (const ReservedPrice& r : list) {
        reserved.push_back({{"term_years", r.term_years},
                            {"payment", std::string(to_string(r.payment))},
                            {"upfront", r.upfront},
                            {"hourly", r.hourly},
                            {"source", write_source(r.source)}});
        if (r.convertible) reserved.back()["convertible"] = true;
    }
    return reserved;
}

json write_offering(const Offering& o) {
    json reserved = json::array();
    for (const ReservedPrice& r : o.reserved) {
        reserved.push_back({{"term_years", r.term_years},
                            {"payment", std::string(to_string(r.payment))},
                            {"upfront", r.upfront},
                            {"hourly", r.hourly},
                            {"source", write_source(r.source)}});
        if (r.convertible) reserved.back()["convertible"] = true;
    }
    json j = {{"provider", o.provider},
              {"region", o.region},
              {"instance_type", o.instance_type},
              {"gpu", o.gpu},
              {"gpus_per_instance", o.gpus_per_instance},
              {"currency", o.currency},
              {"on_demand_hourly", o.on_demand_hourly},
              {"spot_hourly", o.spot_hourly ? json(*o.spot_hourly) : json(nullptr)},
              {"reserved", reserved},
              {"billing_increment_seconds", o.billing_increment_seconds},
              {"minimum_billed_seconds", o.minimum_billed_seconds},
              {"source", write_source(o.source)}};
    if (!o.savings_plans.empty()) {
        json rates = json::array();
        for (const SavingsPlanRate& r : o.savings_plans)
            rates.push_back({{"type", std::string(to_text(r.type))},
                             {"term_years", r.term_years},
                             {"payment", std::string(to_string(r.payment))},
                             {"hourly", r.hourly},
                             {"source", write_source(r.source)}});
        j["savings_plans"] = std::move(rates);
    }
    if (!o.notes.empty()) j["notes"] = o.notes;
    if (!o.zone.empty()) j["zone"] = o.zone;
    if (o.capacity_block_hourly) {
        j["capacity_block_hourly"] = *o.capacity_block_hourly;
        if (o.capacity_block_source != Source{}) j["capacity_block_source"] = write_source(o.capacity_block_source);
    }
    if (o.reservation_only) j["reservation_only"] = true;
    if (o.spot_only) j["spot_only"] = true;
    if (!o.month_terms.empty()) {
        json terms = json::array();
        for (const MonthTermPrice& t : o.month_terms)
            terms.push_back({{"months", t.months}, {"hourly", t.hourly}, {"source", write_source(t.source)}});
        j["month_terms"] = terms;
    }
    if (o.effective_from) j["effective_from"] = o.effective_from->iso();
    if (!o.history.empty()) {
        json history = json::array();
        for (const PriceSnapshot& s : o.history) {
            json h = {{"effective_from", s.effective_from.iso()},
                      {"on_demand_hourly", s.on_demand_hourly},
                      {"spot_hourly", s.spot_hourly ? json(*s.spot_hourly) : json(nullptr)},
                      {"reserved", write_reserved(s.reserved)},
                      {"source", write_source(s.source)}};
            if (!s.notes.empty()) h["notes"] = s.notes;
            if (s.spot_only) h["spot_only"] = true;
            history.push_back(std::move(h));
        }
        j["history"] = std::move(history);
    }
    return j;
}

}  // namespace

Catalog Catalog::from_json(std::string_view json_text, const StopCheck& should_stop) {
    require(json_text.size() <= limits::max_catalog_bytes, "catalog json.size", json_text.size(),
            fmt::format("must be at most {} bytes (16 MiB)", limits::max_catalog_bytes));
    const json root = parse_limited(json_text, should_stop);
    StopPoll poll(should_stop, 1'024, "catalog loading cancelled");
    Reader r(root, "", {"format", "version", "gpus", "offerings"});
    if (const json* f = r.find("format")) {
        if (*f != "gputco-catalog") fail_json("format", *f, "must be \"gputco-catalog\"");
    }
    if (r.has("version")) {
        const int version = r.whole("version");
        require(version == format_version, "version", version,
                fmt::format("unsupported catalog format version (supported: {})", format_version));
    }
    std::vector<GpuSpec> gpus;
    if (const json* list = rows(r.find("gpus"), "gpus")) {
        for (std::size_t i = 0; i < list->size(); ++i) {
            poll.step();
            gpus.push_back(read_gpu((*list)[i], fmt::format("gpus[{}]", i)));
        }
    }
    std::vector<Offering> offerings;
    if (const json* list = rows(r.find("offerings"), "offerings")) {
        offerings.reserve(list->size());
        for (std::size_t i = 0; i < list->size(); ++i) {
            poll.step();
            offerings.push_back(read_offering((*list)[i], fmt::format("offerings[{}]", i)));
        }
    }
    return Catalog(std::move(gpus), std::move(offerings));
}

Catalog Catalog::from_json_file(const std::string& path, const StopCheck& should_stop) {
    // A folder opens, then reads as empty text: said as what it is.
    std::error_code folder;
    require(!std::filesystem::is_directory(path, folder), "catalog file", path, "is a directory, not a file");
    std::ifstream in(path, std::ios::binary);
    require(in.good(), "catalog file", path, "cannot be opened");
    // Refuse an oversized file before reading it into memory.
    std::error_code error;
    const auto bytes = std::filesystem::file_size(path, error);
    require(error || bytes <= limits::max_catalog_bytes, "catalog file", path,
            fmt::format("is {} bytes; must be at most {} (16 MiB)", bytes, limits::max_catalog_bytes));
    // Read in chunks and stop past the limit: a device or pipe (/dev/zero, a FIFO) has no size to
    // check first and would otherwise be read without end.
    std::string text;
    std::array<char, 1 << 16> chunk{};
    while (in.read(chunk.data(), chunk.size()) || in.gcount() > 0) {
        text.append(chunk.data(), static_cast<std::size_t>(in.gcount()));
        require(text.size() <= limits::max_catalog_bytes, "catalog file", path,
                fmt::format("is more than {} bytes (16 MiB)", limits::max_catalog_bytes));
    }
    return from_json(text, should_stop);
}

std::string Catalog::to_json() const {
    json gpus = json::array();
    for (const GpuSpec& g : gpus_) gpus.push_back(write_gpu(g));
    json offerings = json::array();
    for (const Offering& o : offerings_) offerings.push_back(write_offering(o));
    const json root = {{"format", "gputco-catalog"},
                       {"version", format_version},
                       {"gpus", gpus},
                       {"offerings", offerings}};
    return root.dump(2) + "\n";
}

}  // namespace gputco
