// GCP prices: Cloud Billing Catalog SKUs (GPU, vCPU and RAM priced apart, joined here per machine
// type) and Cyclenerd's pricing.yml (whole-machine prices built from the same SKUs).
#include <charconv>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <yaml-cpp/exceptions.h>

#include "common.hpp"
#include "gputco/core/date.hpp"
#include "yaml_entries.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco {
namespace {

using import::json;

enum class Usage { on_demand, spot, commit_1y, commit_3y };

/// One SKU price: what it prices (a GPU model, or the vCPU/RAM of a machine family), where and how.
struct Sku {
    std::size_t index;
    std::string resource;  // "GPU", "CPU", "RAM"
    std::string what;      // canonical GPU name, or the family ("A2")
    Usage usage;
    double price;          // per hour (GPU, vCPU) or per GiB-hour (RAM)
    std::string currency;
    std::vector<std::string> regions;
    std::string effective;
};

std::string strip_prefix(std::string text) {
    for (std::string_view prefix : {"Spot Preemptible ", "Preemptible ", "Commitment v1: ", "Commitment v2: ", "Commitment: "}) {
        if (text.starts_with(prefix)) return text.substr(prefix.size());
    }
    return text;
}

std::optional<Usage> usage_of(std::string_view text) {
    if (text == "OnDemand") return Usage::on_demand;
    if (text == "Preemptible") return Usage::spot;
    if (text == "Commit1Yr") return Usage::commit_1y;
    if (text == "Commit3Yr") return Usage::commit_3y;
    return std::nullopt;
}

double unit_price(const json& sku, const std::string& at, std::string& currency, std::string& effective) {
    const auto info = sku.find("pricingInfo");
    if (info == sku.end() || !info->is_array() || info->empty()) throw InvalidInput(fmt::format("{}/pricingInfo = (missing): required", at));
    const json& first = info->front();
    if (auto t = first.find("effectiveTime"); t != first.end() && t->is_string()) effective = import::date_part(t->get<std::string>());
    const auto expr = first.find("pricingExpression");
    if (expr == first.end()) throw InvalidInput(fmt::format("{}/pricingInfo/0/pricingExpression = (missing): required", at));
    const auto tiers = expr->find("tieredRates");
    if (tiers == expr->end() || !tiers->is_array() || tiers->empty()) {
        throw InvalidInput(fmt::format("{}/pricingInfo/0/pricingExpression/tieredRates = (missing): required", at));
    }
    // The first tier (startUsageAmount 0): GPUs, cores and RAM have one.
    const std::string where = at + "/pricingInfo/0/pricingExpression/tieredRates/0/unitPrice";
    const auto unit = tiers->front().find("unitPrice");
    if (unit == tiers->front().end()) throw InvalidInput(fmt::format("{} = (missing): required", where));
    currency = import::json_text(*unit, "currencyCode", where);
    const double units = unit->contains("units") ? import::json_number((*unit)["units"], where + "/units") : 0.0;
    const double nanos = unit->contains("nanos") ? import::json_number((*unit)["nanos"], where + "/nanos") : 0.0;
    return units + nanos * 1e-9;
}

}  // namespace

