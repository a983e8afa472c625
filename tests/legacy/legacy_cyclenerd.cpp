// FROZEN REFERENCE: the Cyclenerd pricing.yml importer as it was before it read parser events
// (src/catalog/import/gcp.cpp): yaml-cpp's loader builds the whole document as a tree, then the
// tree is read. Used only by test_importers and bench_import to check that the event reader keeps
// every price, note and skipped row identical, and to measure both in the same run.
#include "legacy_cyclenerd.hpp"

#include <cmath>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "catalog/import/common.hpp"
#include "core/yaml_check.hpp"
#include "gputco/catalog/gpu_names.hpp"

namespace gputco::legacy {
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
            const bool has_hour = member(p, "hour").IsDefined();
            const bool has_commitment = member(p, "month_1y").IsDefined() || member(p, "month_3y").IsDefined();
            const bool has_spot = member(p, "hour_spot").IsDefined();
            if (!has_hour && !has_commitment && !has_spot) {
                import::skip(result, options, {row, "no hourly, spot or commitment price"});
                continue;
            }
            Offering o = import::new_offering("gcp", region, type, gpu, gpus, Source{name, published, row});
            // Without an hourly price the region sells the machine through commitments only
            // (reservation_only), or else as spot only (spot_only).
            o.reservation_only = !has_hour && has_commitment;
            o.spot_only = !has_hour && !has_commitment;
            if (has_hour) o.on_demand_hourly = yaml_number(member(p, "hour"), where + "/hour");
            if (has_spot && o.reservation_only) {
                import::skip(result, options, {row + "/hour_spot", "spot price of a machine the file sells only through "
                                                                   "commitments (no hourly price)"});
            } else if (has_spot) {
                o.spot_hourly = yaml_number(member(p, "hour_spot"), where + "/hour_spot");
            }
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
            o.notes = o.spot_only ? std::string(import::spot_only_note) : "committed use: monthly price / 730 h";
            if (o.reservation_only) o.notes = std::string(import::reservation_only_note) + "; " + o.notes;
            o.validate(where);
            result.offerings.push_back(std::move(o));
        }
    }
    return result;
}

}  // namespace

ImportResult import_cyclenerd_pricing_yml_tree(std::string_view yaml_text, const ImportOptions& options) {
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

}  // namespace gputco::legacy
