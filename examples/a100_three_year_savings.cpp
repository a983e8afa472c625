// Reproduces the 3-year A100 savings figures of the articles gputco grew from, prints every
// assumption behind each number, and audits the figures that cannot all hold at once.
//
//   a100_three_year_savings          human-readable report
//   a100_three_year_savings --json   {"figures": [{"id", "claim", "seed_value", "model_value", "unit",
//                                                 "assumptions", "consistent"}, ...]}
//
// Seeds: 000 (Azure A100 3-year reserved −52%; 70% reserved + 30% on-demand; 4×A100 computer-vision
// setup: 3-year reserved ≈ $28,000, saving ≈ $42,000; A100 $3.2–4.5 per card-hour), 001 (long-term
// reserved −60%; Alibaba gn6i 3-year −58%), 003 (1-year contract −40%).
#include <cmath>
#include <cstdio>
#include <optional>
#include <utility>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

using namespace gputco;

namespace {

struct Figure {
    std::string id;
    std::string claim;
    std::optional<double> seed_value;
    double model_value = 0;
    std::string unit;
    std::vector<std::string> assumptions;
    bool consistent = false;
};

/// Fractions agree to half a percentage point; money to 1% (the seeds round to "≈ $28,000").
bool agrees(double seed, double model, std::string_view unit) {
    if (unit == "fraction") return std::abs(seed - model) <= 0.005;
    return std::abs(seed - model) <= 0.01 * std::abs(seed);
}

Figure figure(std::string id, std::string claim, std::optional<double> seed, double model, std::string unit,
              std::vector<std::string> assumptions) {
    const bool consistent = seed ? agrees(*seed, model, unit) : true;
    return {std::move(id), std::move(claim), seed, model, std::move(unit), std::move(assumptions), consistent};
}

std::vector<std::string> with(std::vector<std::string> lines, const CostReport& report) {
    lines.insert(lines.end(), report.assumptions.begin(), report.assumptions.end());
    return lines;
}

/// An offering with the given per-GPU on-demand price, for the "what prices make the seed's numbers
/// hold" questions; everything else is the catalog's Azure A100 row.
Offering at_price(const Offering& base, double per_gpu_hour) {
    Offering o = base;
    o.on_demand_hourly = per_gpu_hour * o.gpus_per_instance;
    o.reserved.clear();
    o.source.name = fmt::format("{}, list price replaced by {:.4f} {}/GPU-h", base.source.name, per_gpu_hour,
                                base.currency);
    return o;
}

std::string json_string(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            default:
                if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", int(c));
                else out += c;
        }
    }
    return out + "\"";
}

std::string json_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "null"; }

void print_json(const std::vector<Figure>& figures) {
    std::string out = "{\"figures\": [";
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const Figure& f = figures[i];
        out += i ? ",\n  {" : "\n  {";
        out += fmt::format("\"id\": {}, \"claim\": {}, \"seed_value\": {}, \"model_value\": {}, \"unit\": {}, ",
                           json_string(f.id), json_string(f.claim),
                           f.seed_value ? json_number(*f.seed_value) : "null", json_number(f.model_value),
                           json_string(f.unit));
        out += "\"assumptions\": [";
        for (std::size_t a = 0; a < f.assumptions.size(); ++a) {
            out += (a ? ", " : "") + json_string(f.assumptions[a]);
        }
        out += fmt::format("], \"consistent\": {}}}", f.consistent ? "true" : "false");
    }
    out += "\n]}\n";
    std::fputs(out.c_str(), stdout);
}

std::string show(double value, std::string_view unit) {
    if (unit == "fraction") return fmt::format("{:.1f}%", 100 * value);
    if (unit == "USD/h") return fmt::format("{:.3f} {}", value, unit);
    return fmt::format("{} {}", format_money(value, 0), unit);
}

void print_text(const std::vector<Figure>& figures) {
    fmt::print("gputco — the seeds' 3-year A100 savings figures, reproduced and audited\n");
    fmt::print("(1 year = 8,760 h, 1 month = 730 h; consistent = within 0.5 percentage points or 1%)\n\n");
    for (const Figure& f : figures) {
        fmt::print("[{}] {}\n", f.id, f.claim);
        fmt::print("    seed: {:<22} model: {:<22} {}\n", f.seed_value ? show(*f.seed_value, f.unit) : "—",
                   show(f.model_value, f.unit),
                   !f.seed_value ? "(model figure)" : f.consistent ? "consistent" : "INCONSISTENT (audit)");
        for (const auto& a : f.assumptions) fmt::print("    - {}\n", a);
        fmt::print("\n");
    }
}

}  // namespace

