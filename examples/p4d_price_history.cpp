// AWS cut P4 and P5 on-demand prices in June 2025. The catalog keeps both prices as dated snapshots
// of the same offering, so a plan priced in May 2025 and one priced in July 2025 each see their own
// price — and a commitment bought in May keeps May's terms.
//
// Usage: p4d_price_history [--json]
#include <cstring>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gputco/catalog/catalog.hpp"
#include "gputco/engines/cost.hpp"
#include "gputco/work/demand.hpp"

int main(int argc, char** argv) {
    using namespace gputco;
    const bool json = argc > 1 && std::strcmp(argv[1], "--json") == 0;
    std::FILE* out = json ? std::fopen("/dev/null", "w") : stdout;  // the text report; nowhere under --json
    nlohmann::ordered_json doc;
    const Catalog& catalog = Catalog::builtin();
    for (const char* type : {"p4d.24xlarge", "p5.48xlarge"}) {
        const Offering& listed = catalog.offering("aws", type, "us-east-1");
        fmt::print(out, "{} ({} x {}), us-east-1, on-demand per instance-hour:\n", type, listed.gpus_per_instance, listed.gpu);
        for (const PriceSnapshot& s : listed.snapshots()) {
            doc["snapshots"].push_back({{"instance_type", type}, {"effective_from", s.effective_from.iso()},
                                        {"on_demand_hourly", s.on_demand_hourly}, {"source", s.source.name},
                                        {"as_of", s.source.as_of}});
            fmt::print(out, "  from {}  ${:>8.4f}  ({} GPU-h ${:.4f})  source: {}, {}\n", s.effective_from.iso(), s.on_demand_hourly,
                       listed.gpu, s.on_demand_hourly / listed.gpus_per_instance, s.source.name, s.source.as_of);
        }
    }

    // One year of 8 GPUs, on demand, priced as of the day the plan is made.
    const DemandProfile demand = DemandProfile::constant(8, Horizon::years(1));
    const Date may{2025, 5, 15};
    const Date july{2025, 7, 1};
    const Offering in_may = catalog.offering("aws", "p4d.24xlarge", "us-east-1").price_at(may);
    const Offering in_july = catalog.offering("aws", "p4d.24xlarge", "us-east-1").price_at(july);
    const double cost_may = evaluate(OnDemand{}, demand, in_may).total;
    const double cost_july = evaluate(OnDemand{}, demand, in_july).total;
    fmt::print(out, "\n1 p4d.24xlarge (8 GPUs) on demand for 12 months (8,760 h):\n");
    fmt::print(out, "  priced {}: ${:>12.2f}  (32.7726 x 8,760)\n", may.iso(), cost_may);
    fmt::print(out, "  priced {}: ${:>12.2f}  (21.96 x 8,760), {:.1f}% less\n", july.iso(), cost_july,
               100 * (1 - cost_july / cost_may));

    // A 3-year reservation bought in May keeps May's terms; the June snapshot records no reservation
    // prices, so pricing one in July is an error rather than a guess.
    Reserved three_years;
    three_years.term_years = 3;
    three_years.payment = Payment::all_upfront;
    const double reserved_may = evaluate(three_years, DemandProfile::constant(8, Horizon::years(3)), in_may).total;
    doc["on_demand_one_year"] = {{"priced", may.iso()}, {"total", cost_may}};
    doc["on_demand_one_year_after_cut"] = {{"priced", july.iso()}, {"total", cost_july}};
    doc["reserved_3y_bought_in_may"] = reserved_may;
    fmt::print(out, "\n3-year all-upfront reservation bought {}: ${:.2f} over the term\n", may.iso(), reserved_may);
    try {
        (void)evaluate(three_years, DemandProfile::constant(8, Horizon::years(3)), in_july);
    } catch (const InvalidInput& e) {
        fmt::print(out, "bought {}: not priced ({})\n", july.iso(), e.what());
        doc["reserved_3y_bought_in_july"] = {{"error", e.what()}};
    }
    if (json) fmt::print("{}\n", doc.dump(1));
    return 0;
}
