// Plans over time: commitments at any month, demand futures, prices over time, and the plan engine's
// distributions. Per-future outcomes and monthly bands go to NumPy columns (gputco/_plan.py turns
// them into DataFrames).
#include "register.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <fmt/format.h>
#include <gputco/catalog/price_schedule.hpp>
#include <gputco/engines/plan_engine.hpp>

namespace gputco::python {

namespace {

PlanOptions plan_options(const std::optional<Discounts>& discounts, double annual_discount_rate, unsigned threads,
                         const std::optional<ExchangeRates>& exchange_rates = std::nullopt,
                         const py::object& rate_date = py::none()) {
    PlanOptions options;
    require(exchange_rates.has_value() == !rate_date.is_none(), "rate_date", std::string(py::str(rate_date)),
            "give exchange_rates and rate_date together");
    if (exchange_rates) {
        options.conversion = CurrencyConversion{*exchange_rates, Date::parse(py::str(rate_date).cast<std::string>(), "rate_date")};
    }
    if (discounts) options.discounts = *discounts;
    options.annual_discount_rate = annual_discount_rate;
    options.threads = threads;
    options.should_stop = &ctrl_c_pressed;  // polled by the calling thread with the GIL taken back
    return options;
}

template <class T, class Field>
py::array_t<double> column_of(const std::vector<T>& rows, Field field) {
    py::array_t<double> out(py::ssize_t(rows.size()));
    auto view = out.mutable_unchecked<1>();
    for (std::size_t i = 0; i < rows.size(); ++i) view(py::ssize_t(i)) = double(rows[i].*field);
    return out;
}

py::array_t<double> matrix(const Eigen::ArrayXXd& a) {
    py::array_t<double> out({py::ssize_t(a.rows()), py::ssize_t(a.cols())});
    auto view = out.mutable_unchecked<2>();
    for (Eigen::Index r = 0; r < a.rows(); ++r)
        for (Eigen::Index c = 0; c < a.cols(); ++c) view(r, c) = a(r, c);
    return out;
}

py::dict distribution_dict(const Distribution& d) {
    py::dict out;
    out["mean"] = d.mean;
    out["standard_error"] = d.standard_error;
    out["p5"] = d.p5;
    out["p50"] = d.p50;
    out["p95"] = d.p95;
    out["cvar95"] = d.cvar95;
    out["min"] = d.min;
    out["max"] = d.max;
    return out;
}

}  // namespace

void register_plan(py::module_& m) {
    py::class_<Commitment>(m, "Commitment",
                           "A reservation of `count` GPUs (or instances) for `term_years`, bought at the start "
                           "of `start_month` at that month's prices.")
        .def(py::init([](double count, std::string_view unit, int term_years, std::string_view payment,
                         int start_month, std::string_view renewal, std::optional<double> reservation_discount,
                         std::optional<Offering> offering, int term_months, std::string_view kind,
                         std::optional<double> discount) {
                 return Commitment{count, parse<CountUnit>(unit, "commitment.unit"), term_years, parse_payment(payment, "commitment.payment"),
                                   start_month, parse<Renewal>(renewal, "commitment.renewal"),
                                   renamed_keyword(reservation_discount, discount, "reservation_discount", "discount"),
                                   std::move(offering), term_months, parse<CommitmentClass>(kind, "commitment.kind")};
             }),
             py::arg("count"), py::kw_only(), py::arg("unit") = "gpus", py::arg("term_years") = 1,
             py::arg("payment") = "no_upfront", py::arg("start_month") = 0, py::arg("renewal") = "lapse",
             py::arg("reservation_discount") = py::none(), py::arg("offering") = py::none(), py::arg("term_months") = 0,
             py::arg("kind") = "standard", py::arg("discount") = py::none())
        .def_readonly("term_months", &Commitment::term_months)
        .def_property_readonly("kind", [](const Commitment& c) { return std::string(to_text(c.kind)); })
        .def_readonly("count", &Commitment::count)
        .def_property_readonly("unit", [](const Commitment& c) { return std::string(to_text(c.unit)); })
        .def_readonly("term_years", &Commitment::term_years)
        .def_property_readonly("payment", [](const Commitment& c) { return std::string(to_string(c.payment)); })
        .def_readonly("start_month", &Commitment::start_month)
        .def_property_readonly("renewal", [](const Commitment& c) { return std::string(to_text(c.renewal)); })
        .def_readonly("reservation_discount", &Commitment::reservation_discount)
        .def_property_readonly("discount", [](const Commitment& c) {  // the old spelling
            warn_renamed_attribute("discount", "reservation_discount");
            return c.reservation_discount;
        })
        .def_readonly("offering", &Commitment::offering)
        .def("__repr__", [](const Commitment& c) {
            return fmt::format("Commitment({:g}, unit='{}', term_years={}, payment='{}', start_month={}, renewal='{}')",
                               c.count, to_text(c.unit), c.term_years,
                               to_string(c.payment), c.start_month, to_text(c.renewal));
        });

    py::class_<HeldCommitment>(m, "HeldCommitment",
                               "A reservation bought before the horizon: `count` GPUs (or instances) from "
                               "`start_month` (<= 0) to `end_month` (> 0); only its hourly charges left are paid "
                               "(the upfront is sunk).")
        .def(py::init([](double count, int start_month, int end_month, std::string id, std::string_view unit,
                         std::optional<double> hourly_per_gpu, std::string_view payment, double upfront_per_gpu,
                         std::string_view kind, std::optional<Offering> offering) {
                 return HeldCommitment{std::move(id), count, parse<CountUnit>(unit, "held.unit"), start_month, end_month,
                                       hourly_per_gpu, parse_payment(payment, "held.payment"), upfront_per_gpu,
                                       parse<CommitmentClass>(kind, "held.kind"), std::move(offering)};
             }),
             py::arg("count"), py::kw_only(), py::arg("start_month"), py::arg("end_month"), py::arg("id") = "",
             py::arg("unit") = "gpus", py::arg("hourly_per_gpu") = py::none(), py::arg("payment") = "no_upfront",
             py::arg("upfront_per_gpu") = 0.0, py::arg("kind") = "standard", py::arg("offering") = py::none())
        .def_readonly("id", &HeldCommitment::id)
        .def_readonly("count", &HeldCommitment::count)
        .def_property_readonly("unit", [](const HeldCommitment& h) { return std::string(to_text(h.unit)); })
        .def_readonly("start_month", &HeldCommitment::start_month)
        .def_readonly("end_month", &HeldCommitment::end_month)
        .def_readonly("hourly_per_gpu", &HeldCommitment::hourly_per_gpu)
        .def_property_readonly("payment", [](const HeldCommitment& h) { return std::string(to_string(h.payment)); })
        .def_readonly("upfront_per_gpu", &HeldCommitment::upfront_per_gpu)
        .def_property_readonly("kind", [](const HeldCommitment& h) { return std::string(to_text(h.kind)); })
        .def_readonly("offering", &HeldCommitment::offering)
        .def("__repr__", [](const HeldCommitment& h) {
            return fmt::format("HeldCommitment({:g}, id='{}', unit='{}', start_month={}, end_month={}, kind='{}')", h.count,
                               h.id, to_text(h.unit), h.start_month, h.end_month, to_text(h.kind));
        });

    py::class_<CommitmentChange>(m, "CommitmentChange",
                                 "An exchange, resale or refund of the plan's held[held] or commitments[commitment] "
                                 "at `month`.")
        .def(py::init([](std::string_view kind, int month, std::optional<std::size_t> held,
                         std::optional<std::size_t> commitment, std::optional<Commitment> into, double price) {
                 require(held.has_value() != commitment.has_value(), "change.held", held ? "given" : "none",
                         "give one of held or commitment (the index of the one changed)");
                 return CommitmentChange{parse<ChangeKind>(kind, "change.kind"), held.has_value(),
                                         held ? *held : *commitment, month, std::move(into), price};
             }),
             py::arg("kind"), py::kw_only(), py::arg("month"), py::arg("held") = py::none(),
             py::arg("commitment") = py::none(), py::arg("into") = py::none(), py::arg("price") = 0.0)
        .def_property_readonly("kind", [](const CommitmentChange& c) { return std::string(to_text(c.kind)); })
        .def_readonly("held", &CommitmentChange::held)
        .def_readonly("index", &CommitmentChange::index)
        .def_readonly("month", &CommitmentChange::month)
        .def_readonly("into", &CommitmentChange::into)
        .def_readonly("price", &CommitmentChange::price);

    py::class_<CommitmentUse>(m, "CommitmentUse", "One commitment's paid, used and unused GPU-hours over a plan.")
        .def_readonly("name", &CommitmentUse::name)
        .def_readonly("held", &CommitmentUse::held)
        .def_readonly("gpus", &CommitmentUse::gpus)
        .def_readonly("first_month", &CommitmentUse::first_month)
        .def_readonly("end_month", &CommitmentUse::end_month)
        .def_readonly("paid_gpu_hours", &CommitmentUse::paid_gpu_hours)
        .def_readonly("used_gpu_hours", &CommitmentUse::used_gpu_hours)
        .def_readonly("unused_gpu_hours", &CommitmentUse::unused_gpu_hours)
        .def("__repr__", [](const CommitmentUse& u) {
            return fmt::format("CommitmentUse('{}', paid {:.0f}, used {:.0f}, unused {:.0f} GPU-h)", u.name,
                               u.paid_gpu_hours, u.used_gpu_hours, u.unused_gpu_hours);
        });

    py::class_<OwnedPurchase>(m, "OwnedPurchase", "Owned GPUs bought at the start of `month` (terms as Owned).")
        .def(py::init([](double gpus, int month, const Owned& terms) { return OwnedPurchase{gpus, month, terms}; }),
             py::arg("gpus"), py::kw_only(), py::arg("month") = 0, py::arg("terms"))
        .def_readonly("gpus", &OwnedPurchase::gpus)
        .def_readonly("month", &OwnedPurchase::month)
        .def_readonly("terms", &OwnedPurchase::terms);

    py::class_<SpotPeriod>(m, "SpotPeriod", "From `first_month` on, spot overhead and availability change.")
        .def(py::init([](int first_month, double overhead, double availability) {
                 return SpotPeriod{first_month, overhead, availability};
             }),
             py::kw_only(), py::arg("first_month"), py::arg("overhead") = 1.0, py::arg("availability") = 1.0)
        .def_readonly("first_month", &SpotPeriod::first_month)
        .def_readonly("overhead", &SpotPeriod::overhead)
        .def_readonly("availability", &SpotPeriod::availability);

    py::class_<SpotShare>(m, "SpotShare",
                          "Spot capacity of `gpus` GPUs: `overhead` billed hours per useful hour, there in a "
                          "fraction `availability` of hours (the rest runs on demand).")
        .def(py::init([](double gpus, std::optional<double> price, double overhead, double availability,
                         std::vector<SpotPeriod> periods) {
                 return SpotShare{gpus, price, overhead, availability, std::move(periods)};
             }),
             py::arg("gpus"), py::kw_only(), py::arg("price_per_gpu_hour") = py::none(), py::arg("overhead") = 1.0,
             py::arg("availability") = 1.0, py::arg("periods") = std::vector<SpotPeriod>{})
        .def_readonly("periods", &SpotShare::periods)
        .def_readonly("gpus", &SpotShare::gpus)
        .def_readonly("price_per_gpu_hour", &SpotShare::price_per_gpu_hour)
        .def_readonly("overhead", &SpotShare::overhead)
        .def_readonly("availability", &SpotShare::availability)
        .def_readonly("overhead_samples", &SpotShare::overhead_samples);

    py::class_<SavingsPlan>(m, "SavingsPlan",
                            "A Savings Plan: `commitment_per_hour` for `term_years` from `start_month`, paying for "
                            "demand at its rate each hour (after commitments, before spot and on demand), used or not.")
        .def(py::init([](double commitment_per_hour, std::string_view type, int term_years, std::string_view payment,
                         int start_month, std::string_view renewal, std::optional<double> rate_per_gpu_hour,
                         std::string id) {
                 return SavingsPlan{commitment_per_hour, parse<SavingsPlanType>(type, "savings_plan.type"), term_years,
                                    parse_payment(payment, "savings_plan.payment"), start_month,
                                    parse<Renewal>(renewal, "savings_plan.renewal"), rate_per_gpu_hour, std::move(id)};
             }),
             py::arg("commitment_per_hour"), py::kw_only(), py::arg("type") = "aws_compute", py::arg("term_years") = 1,
             py::arg("payment") = "no_upfront", py::arg("start_month") = 0, py::arg("renewal") = "lapse",
             py::arg("rate_per_gpu_hour") = py::none(), py::arg("id") = "")
        .def_readonly("commitment_per_hour", &SavingsPlan::commitment_per_hour)
        .def_property_readonly("type", [](const SavingsPlan& s) { return std::string(to_text(s.type)); })
        .def_readonly("term_years", &SavingsPlan::term_years)
        .def_property_readonly("payment", [](const SavingsPlan& s) { return std::string(to_string(s.payment)); })
        .def_readonly("start_month", &SavingsPlan::start_month)
        .def_property_readonly("renewal", [](const SavingsPlan& s) { return std::string(to_text(s.renewal)); })
        .def_readonly("rate_per_gpu_hour", &SavingsPlan::rate_per_gpu_hour)
        .def_readonly("id", &SavingsPlan::id, "how the report names it (e.g. a bill's CommitmentDiscountId)")
        .def("__repr__", [](const SavingsPlan& s) {
            return fmt::format("SavingsPlan({:g}, type='{}', term_years={}, payment='{}', start_month={}, renewal='{}'{})",
                               s.commitment_per_hour, to_text(s.type), s.term_years, to_string(s.payment), s.start_month,
                               to_text(s.renewal), s.id.empty() ? std::string() : fmt::format(", id='{}'", s.id));
        });
    // Fixed windows of capacity: capacity blocks in a plan, dated windows of demand beside the futures.
    py::class_<CapacityBlock>(m, "CapacityBlock",
                              "An EC2 Capacity Block: `instances` (1-64) of the plan's offering for `days` (1-14, or "
                              "whole weeks up to 182) from `start_day`, bought `lead_days` (<= 56) before and paid in "
                              "full then; stopped 30 minutes before the end. kind='gcp_calendar_mode': a GCP calendar-"
                              "mode reservation (1-80 VMs, 1-90 days, a given price, charged as it runs).")
        .def(py::init([](int instances, int days, int start_day, int lead_days, std::optional<double> price,
                         std::string_view kind) {
                 return CapacityBlock{instances, days, start_day, lead_days, price,
                                      parse<BlockKind>(kind, "capacity_block.kind")};
             }),
             py::kw_only(), py::arg("instances"), py::arg("days"), py::arg("start_day"), py::arg("lead_days") = 0,
             py::arg("price_per_instance_hour") = py::none(), py::arg("kind") = "aws_capacity_block")
        .def_property_readonly("kind", [](const CapacityBlock& b) { return std::string(to_text(b.kind)); })
        .def_readonly("instances", &CapacityBlock::instances)
        .def_readonly("days", &CapacityBlock::days)
        .def_readonly("start_day", &CapacityBlock::start_day)
        .def_readonly("lead_days", &CapacityBlock::lead_days)
        .def_readonly("price_per_instance_hour", &CapacityBlock::price_per_instance_hour)
        .def_property_readonly("usable_hours", &CapacityBlock::usable_hours);
    py::class_<DemandWindow>(m, "DemandWindow",
                             "`gpus` more GPUs busy from `start_day` for `days` days, on top of every future.")
        .def(py::init([](double start_day, double days, double gpus) { return DemandWindow{start_day, days, gpus}; }),
             py::kw_only(), py::arg("start_day"), py::arg("days"), py::arg("gpus"))
        .def_readonly("start_day", &DemandWindow::start_day)
        .def_readonly("days", &DemandWindow::days)
        .def_readonly("gpus", &DemandWindow::gpus);

    py::class_<FlexStartRequest>(m, "FlexStartRequest",
                                 "A GCP Dynamic Workload Scheduler flex-start request for a dated window: granted in a "
                                 "future with `grant_probability`, a run of `gpus` GPUs from `start_day` for `days` "
                                 "(<= 7) days at (1 - discount) x on demand, serving first in its hours.")
        .def(py::init([](double gpus, double start_day, double days, double discount, double grant_probability) {
                 return FlexStartRequest{gpus, start_day, days, discount, grant_probability};
             }),
             py::kw_only(), py::arg("gpus"), py::arg("start_day"), py::arg("days"), py::arg("discount"),
             py::arg("grant_probability"))
        .def_readonly("gpus", &FlexStartRequest::gpus)
        .def_readonly("start_day", &FlexStartRequest::start_day)
        .def_readonly("days", &FlexStartRequest::days)
        .def_readonly("discount", &FlexStartRequest::discount)
        .def_readonly("grant_probability", &FlexStartRequest::grant_probability)
        .def_readonly_static("max_days", &FlexStartRequest::max_days)
        .def_readonly_static("max_queue_hours", &FlexStartRequest::max_queue_hours);

    py::class_<Plan>(m, "Plan",
                     "Commitments bought at given months, owned hardware, a spot share and on-demand for the "
                     "rest; served in that order each hour.")
        .def(py::init([](std::vector<Commitment> commitments, std::vector<OwnedPurchase> owned,
                         std::optional<SpotShare> spot, std::string name, std::vector<SavingsPlan> savings_plans,
                         std::vector<CapacityBlock> capacity_blocks, std::vector<HeldCommitment> held,
                         std::vector<CommitmentChange> changes, std::vector<FlexStartRequest> flex_starts,
                         std::string_view billing) {
                 return Plan{.name = std::move(name), .commitments = std::move(commitments), .owned = std::move(owned),
                             .savings_plans = std::move(savings_plans), .spot = std::move(spot),
                             .billing = parse<Units>(billing, "plan.billing"),
                             .capacity_blocks = std::move(capacity_blocks), .held = std::move(held),
                             .changes = std::move(changes), .flex_starts = std::move(flex_starts)};
             }),
             py::arg("commitments") = std::vector<Commitment>{}, py::kw_only(),
             py::arg("owned") = std::vector<OwnedPurchase>{}, py::arg("spot") = py::none(), py::arg("name") = "",
             py::arg("savings_plans") = std::vector<SavingsPlan>{},
             py::arg("capacity_blocks") = std::vector<CapacityBlock>{},
             py::arg("held") = std::vector<HeldCommitment>{}, py::arg("changes") = std::vector<CommitmentChange>{},
             py::arg("flex_starts") = std::vector<FlexStartRequest>{}, py::arg("billing") = "gpus")
        .def_readonly("capacity_blocks", &Plan::capacity_blocks)
        .def_readonly("flex_starts", &Plan::flex_starts)
        .def_readonly("held", &Plan::held)
        .def_readonly("changes", &Plan::changes)
        .def_static("from_mix", &plan_from_mix, py::arg("mix"), py::arg("fleet_gpus"),
                    "The plan a Mix stands for (fleet: mix.fleet_gpus, else `fleet_gpus`).")
        .def_readonly("name", &Plan::name)
        .def_readonly("commitments", &Plan::commitments)
        .def_readonly("owned", &Plan::owned)
        .def_readonly("spot", &Plan::spot)
        .def_readonly("more_spot", &Plan::more_spot)
        .def_readonly("savings_plans", &Plan::savings_plans)
        .def_property_readonly("billing", [](const Plan& p) { return std::string(to_string(p.billing)); })
        .def("__str__", [](const Plan& p) {  // what it buys, after its name if it has one
            Plan parts = p;
            parts.name.clear();
            return p.name.empty() ? describe(parts) : p.name + ": " + describe(parts);
        })
        .def("__repr__", [](const Plan& p) { return fmt::format("Plan('{}')", describe(p)); });

    py::class_<DemandEvent>(m, "DemandEvent",
                            "With `probability`, `gpus` more GPUs from a month drawn uniformly from "
                            "[first_month, last_month] on.")
        .def(py::init([](double gpus, double probability, int first_month, int last_month) {
                 return DemandEvent{gpus, probability, first_month, last_month};
             }),
             py::kw_only(), py::arg("gpus"), py::arg("probability"), py::arg("first_month"), py::arg("last_month"))
        .def_readonly("gpus", &DemandEvent::gpus)
        .def_readonly("probability", &DemandEvent::probability)
        .def_readonly("first_month", &DemandEvent::first_month)
        .def_readonly("last_month", &DemandEvent::last_month);

    py::class_<DemandModel>(m, "DemandModel",
                            "How demand may evolve: lognormal growth (or a bootstrap of a history), step "
                            "events, seasonality and an hour-of-week shape.")
        .def(py::init([](double base_gpus, double growth, double volatility, std::vector<DemandEvent> events,
                         std::vector<double> seasonality, std::vector<double> hour_of_week, std::vector<double> history) {
                 return DemandModel{base_gpus, growth, volatility, std::move(events), std::move(seasonality),
                                    std::move(hour_of_week), std::move(history)};
             }),
             py::arg("base_gpus"), py::kw_only(), py::arg("monthly_log_growth") = 0.0,
             py::arg("monthly_log_volatility") = 0.0, py::arg("events") = std::vector<DemandEvent>{},
             py::arg("seasonality") = std::vector<double>{}, py::arg("hour_of_week") = std::vector<double>{},
             py::arg("history_monthly_gpus") = std::vector<double>{})
        .def_static("from_history", &DemandModel::from_history, py::arg("history"))
        .def_readonly("base_gpus", &DemandModel::base_gpus)
        .def_readonly("monthly_log_growth", &DemandModel::monthly_log_growth)
        .def_readonly("monthly_log_volatility", &DemandModel::monthly_log_volatility)
        .def_readonly("events", &DemandModel::events)
        .def_readonly("seasonality", &DemandModel::seasonality)
        .def_readonly("hour_of_week", &DemandModel::hour_of_week)
        .def_readonly("history_monthly_gpus", &DemandModel::history_monthly_gpus);
    m.def("expected_level", &expected_level, py::arg("model"), py::arg("month"),
          "E[level] of a month under a model without history (closed form).");

    py::class_<DemandFutures>(m, "DemandFutures", "Seeded futures of hourly demand: a level per month × an hourly shape.")
        .def_static(
            "generate",
            [](const DemandModel& model, Horizon horizon, std::size_t futures, std::uint64_t seed) {
                py::gil_scoped_release release;
                return DemandFutures::generate(model, horizon, futures, seed);
            },
            py::arg("model"), py::arg("horizon"), py::arg("futures"), py::arg("seed"))
        .def_static("from_profile", &DemandFutures::from_profile, py::arg("profile"))
        .def_static("from_profiles", &DemandFutures::from_profiles, py::arg("profiles"))
        .def_property_readonly("count", &DemandFutures::count)
        .def_property_readonly("horizon", &DemandFutures::horizon)
        .def_property_readonly("levels", [](const DemandFutures& f) { return matrix(f.levels()); },
                               "Levels, months × futures.")
        .def("gpu_hours", &DemandFutures::gpu_hours, py::arg("future"), py::arg("month"))
        .def("profile", &DemandFutures::profile, py::arg("future"));

    py::class_<PriceChange>(m, "PriceChange", "From `date` (YYYY-MM) on, list prices times these factors.")
        .def(py::init([](std::string date, double on_demand, double spot, double reserved, std::string source) {
                 return PriceChange{std::move(date), on_demand, spot, reserved, std::move(source)};
             }),
             py::arg("date"), py::kw_only(), py::arg("on_demand_factor") = 1.0, py::arg("spot_factor") = 1.0,
             py::arg("reserved_factor") = 1.0, py::arg("source") = "")
        .def_readonly("date", &PriceChange::date)
        .def_readonly("on_demand_factor", &PriceChange::on_demand_factor)
        .def_readonly("spot_factor", &PriceChange::spot_factor)
        .def_readonly("reserved_factor", &PriceChange::reserved_factor)
        .def_readonly("source", &PriceChange::source);

    py::class_<GenerationLaunch>(m, "GenerationLaunch",
                                 "A new GPU generation that, with `probability`, launches in a month of "
                                 "[first_month, last_month] and lowers the older GPUs' prices from then on.")
        .def(py::init([](double probability, int first, int last, double on_demand, double spot, double reserved) {
                 return GenerationLaunch{probability, first, last, on_demand, spot, reserved};
             }),
             py::kw_only(), py::arg("probability"), py::arg("first_month"), py::arg("last_month"),
             py::arg("on_demand_factor") = 1.0, py::arg("spot_factor") = 1.0, py::arg("reserved_factor") = 1.0)
        .def_readonly("probability", &GenerationLaunch::probability)
        .def_readonly("first_month", &GenerationLaunch::first_month)
        .def_readonly("last_month", &GenerationLaunch::last_month);

    py::class_<PriceModel>(m, "PriceModel", "Prices over the plan's months: dated changes and uncertain launches.")
        .def(py::init([](std::string start, std::vector<PriceChange> changes, std::vector<GenerationLaunch> launches) {
                 return PriceModel{std::move(start), std::move(changes), std::move(launches)};
             }),
             py::kw_only(), py::arg("start") = "", py::arg("changes") = std::vector<PriceChange>{},
             py::arg("launches") = std::vector<GenerationLaunch>{})
        .def_readonly("start", &PriceModel::start)
        .def_readonly("changes", &PriceModel::changes)
        .def_readonly("launches", &PriceModel::launches);

    py::class_<PricePaths>(m, "PricePaths", "Price factors per month (rows) and future (columns, or one shared).")
        .def_property_readonly("on_demand", [](const PricePaths& p) { return matrix(p.on_demand); })
        .def_property_readonly("spot", [](const PricePaths& p) { return matrix(p.spot); })
        .def_property_readonly("reserved", [](const PricePaths& p) { return matrix(p.reserved); })
        .def_property_readonly("reserved_3y", [](const PricePaths& p) { return matrix(p.reserved_3y); })
        .def_property_readonly("launch_month", [](const PricePaths& p) { return matrix(p.launch_month.cast<double>()); });
    m.def("price_paths", &price_paths, py::arg("model"), py::arg("horizon"), py::arg("futures"), py::arg("seed"));
    m.def(
        "aws_june_2025_price_cut",
        [](const Offering& offering, int term_years, std::optional<std::string_view> savings_plan_type) {
            if (!savings_plan_type) return aws_june_2025_price_cut(offering, term_years);
            return aws_june_2025_price_cut(offering, parse<SavingsPlanType>(*savings_plan_type, "savings_plan_type"),
                                           term_years);
        },
        py::arg("offering"), py::arg("term_years") = 0, py::arg("savings_plan_type") = py::none(),
        "AWS's June 2025 P4d/P4de/P5/P5en cut as a dated PriceChange of that offering; with term_years 1 or 3, "
        "commitments by AWS's published Savings Plan cut for that term; with savings_plan_type (aws_ec2_instance "
        "or aws_compute), by that purchase option's own cut.");

    py::class_<Distribution>(m, "Distribution", "Mean ± standard error, P5/P50/P95 and CVaR95 over futures.")
        .def_readonly("mean", &Distribution::mean)
        .def_readonly("standard_error", &Distribution::standard_error)
        .def_readonly("p5", &Distribution::p5)
        .def_readonly("p50", &Distribution::p50)
        .def_readonly("p95", &Distribution::p95)
        .def_readonly("cvar95", &Distribution::cvar95)
        .def_readonly("min", &Distribution::min)
        .def_readonly("max", &Distribution::max)
        .def("_asdict", &distribution_dict)
        .def("__repr__", [](const Distribution& d) {
            return fmt::format("Distribution(mean={:.2f} ± {:.2f}, p5={:.2f}, p50={:.2f}, p95={:.2f}, cvar95={:.2f})",
                               d.mean, d.standard_error, d.p5, d.p50, d.p95, d.cvar95);
        });
    m.def("distribution_of", [](const std::vector<double>& samples) { return distribution_of(samples); },
          py::arg("samples"));

    py::class_<PlanDistribution>(m, "PlanDistribution", "What a plan costs over many futures.")
        .def_readonly("plan", &PlanDistribution::plan)
        .def_readonly("offering", &PlanDistribution::offering)
        .def_readonly("currency", &PlanDistribution::currency)
        .def_readonly("horizon_months", &PlanDistribution::horizon_months)
        .def_readonly("annual_discount_rate", &PlanDistribution::annual_discount_rate)
        .def_readonly("total", &PlanDistribution::total)
        .def_readonly("npv", &PlanDistribution::npv)
        .def_readonly("regret", &PlanDistribution::regret)
        .def_readonly("mean_months", &PlanDistribution::mean_months)
        .def_readonly("mean_committed_spend", &PlanDistribution::mean_committed_spend)
        .def_readonly("committed_utilisation", &PlanDistribution::committed_utilisation)
        .def_readonly("mean_stranded_unused", &PlanDistribution::mean_stranded_unused)
        .def_readonly("mean_stranded_above_market", &PlanDistribution::mean_stranded_above_market)
        .def_readonly("best_fraction", &PlanDistribution::best_fraction)
        .def_readonly("conversions", &PlanDistribution::conversions)
        .def_readonly("catalog_rates", &PlanDistribution::catalog_rates)
        .def_readonly("commitment_use", &PlanDistribution::commitment_use)
        .def_readonly("changes", &PlanDistribution::changes)
        .def_property_readonly("future_count", [](const PlanDistribution& d) { return d.futures.size(); })
        .def("_future_columns",
             [](const PlanDistribution& d) {
                 py::dict out;
                 out["total"] = column_of(d.futures, &FutureOutcome::total);
                 out["npv"] = column_of(d.futures, &FutureOutcome::npv);
                 out["regret"] = column_of(d.futures, &FutureOutcome::regret);
                 out["demand_gpu_hours"] = column_of(d.futures, &FutureOutcome::demand_gpu_hours);
                 out["committed_spend"] = column_of(d.futures, &FutureOutcome::committed_spend);
                 out["committed_gpu_hours"] = column_of(d.futures, &FutureOutcome::committed_gpu_hours);
                 out["committed_used_gpu_hours"] = column_of(d.futures, &FutureOutcome::committed_used_gpu_hours);
                 out["stranded_unused"] = column_of(d.futures, &FutureOutcome::stranded_unused);
                 out["stranded_above_market"] = column_of(d.futures, &FutureOutcome::stranded_above_market);
                 return out;
             })
        .def("_band_columns",
             [](const PlanDistribution& d) {
                 py::dict out;
                 out["month"] = column_of(d.monthly, &MonthlyBand::month);
                 for (const auto& [name, field] : {std::pair{"mean", &MonthlyBand::mean}, std::pair{"p5", &MonthlyBand::p5},
                                                   std::pair{"p50", &MonthlyBand::p50}, std::pair{"p95", &MonthlyBand::p95}}) {
                     out[name] = column_of(d.monthly, field);
                     out[py::str(fmt::format("cumulative_{}", name))] = column_of(d.cumulative, field);
                 }
                 return out;
             })
        .def("__repr__", [](const PlanDistribution& d) {
            return fmt::format("PlanDistribution('{}', {} futures, total mean {:.2f} ± {:.2f} {}, p95 {:.2f})", d.plan,
                               d.futures.size(), d.total.mean, d.total.standard_error, d.currency, d.total.p95);
        });

    m.def(
        "evaluate_plan",
        [](const Plan& plan, const DemandFutures& futures, const Offering& offering, const std::optional<PricePaths>& prices,
           const std::optional<Discounts>& discounts, double annual_discount_rate, unsigned threads,
           const std::optional<ExchangeRates>& exchange_rates, const py::object& rate_date,
           std::vector<DemandWindow> windows, std::uint64_t seed) {
            PlanOptions options = plan_options(discounts, annual_discount_rate, threads, exchange_rates, rate_date);
            options.windows = std::move(windows);
            options.seed = seed;
            return without_gil_until_ctrl_c([&] { return evaluate_plan(plan, futures, offering, prices ? *prices : PricePaths{}, options); });
        },
        py::arg("plan"), py::arg("futures"), py::arg("offering"), py::kw_only(), py::arg("prices") = py::none(),
        py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0, py::arg("threads") = 0u,
        py::arg("exchange_rates") = py::none(), py::arg("rate_date") = py::none(),
        py::arg("windows") = std::vector<DemandWindow>{}, py::arg("seed") = std::uint64_t{0},
        "The distribution of a plan's cost over the futures (and price paths); `seed` draws flex-start grants.");
    m.def(
        "compare_plans",
        [](const std::vector<Plan>& plans, const DemandFutures& futures, const Offering& offering,
           const std::optional<PricePaths>& prices, const std::optional<Discounts>& discounts,
           double annual_discount_rate, unsigned threads, const std::optional<ExchangeRates>& exchange_rates,
           const py::object& rate_date, std::vector<DemandWindow> windows, std::uint64_t seed) {
            PlanOptions options = plan_options(discounts, annual_discount_rate, threads, exchange_rates, rate_date);
            options.windows = std::move(windows);
            options.seed = seed;
            return without_gil_until_ctrl_c([&] { return compare_plans(plans, futures, offering, prices ? *prices : PricePaths{}, options); });
        },
        py::arg("plans"), py::arg("futures"), py::arg("offering"), py::kw_only(), py::arg("prices") = py::none(),
        py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0, py::arg("threads") = 0u,
        py::arg("exchange_rates") = py::none(), py::arg("rate_date") = py::none(),
        py::arg("windows") = std::vector<DemandWindow>{}, py::arg("seed") = std::uint64_t{0},
        "Several plans over the same futures, with each future's regret against the cheapest of them; `seed` draws "
        "flex-start grants.");
    m.def(
        "hindsight_reservation_totals",
        [](const DemandFutures& futures, const Offering& offering, int term_years, std::string_view payment,
           const std::optional<PricePaths>& prices, const std::optional<Discounts>& discounts,
           double annual_discount_rate, unsigned threads) {
            const PlanOptions options = plan_options(discounts, annual_discount_rate, threads);
            const Payment pay = parse_payment(payment, "payment");
            std::vector<double> gpus, totals;
            totals = without_gil_until_ctrl_c([&] {
                return hindsight_reservation_totals(futures, offering, term_years, pay, prices ? *prices : PricePaths{},
                                                    options, &gpus);
            });
            return py::make_tuple(py::array_t<double>(py::ssize_t(totals.size()), totals.data()),
                                  py::array_t<double>(py::ssize_t(gpus.size()), gpus.data()));
        },
        py::arg("futures"), py::arg("offering"), py::arg("term_years"), py::arg("payment"), py::kw_only(),
        py::arg("prices") = py::none(), py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0,
        py::arg("threads") = 0u,
        "(totals, gpus): each future's cheapest whole reservation level in hindsight, and that level.");
    py::class_<PlanOptions>(m, "PlanOptions",
                            "How the plan engine prices: discounts, NPV rate, threads, currency conversion.")
        .def(py::init([](const std::optional<Discounts>& discounts, double annual_discount_rate, unsigned threads,
                         const std::optional<ExchangeRates>& exchange_rates, const py::object& rate_date,
                         std::vector<DemandWindow> windows, std::uint64_t seed) {
                 PlanOptions options = plan_options(discounts, annual_discount_rate, threads, exchange_rates, rate_date);
                 options.windows = std::move(windows);  // dated windows of demand on top of every future
                 options.seed = seed;                   // flex-start grants, per future
                 return options;
             }),
             py::kw_only(), py::arg("discounts") = py::none(), py::arg("annual_discount_rate") = 0.0,
             py::arg("threads") = 0u, py::arg("exchange_rates") = py::none(), py::arg("rate_date") = py::none(),
             py::arg("windows") = std::vector<DemandWindow>{}, py::arg("seed") = std::uint64_t{0})
        .def_readonly("windows", &PlanOptions::windows)
        .def_readonly("seed", &PlanOptions::seed)
        .def_readonly("discounts", &PlanOptions::discounts)
        .def_readonly("annual_discount_rate", &PlanOptions::annual_discount_rate)
        .def_readonly("threads", &PlanOptions::threads)
        .def("__repr__", [](const PlanOptions& o) {
            return fmt::format("PlanOptions(annual_discount_rate={}, threads={}{})", o.annual_discount_rate, o.threads,
                               o.conversion ? ", with a currency conversion" : "");
        });
}

}  // namespace gputco::python