ImportResult import_gcp_skus(std::string_view json_text, const ImportOptions& options) {
    const import::AllocationReserve reserve;  // a memory cap ends in bad_alloc, not an abort
    const std::string file = import::file_name(options, "skus.json");
    ImportResult result;
    std::vector<Sku> skus;
    // One SKU at a time, streamed: memory follows the SKUs kept, not the page's DOM (whose destruction
    // under a memory limit ended in std::terminate: nlohmann's destructor allocates).
    const auto read_sku = [&](std::size_t i, const json& s) {
        import::count_row(result, options);
        const std::string ptr = fmt::format("/skus/{}", i);
        const std::string at = fmt::format("{}: {}", file, ptr);
        const std::string& description = import::json_text(s, "description", at);
        const auto category = s.find("category");
        if (category == s.end()) throw InvalidInput(fmt::format("{}/category = (missing): required", at));
        const std::string& group = import::json_text(*category, "resourceGroup", at + "/category");
        const std::string& usage_text = import::json_text(*category, "usageType", at + "/category");
        const auto usage = usage_of(usage_text);
        if (!usage) {
            import::skip(result, options, {ptr, fmt::format("usage type {}", usage_text)});
            return;
        }
        Sku sku{i, group, {}, *usage, 0, {}, {}, {}};
        const std::string text = strip_prefix(description);
        if (group == "GPU") {
            const std::size_t gpu_word = text.find(" GPU");
            sku.what = normalise_gpu_name(text.substr(0, gpu_word));
        } else if (group == "CPU" || group == "RAM") {
            sku.what = text.substr(0, text.find(' '));  // "A2 Instance Core running in Americas" → "A2"
        } else {
            import::skip(result, options, {ptr, fmt::format("resource group {}", group)});
            return;
        }
        sku.price = unit_price(s, at, sku.currency, sku.effective);
        if (auto r = s.find("serviceRegions"); r != s.end() && r->is_array()) {
            for (const json& region : *r) {
                if (region.is_string()) sku.regions.push_back(region.get<std::string>());
            }
        }
        skus.push_back(std::move(sku));
    };
    bool listed = false;
    import::JsonStream stream;
    stream.capture = [](const import::JsonPath& p) { return p.size() == 2 && p[0] == "skus"; };
    stream.use = [&](const import::JsonPath& p, json&& sku) {
        listed = true;
        read_sku(std::stoul(p[1]), sku);
    };
    stream.scalar = [&](const import::JsonPath& p, const json&) {
        if (p.size() == 1 && p[0] == "skus") throw InvalidInput(fmt::format("{}: /skus = (missing): required (an array of SKUs)", file));
    };
    import::stream_json(json_text, options, stream);
    const std::size_t first = json_text.find_first_not_of(" \t\r\n");
    if (!listed && (json_text.find("\"skus\"") == std::string_view::npos || first == std::string_view::npos || json_text[first] != '{')) {
        throw InvalidInput(fmt::format("{}: /skus = (missing): required (an array of SKUs)", file));
    }
    // Index: (resource, what, usage, region) → SKU.
    std::map<std::tuple<std::string, std::string, Usage, std::string>, const Sku*> index;
    std::set<std::string> regions;
    for (const Sku& s : skus) {
        for (const std::string& region : s.regions) {
            index[{s.resource, s.what, s.usage, region}] = &s;
            regions.insert(region);
        }
    }
    std::set<std::size_t> used;
    const std::string name = fmt::format("GCP Cloud Billing Catalog {}", file);
    static constexpr std::string_view machine_types[] = {
        "a2-highgpu-1g", "a2-highgpu-2g", "a2-highgpu-4g", "a2-highgpu-8g", "a2-megagpu-16g", "a2-ultragpu-1g",
        "a2-ultragpu-2g", "a2-ultragpu-4g", "a2-ultragpu-8g", "a3-highgpu-8g", "g2-standard-4", "g2-standard-8",
        "g2-standard-12", "g2-standard-16", "g2-standard-24", "g2-standard-32", "g2-standard-48", "g2-standard-96"};
    for (std::string_view type : machine_types) {
        const InstanceGpus shape = *instance_gpus("gcp", type);
        std::string family(type.substr(0, 2));
        for (char& c : family) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        for (const std::string& region : regions) {
            // VM price = vCPUs × core price + GiB × RAM price + GPUs × GPU price, per usage type.
            auto join = [&](Usage usage) -> std::optional<std::pair<double, std::vector<const Sku*>>> {
                const auto gpu = index.find({"GPU", shape.gpu, usage, region});
                const auto core = index.find({"CPU", family, usage, region});
                const auto ram = index.find({"RAM", family, usage, region});
                if (gpu == index.end() || core == index.end() || ram == index.end()) return std::nullopt;
                const double price = shape.vcpus * core->second->price + shape.memory_gib * ram->second->price +
                                     shape.count * gpu->second->price;
                return std::pair{price, std::vector<const Sku*>{core->second, ram->second, gpu->second}};
            };
            const auto on_demand = join(Usage::on_demand);
            if (!on_demand) continue;
            std::string rows;
            for (const Sku* s : on_demand->second) rows += fmt::format("{}/skus/{}", rows.empty() ? "" : "+", s->index);
            const std::string published =
                !on_demand->second.back()->effective.empty() ? on_demand->second.back()->effective
                                                             : (options.published.empty() ? "undated" : options.published);
            Offering o = import::new_offering("gcp", region, std::string(type), shape.gpu, shape.count, Source{name, published, rows});
            o.currency = on_demand->second.front()->currency;
            o.on_demand_hourly = on_demand->first;
            o.notes = fmt::format("joined: {} vCPU x core + {} GiB x RAM + {} x {} GPU SKUs", shape.vcpus, shape.memory_gib,
                                  shape.count, shape.gpu);
            for (const Sku* s : on_demand->second) used.insert(s->index);
            if (const auto spot = join(Usage::spot)) {
                o.spot_hourly = spot->first;
                for (const Sku* s : spot->second) used.insert(s->index);
            }
            for (auto [usage, years] : {std::pair{Usage::commit_1y, 1}, std::pair{Usage::commit_3y, 3}}) {
                if (const auto commit = join(usage)) {
                    ReservedPrice r;
                    r.term_years = years;
                    r.payment = Payment::no_upfront;
                    r.hourly = commit->first;
                    r.source = o.source;
                    o.reserved.push_back(r);
                    for (const Sku* s : commit->second) used.insert(s->index);
                }
            }
            o.validate(fmt::format("{}: {}", file, rows));
            result.offerings.push_back(std::move(o));
        }
    }
    for (const Sku& s : skus) {
        if (!used.contains(s.index)) {
            import::skip(result, options, {fmt::format("/skus/{}", s.index), "SKU joined to no known machine type"});
        }
    }
    return result;
}

