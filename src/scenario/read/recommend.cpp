// `recommend`: the recommender's options (optimise/recommend.hpp) and what its study is judged on
// (app/recommend_study.hpp). Every key left out keeps the library's default: the section starts from
// RecommendSpec{} and sets only what the file gives. The rules that need the offering or the futures
// (a term the offering lists, a spot price) are the recommender's, checked when it runs.
#include "readers.hpp"
#include "gputco/optimise/flex_start_option.hpp"

namespace gputco::scenario_read {

namespace {

bool read_bool(const Field& f) { return f.choice({"true", "false"}) == "true"; }

/// An integer at least `low` (and small enough for an int).
int integer_at_least(const Field& f, int low) {
    const long long v = f.integer();
    if (v < low || v > 1'000'000) f.fail(fmt::format("must be in [{}, 1000000]", low));
    return int(v);
}

/// Reads each item of a list on its own (every item's errors reported).
template <class Read>
void read_items(const Field& list, Read&& read) {
    Errors errors;
    for (const Field& item : list.list()) errors.attempt([&] { read(item); });
    errors.done();
}

CommitmentOption read_commitment_option(const Field& item) {
    const auto cm = item.map({"term_years", "term_months", "payment", "reservation_discount"});
    CommitmentOption c;
    if (auto v = cm.find("term_months")) c.term_months = integer_at_least(*v, 0);  // its rule: the recommender's
    if (c.term_months == 0 || cm.find("term_years")) c.term_years = read_term(cm.get("term_years"));
    c.payment = read_payment(cm.get("payment"));
    if (auto v = cm.find("reservation_discount")) {
        c.reservation_discount = v->number();
        if (*c.reservation_discount < 0 || *c.reservation_discount >= 1) v->fail("must be in [0, 1)");
    }
    return c;
}

SavingsPlanOption read_savings_plan_option(const Field& item) {
    const auto sm = item.map({"type", "term_years", "payment", "rate_per_gpu_hour"});
    SavingsPlanOption sp;
    sp.type = sm.get("type").choice<SavingsPlanType>();
    sp.term_years = read_term(sm.get("term_years"));
    sp.payment = read_payment(sm.get("payment"));
    if (auto v = sm.find("rate_per_gpu_hour")) sp.rate_per_gpu_hour = positive(*v);
    return sp;
}

SpotOption read_spot_option(const Field& item) {
    const auto sm = item.map({"name", "overhead", "availability", "price_per_gpu_hour", "deadline_miss_probability"});
    SpotOption o;
    o.name = sm.get("name").text();
    if (auto v = sm.find("overhead")) {
        o.overhead = v->number();
        if (o.overhead < 1) v->fail("must be >= 1");
    }
    if (auto v = sm.find("availability")) o.availability = v->fraction();
    if (auto v = sm.find("price_per_gpu_hour")) o.price_per_gpu_hour = v->non_negative();
    if (auto v = sm.find("deadline_miss_probability")) o.deadline_miss_probability = v->fraction();
    return o;
}

/// `owned`: hardware the recommender may buy, its terms as a strategy's `owned` (read_owned).
OwnedOption read_owned_option(const Field& f, int months) {
    const auto om = f.map({"terms", "months", "max_gpus", "step_gpus"});
    OwnedOption o;
    o.terms = read_owned(om.get("terms"));
    if (auto v = om.find("months")) {
        o.months.clear();
        read_items(*v, [&](const Field& i) { o.months.push_back(read_month(i, months)); });
        if (o.months.empty()) v->fail("must have at least one month");
    }
    o.max_gpus = integer_at_least(om.get("max_gpus"), 0);
    if (auto v = om.find("step_gpus")) o.step_gpus = integer_at_least(*v, 1);
    return o;
}

void read_limits(const Field& f, RiskLimits& limits) {
    Errors errors;
    const auto lm = f.map({"cvar95", "upfront_per_period", "upfront_period_months", "committed_share",
                           "deadline_miss_probability", "capacity_assurance"}, errors);
    errors.attempt([&] { if (auto v = lm.find("cvar95")) limits.cvar95 = v->non_negative(); });
    errors.attempt([&] { if (auto v = lm.find("upfront_per_period")) limits.upfront_per_period = v->non_negative(); });
    errors.attempt([&] {
        if (auto v = lm.find("upfront_period_months")) limits.upfront_period_months = integer_at_least(*v, 1);
    });
    errors.attempt([&] { if (auto v = lm.find("committed_share")) limits.committed_share = v->non_negative(); });
    errors.attempt([&] {
        if (auto v = lm.find("deadline_miss_probability")) limits.deadline_miss_probability = v->fraction();
    });
    errors.attempt([&] { if (auto v = lm.find("capacity_assurance")) limits.capacity_assurance = v->fraction(); });
    errors.done();
}

void read_baselines(const Field& f, RecommendSpec& spec) {
    Errors errors;
    const auto bm = f.map({"term_years", "payment", "history"}, errors);
    errors.attempt([&] { if (auto v = bm.find("term_years")) spec.baseline_term_years = read_term(*v); });
    errors.attempt([&] { if (auto v = bm.find("payment")) spec.baseline_payment = read_payment(*v); });
    errors.attempt([&] { if (auto v = bm.find("history")) spec.history_from_demand = v->choice({"demand", "none"}) == "demand"; });
    errors.done();
}

RecommendSpec read_recommend(const Field& f, const Scenario& s) {
    Errors errors;
    const auto m = f.map({"commitments", "start_months", "review_months", "unit", "max_count", "savings_plans",
                          "capacity_blocks", "flex_start", "spot", "owned", "objective", "limits", "on_demand_capacity", "max_blocks",
                          "time_limit_seconds", "held", "held_savings_plans", "changes", "held_out", "hindsight_bound",
                          "cvar95_limits", "hold_cvar95_limit", "baselines"}, errors);
    RecommendSpec spec;
    RecommendOptions& o = spec.options;
    errors.attempt([&] {
        if (auto v = m.find("commitments")) read_items(*v, [&](const Field& i) { o.commitments.push_back(read_commitment_option(i)); });
    });
    errors.attempt([&] {
        if (auto v = m.find("start_months"))
            read_items(*v, [&](const Field& i) { o.start_months.push_back(read_month(i, s.horizon_months)); });
    });
    errors.attempt([&] { if (auto v = m.find("review_months")) o.review_months = integer_at_least(*v, 1); });
    errors.attempt([&] { if (auto v = m.find("unit")) o.unit = v->choice<CountUnit>(); });
    errors.attempt([&] { if (auto v = m.find("max_count")) o.max_count = v->non_negative(); });
    errors.attempt([&] {
        if (auto v = m.find("savings_plans"))
            read_items(*v, [&](const Field& i) { o.savings_plans.push_back(read_savings_plan_option(i)); });
    });
    errors.attempt([&] {
        if (auto v = m.find("capacity_blocks")) {
            const auto bm = v->map({"lead_days", "price_per_instance_hour", "kind"});
            CapacityBlockOption blocks;
            if (auto d = bm.find("lead_days")) blocks.lead_days = integer_at_least(*d, 0);  // its rule: the engine's
            if (auto p = bm.find("price_per_instance_hour")) blocks.price_per_instance_hour = positive(*p);
            if (auto k = bm.find("kind")) blocks.kind = k->choice<BlockKind>();  // the plans' names
            o.capacity_blocks = blocks;
        }
    });
    errors.attempt([&] {
        if (auto v = m.find("flex_start")) {  // what is left out keeps FlexStartOption's default
            const auto fm = v->map({"discount", "grant_probability"});
            FlexStartOption flex;
            if (auto d = fm.find("discount")) flex.discount = d->number();
            if (auto g = fm.find("grant_probability")) flex.grant_probability = g->number();
            v->checked([&] {  // the recommender's rules, named at this mapping
                validate(flex, v->path());
                return 0;
            });
            o.flex_start = flex;
        }
    });
    errors.attempt([&] {
        if (auto v = m.find("spot")) read_items(*v, [&](const Field& i) { o.spot.push_back(read_spot_option(i)); });
    });
    errors.attempt([&] { if (auto v = m.find("owned")) o.owned = read_owned_option(*v, s.horizon_months); });
    errors.attempt([&] { if (auto v = m.find("objective")) o.objective = v->choice<Objective>(); });
    errors.attempt([&] { if (auto v = m.find("limits")) read_limits(*v, o.limits); });
    errors.attempt([&] {
        if (auto v = m.find("on_demand_capacity")) {
            const auto cm = v->map({"unavailable_share", "mean_wait_hours"});
            OnDemandCapacity& c = o.on_demand_capacity;
            if (auto u = cm.find("unavailable_share")) c.unavailable_share = u->number();
            if (auto w = cm.find("mean_wait_hours")) c.mean_wait_hours = w->number();
            v->checked([&] {  // the library's rules, named at this mapping
                c.validate(v->path());
                return 0;
            });
        }
    });
    errors.attempt([&] {
        if (auto v = m.find("max_blocks")) {
            o.max_blocks = integer_at_least(*v, 1);
            if (o.max_blocks > 730) v->fail("must be in [1, 730]");
        }
    });
    errors.attempt([&] { if (auto v = m.find("time_limit_seconds")) o.time_limit_seconds = positive(*v); });
    errors.attempt([&] {  // what every plan holds: a plan's `held` items, read by the plans' reader
        if (auto v = m.find("held")) read_items(*v, [&](const Field& i) { o.held.push_back(read_held(i)); });
    });
    errors.attempt([&] {  // Savings Plans bought before the horizon: a plan's savings_plans item, start_month < 0
        if (auto v = m.find("held_savings_plans"))
            read_items(*v, [&](const Field& i) { o.held_savings_plans.push_back(read_savings_plan(i, s.horizon_months, true)); });
    });
    errors.attempt([&] {
        if (auto v = m.find("changes")) {  // what may be done with `held`; what is left out keeps ChangeOptions'
            const auto cm = v->map({"resale_price_share", "exchange_into", "refund", "azure_exchange_into"});
            ChangeOptions changes;
            if (auto r = cm.find("resale_price_share")) changes.resale_price_share = r->number();
            if (auto e = cm.find("exchange_into"))
                read_items(*e, [&](const Field& i) { changes.exchange_into.push_back(read_commitment_option(i)); });
            if (auto r = cm.find("refund")) changes.refund = read_bool(*r);
            if (auto e = cm.find("azure_exchange_into"))
                read_items(*e, [&](const Field& i) { changes.azure_exchange_into.push_back(read_commitment_option(i)); });
            v->checked([&] {  // the recommender's rules, named at this mapping
                validate(changes, v->path());
                return 0;
            });
            o.changes = changes;
        }
    });
    errors.attempt([&] {
        if (auto v = m.find("held_out")) {
            const long long n = v->integer();
            if (n < 0 || n > 1'000'000) v->fail("must be in [0, 1000000]");
            if (n > 0 && !s.futures) v->fail("needs futures: held-out futures are drawn from their model");
            spec.held_out = std::size_t(n);
        }
    });
    errors.attempt([&] { if (auto v = m.find("hindsight_bound")) spec.hindsight_bound = read_bool(*v); });
    errors.attempt([&] {
        if (auto v = m.find("cvar95_limits")) read_items(*v, [&](const Field& i) { spec.cvar95_limits.push_back(i.non_negative()); });
    });
    errors.attempt([&] { if (auto v = m.find("hold_cvar95_limit")) spec.hold_cvar95_limit = read_bool(*v); });
    errors.attempt([&] { if (auto v = m.find("baselines")) read_baselines(*v, spec); });
    errors.done();
    return spec;
}

}  // namespace

void read_recommend_key(const Field::Map& top, Scenario& s, ReadState&) {
    if (auto f = top.find("recommend")) s.recommend = read_recommend(*f, s);
}

}  // namespace gputco::scenario_read
