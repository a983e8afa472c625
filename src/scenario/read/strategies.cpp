// `strategies`: named strategies, each on demand, reserved, owned or a mix of tranches (a spot
// tranche may name a spot job whose simulation gives its overhead).
#include "readers.hpp"

namespace gputco::scenario_read {

namespace {

Reserved read_reserved(const Field& f) {
    Errors errors;  // each term read on past another's error
    const auto m = f.map({"term_years", "payment", "reservation_discount", "discount", "renewal"}, errors);
    Reserved r;
    errors.attempt([&] { r.term_years = read_term(m.get("term_years")); });
    errors.attempt([&] { r.payment = read_payment(m.get("payment")); });
    errors.attempt([&] {
        if (auto d = m.find("reservation_discount", "discount")) {  // "discount": the old spelling
            r.reservation_discount = d->number();
            if (*r.reservation_discount < 0 || *r.reservation_discount >= 1) d->fail("must be in [0, 1)");
        }
    });
    errors.attempt([&] {
        if (auto rn = m.find("renewal")) r.renewal = rn->choice<Renewal>();
    });
    errors.done();
    return r;
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

}  // namespace

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

// With plans, jobs or workloads, strategies may be left out; otherwise they are the scenario's question.
void read_strategies(const Field::Map& m, Scenario& s, ReadState&) {
    const bool workloads = m.has("workloads") || m.has("services") || m.has("llm_training") || m.has("llm_serving") ||
                           m.has("recommend");
    if ((s.plans.empty() && s.spot_jobs.empty() && s.deadline_jobs.empty() && !workloads) || m.has("strategies")) {
        const Field strategies = m.get("strategies");
        Errors errors;  // every strategy's errors, each strategy read on its own
        for (const Field& item : strategies.list())
            errors.attempt([&] { s.strategies.push_back(read_strategy(item, s.spot_jobs)); });
        errors.done();
        if (s.strategies.empty() && s.spot_jobs.empty() && s.plans.empty() && s.deadline_jobs.empty() && !workloads)
            strategies.fail("must have at least one strategy (or a spot job, a deadline job, a plan, a workload or a recommend section)");
    }
}

}  // namespace gputco::scenario_read