// ------------------------------------------------------------------------------------------------
// Cyclenerd pricing.yml, read as parser events one machine block at a time (yaml_entries.hpp): the
// loader's tree of the whole 4 MB file took most of the time and about 140 MiB.
// ------------------------------------------------------------------------------------------------

namespace {

using import::YamlNode;

/// The civil date of a Unix time (Howard Hinnant's civil_from_days).
std::string iso_of_unix(long long seconds) {
    long long z = seconds / 86400 + 719468;
    const long long era = (z >= 0 ? z : z - 146096) / 146097;
    const long long doe = z - era * 146097;
    const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long long mp = (5 * doy + 2) / 153;
    const long long d = doy - (153 * mp + 2) / 5 + 1;
    const long long m = mp < 10 ? mp + 3 : mp - 9;
    const long long y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    return fmt::format("{:04}-{:02}-{:02}", y, m, d);
}

/// What a node that is not a scalar is called in messages (a null node, too, as the loader's reader said).
const char* kind_text(const YamlNode& node) { return node.is_map() ? "(a map)" : "(a list)"; }

/// The number in a scalar node; errors name `where` + `field` (joined only then: a 4 MB file has
/// 10^5 numbers).
double yaml_number(const YamlNode& node, std::string_view where, std::string_view field = {}) {
    if (node.is_scalar()) {
        const std::string& text = node.scalar();
        double value = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) return value;
    }
    const std::string at = std::string(where) + std::string(field);
    require(node.is_scalar(), at, kind_text(node), "must be a number");
    return import::number(node.scalar(), at);  // throws, in import::number's words
}

