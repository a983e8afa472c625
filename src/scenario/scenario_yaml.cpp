// Scenario files: YAML (and JSON, a subset of it) read through yaml-cpp, which keeps every node's line
// and column, so each error can say where in the file it is. Each top-level key has its reader in
// read/<key>.cpp; read_scenario() runs them from one table and gathers their errors.
#include <algorithm>
#include <charconv>
#include <fstream>
#include <sstream>

#include "../core/yaml_check.hpp"
#include "gputco/catalog/importers.hpp"
#include "read/readers.hpp"

namespace gputco {
namespace {

using namespace scenario_read;

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

/// A top-level key's reader, and the keys it is read from: a key read from a broken one (a strategy
/// naming a spot job that did not load, plans over a horizon that did not) would only repeat its
/// error, so it is read once that one is fixed.
struct KeyPart {
    std::string_view key;
    std::vector<std::string_view> needs;
    KeyReader read;
};

/// In file-schema order; errors of the same line keep this order.
const std::vector<KeyPart>& key_parts() {
    static const std::vector<KeyPart> parts{
        {"name", {}, read_name},
        {"description", {}, read_description},
        {"horizon_months", {}, read_horizon_months},
        {"currency", {}, read_currency},
        {"annual_discount_rate", {}, read_annual_discount_rate},
        {"units", {}, read_units},
        {"seed", {}, read_seed},
        {"catalog", {}, read_catalog},
        {"offering", {}, read_offering_key},
        {"demand", {}, read_demand_key},
        {"discounts", {}, read_discounts},
        {"spot_jobs", {}, read_spot_jobs},
        {"deadline_jobs", {}, read_deadline_jobs},
        {"services", {}, read_services},
        {"futures", {"horizon_months"}, read_futures_key},
        {"price_model", {"horizon_months"}, read_price_model_key},
        {"plans", {"horizon_months"}, read_plans},
        {"demand_windows", {"horizon_months"}, read_demand_windows},
        {"recommend", {"horizon_months", "futures"}, read_recommend_key},
        {"strategies", {"spot_jobs", "deadline_jobs", "plans", "catalog"}, read_strategies},
        {"futures", {"plans", "futures", "horizon_months", "recommend"}, check_futures_have_plans},
        {"price_model", {"plans", "price_model", "horizon_months", "recommend"}, check_price_model_has_plans},
        {"outputs", {}, read_outputs},
    };
    return parts;
}

/// Where in `file` a message is ("<file>:<line>:<column>: ..."), for putting errors in file order;
/// a message about another file (a catalog file, a trace) sorts at `fallback`, its key's place.
std::pair<int, int> place_of(std::string_view message, std::string_view file, std::pair<int, int> fallback) {
    const std::string prefix = printable_utf8(std::string(file)) + ":";
    if (!message.starts_with(prefix)) return fallback;
    message.remove_prefix(prefix.size());
    int line = 0, column = 0;
    const auto [after_line, e1] = std::from_chars(message.data(), message.data() + message.size(), line);
    if (e1 != std::errc() || after_line == message.data() + message.size() || *after_line != ':') return fallback;
    const auto [after_column, e2] = std::from_chars(after_line + 1, message.data() + message.size(), column);
    if (e2 != std::errc()) return fallback;
    return {line - 1, column - 1};
}

Scenario read_scenario(const Field& root, std::string base_dir, std::string_view file) {
    Errors key_errors;  // unknown or repeated top-level keys: reported with the others, the rest read on
    const auto m = root.map({"version", "name", "description", "horizon_months", "currency", "annual_discount_rate",
                             "units", "seed", "catalog", "offering", "demand", "discounts", "spot_jobs", "deadline_jobs",
                             "services", "strategies", "futures", "plans", "workloads", "llm_training", "llm_serving",
                             "outputs", "demand_windows", "price_model", "recommend"}, key_errors);
    Scenario s;
    s.base_dir = std::move(base_dir);
    // Another version may mean another schema: its error alone, before any other key is read.
    const Field version = m.get("version");
    if (version.integer() != scenario_schema_version)
        version.fail(fmt::format("this gputco reads scenario version {}", scenario_schema_version));
    // Every error of the file, not only the first: each top-level key is read on its own, its error
    // kept, and all are reported together in file order (a key that depends on a broken one may add
    // its own error; the checks across keys below run only on a file without errors).
    // A reader goes on past an error where what follows does not depend on it (read/field.hpp,
    // Errors), so one key may give several errors, one per line of its message.
    ReadState state;
    std::vector<std::pair<std::pair<int, int>, std::string>> errors;  // ((line, column), message)
    const auto keep = [&](std::string_view messages, std::pair<int, int> fallback) {
        for (std::size_t start = 0; start <= messages.size();) {
            const std::size_t end = std::min(messages.find('\n', start), messages.size());
            const std::string_view message = messages.substr(start, end - start);
            errors.emplace_back(place_of(message, file, fallback), std::string(message));
            start = end + 1;
        }
    };
    for (const std::string& message : key_errors.messages()) keep(message, {root.node().Mark().line, 0});
    std::vector<std::string_view> failed;  // the keys whose reading failed
    const auto broken = [&](std::string_view key) { return std::find(failed.begin(), failed.end(), key) != failed.end(); };
    for (const KeyPart& part : key_parts()) {
        if (std::any_of(part.needs.begin(), part.needs.end(), broken)) continue;
        try {
            part.read(m, s, state);
        } catch (const MissingAfterUnknownKey&) {  // the unknown key's error says it
            failed.push_back(part.key);
        } catch (const InvalidInput& e) {
            const auto field = m.find(part.key);
            const YAML::Mark mark = field ? field->node().Mark() : root.node().Mark();
            keep(e.what(), {mark.line, mark.column});
            failed.push_back(part.key);
        }
    }
    if (!errors.empty()) {
        std::stable_sort(errors.begin(), errors.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        std::string all;
        for (const auto& [place, message] : errors) all += (all.empty() ? "" : "\n") + message;
        throw InvalidInput(all);
    }
    // The scenario's figures must be computable: the demand builds, the offering exists.
    m.get("demand").checked([&] { s.demand.build(Horizon::months(s.horizon_months)); return 0; });
    const Offering& offering = find_offering(s, state);
    if (s.currency && offering.currency != *s.currency)
        m.get("currency").fail(fmt::format("must be the offering's currency ({})", offering.currency));
    check_deadline_prices(s, state, offering);
    read_workloads(m, s, state, offering);
    read_llm_training(m, s, state, offering);
    read_llm_serving(m, s, state, offering);
    // Each plan must price on the offering (a reservation it lists, a spot price): one future tells.
    check_plans_price(s, state, offering);
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
    return read_scenario(Field(root, "", name), slash == std::string_view::npos ? "." : std::string(file.substr(0, slash)),
                         file);
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
