// What the `llm_training` and `llm_serving` readers share: the model, the GPUs and ways of buying,
// the library's checks renamed to the file's places, and the trial ranking at load.
#include "llm_common.hpp"

#include <climits>

namespace gputco::scenario_read {

int LlmFields::whole(const Field& f) {
    const long long v = f.integer();
    if (v < 0 || v > INT_MAX) f.fail(fmt::format("must be in [0, {}]", INT_MAX));
    return int(v);
}

LlmModel LlmFields::model(const Field& f) {
    const auto m = f.map({"name", "parameters", "active_parameters", "layers", "hidden_size", "attention_heads",
                          "kv_heads"});
    seen.emplace_back("model", f);
    LlmModel model;
    const auto at = [&](std::string_view key) {
        auto v = m.find(key);
        if (v) seen.emplace_back("model." + std::string(key), *v);
        return v;
    };
    if (auto v = at("name")) model.name = v->text();
    model.parameters = positive(m.get("parameters"));
    at("parameters");
    if (auto v = at("active_parameters")) model.active_parameters = v->non_negative();
    if (auto v = at("layers")) model.layers = whole(*v);
    if (auto v = at("hidden_size")) model.hidden_size = whole(*v);
    if (auto v = at("attention_heads")) model.attention_heads = whole(*v);
    if (auto v = at("kv_heads")) model.kv_heads = whole(*v);
    return model;
}

std::vector<std::string> LlmFields::gpus(const Field& f, const Catalog& catalog) {
    std::vector<std::string> names, out;
    for (const GpuSpec& spec : catalog.gpus()) names.push_back(spec.name);
    for (const Field& item : f.list()) {
        const std::string gpu = item.text();
        if (std::find(names.begin(), names.end(), gpu) == names.end()) {
            const auto near = closest_name(gpu, names);
            item.fail(fmt::format("not a GPU of the catalog{}",
                                  near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
        }
        if (std::none_of(catalog.offerings().begin(), catalog.offerings().end(), [&](const Offering& o) { return o.gpu == gpu; }))
            item.fail("no offering of the catalog has this GPU");
        if (std::find(out.begin(), out.end(), gpu) != out.end()) item.fail("listed twice");
        out.push_back(gpu);
    }
    if (out.empty()) f.fail("must name at least one GPU (or leave it out: every GPU of the catalog)");
    return out;
}

std::vector<BuyingWay> LlmFields::buying(const Field& f, const std::vector<BuyingWay>& allowed) {
    std::vector<BuyingWay> out;
    std::vector<std::string> names;
    for (const BuyingWay way : allowed) names.emplace_back(to_text(way));
    for (const Field& item : f.list()) {
        const BuyingWay way = parse<BuyingWay>(item.choice(names), "buying");
        if (std::find(out.begin(), out.end(), way) != out.end()) item.fail("listed twice");
        out.push_back(way);
    }
    if (out.empty()) f.fail("must name at least one way of buying");
    return out;
}

double LlmFields::share(const Field& f) {
    const double v = f.number();
    if (!(v > 0 && v <= 1)) f.fail("must be in (0, 1]");
    return v;
}

double LlmFields::mfu(const Field& f) {
    const double v = f.number();
    if (!(v >= 0 && v <= 1)) f.fail("must be 0 (the built-in rows) or in (0, 1]");
    return v;
}

InvalidInput LlmFields::renamed(const InvalidInput& e, std::string_view prefix) const {
    // "training.model.layers = 0: ..." → "<place of model.layers>: llm_training[0].model.layers = 0: ..."
    const std::string_view what = e.what();
    if (!what.starts_with(prefix)) return InvalidInput(fmt::format("{}: {}: {}", item.location(), item.path(), what));
    const std::string_view rest = what.substr(prefix.size());
    const std::string_view name = rest.substr(0, rest.find(' '));
    const Field* where = &item;
    std::size_t best = 0;
    for (const auto& [key, field] : seen)
        if ((name == key || name.starts_with(key + ".")) && key.size() > best) {
            where = &field;
            best = key.size();
        }
    return InvalidInput(fmt::format("{}: {}.{}", where->location(), item.path(), rest));
}

std::string no_offering_reasons(const std::vector<SkippedOffering>& skipped) {
    std::vector<std::string> reasons;
    for (std::size_t i = 0; i < skipped.size() && i < 3; ++i) reasons.push_back(skipped[i].offering + ": " + skipped[i].reason);
    if (skipped.size() > 3) reasons.push_back(fmt::format("and {} more", skipped.size() - 3));
    return fmt::format("no offering can run it ({})", reasons.empty() ? "no offering of these GPUs" : fmt::format("{}", fmt::join(reasons, "; ")));
}

}  // namespace gputco::scenario_read