/// A mapping key as text; a list or mapping used as a key is an error naming `where()`.
template <class Where>
const std::string& key_text(const YamlNode& key, const Where& where) {
    if (!key.is_scalar()) fail(where(), kind_text(key), "must be text (a mapping key)");
    return key.scalar();
}

// The latest Unix time with a four-digit year: 9999-12-31T23:59:59Z.
constexpr double max_unix_seconds = 253402300799.0;

/// The date of /about/timestamp, checked.
std::string published_of(const YamlNode& ts, const std::string& file) {
    const std::string where = file + ": /about/timestamp";
    const double seconds = yaml_number(ts, where);
    require(seconds >= 0 && seconds <= max_unix_seconds, where, seconds,
            fmt::format("must be a Unix time in [0, {:.0f}] (up to the year 9999)", max_unix_seconds));
    return iso_of_unix(static_cast<long long>(seconds));
}

/// One machine block, /compute/instance/<type>: a row per region of its cost.
void read_machine(const YamlNode& type_key, const YamlNode& block, const std::string& file, const std::string& name,
                  const std::string& published, const ImportOptions& options, ImportResult& result) {
    const std::string type = key_text(type_key, [&] { return file + ": /compute/instance"; });
    const std::string at = fmt::format("/compute/instance/{}", type);
    require(block.is_map() || block.is_null(), fmt::format("{}: {}", file, at), block.is_sequence() ? "(a list)" : block.scalar(),
            "must be a mapping (the machine's specs and cost)");
    // The GPU count is keyed by the GPU's name ("a100: 1", "h100-80gb: 8"); other keys are specs.
    std::string gpu;
    int gpus = 0;
    for (std::size_t i = 0; i < block.size(); ++i) {
        const std::string& key = key_text(block.key(i), [&] { return fmt::format("{}: {}", file, at); });
        const YamlNode& value = block.value(i);
        if (key == "cost" || key == "cpu" || key == "ram" || key == "local-ssd" || !value.is_scalar()) continue;
        const std::string canonical = normalise_gpu_name(key);
        if (canonical == key) continue;
        gpu = canonical;
        const std::string where = fmt::format("{}: {}/{}", file, at, key);
        const double count = yaml_number(value, where);
        require(count >= 0 && count <= 1024 && count == std::floor(count), where, count,
                "must be a whole number of GPUs in [0, 1024]");
        gpus = static_cast<int>(count);
    }
    const YamlNode& cost = block.member("cost");
    if (!cost.is_map()) {
        import::count_row(result, options);
        import::skip(result, options, {at, "no cost block"});
        return;
    }
    if (gpus < 1) {
        // A machine type whose block names its GPU by a key this reader does not know (a newer
        // family): GCP's machine-type table still tells its GPU and count.
        if (const auto shape = instance_gpus("gcp", type)) {
            gpu = shape->gpu;
            gpus = shape->count;
        }
    }
    if (gpus < 1 && !options.include_cpu_instances) {
        for (std::size_t i = 0; i < cost.size(); ++i) {
            import::count_row(result, options);
            import::skip(result, options,
                         {fmt::format("{}/cost/{}", at, key_text(cost.key(i), [&] { return fmt::format("{}: {}/cost", file, at); })),
                          "no GPU"});
        }
        return;
    }
    if (gpus < 1) {
        gpu = "none";
        gpus = 1;
    }
    for (std::size_t i = 0; i < cost.size(); ++i) {
        import::count_row(result, options);
        const std::string& region = key_text(cost.key(i), [&] { return fmt::format("{}: {}/cost", file, at); });
        const YamlNode& p = cost.value(i);
        const std::string row = fmt::format("{}/cost/{}", at, region);
        const std::string where = fmt::format("{}: {}", file, row);
        const YamlNode& hour = p.member("hour");
        const YamlNode& hour_spot = p.member("hour_spot");
        const bool has_commitment = p.member("month_1y").defined() || p.member("month_3y").defined();
        if (!hour.defined() && !has_commitment && !hour_spot.defined()) {
            import::skip(result, options, {row, "no hourly, spot or commitment price"});
            continue;
        }
        Offering o = import::new_offering("gcp", region, type, gpu, gpus, Source{name, published, row});
        // Without an hourly price the region sells the machine through commitments only
        // (reservation_only), or else as spot only (spot_only).
        o.reservation_only = !hour.defined() && has_commitment;
        o.spot_only = !hour.defined() && !has_commitment;
        if (hour.defined()) o.on_demand_hourly = yaml_number(hour, where, "/hour");
        if (hour_spot.defined() && o.reservation_only) {
            import::skip(result, options, {row + "/hour_spot", "spot price of a machine the file sells only through "
                                                               "commitments (no hourly price)"});
        } else if (hour_spot.defined()) {
            o.spot_hourly = yaml_number(hour_spot, where, "/hour_spot");
        }
        // Committed use is billed monthly: the hourly fee is the monthly price / 730 h.
        for (auto [key, years] : {std::pair{"month_1y", 1}, std::pair{"month_3y", 3}}) {
            const YamlNode& month = p.member(key);
            if (!month.defined()) continue;
            ReservedPrice r;
            r.term_years = years;
            r.payment = Payment::no_upfront;
            r.hourly = yaml_number(month, where, std::string("/") + key) / hours_per_month;
            r.source = Source{name, published, fmt::format("{}/{}", row, key)};
            o.reserved.push_back(r);
        }
        o.notes = o.spot_only ? std::string(import::spot_only_note) : "committed use: monthly price / 730 h";
        if (o.reservation_only) o.notes = std::string(import::reservation_only_note) + "; " + o.notes;
        o.validate(where);
        result.offerings.push_back(std::move(o));
    }
}

