// `demand`: the deterministic demand profile's kind and its figures.
#include "readers.hpp"

namespace gputco::scenario_read {

namespace {

DemandSpec read_demand(const Field& f) {
    // Each figure is read on past another's error; those of the kind only once the kind is known.
    Errors errors;
    const auto m = f.map({"kind", "gpus", "start_gpus", "end_gpus", "annual_growth_rate", "steps",
                          "daily_pattern", "weekly_pattern", "scale"}, errors);
    DemandSpec d;
    const bool kind_read = errors.attempt([&] { d.kind = m.get("kind").choice({"constant", "linear_growth", "compound_growth", "steps"}); });
    const auto needs = [&](std::string_view key) { return m.get(key); };
    if (kind_read) {
        if (d.kind == "constant") errors.attempt([&] { d.gpus = needs("gpus").non_negative(); });
        if (d.kind == "linear_growth") {
            errors.attempt([&] { d.start_gpus = needs("start_gpus").non_negative(); });
            errors.attempt([&] { d.end_gpus = needs("end_gpus").non_negative(); });
        }
        if (d.kind == "compound_growth") {
            errors.attempt([&] { d.start_gpus = needs("start_gpus").non_negative(); });
            errors.attempt([&] {
                const Field g = needs("annual_growth_rate");
                d.annual_growth_rate = g.number();
                if (d.annual_growth_rate <= -1) g.fail("must be > -1");
            });
        }
        if (d.kind == "steps") {
            errors.attempt([&] {
                Errors step_errors;
                for (const Field& item : needs("steps").list())
                    step_errors.attempt([&] {
                        Errors item_errors;
                        const auto sm = item.map({"start_month", "gpus"}, item_errors);
                        int start_month = 0;
                        double gpus = 0;
                        item_errors.attempt([&] { start_month = int(sm.get("start_month").integer()); });
                        item_errors.attempt([&] { gpus = sm.get("gpus").non_negative(); });
                        item_errors.done();
                        d.steps.push_back({start_month, gpus});
                    });
                step_errors.done();
            });
        }
        for (const char* key : {"gpus", "start_gpus", "end_gpus", "annual_growth_rate", "steps"}) {
            const bool used = (d.kind == "constant" && std::string_view(key) == "gpus") ||
                              (d.kind == "linear_growth" && (std::string_view(key) == "start_gpus" || std::string_view(key) == "end_gpus")) ||
                              (d.kind == "compound_growth" && (std::string_view(key) == "start_gpus" || std::string_view(key) == "annual_growth_rate")) ||
                              (d.kind == "steps" && std::string_view(key) == "steps");
            if (!used && m.has(key)) errors.attempt([&] { m.get(key).fail(fmt::format("not used by kind \"{}\"", d.kind)); });
        }
    }
    errors.attempt([&] {
        if (auto p = m.find("daily_pattern")) d.daily_pattern = p->numbers<24>();
    });
    errors.attempt([&] {
        if (auto p = m.find("weekly_pattern")) d.weekly_pattern = p->numbers<7>();
    });
    errors.attempt([&] {
        if (auto s = m.find("scale")) d.scale = s->non_negative();
    });
    errors.done();
    return d;
}

}  // namespace

void read_demand_key(const Field::Map& m, Scenario& s, ReadState&) {
    s.demand = read_demand(m.get("demand"));
}

}  // namespace gputco::scenario_read
