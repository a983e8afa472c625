// From a FOCUS bill to a plan, and the bill's tables (include/gputco/app/bill_plan.hpp).
#include "gputco/app/bill_plan.hpp"

#include <algorithm>
#include <cmath>

#include "gputco/core/date.hpp"

namespace gputco {

const GpuSeries& bill_series_of(const Bill& bill, const Offering& offering) {
    for (const GpuSeries& s : bill.series)
        if (s.provider == offering.provider && s.instance_type == offering.instance_type && s.region == offering.region)
            return s;
    fail("offering", fmt::format("{}/{}/{}", offering.provider, offering.region, offering.instance_type),
         "no usage of it in the bill");
}

namespace {

constexpr double month_seconds = hours_per_month * 3600.0;

/// The contract commitment of `bill` whose ContractCommitmentId is `id`, or null.
const ContractCommitment* contract_of(const Bill& bill, const std::string& id) {
    for (const ContractCommitment& k : bill.contract_commitments)
        if (k.id == id) return &k;
    return nullptr;
}

/// Months from `start` to `t` (seconds), to the nearest month.
int months_between(std::int64_t start, std::int64_t t) { return int(std::lround(double(t - start) / month_seconds)); }

std::string contract_note(const ContractCommitment& k) {
    return fmt::format("term {} to {} from its contract commitment (row {})", iso_utc(k.period_start),
                       iso_utc(k.period_end), k.row);
}

}  // namespace

std::vector<HeldCommitment> held_from_bill(const Bill& bill, const Offering& offering, std::int64_t start_hour,
                                           int term_years, std::vector<std::string>* notes) {
    require(term_years >= 1 && term_years <= 5, "held_term_years", term_years, "must be in [1, 5]");
    std::vector<HeldCommitment> held;
    const auto note = [&](const CommitmentSummary& c, const std::string& what) {
        if (notes) notes->push_back(fmt::format("{} ({}): {}", c.id, c.type.empty() ? "no type" : c.type, what));
    };
    const std::int64_t start = start_hour * 3600;
    for (const CommitmentSummary& c : bill.commitments) {
        if (c.category == "Spend") continue;  // a Savings Plan: held_savings_plans_from_bill
        if (!(c.committed_gpu_hours > 0) || c.provider != offering.provider ||
            c.instance_type != offering.instance_type || c.region != offering.region) {
            note(c, fmt::format("left out: it holds no {}/{}/{}", offering.provider, offering.region,
                                offering.instance_type));
            continue;
        }
        if (c.gpu_last_end < start - 24 * 3600) {
            note(c, fmt::format("left out: its last row ends {}, before the bill's last day", iso_utc(c.gpu_last_end)));
            continue;
        }
        const ContractCommitment* k = contract_of(bill, c.id);
        if (k && k->period_end <= start) {
            note(c, fmt::format("left out: its contract commitment (row {}) ended {}", k->row, iso_utc(k->period_end)));
            continue;
        }
        HeldCommitment h;
        h.id = c.id;
        const double span_hours = double(c.gpu_last_end - c.gpu_first_start) / 3600.0;
        h.count = c.committed_gpu_hours / span_hours;
        h.hourly_per_gpu = c.recurring_billed / c.committed_gpu_hours;
        std::string term;
        if (k) {  // its real term, to the nearest month
            h.start_month = std::min(0, months_between(start, k->period_start));
            h.end_month = std::max(1, months_between(start, k->period_end));
            term = contract_note(*k);
        } else {
            h.start_month = std::min(0, -int(std::ceil(double(start - c.gpu_first_start) / month_seconds)));
            int years = term_years;
            while (h.start_month + years * months_per_year <= 0 && years < 5) ++years;
            if (h.start_month + years * months_per_year <= 0) {
                note(c, "left out: bought more than 5 years before the plan starts");
                continue;
            }
            h.end_month = h.start_month + years * months_per_year;
            term = fmt::format("assumed {}-year term from its first row", years);
        }
        h.upfront_per_gpu = c.amortised_upfront / c.committed_gpu_hours * hours_per_month * (h.end_month - h.start_month);
        const bool convertible = c.type.find("onvertible") != std::string::npos;
        h.kind = convertible ? CommitmentClass::convertible : CommitmentClass::standard;
        note(c, fmt::format("held: {:.4g} GPUs at {:.4f} {}/GPU-h from month {} to {} ({}), {}", h.count,
                            *h.hourly_per_gpu, bill.currency, h.start_month, h.end_month, term, to_text(h.kind)));
        held.push_back(std::move(h));
    }
    return held;
}

namespace {
/// The Savings Plan type a bill's CommitmentDiscountType names (AWS's types by name; Azure's and Google
/// Cloud's spend-based commitments by provider).
SavingsPlanType savings_plan_type(const CommitmentSummary& c) {
    if (c.type.find("EC2 Instance") != std::string::npos) return SavingsPlanType::aws_ec2_instance;
    if (c.type.find("SageMaker") != std::string::npos) return SavingsPlanType::aws_sagemaker;
    if (c.provider == "azure") return SavingsPlanType::azure_compute;
    if (c.provider == "gcp") return SavingsPlanType::gcp_flexible;
    return SavingsPlanType::aws_compute;
}
}  // namespace

std::vector<SavingsPlan> held_savings_plans_from_bill(const Bill& bill, const Offering& offering,
                                                      std::int64_t start_hour, int term_years,
                                                      std::vector<std::string>* notes) {
    require(term_years >= 1 && term_years <= 5, "held_term_years", term_years, "must be in [1, 5]");
    std::vector<SavingsPlan> held;
    const auto note = [&](const CommitmentSummary& c, const std::string& what) {
        if (notes) notes->push_back(fmt::format("{} ({}): {}", c.id, c.type.empty() ? "no type" : c.type, what));
    };
    const std::int64_t start = start_hour * 3600;
    for (const CommitmentSummary& c : bill.commitments) {
        if (c.category != "Spend") continue;  // a reservation: held_from_bill
        if (!(c.used_gpu_hours > 0) || c.provider != offering.provider || c.instance_type != offering.instance_type ||
            c.region != offering.region) {
            note(c, fmt::format("left out: it paid for no {}/{}/{}", offering.provider, offering.region,
                                offering.instance_type));
            continue;
        }
        if (c.last_end < start - 24 * 3600) {
            note(c, fmt::format("left out: its last row ends {}, before the bill's last day", iso_utc(c.last_end)));
            continue;
        }
        const ContractCommitment* k = contract_of(bill, c.id);
        if (k && k->period_end <= start) {
            note(c, fmt::format("left out: its contract commitment (row {}) ended {}", k->row, iso_utc(k->period_end)));
            continue;
        }
        const double committed = c.used_cost + c.unused_cost;  // its commitment over the hours of its rows
        if (!(committed > 0) || !(c.used_gpu_effective > 0)) {  // nothing to hold: no commitment, or no rate
            note(c, fmt::format("left out: its rows show no commitment spent (Used and Unused EffectiveCost {:g} {}, "
                                "on GPUs {:g})", committed, bill.currency, c.used_gpu_effective));
            continue;
        }
        const double span_hours = double(c.last_end - c.first_start) / 3600.0;
        SavingsPlan sp;
        sp.id = c.id;
        sp.type = savings_plan_type(c);
        sp.commitment_per_hour = committed / span_hours;
        // The contract's amount over its term, when it states one in the bill's currency.
        const double term_hours = k ? double(k->period_end - k->period_start) / 3600.0 : 0.0;
        const bool contract_amount = k && k->cost && *k->cost > 0 && (k->currency.empty() || k->currency == bill.currency);
        if (contract_amount) sp.commitment_per_hour = *k->cost / term_hours;
        sp.rate_per_gpu_hour = c.used_gpu_effective / c.used_gpu_hours;
        // Upfront share: what the Usage rows did not bill was paid upfront (amortised into EffectiveCost).
        const double upfront = std::clamp(1.0 - c.usage_billed / committed, 0.0, 1.0);
        sp.payment = upfront > 0.75 ? Payment::all_upfront : upfront > 0.25 ? Payment::partial_upfront
                                                                             : Payment::no_upfront;
        int years = 0;
        std::string term;
        if (k) {  // its real term: ends in the month nearest its end, 1 or 3 years long
            years = int(std::lround(term_hours / hours_per_year));
            if (years != 1 && years != 3) {
                note(c, fmt::format("left out: its contract commitment (row {}) runs {:.1f} months; a Savings Plan's "
                                    "term is 1 or 3 years", k->row, term_hours / hours_per_month));
                continue;
            }
            sp.start_month = std::min(-1, std::max(1, months_between(start, k->period_end)) - years * months_per_year);
            term = contract_note(*k) + (contract_amount ? ", its amount from there" : "");
        } else {
            sp.start_month = std::min(-1, -int(std::ceil(double(start - c.first_start) / month_seconds)));
            years = term_years <= 1 ? 1 : 3;  // a Savings Plan runs 1 or 3 years
            if (sp.start_month + years * months_per_year <= 0) years = 3;
            if (sp.start_month + years * months_per_year <= 0) {
                note(c, "left out: bought more than 3 years before the plan starts");
                continue;
            }
            term = fmt::format("assumed {}-year term from its first row", years);
        }
        sp.term_years = years;
        note(c, fmt::format("held: {} savings plan {:.4f} {}/h at {:.4f} {}/GPU-h ({:.4g} GPUs) from month {} to {} "
                            "({}), {} ({:.0f}% of it upfront)",
                            to_text(sp.type), sp.commitment_per_hour, bill.currency, *sp.rate_per_gpu_hour,
                            bill.currency, sp.commitment_per_hour / *sp.rate_per_gpu_hour, sp.start_month,
                            sp.start_month + years * months_per_year, term, to_text(sp.payment), 100.0 * upfront));
        held.push_back(std::move(sp));
    }
    return held;
}

BillPlan recommend_from_bill(const Bill& bill, const Offering& offering, const RecommendOptions& given,
                             const BillPlanOptions& plan_options) {
    require(plan_options.horizon_months >= 1 && plan_options.horizon_months <= limits::max_horizon_months,
            "horizon_months", plan_options.horizon_months,
            fmt::format("must be in [1, {}]", limits::max_horizon_months));
    require(plan_options.futures >= 1, "futures", plan_options.futures, "must be >= 1");
    require(plan_options.held_out >= 1, "held_out", plan_options.held_out, "must be >= 1");
    const Offering planned = plan_options.bill_rates ? at_bill_rates(offering, bill, bill_series_of(bill, offering)) : offering;
    const std::string gpu = plan_options.gpu.empty() ? offering.gpu : plan_options.gpu;
    DemandProfile history = bill.demand(gpu);
    // The plan starts where the history ends, holding the reservations in force there.
    RecommendOptions options = given;
    std::vector<std::string> held_notes;
    if (plan_options.held_from_bill) {
        const auto [first, hours] = bill.demand_hours(gpu);
        for (HeldCommitment& h : held_from_bill(bill, planned, first + std::int64_t(hours),
                                                plan_options.held_term_years, &held_notes))
            options.held.push_back(std::move(h));
        for (SavingsPlan& sp : held_savings_plans_from_bill(bill, planned, first + std::int64_t(hours),
                                                            plan_options.held_term_years, &held_notes))
            options.held_savings_plans.push_back(std::move(sp));
    }
    DemandModel model = DemandModel::from_history(history);
    const Horizon horizon = Horizon::months(plan_options.horizon_months);
    DemandFutures futures = DemandFutures::generate(model, horizon, plan_options.futures, plan_options.seed);
    DemandFutures held_out = DemandFutures::generate(model, horizon, plan_options.held_out, plan_options.seed + 1);
    StudyInputs in;
    in.held_out = &held_out;
    in.history = &history;
    in.baseline_term_years = plan_options.baseline_term_years;
    in.baseline_payment = plan_options.baseline_payment;
    in.hindsight_bound = plan_options.hindsight_bound;
    in.cvar95_limits = plan_options.cvar95_limits;
    // A CVaR95 limit is held on fresh futures of the same model: draw d seeded past the two above.
    in.draw_futures = [&](std::size_t count, std::uint64_t draw) {
        return DemandFutures::generate(model, horizon, count, plan_options.seed + 1 + draw);
    };
    RecommendStudy study = run_recommend_study(futures, planned, options, {}, in);
    return BillPlan{std::move(history), std::move(model), std::move(futures), std::move(held_out), planned,
                    std::move(study), std::move(options.held), std::move(options.held_savings_plans),
                    std::move(held_notes)};
}

std::vector<BillFiguresRow> bill_figures_rows(const Bill& bill) {
    return {{"all", &bill.figures}, {"gpu", &bill.gpu_figures}};
}

namespace {
/// A ratio that is NaN when there is nothing to state: none, not a number.
Cell ratio(double v) { return std::isnan(v) ? Cell() : Cell(v); }
}  // namespace

const std::vector<Column<BillFiguresRow>>& bill_figures_columns() {
    using R = BillFiguresRow;
    const auto pricing = [](PricingCategory c) {
        return [c](const R& r) { return Cell(r.figures->effective_by_pricing[std::size_t(c)]); };
    };
    const auto charge = [](ChargeCategory c) {
        return [c](const R& r) { return Cell(r.figures->billed_by_charge[std::size_t(c)]); };
    };
    static const std::vector<Column<R>> c{
        {"scope", "", Dtype::text, [](const R& r) { return Cell(r.scope); }},
        {"list_cost", "currency", Dtype::float64, [](const R& r) { return Cell(r.figures->list_cost); }},
        {"contracted_cost", "currency", Dtype::float64, [](const R& r) { return Cell(r.figures->contracted_cost); }},
        {"effective_cost", "currency", Dtype::float64, [](const R& r) { return Cell(r.figures->effective_cost); }},
        {"billed_cost", "currency", Dtype::float64, [](const R& r) { return Cell(r.figures->billed_cost); }},
        {"commitment_utilisation", "fraction", Dtype::float64,
         [](const R& r) { return ratio(r.figures->commitment_utilisation()); }},
        {"coverage", "fraction", Dtype::float64, [](const R& r) { return ratio(r.figures->coverage()); }},
        {"waste", "currency", Dtype::float64, [](const R& r) { return Cell(r.figures->waste()); }},
        {"effective_savings_rate", "fraction", Dtype::float64,
         [](const R& r) { return ratio(r.figures->effective_savings_rate()); }},
        {"effective_standard", "currency", Dtype::float64, pricing(PricingCategory::standard)},
        {"effective_dynamic", "currency", Dtype::float64, pricing(PricingCategory::dynamic)},
        {"effective_committed", "currency", Dtype::float64, pricing(PricingCategory::committed)},
        {"effective_other", "currency", Dtype::float64, pricing(PricingCategory::other)},
        {"effective_null", "currency", Dtype::float64, pricing(PricingCategory::none)},
        {"billed_usage", "currency", Dtype::float64, charge(ChargeCategory::usage)},
        {"billed_purchase", "currency", Dtype::float64, charge(ChargeCategory::purchase)},
        {"billed_tax", "currency", Dtype::float64, charge(ChargeCategory::tax)},
        {"billed_credit", "currency", Dtype::float64, charge(ChargeCategory::credit)},
        {"billed_adjustment", "currency", Dtype::float64, charge(ChargeCategory::adjustment)},
    };
    return c;
}

const std::vector<Column<GpuSeries>>& bill_series_columns() {
    using S = GpuSeries;
    static const std::vector<Column<S>> c{
        {"provider", "", Dtype::text, [](const S& s) { return Cell(s.provider); }},
        {"gpu", "", Dtype::text, [](const S& s) { return Cell(s.gpu); }},
        {"instance_type", "", Dtype::text, [](const S& s) { return Cell(s.instance_type); }},
        {"region", "", Dtype::text, [](const S& s) { return Cell(s.region); }},
        {"first_hour", "", Dtype::text, [](const S& s) { return Cell(iso_utc(s.first_hour * 3600)); }},
        {"hours", "hours", Dtype::int64, [](const S& s) { return Cell((long long)s.gpus.size()); }},
        {"gpu_hours", "GPU-hours", Dtype::float64, [](const S& s) { return Cell(s.gpu_hours); }},
        {"list_cost", "currency", Dtype::float64, [](const S& s) { return Cell(s.list_cost); }},
        {"effective_cost", "currency", Dtype::float64, [](const S& s) { return Cell(s.effective_cost); }},
        {"list_per_gpu_hour", "currency per GPU-hour", Dtype::float64, [](const S& s) { return ratio(s.list_per_gpu_hour()); }},
        {"effective_per_gpu_hour", "currency per GPU-hour", Dtype::float64,
         [](const S& s) { return ratio(s.effective_per_gpu_hour()); }},
    };
    return c;
}

const std::vector<Column<UnmatchedSku>>& bill_unmatched_columns() {
    using U = UnmatchedSku;
    static const std::vector<Column<U>> c{
        {"sku_id", "", Dtype::text, [](const U& u) { return Cell(u.sku_id); }},
        {"name", "", Dtype::text, [](const U& u) { return Cell(u.name); }},
        {"rows", "count", Dtype::int64, [](const U& u) { return Cell((long long)u.rows); }},
        {"billed_cost", "currency", Dtype::float64, [](const U& u) { return Cell(u.billed_cost); }},
        {"effective_cost", "currency", Dtype::float64, [](const U& u) { return Cell(u.effective_cost); }},
    };
    return c;
}

const std::vector<Column<CommitmentSummary>>& bill_commitment_columns() {
    using C = CommitmentSummary;
    static const std::vector<Column<C>> c{
        {"id", "", Dtype::text, [](const C& x) { return Cell(x.id); }},
        {"type", "", Dtype::text, [](const C& x) { return Cell(x.type); }},
        {"used_cost", "currency", Dtype::float64, [](const C& x) { return Cell(x.used_cost); }},
        {"unused_cost", "currency", Dtype::float64, [](const C& x) { return Cell(x.unused_cost); }},
        {"utilisation", "fraction", Dtype::float64, [](const C& x) { return ratio(x.utilisation()); }},
        {"covered_list_cost", "currency", Dtype::float64, [](const C& x) { return Cell(x.covered_list_cost); }},
        {"purchase_billed", "currency", Dtype::float64, [](const C& x) { return Cell(x.purchase_billed); }},
        {"first_start", "", Dtype::text, [](const C& x) { return Cell(iso_utc(x.first_start)); }},
        {"last_end", "", Dtype::text, [](const C& x) { return Cell(iso_utc(x.last_end)); }},
    };
    return c;
}

}  // namespace gputco
