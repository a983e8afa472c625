// `price_model`: the stochastic price model (catalog/price_dynamics.hpp) the plans are priced under.
#include "gputco/catalog/price_dynamics.hpp"
#include "readers.hpp"

namespace gputco::scenario_read {

namespace {

/// One log-price process: every member optional (0 when absent), the library's rules.
LogPriceProcess read_process(const Field& f) {
    const auto m = f.map({"reversion", "volatility", "drift", "jump_rate", "jump_mean", "jump_sd"});
    LogPriceProcess p;
    if (auto v = m.find("reversion")) p.reversion = v->non_negative();
    if (auto v = m.find("volatility")) p.volatility = v->non_negative();
    if (auto v = m.find("drift")) p.drift = v->number();
    if (auto v = m.find("jump_rate")) p.jump_rate = v->non_negative();
    if (auto v = m.find("jump_mean")) p.jump_mean = v->number();
    if (auto v = m.find("jump_sd")) p.jump_sd = v->non_negative();
    return p;
}

GenerationLaunch read_launch(const Field& f, int months) {
    const auto m = f.map({"probability", "first_month", "last_month", "on_demand_factor", "spot_factor", "reserved_factor"});
    GenerationLaunch l;
    l.probability = m.get("probability").fraction();
    l.first_month = read_month(m.get("first_month"), months);
    const Field last = m.get("last_month");
    l.last_month = read_month(last, months);
    if (l.last_month < l.first_month) last.fail("must be >= first_month");
    for (const auto& [key, factor] : {std::pair{"on_demand_factor", &l.on_demand_factor}, std::pair{"spot_factor", &l.spot_factor},
                                      std::pair{"reserved_factor", &l.reserved_factor}}) {
        if (auto v = m.find(key)) {
            *factor = v->number();
            if (!(*factor > 0)) v->fail("must be > 0");
        }
    }
    return l;
}

PriceDynamics read_price_model(const Field& f, int months) {
    const auto m = f.map({"on_demand", "spot_spread", "spot_correlation", "reserved_1y_spread", "reserved_3y_spread",
                          "launches"});
    PriceDynamics d;
    if (auto v = m.find("on_demand")) d.on_demand = read_process(*v);
    if (auto v = m.find("spot_spread")) d.spot_spread = read_process(*v);
    if (auto v = m.find("spot_correlation")) {
        d.spot_correlation = v->number();
        if (d.spot_correlation < -1 || d.spot_correlation > 1) v->fail("must be in [-1, 1]");
    }
    if (auto v = m.find("reserved_1y_spread")) d.reserved_1y_spread = read_process(*v);
    if (auto v = m.find("reserved_3y_spread")) d.reserved_3y_spread = read_process(*v);
    if (auto v = m.find("launches")) {
        for (const Field& item : v->list()) d.launches.push_back(read_launch(item, months));
    }
    return d;
}

}  // namespace

void read_price_model_key(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto f = m.find("price_model")) s.price_model = read_price_model(*f, s.horizon_months);
}

void check_price_model_has_plans(const Field::Map& m, Scenario& s, ReadState&) {
    if (s.price_model && s.plans.empty() && !s.recommend)
        m.get("price_model").fail("needs plans (or recommend) to price under its paths");
}

}  // namespace gputco::scenario_read
