// `llm_serving`: LLM inference services, ranked over the catalog's offerings by rank_llm_serving.
#include "llm_common.hpp"

namespace gputco::scenario_read {

namespace {

const std::vector<std::string> serving_keys{
    "name", "model", "precision", "kv_bytes_per_value", "input_tokens", "output_tokens", "requests_per_second",
    "max_seconds_per_output_token", "max_seconds_to_first_token", "max_batch", "gpus", "buying", "mfu",
    "decode_bandwidth_efficiency", "usable_memory_fraction"};

/// A service, checked by the library and ranked at load, so that a service no offering can hold fails
/// here, at its place.
LlmServingSpec read_serving(const Field& f, const Catalog& catalog, const std::string& currency) {
    const auto m = f.map(serving_keys);
    LlmFields fields{f, {}};
    const auto at = [&](std::string_view key) {
        auto v = m.find(key);
        if (v) fields.seen.emplace_back(std::string(key), *v);
        return v;
    };
    LlmServingSpec spec;
    LlmServing& s = spec.serving;
    s.name = m.get("name").text();
    s.model = fields.model(m.get("model"));
    if (auto v = at("precision")) s.precision = v->choice<LlmPrecision>();
    if (auto v = at("kv_bytes_per_value")) s.kv_bytes_per_value = v->number();
    s.input_tokens = positive(m.get("input_tokens"));
    at("input_tokens");
    s.output_tokens = positive(m.get("output_tokens"));
    at("output_tokens");
    s.requests_per_second = positive(m.get("requests_per_second"));
    at("requests_per_second");
    if (auto v = at("max_seconds_per_output_token")) s.max_seconds_per_output_token = positive(*v);
    if (auto v = at("max_seconds_to_first_token")) s.max_seconds_to_first_token = positive(*v);
    if (auto v = at("max_batch")) s.max_batch = LlmFields::whole(*v);
    if (auto v = at("gpus")) spec.gpus = LlmFields::gpus(*v, catalog);
    if (auto v = at("buying")) spec.buying = LlmFields::buying(*v, llm_buying_ways());
    if (auto v = at("mfu")) spec.mfu = LlmFields::mfu(*v);
    if (auto v = at("decode_bandwidth_efficiency")) spec.decode_bandwidth_efficiency = LlmFields::share(*v);
    if (auto v = at("usable_memory_fraction")) spec.usable_memory_fraction = LlmFields::share(*v);
    try {
        s.validate();
    } catch (const InvalidInput& e) {
        throw fields.renamed(e, "serving.");
    }
    // Without the spot fleets first (each is the serving planner's simulation): an on-demand or reserved
    // row shows that an offering holds the service; only without one are the spot fleets ranked too.
    LlmRankOptions trial = spec.rank_options(currency);
    trial.allow_empty = true;
    const bool spot = trial.spot;
    trial.spot = false;
    LlmServingRanking r;
    if (trial.on_demand || trial.reserved) r = f.checked([&] { return rank_llm_serving(s, catalog, trial); });
    if (r.rows.empty() && spot) {
        trial.spot = true;
        r = f.checked([&] { return rank_llm_serving(s, catalog, trial); });
    }
    if (r.rows.empty()) {
        if (r.skipped.empty()) f.fail("no offering of these GPUs is priced the ways listed in buying");
        f.fail(no_offering_reasons(r.skipped));
    }
    return spec;
}

}  // namespace

void read_llm_serving(const Field::Map& m, Scenario& s, const ReadState& state, const Offering& offering) {
    if (auto v = m.find("llm_serving")) {
        const auto items = v->list();
        if (items.empty()) v->fail("must have at least one service (or leave it out)");
        for (const Field& item : items) {
            s.llm_serving.push_back(read_serving(item, state.catalog, s.currency.value_or(offering.currency)));
            for (std::size_t i = 0; i + 1 < s.llm_serving.size(); ++i)
                if (s.llm_serving[i].serving.name == s.llm_serving.back().serving.name)
                    item.fail("duplicate service name");
        }
    }
}

}  // namespace gputco::scenario_read