int main(int argc, char** argv) {
    const bool as_json = argc > 1 && std::string_view(argv[1]) == "--json";
    const Catalog& catalog = Catalog::builtin();
    const Offering& azure = catalog.offering("azure", "Standard_ND96asr_v4", "eastus");
    const Horizon three_years = Horizon::years(3);
    std::vector<Figure> figures;

    // (a) Azure A100, 3-year reservation at the seeds' 52%, full-time use of one 8-GPU VM.
    const auto full_vm = DemandProfile::constant(azure.gpus_per_instance, three_years);
    const Reserved azure_3y{.term_years = 3, .payment = Payment::all_upfront, .discount = 0.52};
    const CostReport a = evaluate(azure_3y, full_vm, azure);
    figures.push_back(figure("a.azure_3y_saving", "Azure A100 3-year reserved vs on-demand saves 52% (seed 000)", 0.52,
                             a.savings_fraction, "fraction",
                             with({"busy every hour of the 3 years (100% utilisation)"}, a)));
    // Where it stops paying off: reserve the same VM but use it only part of the time.
    const double u_star = *a.break_even_utilisation;
    const CostReport at_break_even = evaluate(Mix{{{1.0, azure_3y}}, double(azure.gpus_per_instance)},
                                              full_vm.scaled(u_star), azure);
    figures.push_back(figure(
        "a.break_even_utilisation",
        "utilisation below which the 3-year reservation stops paying off (u* = effective rate / on-demand rate)",
        std::nullopt, u_star, "fraction",
        {fmt::format("at {:.1f}% utilisation the reserved VM costs {} USD and the same GPU-hours on demand "
                     "{} USD (savings {})",
                     100 * u_star, format_money(at_break_even.total, 0), format_money(at_break_even.baseline_total, 0),
                     format_money(at_break_even.savings)),
         "below it on-demand is cheaper; above it the reservation wins"}));

    // (b) The 4×A100 computer-vision setup: reserved ≈ $28,000, on-demand ≈ $70,000, saving ≈ $42,000.
    const double seed_reserved = 28000, seed_saving = 42000, seed_on_demand = seed_reserved + seed_saving;
    const auto four_gpus = DemandProfile::constant(4, three_years);
    // Full-time use: the list price at which 4 GPUs × 26,280 h cost $70,000, and the discount that
    // turns it into $28,000.
    const double implied_price = seed_on_demand / four_gpus.total_gpu_hours();
    const double implied_discount = seed_saving / seed_on_demand;
    const Offering implied = at_price(azure, implied_price);
    const CostReport b = evaluate(Reserved{.term_years = 3, .payment = Payment::all_upfront, .discount = implied_discount},
                                  four_gpus, implied);
    const std::vector<std::string> b_why{
        fmt::format("solved for: list price = 70,000 / (4 GPUs × 26,280 h) = {:.4f} USD/GPU-h and discount = "
                    "42,000 / 70,000 = {:.0f}% (not the 52% of claim a)",
                    implied_price, 100 * implied_discount),
        "4 GPUs busy every hour of 3 years"};
    figures.push_back(figure("b.cv_reserved_total", "4×A100 CV setup: 3-year reserved total ≈ $28,000 (seed 000)",
                             seed_reserved, b.total, "USD", with(b_why, b)));
    figures.push_back(figure("b.cv_on_demand_total", "4×A100 CV setup: on-demand ≈ $70,000 (28,000 + 42,000)",
                             seed_on_demand, b.baseline_total, "USD", with(b_why, b)));
    figures.push_back(figure("b.cv_saving", "4×A100 CV setup: saving ≈ $42,000 vs on-demand (seed 000)", seed_saving,
                             b.savings, "USD", with(b_why, b)));
    // The audit: at the seeds' own $3.2–4.5 per card-hour the figures cannot all hold.
    for (const double list_price : {3.2, 4.5}) {
        const Offering seed_list = at_price(azure, list_price);
        const CostReport audit = evaluate(azure_3y, four_gpus, seed_list);
        figures.push_back(figure(
            fmt::format("b.audit_reserved_at_{:.1f}", list_price),
            fmt::format("audit: 4×A100 3-year reserved at the seeds' ${:.1f}/GPU-h list price and 52% off", list_price),
            seed_reserved, audit.total, "USD",
            with({fmt::format("on-demand for the same 3 years would be {} USD, not 70,000",
                              format_money(audit.baseline_total, 0)),
                  fmt::format("$70,000 on demand buys only {} GPU-hours at this price: {:.1f}% utilisation of "
                              "4 GPUs, far below the {:.0f}% at which a reservation pays off",
                              format_money(seed_on_demand / list_price, 0), 100 * seed_on_demand / list_price / four_gpus.total_gpu_hours(),
                              100 * (1 - 0.52))},
                 audit)));
    }

    // (c) The recommended 70% reserved + 30% on-demand mix.
    const Mix hybrid{{{0.7, azure_3y}, {0.3, OnDemand{}}}, {}, Rounding::none};
    const CostReport c = evaluate(hybrid, full_vm, azure);
    figures.push_back(figure("c.mix_70_30_saving",
                             "70% reserved + 30% on-demand (seed 000) saves 70% × 52% = 36.4% at constant full demand",
                             0.7 * 0.52, c.savings_fraction, "fraction", with({"fleet = one 8-GPU VM, fractional shares"}, c)));
    // With bursts (the reason for the 30%): 8 GPUs on weekdays' working hours, 5 otherwise.
    std::array<double, 24> office{};
    for (std::size_t h = 0; h < 24; ++h) office[h] = (h >= 8 && h < 20) ? 1.0 : 5.0 / 8.0;
    const auto bursty = full_vm.with_daily_pattern(office).with_weekly_pattern({1, 1, 1, 1, 1, 5.0 / 8.0, 5.0 / 8.0});
    const CostReport c_bursty = evaluate(hybrid, bursty, azure);
    const CostReport all_reserved_bursty = evaluate(azure_3y, bursty, azure);
    figures.push_back(figure(
        "c.mix_70_30_bursty_saving", "70/30 mix on bursty demand (8 GPUs 12 h on weekdays, 5 otherwise)",
        std::nullopt, c_bursty.savings_fraction, "fraction",
        with({fmt::format("all-reserved at the 8-GPU peak would save {:.1f}% ({:.0f}% of reserved hours used)",
                          100 * all_reserved_bursty.savings_fraction, 100 * all_reserved_bursty.reserved_utilisation)},
             c_bursty)));

    // (d) The other discount figures, each over 3 years of full-time use of one Azure A100 VM.
    const CostReport d1 = evaluate(Reserved{.term_years = 1, .payment = Payment::no_upfront, .discount = 0.40}, full_vm, azure);
    figures.push_back(figure("d.one_year_40", "1-year reservation contract: 40% discount (seed 003), renewed yearly",
                             0.40, d1.savings_fraction, "fraction", with({}, d1)));
    const CostReport d3 = evaluate(Reserved{.term_years = 3, .payment = Payment::all_upfront, .discount = 0.60}, full_vm, azure);
    figures.push_back(figure("d.long_term_60", "long-term reserved projects save 60% (seed 001)", 0.60,
                             d3.savings_fraction, "fraction", with({}, d3)));
    const Offering& gn6i = catalog.offering("alibaba", "gn6i", "cn-beijing");
    const CostReport d58 = evaluate(Reserved{.term_years = 3, .payment = Payment::all_upfront},
                                    DemandProfile::constant(gn6i.gpus_per_instance, three_years), gn6i);
    figures.push_back(figure("d.alibaba_gn6i_58", "Alibaba gn6i 3-year reserved 58% lower (seed 001), CNY list price",
                             0.58, d58.savings_fraction, "fraction", with({"prices stay in CNY"}, d58)));

    // (e) The same comparison with the catalog's public list prices (reservation prices where a provider
    //     publishes none are derived from a stated discount; the assumptions say which).
    struct Real {
        const char* provider;
        const char* instance;
        const char* region;
    };
    for (const Real& r : {Real{"aws", "p4d.24xlarge", "us-east-1"}, Real{"azure", "Standard_ND96asr_v4", "eastus"},
                          Real{"gcp", "a2-highgpu-8g", "us-central1"}}) {
        const Offering& o = catalog.offering(r.provider, r.instance, r.region);
        const auto vm = DemandProfile::constant(o.gpus_per_instance, three_years);
        for (const Payment payment : {Payment::all_upfront, Payment::no_upfront}) {
            if (!o.reserved_price(3, payment)) continue;
            const Reserved real_3y{.term_years = 3, .payment = payment};
            const CostReport e = evaluate(real_3y, vm, o);
            figures.push_back(figure(fmt::format("e.{}_{}_3y_{}", r.provider, r.instance, to_string(payment)),
                                     fmt::format("catalog prices: {} {} 3-year {} vs on-demand (seed claim: 52%; reservation source in the assumptions)",
                                                 r.provider, r.instance, to_string(payment)),
                                     0.52, e.savings_fraction, "fraction", with({}, e)));
            const Mix real_mix{{{0.7, real_3y}, {0.3, OnDemand{}}}, {}, Rounding::none};
            const CostReport em = evaluate(real_mix, vm, o);
            figures.push_back(figure(
                fmt::format("e.{}_{}_70_30_{}", r.provider, r.instance, to_string(payment)),
                fmt::format("catalog prices: {} {} 70% 3-year {} + 30% on-demand, cost per instance-hour", r.provider,
                            r.instance, to_string(payment)),
                std::nullopt, em.total / three_years.hours(), "USD/h",
                with({fmt::format("all on-demand {:.3f} USD/h; saving {:.1f}%", em.baseline_total / three_years.hours(),
                                  100 * em.savings_fraction)},
                     em)));
            break;  // one payment option per provider keeps the comparison short
        }
    }

    // (f) The seeds' other discounts, through Discounts: each figure compares the same demand with and
    //     without the discount (a report's own baseline carries the same discounts, so it is not used).
    const auto three_year_saving = [&](const Offering& o, const DemandProfile& d, const Discounts& discounts) {
        const CostReport list = evaluate(OnDemand{}, d, o);
        EvaluationOptions with_discounts;
        with_discounts.discounts = discounts;
        const CostReport discounted = evaluate(OnDemand{}, d, o, with_discounts);
        return std::pair{1.0 - discounted.total / list.total, discounted};
    };
    const Offering& lambda = catalog.offering("lambda", "gpu_8x_a100");
    const auto [lambda_saving, lambda_report] = three_year_saving(
        lambda, DemandProfile::constant(lambda.gpus_per_instance, three_years), Discounts{.plan_discount = 0.30});
    figures.push_back(figure("f.lambda_annual_plan_30", "Lambda annual plan saves 30% (seed 004) on 8×A100, 3 years",
                             0.30, lambda_saving, "fraction", with({}, lambda_report)));
    const Offering& paperspace = catalog.offering("paperspace", "A100-80G");
    const auto one_month = DemandProfile::constant(1, Horizon::months(1));
    const auto [credit_saving, credit_report] = three_year_saving(paperspace, one_month, Discounts{.free_gpu_hours = 100});
    figures.push_back(figure(
        "f.paperspace_free_hours", "Paperspace: 100 free A100 hours for new users (seed 004), value in a 730-hour month",
        100.0 * paperspace.on_demand_per_gpu_hour(), -credit_report.credits_total(), "USD",
        with({fmt::format("saves {:.1f}% of one GPU-month", 100 * credit_saving)}, credit_report)));
    const auto [voucher_saving, voucher_report] = three_year_saving(azure, full_vm, Discounts{.voucher_price_factor = 0.6});
    figures.push_back(figure("f.vouchers_60", "vouchers + cashback bring the overall cost down to 60% of list (seed 003)",
                             0.60, 1.0 - voucher_saving, "fraction", with({}, voucher_report)));
    // The China region as a price factor of 1 / 0.75 on the us-east-1 list price.
    const Offering& p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1");
    EvaluationOptions china;
    china.discounts.region_price_factor = 1.0 / 0.75;
    const CostReport us_report = evaluate(OnDemand{}, full_vm, p4d);
    const CostReport china_report = evaluate(OnDemand{}, full_vm, p4d, china);
    figures.push_back(figure(
        "f.us_vs_china_25", "AWS US-region A100 25% cheaper than the China region (seed 003)", 0.25,
        1.0 - us_report.total / china_report.total, "fraction",
        with({fmt::format("China region modelled as {:.4f}× the us-east-1 list price: 3 years of one p4d.24xlarge "
                          "cost {} USD there vs {} USD in us-east-1",
                          china.discounts.region_price_factor, format_money(china_report.total, 0),
                          format_money(us_report.total, 0))},
             us_report)));

    // (g) Buy instead of rent: one 8×A100 server against the Azure VM, both busy all 3 years. The
    //     server's figures are stated assumptions, not catalog facts: NVIDIA's DGX A100 launch list
    //     price ($199,000, 2020) and its 6.5 kW maximum system power, split over 8 GPUs.
    const Owned dgx{.capex_per_gpu = 199000.0 / 8, .life_years = 4, .residual_fraction = 0.2,
                    .watts_per_gpu = 6500.0 / 8, .idle_power_fraction = 0.3, .pue = 1.4, .electricity_per_kwh = 0.12,
                    .colocation_per_gpu_month = 150, .maintenance_fraction_per_year = 0.08};
    const CostReport g = evaluate(dgx, full_vm, azure);
    figures.push_back(figure(
        "g.own_vs_rent_saving", "buy instead of rent: an owned 8×A100 server vs Azure on-demand, busy 3 years",
        std::nullopt, g.savings_fraction, "fraction",
        with({fmt::format("the 3-year reservation at 52% costs {} USD; owning costs {} USD; owning pays off above "
                          "{:.1f}% utilisation",
                          format_money(a.total, 0), format_money(g.total, 0), 100 * *g.break_even_utilisation),
              "assumed: DGX A100 list price 199,000 USD (2020), 6.5 kW maximum, 4-year life, resold at 20%"},
             g)));

    if (as_json) print_json(figures);
    else print_text(figures);
    return 0;
}
