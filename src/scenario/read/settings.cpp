// The scenario's settings: name, description, horizon, currency, discount rate, units, seed, the
// discounts on the offering's prices, and the outputs asked for.
#include "readers.hpp"

namespace gputco::scenario_read {

void read_name(const Field::Map& m, Scenario& s, ReadState&) {
    s.name = m.get("name").text();
}

void read_description(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto v = m.find("description")) s.description = v->text();
}

void read_horizon_months(const Field::Map& m, Scenario& s, ReadState&) {
    const Field h = m.get("horizon_months");
    const long long months = h.integer();
    if (months < 1 || months > 600) h.fail("must be in [1, 600]");
    s.horizon_months = int(months);
}

void read_currency(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto v = m.find("currency")) s.currency = v->text();
}

void read_annual_discount_rate(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto v = m.find("annual_discount_rate")) {
        s.annual_discount_rate = v->number();
        if (!(s.annual_discount_rate >= limits::min_annual_discount_rate &&
              s.annual_discount_rate <= limits::max_annual_discount_rate))
            v->fail(fmt::format("must be in [{:g}, {:g}] (a fraction a year: 0.05 for 5%)",
                                limits::min_annual_discount_rate, limits::max_annual_discount_rate));
    }
}

void read_units(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto v = m.find("units")) s.units = v->choice<Units>();
}

void read_seed(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto v = m.find("seed")) {
        const long long seed = v->integer();
        if (seed < 0) v->fail("must be >= 0");
        s.seed = std::uint64_t(seed);
    }
}

void read_discounts(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto d = m.find("discounts")) {
        Errors errors;  // each figure read on past another's error; the library's check once all are read
        const auto dm = d->map({"on_demand_discount", "plan_discount", "free_gpu_hours", "voucher_price_factor",
                                "region_price_factor"}, errors);
        // "plan_discount": the old spelling of on_demand_discount
        errors.attempt([&] {
            if (auto v = dm.find("on_demand_discount", "plan_discount")) s.discounts.on_demand_discount = v->number();
        });
        for (auto [key, value] : {std::pair{"free_gpu_hours", &s.discounts.free_gpu_hours},
                                  std::pair{"voucher_price_factor", &s.discounts.voucher_price_factor},
                                  std::pair{"region_price_factor", &s.discounts.region_price_factor}})
            errors.attempt([&dm, key = key, value = value] {
                if (auto v = dm.find(key)) *value = v->number();
            });
        errors.done();
        d->checked([&] { s.discounts.validate(); return 0; });
    }
}

void read_outputs(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto o = m.find("outputs")) {
        Errors errors;  // every output that is not one
        for (const Field& item : o->list()) errors.attempt([&] { s.outputs.push_back(item.choice(scenario_output_names())); });
        errors.done();
    }
}

}  // namespace gputco::scenario_read
