// cheapest_region_per_instance: one row per instance type and way of buying, across regions.
#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <string>

#include <doctest/doctest.h>

#include "gputco/catalog/cheapest_region.hpp"

using namespace gputco;

namespace {

Offering row(std::string provider, std::string region, std::string type, double on_demand, std::optional<double> spot) {
    Offering o;
    o.provider = std::move(provider);
    o.region = std::move(region);
    o.instance_type = std::move(type);
    o.gpu = "H100";
    o.gpus_per_instance = 8;
    o.on_demand_hourly = on_demand;
    o.spot_hourly = spot;
    o.source = {"test", "2026-12-05"};
    return o;
}

std::vector<std::string> keys(const std::vector<Offering>& rows) {
    std::vector<std::string> out;
    for (const Offering& o : rows) out.push_back(o.key());
    return out;
}

double best_reserved(const Offering& o) {
    double best = std::numeric_limits<double>::infinity();
    for (const ReservedPrice& r : o.reserved) best = std::min(best, r.effective_hourly());
    return best;
}

}  // namespace

TEST_CASE("cheapest_region_per_instance: by hand") {
    std::vector<Offering> rows{row("azure", "eastus", "ND", 98.32, std::nullopt), row("azure", "westus", "ND", 90.0, 30.0),
                               row("azure", "swedencentral", "ND", 95.0, 20.0), row("azure", "eastus", "NC", 7.0, 1.0),
                               row("lambda", "us-east-1", "ND", 31.92, std::nullopt)};
    rows[0].reserved.push_back({.term_years = 1, .payment = Payment::no_upfront, .upfront = 0, .hourly = 50, .source = {}});
    // ND: on demand cheapest in westus, spot in swedencentral, the only reservation in eastus: three rows,
    // in catalog order. NC and lambda's ND (another provider) have one region each.
    CHECK(keys(cheapest_region_per_instance(rows)) ==
          std::vector<std::string>{"azure/eastus/ND", "azure/westus/ND", "azure/swedencentral/ND", "azure/eastus/NC",
                                   "lambda/us-east-1/ND"});
    rows[0].reserved.clear();
    rows[2].spot_hourly = 30.0;  // a tie: the first region (westus) is kept
    CHECK(keys(cheapest_region_per_instance(rows)) ==
          std::vector<std::string>{"azure/westus/ND", "azure/eastus/NC", "lambda/us-east-1/ND"});
    // A spot-only row does not compete on demand; a row with none of the three prices keeps the first.
    std::vector<Offering> odd{row("gcp", "a", "g", 0, 3.0), row("gcp", "b", "g", 9.0, 4.0)};
    odd[0].spot_only = true;
    CHECK(keys(cheapest_region_per_instance(odd)) == std::vector<std::string>{"gcp/a/g", "gcp/b/g"});
    std::vector<Offering> blocks{row("aws", "us-east-1", "p6", 0, std::nullopt), row("aws", "us-west-2", "p6", 0, std::nullopt)};
    for (Offering& o : blocks) o.reservation_only = true;
    CHECK(keys(cheapest_region_per_instance(blocks)) == std::vector<std::string>{"aws/us-east-1/p6"});
}

TEST_CASE("cheapest_region_per_instance: every way of buying keeps its cheapest region (seeded random catalogs)") {
    std::mt19937_64 rng(2026'12'05);
    for (int trial = 0; trial < 300; ++trial) {
        std::vector<Offering> rows;
        const int n = std::uniform_int_distribution<int>(1, 40)(rng);
        for (int i = 0; i < n; ++i) {
            const std::string provider = std::string(1, char('a' + rng() % 3));
            const std::string type = "t" + std::to_string(rng() % 4);
            const std::string region = "r" + std::to_string(i);
            const double od = double(rng() % 20 + 1);  // small integers: ties happen
            std::optional<double> spot;
            if (rng() % 2) spot = double(rng() % 10 + 1);
            Offering o = row(provider, region, type, od, spot);
            if (rng() % 3 == 0)
                o.reserved.push_back({.term_years = 1, .payment = Payment::all_upfront, .upfront = double(rng() % 50000),
                                      .hourly = 0, .source = {}});
            if (rng() % 7 == 0 && spot) o.spot_only = true, o.on_demand_hourly = 0, o.reserved.clear();
            rows.push_back(std::move(o));
        }
        const std::vector<Offering> kept = cheapest_region_per_instance(rows);
        CAPTURE(trial);
        // Kept rows are input rows, in input order.
        std::vector<std::size_t> at;
        for (const Offering& k : kept) {
            const auto it = std::find_if(rows.begin(), rows.end(), [&](const Offering& o) { return o.key() == k.key(); });
            REQUIRE(it != rows.end());
            at.push_back(std::size_t(it - rows.begin()));
        }
        CHECK(std::is_sorted(at.begin(), at.end()));
        // Per group: at least one and at most three rows, and each way's lowest price is among them.
        std::map<std::pair<std::string, std::string>, std::vector<const Offering*>> all, mine;
        for (const Offering& o : rows) all[{o.provider, o.instance_type}].push_back(&o);
        for (const Offering& o : kept) mine[{o.provider, o.instance_type}].push_back(&o);
        CHECK(mine.size() == all.size());
        for (const auto& [group, members] : all) {
            const auto& k = mine[group];
            CHECK(!k.empty());
            CHECK(k.size() <= 3);
            const auto lowest = [](const std::vector<const Offering*>& xs, auto price) {
                double best = std::numeric_limits<double>::infinity();
                for (const Offering* o : xs) best = std::min(best, price(*o));
                return best;
            };
            const auto od = [](const Offering& o) {
                return o.sells_on_demand() ? o.on_demand_hourly : std::numeric_limits<double>::infinity();
            };
            const auto spot = [](const Offering& o) {
                return o.spot_hourly ? *o.spot_hourly : std::numeric_limits<double>::infinity();
            };
            CHECK(lowest(k, od) == lowest(members, od));
            CHECK(lowest(k, spot) == lowest(members, spot));
            CHECK(lowest(k, best_reserved) == lowest(members, best_reserved));
        }
    }
}
