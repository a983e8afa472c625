// GCP prices: Cloud Billing Catalog SKUs (GPU, vCPU and RAM priced apart, joined here per machine
// type) and Cyclenerd's pricing.yml (whole-machine prices built from the same SKUs).
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "../../core/yaml_check.hpp"
#include "common.hpp"
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
// Cyclenerd pricing.yml
// ------------------------------------------------------------------------------------------------

namespace {

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

double yaml_number(const YAML::Node& node, const std::string& where) {
    require(node.IsScalar(), where, node.IsMap() ? "(a map)" : "(a list)", "must be a number");
    return import::number(node.Scalar(), where);
}

/// The member `key` of a mapping; undefined when `node` is undefined, no mapping or has no such key
/// (yaml-cpp throws for operator[] on a scalar and for any question to a missing key's node).
YAML::Node member(const YAML::Node& node, const char* key) {
    return node.IsDefined() && node.IsMap() ? node[key] : YAML::Node(YAML::NodeType::Undefined);
}

/// A mapping key as text; a list or mapping used as a key is an error.
std::string key_text(const YAML::Node& key, const std::string& where) {
    require(key.IsScalar(), where, key.IsMap() ? "(a map)" : "(a list)", "must be text (a mapping key)");
    return key.Scalar();
}

/// Throws when `node` nests deeper than `max_depth` (ImportOptions::max_depth; yaml-cpp's own guard
/// is at 2,000 levels).
void check_depth(const YAML::Node& node, int max_depth, const std::string& file, int depth = 1) {
    if (!node.IsMap() && !node.IsSequence()) return;
    require(depth <= max_depth, fmt::format("{}:{}:{}", file, node.Mark().line + 1, node.Mark().column + 1), depth,
            fmt::format("levels of nesting: more than the limit of {} (ImportOptions::max_depth)", max_depth));
    for (const auto& child : node) {
        if (node.IsMap()) {
            check_depth(child.first, max_depth, file, depth + 1);
            check_depth(child.second, max_depth, file, depth + 1);
        } else {
            check_depth(child, max_depth, file, depth + 1);
        }
    }
}

// The latest Unix time with a four-digit year: 9999-12-31T23:59:59Z.
constexpr double max_unix_seconds = 253402300799.0;

ImportResult read_pricing_yml(const YAML::Node& root, const std::string& file, const ImportOptions& options) {
    std::string published = options.published.empty() ? "undated" : options.published;
    if (const YAML::Node ts = member(member(root, "about"), "timestamp"); ts.IsDefined() && ts.IsScalar()) {
        const std::string where = file + ": /about/timestamp";
        const double seconds = yaml_number(ts, where);
        require(seconds >= 0 && seconds <= max_unix_seconds, where, seconds,
                fmt::format("must be a Unix time in [0, {:.0f}] (up to the year 9999)", max_unix_seconds));
        published = iso_of_unix(static_cast<long long>(seconds));
    }
    const YAML::Node instances = member(member(root, "compute"), "instance");
    require(instances.IsDefined() && instances.IsMap(), file + ": /compute/instance", "(missing)",
            "required (a map of machine types)");
    ImportResult result;
    const std::string name = fmt::format("Cyclenerd pricing.yml {}", file);
    for (const auto& entry : instances) {
        const std::string type = key_text(entry.first, file + ": /compute/instance");
        const YAML::Node& block = entry.second;
        const std::string at = fmt::format("/compute/instance/{}", type);
        require(block.IsMap() || block.IsNull(), fmt::format("{}: {}", file, at), block.IsSequence() ? "(a list)" : block.Scalar(),
                "must be a mapping (the machine's specs and cost)");
        // The GPU count is keyed by the GPU's name ("a100: 1", "h100-80gb: 8"); other keys are specs.
        std::string gpu;
        int gpus = 0;
        for (const auto& field : block) {
            const std::string key = key_text(field.first, fmt::format("{}: {}", file, at));
            if (key == "cost" || key == "cpu" || key == "ram" || key == "local-ssd" || !field.second.IsScalar()) continue;
            const std::string canonical = normalise_gpu_name(key);
            if (canonical == key) continue;
            gpu = canonical;
            const std::string where = fmt::format("{}: {}/{}", file, at, key);
            const double count = yaml_number(field.second, where);
            require(count >= 0 && count <= 1024 && count == std::floor(count), where, count,
                    "must be a whole number of GPUs in [0, 1024]");
            gpus = static_cast<int>(count);
        }
        const YAML::Node cost = member(block, "cost");
        if (!cost.IsDefined() || !cost.IsMap()) {
            import::count_row(result, options);
            import::skip(result, options, {at, "no cost block"});
            continue;
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
            for (const auto& region : cost) {
                import::count_row(result, options);
                import::skip(result, options,
                             {fmt::format("{}/cost/{}", at, key_text(region.first, fmt::format("{}: {}/cost", file, at))),
                              "no GPU"});
            }
            continue;
        }
        if (gpus < 1) {
            gpu = "none";
            gpus = 1;
        }
        for (const auto& region_entry : cost) {
            import::count_row(result, options);
            const std::string region = key_text(region_entry.first, fmt::format("{}: {}/cost", file, at));
            const YAML::Node& p = region_entry.second;
            const std::string row = fmt::format("{}/cost/{}", at, region);
            const std::string where = fmt::format("{}: {}", file, row);
            if (!member(p, "hour").IsDefined()) {
                import::skip(result, options, {row, "no hourly price"});
                continue;
            }
            Offering o = import::new_offering("gcp", region, type, gpu, gpus, Source{name, published, row});
            o.on_demand_hourly = yaml_number(member(p, "hour"), where + "/hour");
            if (member(p, "hour_spot").IsDefined()) o.spot_hourly = yaml_number(member(p, "hour_spot"), where + "/hour_spot");
            // Committed use is billed monthly: the hourly fee is the monthly price / 730 h.
            for (auto [key, years] : {std::pair{"month_1y", 1}, std::pair{"month_3y", 3}}) {
                if (!member(p, key).IsDefined()) continue;
                ReservedPrice r;
                r.term_years = years;
                r.payment = Payment::no_upfront;
                r.hourly = yaml_number(member(p, key), fmt::format("{}/{}", where, key)) / hours_per_month;
                r.source = Source{name, published, fmt::format("{}/{}", row, key)};
                o.reserved.push_back(r);
            }
            o.notes = "committed use: monthly price / 730 h";
            o.validate(where);
            result.offerings.push_back(std::move(o));
        }
    }
    return result;
}

}  // namespace

ImportResult import_cyclenerd_pricing_yml(std::string_view yaml_text, const ImportOptions& options) {
    const std::string file = import::file_name(options, "pricing.yml");
    require(yaml_text.size() <= options.max_bytes, file, yaml_text.size(),
            fmt::format("bytes: more than the limit of {} (ImportOptions::max_bytes)", options.max_bytes));
    // Every yaml-cpp exception ends here as InvalidInput: a syntax error while loading, or a node of
    // an unexpected kind that the checks above missed while reading.
    // Before loading: aliases past the node limit (the walks below would expand them) and repeated
    // keys (the loaded tree keeps both copies, and a lookup silently finds the first).
    detail::check_yaml(yaml_text, file, true);
    try {
        const YAML::Node root = YAML::Load(std::string(yaml_text));
        check_depth(root, options.max_depth, file);
        return read_pricing_yml(root, file, options);
    } catch (const YAML::Exception& e) {
        fail(fmt::format("{}:{}:{}", file, e.mark.line + 1, e.mark.column + 1), e.msg, "malformed YAML");
    }
}

}  // namespace gputco
