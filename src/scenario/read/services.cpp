// `services`: services on spot across zones.
#include <cmath>

#include "readers.hpp"

namespace gputco::scenario_read {

namespace {

/// A service on spot across zones (`services:`): its zones' traces are read here, relative to the
/// scenario's folder, and checked together with the config by the serving engine.
ServiceSpec read_service(const Field& f, const std::string& base_dir) {
    const auto m = f.map({"name", "replicas", "zones", "launch_hours", "notice_hours", "on_demand_price_per_hour",
                          "availability_target", "policies", "max_extra", "max_on_demand_base", "days", "tick_hours",
                          "correlation", "seed"});
    ServiceSpec svc;
    svc.name = m.get("name").text();
    const Field replicas = m.get("replicas");
    const long long n = replicas.integer();
    if (n < 1 || n > static_cast<long long>(ServingLimits::max_replicas))
        replicas.fail(fmt::format("must be in [1, {}]", ServingLimits::max_replicas));
    svc.replicas = std::size_t(n);
    const Field zones = m.get("zones");
    for (const Field& item : zones.list()) {
        const auto zm = item.map({"name", "trace", "spot_price_per_hour", "mtbf_hours", "mean_down_hours"});
        ServiceZoneSpec z;
        z.name = zm.get("name").text();
        z.spot_price_per_hour = positive(zm.get("spot_price_per_hour"));
        const auto trace = zm.find("trace");
        const auto mtbf = zm.find("mtbf_hours");
        if (trace.has_value() == mtbf.has_value()) item.fail("needs either trace or mtbf_hours (a generated zone)");
        if (!svc.zones.empty() && svc.zones[0].mtbf_hours.has_value() != mtbf.has_value())
            item.fail("must be of the kind of zones[0]: all traces or all generated");
        if (mtbf) {
            z.mtbf_hours = mtbf->duration();
            if (auto v = zm.find("mean_down_hours")) z.mean_down_hours = v->duration();
        } else {
            if (auto v = zm.find("mean_down_hours")) v->fail("is for a generated zone (with mtbf_hours)");
            z.trace_file = trace->text();
            const std::string path = !z.trace_file.empty() && z.trace_file.front() == '/' ? z.trace_file
                                                                                          : base_dir + "/" + z.trace_file;
            z.availability = trace->checked([&] {
                return SpotAvailability::from_json(read_scenario_file(path),
                                                   {.values = TraceValues::available_nodes, .nodes_needed = 1});
            });
        }
        svc.zones.push_back(std::move(z));
    }
    if (svc.zones.empty()) zones.fail("must list at least one zone");
    const bool generated = svc.zones[0].mtbf_hours.has_value();
    for (const char* key : {"days", "tick_hours", "correlation", "seed"})
        if (auto v = m.find(key); v && !generated) v->fail("is for generated zones (with mtbf_hours)");
    if (generated) {
        if (auto v = m.find("days")) svc.days = positive(*v);
        if (auto v = m.find("tick_hours")) svc.tick_hours = v->duration();
        if (auto v = m.find("correlation")) svc.correlation = v->fraction();
        if (auto v = m.find("seed")) {
            const long long seed = v->integer();
            if (seed < 0) v->fail("must be >= 0");
            svc.seed = std::uint64_t(seed);
        }
        const double ticks = svc.days * 24 / svc.tick_hours;
        if (!(ticks >= 1 && ticks <= double(SpotAvailability::max_ticks)) ||
            std::abs(ticks - std::round(ticks)) > 1e-9 * ticks)
            zones.fail(fmt::format("days = {:g} must be a whole number of ticks of tick_hours = {:g}, at most {}",
                                   svc.days, svc.tick_hours, SpotAvailability::max_ticks));
        std::vector<ZoneProcess> processes;
        for (const ServiceZoneSpec& z : svc.zones)
            processes.push_back({.up = Poisson{.mtbf_hours = *z.mtbf_hours}, .mean_down_hours = z.mean_down_hours});
        const auto traces = zones.checked([&] {
            return generate_zone_availability(processes, svc.correlation, std::size_t(std::llround(ticks)),
                                              svc.tick_hours, svc.seed);
        });
        for (std::size_t i = 0; i < traces.size(); ++i) svc.zones[i].availability = traces[i];
    }
    if (auto v = m.find("launch_hours")) svc.launch_hours = v->non_negative();
    if (auto v = m.find("notice_hours")) svc.notice_hours = v->non_negative();
    if (auto v = m.find("on_demand_price_per_hour")) svc.on_demand_price_per_hour = positive(*v);
    if (auto v = m.find("availability_target")) {
        svc.search.availability_target = v->number();
        if (!(svc.search.availability_target > 0 && svc.search.availability_target <= 1)) v->fail("must be in (0, 1]");
    }
    if (auto p = m.find("policies")) {
        svc.search.policies.clear();
        for (const Field& item : p->list()) svc.search.policies.push_back(item.choice<ServingPolicy>());
        if (svc.search.policies.empty()) p->fail("must name at least one policy");
    }
    const auto count = [&](std::string_view key, std::size_t max) -> std::optional<std::size_t> {
        const auto v = m.find(key);
        if (!v) return std::nullopt;
        const long long x = v->integer();
        if (x < 0 || x > static_cast<long long>(max)) v->fail(fmt::format("must be in [0, {}]", max));
        return std::size_t(x);
    };
    if (auto x = count("max_extra", ServingLimits::max_replicas)) svc.search.max_extra = *x;
    if (auto x = count("max_on_demand_base", svc.replicas)) svc.search.max_on_demand_base = *x;
    // The zones and the config as the engine checks them (one price stands in for the offering's).
    f.checked([&] {
        ServingConfig config = svc.config(svc.on_demand_price_per_hour.value_or(1.0));
        config.extra_spot = svc.search.max_extra;
        config.on_demand_base = svc.search.max_on_demand_base;
        config.record_ready = false;
        return serving_lower_bound(svc.regions(), config).cost;
    });
    return svc;
}

}  // namespace

void read_services(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto v = m.find("services")) {
        Errors errors;  // every service's errors, each service read on its own
        for (const Field& item : v->list())
            errors.attempt([&] {
                s.services.push_back(read_service(item, s.base_dir));
                for (std::size_t i = 0; i + 1 < s.services.size(); ++i)
                    if (s.services[i].name == s.services.back().name) item.fail("duplicate service name");
            });
        errors.done();
    }
}

}  // namespace gputco::scenario_read
