// `workloads`: work (a model, epochs) whose cost is ranked over offerings and ways of buying.
#include "readers.hpp"
#include "gputco/engines/checkpoint.hpp"

namespace gputco::scenario_read {

namespace {

/// An offering named as the top-level `offering` is: a row of `catalog`, with a did-you-mean if not.
OfferingRef read_offering_ref(const Field& f, const Catalog& catalog) {
    const auto m = f.map({"provider", "instance_type", "region", "zone"});
    OfferingRef ref{m.get("provider").text(), m.get("instance_type").text(),
                    m.find("region") ? m.get("region").text() : std::string(),
                    m.find("zone") ? m.get("zone").text() : std::string()};
    if (!ref.in(catalog)) {
        std::vector<std::string> keys;
        for (const Offering& o : catalog.offerings()) keys.push_back(o.key());
        const std::string key = ref.key();
        const auto near = closest_name(key, keys);
        throw InvalidInput(fmt::format("{}: {} = \"{}\": not in the catalog{}", f.location(), printable_utf8(f.path()),
                                       printable_utf8(key), near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
    }
    return ref;
}

const std::vector<std::string> workload_keys{"name", "model", "work_per_epoch", "epochs", "precision", "memory_gb",
                                             "utilisation", "offerings", "gpus", "buying", "deadline_hours",
                                             "allow_estimates", "spot"};

/// A workload, checked against the built-in throughput table and the scenario's catalog; its
/// ranking is tried once without spot (no Monte Carlo at load) so that a workload no offering can
/// run fails here, at its place, rather than when the scenario runs.
WorkloadSpec read_workload(const Field& f, const Catalog& catalog, const Offering& scenario_offering,
                           const std::string& currency) {
    const auto m = f.map(workload_keys);
    WorkloadSpec w;
    Workload& work = w.workload;
    work.name = m.get("name").text();
    work.model = m.get("model").choice(ThroughputTable::builtin().models());
    work.work_per_epoch = positive(m.get("work_per_epoch"));
    if (auto v = m.find("epochs")) work.epochs = positive(*v);
    if (auto v = m.find("precision")) work.precision = v->choice<Precision>();
    if (auto v = m.find("memory_gb")) work.memory_gb = v->non_negative();
    if (auto v = m.find("utilisation")) {
        work.utilisation = v->number();
        if (work.utilisation <= 0 || work.utilisation > 1) v->fail("must be in (0, 1]");
    }
    if (auto o = m.find("offerings")) {
        const auto items = o->list();
        if (items.empty()) o->fail("must name at least one offering (or leave it out: the scenario's offering)");
        for (const Field& item : items) w.offerings.push_back(read_offering_ref(item, catalog));
    }
    if (auto g = m.find("gpus")) {
        std::vector<std::string> names;
        for (const GpuSpec& spec : catalog.gpus()) names.push_back(spec.name);
        for (const Field& item : g->list()) {
            const std::string gpu = item.text();
            if (std::find(names.begin(), names.end(), gpu) == names.end()) {
                const auto near = closest_name(gpu, names);
                item.fail(fmt::format("not a GPU of the catalog{}",
                                      near ? fmt::format("; did you mean \"{}\"?", printable_utf8(*near)) : ""));
            }
            if (std::none_of(catalog.offerings().begin(), catalog.offerings().end(), [&](const Offering& o) { return o.gpu == gpu; }))
                item.fail("no offering of the catalog has this GPU");
            w.gpus.push_back(gpu);
        }
    }
    if (auto b = m.find("buying")) {
        w.buying.clear();
        for (const Field& item : b->list()) {
            // rank_offerings prices no capacity block: the other four ways only.
            const BuyingWay way = parse<BuyingWay>(item.choice({"on_demand", "spot", "reserved", "owned"}), "buying");
            if (std::find(w.buying.begin(), w.buying.end(), way) != w.buying.end()) item.fail("listed twice");
            w.buying.push_back(way);
        }
        if (w.buying.empty()) b->fail("must name at least one way of buying");
    }
    if (auto v = m.find("deadline_hours")) w.deadline_hours = positive(*v);
    if (auto v = m.find("allow_estimates")) w.allow_estimates = v->choice({"true", "false"}) == "true";
    if (auto sp = m.find("spot")) {
        const auto sm = sp->map({"mtbf_hours", "checkpoint_write_hours", "restart_hours", "capacity_wait_hours", "paths"});
        if (auto v = sm.find("mtbf_hours")) w.mtbf_hours = positive(*v);
        if (auto v = sm.find("checkpoint_write_hours")) w.checkpoint_write_hours = positive(*v);
        if (auto v = sm.find("restart_hours")) w.restart_hours = v->non_negative();
        if (auto v = sm.find("capacity_wait_hours")) w.capacity_wait_hours = v->non_negative();
        if (auto v = sm.find("paths")) {
            const long long p = v->integer();
            if (p < 1 || p > 10'000'000) v->fail("must be in [1, 10000000]");
            w.paths = std::size_t(p);
        }
    }
    // The library's own checks (limits, memory that fits no GPU), then a trial ranking without the
    // Monte Carlo: on demand says which offerings can run the workload at all (a measured or
    // estimated GPU, memory, a rate to the currency), their rows which of the ways asked for exist.
    RankOptions options = w.rank_options(currency);
    const bool on_demand = options.on_demand, spot = options.spot, reserved = options.reserved;
    const bool offering_ways = on_demand || spot || reserved;
    options.on_demand = true;
    options.spot = false;
    options.owned = true;  // owned rows never fail, so the ranking returns its skipped offerings
    // "workload.memory_gb = ..." → "<file:line:column of memory_gb>: workloads[2].memory_gb = ..."
    const auto renamed = [&](const InvalidInput& e) {
        const std::string_view what = e.what();
        if (!what.starts_with("workload.")) return fmt::format("{}: {}", f.location(), what);
        const std::string_view rest = what.substr(9);
        const auto key = m.find(rest.substr(0, rest.find(' ')));
        return fmt::format("{}: {}.{}", key ? key->location() : f.location(), f.path(), rest);
    };
    try {
        const Catalog chosen = w.offerings_in(catalog, scenario_offering);
        const WorkRanking trial = rank_offerings(work, chosen, ThroughputTable::builtin(), options);
        std::vector<std::string> reasons;
        for (const SkippedOffering& skipped : trial.skipped)
            if (!skipped.offering.starts_with("owned/")) reasons.push_back(skipped.offering + ": " + skipped.reason);
        bool costed = false;
        for (const WorkCostRow& row : trial.rows) {
            if (row.provider == "owned" || row.buying != BuyingWay::on_demand) continue;
            const Offering* o = OfferingRef{row.provider, row.instance_type, row.region, {}}.in(chosen);
            const bool spot_priced = o && o->spot_hourly, reservable = o && !o->reserved.empty();
            if (on_demand || (spot && spot_priced) || (reserved && reservable)) costed = true;
            if (spot && spot_priced) {  // a spot run the engine would refuse (too long, too many launches)
                Job job;
                job.work_hours = row.run_hours;
                job.checkpoint_write_hours = w.checkpoint_write_hours;
                job.checkpoint_interval_hours = optimal_checkpoint_interval(w.checkpoint_write_hours, w.mtbf_hours);
                job.restart_hours = w.restart_hours;
                job.capacity_wait_hours = w.capacity_wait_hours;
                try {
                    estimate_spot_work(job, Poisson{.mtbf_hours = w.mtbf_hours});
                } catch (const InvalidInput& e) {
                    f.fail(fmt::format("its run of {:g} h on {} cannot be simulated on spot: {}", row.run_hours,
                                       o->key(), e.what()));
                }
            }
            else reasons.push_back(fmt::format("{}/{}/{}: {}", row.provider, row.region, row.instance_type,
                                               spot && reserved ? "no spot price and no reservation listed"
                                               : spot           ? "no spot price listed"
                                                                : "no reservation listed"));
        }
        if (offering_ways && !costed) f.fail(fmt::format("no offering can run it ({})", fmt::join(reasons, "; ")));
    } catch (const InvalidInput& e) {
        if (std::string_view(e.what()).starts_with(f.location())) throw;
        throw InvalidInput(renamed(e));
    }
    return w;
}

}  // namespace

void read_workloads(const Field::Map& m, Scenario& s, const ReadState& state, const Offering& offering) {
    if (auto wl = m.find("workloads")) {
        const auto items = wl->list();
        if (items.empty()) wl->fail("must have at least one workload (or leave it out)");
        for (const Field& item : items) {
            s.workloads.push_back(read_workload(item, state.catalog, offering, s.currency.value_or(offering.currency)));
            for (std::size_t i = 0; i + 1 < s.workloads.size(); ++i)
                if (s.workloads[i].workload.name == s.workloads.back().workload.name) item.fail("duplicate workload name");
        }
    }
}

}  // namespace gputco::scenario_read
