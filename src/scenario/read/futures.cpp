// `futures`: the random demand futures plans are judged over.
#include "readers.hpp"

namespace gputco::scenario_read {

namespace {

std::vector<double> read_factors(const Field& f, std::size_t count) {
    const auto items = f.list();
    if (items.size() != count) f.fail(fmt::format("must have {} numbers", count));
    std::vector<double> out;
    for (const Field& item : items) out.push_back(item.non_negative());
    return out;
}

FuturesSpec read_futures(const Field& f, int months) {
    const auto m = f.map({"count", "base_gpus", "monthly_log_growth", "monthly_log_volatility", "events",
                          "seasonality", "hour_of_week", "history_monthly_gpus"});
    FuturesSpec spec;
    if (auto v = m.find("count")) {
        const long long n = v->integer();
        if (n < 1 || n > 1'000'000) v->fail("must be in [1, 1000000]");
        spec.count = std::size_t(n);
    }
    DemandModel& model = spec.model;
    model.base_gpus = m.get("base_gpus").non_negative();
    if (auto v = m.find("monthly_log_growth")) model.monthly_log_growth = v->number();
    if (auto v = m.find("monthly_log_volatility")) model.monthly_log_volatility = v->non_negative();
    if (auto e = m.find("events")) {
        for (const Field& item : e->list()) {
            const auto em = item.map({"gpus", "probability", "first_month", "last_month"});
            DemandEvent event;
            event.gpus = em.get("gpus").non_negative();
            if (auto v = em.find("probability")) event.probability = v->fraction();
            event.first_month = read_month(em.get("first_month"), months);
            const Field last = em.get("last_month");
            event.last_month = read_month(last, months);
            if (event.last_month < event.first_month) last.fail("must be >= first_month");
            model.events.push_back(event);
        }
    }
    if (auto v = m.find("seasonality")) model.seasonality = read_factors(*v, 12);
    if (auto v = m.find("hour_of_week")) model.hour_of_week = read_factors(*v, 168);
    if (auto v = m.find("history_monthly_gpus")) {
        const auto items = v->list();
        if (items.size() < 2) v->fail("must have at least 2 months");
        for (const Field& item : items) {
            const double g = item.number();
            if (g <= 0) item.fail("must be > 0");
            model.history_monthly_gpus.push_back(g);
        }
    }
    f.checked([&] { model.validate(Horizon::months(months)); return 0; });
    return spec;
}

}  // namespace

void read_futures_key(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto f = m.find("futures")) s.futures = read_futures(*f, s.horizon_months);
}

void check_futures_have_plans(const Field::Map& m, Scenario& s, ReadState&) {
    if (s.futures && s.plans.empty() && !s.recommend)
        m.get("futures").fail("needs plans (or recommend) to evaluate over the futures");
}

}  // namespace gputco::scenario_read
