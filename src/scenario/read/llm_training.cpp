// `llm_training`: LLM training runs (pre-training, full fine-tunes, LoRA/QLoRA), ranked over the
// catalog's offerings by rank_llm_training.
#include "llm_common.hpp"

namespace gputco::scenario_read {

namespace {

const std::vector<std::string> training_keys{
    "name", "model", "tokens", "sequence_length", "precision", "method", "trainable_fraction",
    "activation_checkpointing", "micro_batch_sequences", "global_batch_sequences", "gpus", "buying", "mfu", "min_gpus", "max_gpus",
    "usable_memory_fraction", "spot"};

/// A training run, checked by the library and tried once without spot (no Monte Carlo at load), so
/// that a run no offering can hold fails here, at its place, rather than when the scenario runs.
LlmTrainingSpec read_training(const Field& f, const Catalog& catalog, const std::string& currency) {
    const auto m = f.map(training_keys);
    LlmFields fields{f, {}};
    const auto at = [&](std::string_view key) {
        auto v = m.find(key);
        if (v) fields.seen.emplace_back(std::string(key), *v);
        return v;
    };
    LlmTrainingSpec spec;
    LlmTraining& t = spec.training;
    t.name = m.get("name").text();
    t.model = fields.model(m.get("model"));
    t.tokens = positive(m.get("tokens"));
    at("tokens");
    if (auto v = at("sequence_length")) t.sequence_length = LlmFields::whole(*v);
    if (auto v = at("precision")) t.precision = v->choice<LlmPrecision>();
    if (auto v = at("method")) t.method = v->choice<TrainingMethod>();
    if (auto v = at("trainable_fraction")) t.trainable_fraction = v->number();
    if (auto v = at("activation_checkpointing")) t.activation_checkpointing = v->choice({"true", "false"}) == "true";
    if (auto v = at("micro_batch_sequences")) t.micro_batch_sequences = LlmFields::whole(*v);
    if (auto v = at("global_batch_sequences")) t.global_batch_sequences = LlmFields::whole(*v);
    if (auto v = at("gpus")) spec.gpus = LlmFields::gpus(*v, catalog);
    if (auto v = at("buying")) spec.buying = LlmFields::buying(*v, llm_training_buying_ways());
    if (auto v = at("mfu")) spec.mfu = LlmFields::mfu(*v);
    if (auto v = at("min_gpus")) spec.min_gpus = LlmFields::whole(*v);
    if (auto v = at("max_gpus")) {
        spec.max_gpus = LlmFields::whole(*v);
        if (spec.max_gpus < 1 || spec.max_gpus > 1'048'576) v->fail("must be in [1, 1048576]");
        if (spec.min_gpus > spec.max_gpus) v->fail(fmt::format("must be >= min_gpus ({})", spec.min_gpus));
    }
    if (auto v = at("usable_memory_fraction")) spec.usable_memory_fraction = LlmFields::share(*v);
    if (auto sp = m.find("spot")) {
        const auto sm = sp->map({"mtbf_hours", "restart_hours", "storage_gb_per_second_per_instance", "paths"});
        if (auto v = sm.find("mtbf_hours")) spec.mtbf_hours = v->duration();
        if (auto v = sm.find("restart_hours")) spec.restart_hours = v->hours_or_zero();
        if (auto v = sm.find("storage_gb_per_second_per_instance")) spec.storage_gb_per_second_per_instance = positive(*v);
        if (auto v = sm.find("paths")) {
            const long long p = v->integer();
            if (p < 1 || p > 10'000'000) v->fail("must be in [1, 10000000]");
            spec.paths = std::size_t(p);
        }
    }
    try {
        t.validate();
    } catch (const InvalidInput& e) {
        throw fields.renamed(e, "training.");
    }
    // On demand and reserved without the Monte Carlo: which offerings can hold the run at all.
    LlmRankOptions trial = spec.rank_options(currency, 0);
    const bool on_demand = trial.on_demand, spot = trial.spot, reserved = trial.reserved,
               capacity_block = trial.capacity_block;
    trial.on_demand = trial.reserved = trial.capacity_block = true;
    trial.spot = false;
    trial.allow_empty = true;
    const LlmTrainingRanking r = f.checked([&] { return rank_llm_training(t, catalog, trial); });
    const bool costed = std::any_of(r.rows.begin(), r.rows.end(), [&](const LlmTrainingRow& row) {
        if (row.buying == BuyingWay::reserved) return reserved;
        if (row.buying == BuyingWay::capacity_block) return capacity_block;
        const Offering* o = OfferingRef{row.provider, row.instance_type, row.region, {}}.in(catalog);
        return on_demand || (spot && o && o->spot_hourly);
    });
    if (!costed) {
        if (!r.rows.empty()) f.fail("no offering of these GPUs is priced the ways listed in buying");
        f.fail(no_offering_reasons(r.skipped));
    }
    return spec;
}

}  // namespace

void read_llm_training(const Field::Map& m, Scenario& s, const ReadState& state, const Offering& offering) {
    if (auto v = m.find("llm_training")) {
        const auto items = v->list();
        if (items.empty()) v->fail("must have at least one training run (or leave it out)");
        for (const Field& item : items) {
            s.llm_training.push_back(read_training(item, state.catalog, s.currency.value_or(offering.currency)));
            for (std::size_t i = 0; i + 1 < s.llm_training.size(); ++i)
                if (s.llm_training[i].training.name == s.llm_training.back().training.name)
                    item.fail("duplicate training run name");
        }
    }
}

}  // namespace gputco::scenario_read
