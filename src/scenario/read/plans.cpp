// `plans`: commitments, owned purchases, Savings Plans and a spot share over the horizon, priced by the
// plan engine.
#include "readers.hpp"
#include "gputco/engines/plan_engine.hpp"

namespace gputco::scenario_read {

/// `held`: reservations bought before the horizon (the engine, or the recommender, checks months and rates,
/// naming plan.held[i] or options.held[i]).
HeldCommitment read_held(const Field& item) {
    const auto hm = item.map({"id", "count", "unit", "start_month", "end_month", "hourly_per_gpu", "payment",
                              "upfront_per_gpu", "kind"});
    HeldCommitment h;
    if (auto v = hm.find("id")) h.id = v->text();
    h.count = hm.get("count").non_negative();
    if (auto v = hm.find("unit")) h.unit = v->choice<CountUnit>();
    h.start_month = int(hm.get("start_month").integer());
    h.end_month = int(hm.get("end_month").integer());
    if (auto v = hm.find("hourly_per_gpu")) h.hourly_per_gpu = v->non_negative();
    if (auto v = hm.find("payment")) h.payment = read_payment(*v);
    if (auto v = hm.find("upfront_per_gpu")) h.upfront_per_gpu = v->non_negative();
    if (auto v = hm.find("kind")) h.kind = v->choice<CommitmentClass>();
    return h;
}

SavingsPlan read_savings_plan(const Field& item, int months, bool held) {
    const auto sm = held ? item.map({"commitment_per_hour", "type", "term_years", "payment", "start_month",
                                     "rate_per_gpu_hour"})
                         : item.map({"commitment_per_hour", "type", "term_years", "payment", "start_month", "renewal",
                                     "rate_per_gpu_hour"});
    SavingsPlan plan_item;
    plan_item.commitment_per_hour = positive(sm.get("commitment_per_hour"));
    plan_item.type = sm.get("type").choice<SavingsPlanType>();
    plan_item.term_years = read_term(sm.get("term_years"));
    plan_item.payment = read_payment(sm.get("payment"));
    if (held) {  // bought before the horizon, not renewed (a renewal is a purchase for the recommender)
        const Field start = sm.get("start_month");
        const long long v = start.integer();
        if (v >= 0 || v < -1'000'000) start.fail("must be in [-1000000, -1] (bought before the horizon)");
        plan_item.start_month = int(v);
        plan_item.renewal = Renewal::lapse;
    } else {
        if (auto v = sm.find("start_month")) plan_item.start_month = read_month(*v, months);
        if (auto v = sm.find("renewal")) plan_item.renewal = v->choice({"renew", "lapse"}) == "renew" ? Renewal::renew : Renewal::lapse;
    }
    if (auto v = sm.find("rate_per_gpu_hour")) plan_item.rate_per_gpu_hour = positive(*v);
    return plan_item;
}

namespace {

/// An integer small enough for an int, whose own rule the engine checks.
int small_integer(const Field& f) {
    const long long v = f.integer();
    if (v < -1'000'000 || v > 1'000'000) f.fail("must be in [-1000000, 1000000]");
    return int(v);
}

Commitment read_commitment(const Field& item, int months) {
    const auto cm = item.map({"count", "unit", "term_years", "payment", "start_month", "renewal", "reservation_discount",
                              "discount", "kind", "term_months"});
    Commitment commitment;
    commitment.count = cm.get("count").non_negative();
    if (auto v = cm.find("unit")) commitment.unit = v->choice({"gpus", "instances"}) == "gpus" ? CountUnit::gpus : CountUnit::instances;
    if (auto v = cm.find("term_months")) commitment.term_months = small_integer(*v);  // a short term (its rules: the engine's)
    if (commitment.term_months == 0 || cm.find("term_years")) commitment.term_years = read_term(cm.get("term_years"));
    commitment.payment = read_payment(cm.get("payment"));
    if (auto v = cm.find("start_month")) commitment.start_month = read_month(*v, months);
    if (auto v = cm.find("renewal")) commitment.renewal = v->choice({"renew", "lapse"}) == "renew" ? Renewal::renew : Renewal::lapse;
    if (auto v = cm.find("reservation_discount", "discount")) {  // "discount": the old spelling
        commitment.reservation_discount = v->number();
        if (*commitment.reservation_discount < 0 || *commitment.reservation_discount >= 1) v->fail("must be in [0, 1)");
    }
    if (auto v = cm.find("kind")) commitment.kind = v->choice<CommitmentClass>();
    return commitment;
}

/// `changes`: an exchange, resale or refund of `held: i` or `commitment: i` at `month`.
CommitmentChange read_change(const Field& item, int months) {
    const auto cm = item.map({"kind", "held", "commitment", "month", "into", "price"});
    CommitmentChange change;
    change.kind = cm.get("kind").choice<ChangeKind>();
    const auto held = cm.find("held"), bought = cm.find("commitment");
    if (held.has_value() == bought.has_value()) item.fail("give one of held or commitment (the index of the one changed)");
    const Field& index = held ? *held : *bought;
    const long long i = index.integer();
    if (i < 0) index.fail("must be >= 0");
    change.held = held.has_value();
    change.index = std::size_t(i);
    change.month = read_month(cm.get("month"), months);
    if (auto v = cm.find("into")) change.into = read_commitment(*v, months);
    if (auto v = cm.find("price")) change.price = v->non_negative();
    return change;
}

/// One spot share: its GPUs, price, overhead, availability, periods from given months and per-path
/// overhead samples (the report's spread).
SpotShare read_spot_share(const Field& f, int months) {
    const auto sm = f.map({"gpus", "price_per_gpu_hour", "overhead", "availability", "periods", "overhead_samples"});
    SpotShare share;
    share.gpus = sm.get("gpus").non_negative();
    if (auto v = sm.find("price_per_gpu_hour")) share.price_per_gpu_hour = v->non_negative();
    const auto overhead = [](const Field& v) {
        const double x = v.number();
        if (x < 1) v.fail("must be >= 1");
        return x;
    };
    if (auto v = sm.find("overhead")) share.overhead = overhead(*v);
    if (auto v = sm.find("availability")) share.availability = v->fraction();
    if (auto ps = sm.find("periods")) {
        for (const Field& item : ps->list()) {
            const auto pm = item.map({"first_month", "overhead", "availability"});
            SpotPeriod period;
            const Field first = pm.get("first_month");
            period.first_month = read_month(first, months);
            if (!share.periods.empty() && period.first_month <= share.periods.back().first_month)
                first.fail("must be after the previous period's first_month");
            if (auto v = pm.find("overhead")) period.overhead = overhead(*v);
            if (auto v = pm.find("availability")) period.availability = v->fraction();
            share.periods.push_back(period);
        }
    }
    if (auto os = sm.find("overhead_samples"))  // the engine's upper bound is checked when the plan is priced
        for (const Field& item : os->list()) share.overhead_samples.push_back(overhead(item));
    return share;
}

Plan read_plan(const Field& f, int months) {
    const auto m = f.map({"name", "billing", "commitments", "owned", "spot", "savings_plans", "capacity_blocks", "held",
                          "changes", "flex_starts"});
    Plan plan;
    plan.name = m.get("name").text();
    if (auto v = m.find("billing")) plan.billing = v->choice<Units>();
    if (auto c = m.find("commitments"))
        for (const Field& item : c->list()) plan.commitments.push_back(read_commitment(item, months));
    if (auto h = m.find("held"))
        for (const Field& item : h->list()) plan.held.push_back(read_held(item));
    if (auto c = m.find("changes"))
        for (const Field& item : c->list()) plan.changes.push_back(read_change(item, months));
    if (auto o = m.find("owned")) {
        for (const Field& item : o->list()) {
            const auto om = item.map({"gpus", "month", "terms"});
            OwnedPurchase purchase;
            purchase.gpus = om.get("gpus").non_negative();
            if (auto v = om.find("month")) purchase.month = read_month(*v, months);
            purchase.terms = read_owned(om.get("terms"));
            plan.owned.push_back(purchase);
        }
    }
    if (auto list = m.find("savings_plans"))
        for (const Field& item : list->list()) plan.savings_plans.push_back(read_savings_plan(item, months, false));
    if (auto sp = m.find("spot")) {
        // One share, or a list of shares served in order (Plan::spot, then Plan::more_spot).
        if (sp->node().IsSequence()) {
            for (const Field& item : sp->list()) {
                if (plan.spot) plan.more_spot.push_back(read_spot_share(item, months));
                else plan.spot = read_spot_share(item, months);
            }
        } else {
            plan.spot = read_spot_share(*sp, months);
        }
    }
    if (auto bs = m.find("capacity_blocks")) {
        for (const Field& item : bs->list()) {
            const auto bm = item.map({"instances", "days", "start_day", "lead_days", "price_per_instance_hour", "kind"});
            CapacityBlock block;  // the rules (instances, days, lead) are the engine's, checked by check_plans_price
            block.instances = small_integer(bm.get("instances"));
            block.days = small_integer(bm.get("days"));
            block.start_day = small_integer(bm.get("start_day"));
            if (auto v = bm.find("lead_days")) block.lead_days = small_integer(*v);
            if (auto v = bm.find("price_per_instance_hour")) block.price_per_instance_hour = positive(*v);
            if (auto v = bm.find("kind")) block.kind = v->choice<BlockKind>();
            plan.capacity_blocks.push_back(block);
        }
    }
    if (auto fs = m.find("flex_starts")) {
        for (const Field& item : fs->list()) {
            // No default for the discount or the grant probability (no public figure); their rules, and
            // the seven-day limit, are the engine's, checked by check_plans_price at the plan's place.
            const auto fm = item.map({"gpus", "start_day", "days", "discount", "grant_probability"});
            plan.flex_starts.push_back({.gpus = positive(fm.get("gpus")),
                                        .start_day = fm.get("start_day").non_negative(),
                                        .days = positive(fm.get("days")),
                                        .discount = fm.get("discount").number(),
                                        .grant_probability = fm.get("grant_probability").number()});
        }
    }
    return plan;
}

}  // namespace

void read_plans(const Field::Map& m, Scenario& s, ReadState& state) {
    if (auto p = m.find("plans")) {
        state.plan_fields = p->list();
        Errors errors;  // every plan's errors, each plan read on its own
        for (const Field& item : state.plan_fields)
            errors.attempt([&] {
                s.plans.push_back(read_plan(item, s.horizon_months));
                for (std::size_t i = 0; i + 1 < s.plans.size(); ++i)
                    if (s.plans[i].name == s.plans.back().name) item.fail("duplicate plan name");
            });
        errors.done();
    }
}

void read_demand_windows(const Field::Map& m, Scenario& s, ReadState&) {
    if (auto w = m.find("demand_windows")) {
        for (const Field& item : w->list()) {
            const auto wm = item.map({"start_day", "days", "gpus"});
            DemandWindow window{wm.get("start_day").non_negative(), positive(wm.get("days")), wm.get("gpus").non_negative()};
            item.checked([&] {
                check_window(window, "window", s.horizon_months);
                return 0;
            });
            s.demand_windows.push_back(window);
        }
    }
}

void check_plans_price(const Scenario& s, const ReadState& state, const Offering& offering) {
    if (!s.plans.empty()) {
        const DemandFutures one = DemandFutures::from_profile(s.demand.build(Horizon::months(s.horizon_months)));
        PlanOptions options;
        options.discounts = s.discounts;
        options.threads = 1;
        options.windows = s.demand_windows;
        for (std::size_t i = 0; i < s.plans.size(); ++i)
            state.plan_fields[i].checked([&] { return evaluate_plan(s.plans[i], one, offering, {}, options); });
    }
}

}  // namespace gputco::scenario_read