/// The offerings' dates, when /about/timestamp came after their blocks.
void restamp(Offering& o, const std::string& published) {
    o.source.as_of = published;
    o.effective_from = Date::is_date(published) ? std::optional<Date>(Date::parse(published)) : std::nullopt;
    for (ReservedPrice& r : o.reserved) r.source.as_of = published;
}

}  // namespace

ImportResult import_cyclenerd_pricing_yml(std::string_view yaml_text, const ImportOptions& options) {
    const std::string file = import::file_name(options, "pricing.yml");
    require(yaml_text.size() <= options.max_bytes, file, yaml_text.size(),
            fmt::format("bytes: more than the limit of {} (ImportOptions::max_bytes)", options.max_bytes));
    ImportResult result;
    std::string published = options.published.empty() ? "undated" : options.published;
    const std::string name = fmt::format("Cyclenerd pricing.yml {}", file);
    bool instances = false;
    std::size_t stamped = 0;  // offerings made before the file's timestamp was read
    import::YamlEntries entries;
    entries.paths = {{"about"}, {"compute", "instance"}};
    entries.seen = [&](std::size_t path) { instances = instances || path == 1; };
    entries.use = [&](std::size_t path, const YamlNode& key, const YamlNode& value) {
        if (path == 0) {
            if (key.is_scalar() && key.scalar() == "timestamp" && value.is_scalar()) {
                published = published_of(value, file);
                stamped = result.offerings.size();
                for (std::size_t i = 0; i < stamped; ++i) restamp(result.offerings[i], published);
            }
            return;
        }
        read_machine(key, value, file, name, published, options, result);
    };
    // Every yaml-cpp exception ends here as InvalidInput: a syntax error, with its place.
    try {
        import::read_yaml_entries(yaml_text, file, options, entries);
    } catch (const YAML::Exception& e) {
        fail(fmt::format("{}:{}:{}", file, e.mark.line + 1, e.mark.column + 1), e.msg, "malformed YAML");
    }
    require(instances, file + ": /compute/instance", "(missing)", "required (a map of machine types)");
    return result;
}

}  // namespace gputco
