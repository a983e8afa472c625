// Dated prices: snapshots of one offering, the price in force at a date, the catalog at a date.
#include <random>

#include <doctest/doctest.h>

#include "gputco/catalog/catalog.hpp"

using namespace gputco;

namespace {

/// An offering listed at 10 $/h from 2024-01-01, 8 from 2024-07-01 and 12 from 2025-01-01.
Offering dated() {
    Offering o;
    o.provider = "aws";
    o.region = "us-east-1";
    o.instance_type = "p4d.24xlarge";
    o.gpu = "A100-40GB";
    o.gpus_per_instance = 8;
    o.on_demand_hourly = 8;
    o.effective_from = Date{2024, 7, 1};
    o.source = {"mid", "2024-07-01"};
    o.history = {PriceSnapshot{Date{2024, 1, 1}, 10, 2.0, {}, {"first", "2024-01-01"}, ""},
                 PriceSnapshot{Date{2025, 1, 1}, 12, std::nullopt, {}, {"last", "2025-01-01"}, "after"}};
    return o;
}

}  // namespace

TEST_CASE("price_at: before, on, between and after the snapshots") {
    const Offering o = dated();
    CHECK_THROWS_WITH_AS(o.price_at(Date{2023, 12, 31}),
                         "date = \"2023-12-31\": before the first price of aws/us-east-1/p4d.24xlarge (2024-01-01)",
                         InvalidInput);
    CHECK_FALSE(o.has_price_at(Date{2023, 12, 31}));
    CHECK(o.price_at(Date{2024, 1, 1}).on_demand_hourly == 10);
    CHECK(*o.price_at(Date{2024, 3, 1}).spot_hourly == 2.0);
    CHECK(o.price_at(Date{2024, 6, 30}).on_demand_hourly == 10);
    CHECK(o.price_at(Date{2024, 7, 1}).on_demand_hourly == 8);
    CHECK(o.price_at(Date{2024, 12, 31}).source.name == "mid");
    const Offering later = o.price_at(Date{2030, 1, 1});
    CHECK(later.on_demand_hourly == 12);
    CHECK_FALSE(later.spot_hourly.has_value());
    CHECK(later.notes == "after");
    CHECK(later.history.empty());
    CHECK(later.effective_from == Date{2025, 1, 1});
}

TEST_CASE("An undated listing is in force wherever no dated snapshot is") {
    Offering o = dated();
    o.effective_from.reset();
    CHECK(o.price_at(Date{1999, 1, 1}).on_demand_hourly == 8);   // before every dated snapshot
    CHECK(o.price_at(Date{2024, 2, 1}).on_demand_hourly == 10);  // a dated snapshot takes over
    CHECK(o.price_at(Date{2026, 1, 1}).on_demand_hourly == 12);
    CHECK_FALSE(o.price_at(Date{1999, 1, 1}).effective_from.has_value());
}

TEST_CASE("price_at picks the latest snapshot on or before the date, for many seeded histories") {
    std::mt19937_64 rng(2026);
    for (int trial = 0; trial < 200; ++trial) {
        Offering o = dated();
        o.history.clear();
        std::vector<std::pair<long long, double>> truth;  // (day, price)
        std::uniform_int_distribution<int> year(2015, 2030), month(1, 12), day(1, 28);
        o.effective_from = Date{year(rng), month(rng), day(rng)};
        o.on_demand_hourly = 100;
        truth.push_back({o.effective_from->days_since_epoch(), 100});
        for (int k = 0; k < 6; ++k) {
            const Date d{year(rng), month(rng), day(rng)};
            bool taken = d == *o.effective_from;
            for (const auto& h : o.history) taken = taken || h.effective_from == d;
            if (taken) continue;
            o.history.push_back(PriceSnapshot{d, double(k), std::nullopt, {}, {"s", d.iso()}, ""});
            truth.push_back({d.days_since_epoch(), double(k)});
        }
        o.validate();
        for (int q = 0; q < 20; ++q) {
            const Date at{year(rng), month(rng), day(rng)};
            const long long t = at.days_since_epoch();
            std::optional<std::pair<long long, double>> best;
            for (const auto& p : truth) {
                if (p.first <= t && (!best || p.first > best->first)) best = p;
            }
            if (!best) {
                CHECK_THROWS_AS(o.price_at(at), InvalidInput);
            } else {
                CHECK(o.price_at(at).on_demand_hourly == best->second);
            }
        }
    }
}

TEST_CASE("Catalog::as_of and with_snapshots") {
    Offering later = dated();
    later.history.clear();
    later.effective_from = Date{2026, 1, 1};
    later.on_demand_hourly = 5;
    later.source = {"imported", "2026-01-01"};
    Offering other = dated();
    other.instance_type = "p5.48xlarge";
    other.history.clear();
    const Catalog base({}, {dated()});
    const Catalog merged = base.with_snapshots(Catalog({}, {later, other}));
    CHECK(merged.offerings().size() == 2);
    const Offering& p4d = merged.offering("aws", "p4d.24xlarge");
    CHECK(p4d.history.size() == 3);
    CHECK(p4d.price_at(Date{2026, 2, 1}).on_demand_hourly == 5);
    CHECK(p4d.price_at(Date{2025, 2, 1}).on_demand_hourly == 12);
    // The catalog at a date: prices in force then, offerings not yet priced left out.
    CHECK(merged.as_of(Date{2024, 3, 1}).offerings().size() == 1);  // p5 from 2024-07-01 only
    CHECK(merged.as_of(Date{2024, 8, 1}).offering("aws", "p5.48xlarge").on_demand_hourly == 8);
    CHECK(merged.as_of(Date{2023, 1, 1}).offerings().empty());
    // Merging the same date again replaces that snapshot.
    later.on_demand_hourly = 6;
    CHECK(merged.with_snapshots(Catalog({}, {later})).offering("aws", "p4d.24xlarge").price_at(Date{2026, 6, 1}).on_demand_hourly == 6);
    Offering undated = later;
    undated.effective_from.reset();
    CHECK_THROWS_WITH_AS(base.with_snapshots(Catalog({}, {undated})),
                         "offerings[0].effective_from = \"aws/us-east-1/p4d.24xlarge\": must be set to add the prices as a dated "
                         "snapshot of an existing offering",
                         InvalidInput);
}

TEST_CASE("History validation and JSON round trip") {
    Offering o = dated();
    o.history[1].effective_from = Date{2024, 1, 1};
    CHECK_THROWS_WITH_AS(o.validate(), "offering.history[1].effective_from = \"2024-01-01\": same date as history[0]", InvalidInput);
    o = dated();
    o.history[0].on_demand_hourly = -1;
    CHECK_THROWS_WITH_AS(o.validate(), "offering.history[0].on_demand_hourly = -1: must be finite and >= 0", InvalidInput);
    const Catalog c({}, {dated()});
    const Catalog back = Catalog::from_json(c.to_json());
    CHECK(back == c);
    CHECK(back.offerings()[0].history.size() == 2);
}

TEST_CASE("built-in: P4/P5 before and after AWS's June-2025 cut, p3 with its 2017 reservations") {
    const Catalog& c = Catalog::builtin();
    const Offering& p5 = c.offering("aws", "p5.48xlarge", "us-east-1");
    CHECK(p5.price_at(Date{2025, 5, 31}).on_demand_hourly == 98.32);
    CHECK(p5.price_at(Date{2025, 6, 1}).on_demand_hourly == 55.04);
    // 55.04 / 98.32 = 0.5598: a 44% cut.
    CHECK(1 - 55.04 / 98.32 == doctest::Approx(0.44).epsilon(0.01));
    const Offering p3 = c.offering("aws", "p3.8xlarge", "us-east-1").price_at(Date{2018, 1, 1});
    CHECK(p3.reserved.size() == 6);
    CHECK_THROWS_AS(c.offering("aws", "p3.8xlarge", "us-east-1").price_at(Date{2017, 1, 1}), InvalidInput);
    // The catalog as of May 2025 keeps every undated row and the pre-cut P4/P5 prices. Azure's rows are
    // dated by the SkyPilot-format file's git history (ND96asr_v4: the same prices since its first
    // snapshot, 2026-04-02; the seeds' undated listing had the same on-demand price), so they are in
    // the catalog from that date on, not before.
    const Catalog may = c.as_of(Date{2025, 5, 15});
    CHECK(may.offering("aws", "p4d.24xlarge", "us-east-1").on_demand_hourly == 32.7726);
    CHECK(may.offering("aws", "g4dn.xlarge", "us-east-1").on_demand_hourly == 0.526);  // undated
    CHECK_THROWS_AS(may.offering("azure", "Standard_ND96asr_v4", "eastus"), InvalidInput);
    CHECK(c.as_of(Date{2026, 5, 20}).offering("azure", "Standard_ND96asr_v4", "eastus").on_demand_hourly == 27.197);
    CHECK(c.as_of(Date{2026, 4, 2}).offering("azure", "Standard_ND96asr_v4", "eastus").on_demand_hourly == 27.197);
    CHECK_THROWS_AS(c.as_of(Date{2026, 4, 1}).offering("azure", "Standard_ND96asr_v4", "eastus"), InvalidInput);
}

TEST_CASE("built-in: published Azure reservations, two dated snapshots") {
    const Offering& nc = Catalog::builtin().offering("azure", "Standard_NC48ads_A100_v4", "eastus2");
    CHECK(nc.reserved_price(1, Payment::all_upfront)->upfront == 42066.0);
    CHECK(nc.source.row == "/6");  // the 2026-05-28 file's item
    const Offering& h200 = Catalog::builtin().offering("azure", "Standard_ND96isr_H200_v5", "usgovvirginia");
    // 3-year reservation: 1,225,699 in the 2026-05-28 file, 1,386,990 in the 2026-08-22 one.
    CHECK(h200.price_at(Date{2026, 6, 1}).reserved_price(3, Payment::all_upfront)->upfront == 1225699.0);
    CHECK(h200.price_at(Date{2026, 9, 1}).reserved_price(3, Payment::all_upfront)->upfront == 1386990.0);
    CHECK_FALSE(h200.has_price_at(Date{2026, 5, 27}));
}

TEST_CASE("The built-in catalog is the data file, compiled in") {
    const Catalog from_file = Catalog::from_json_file(std::string(GPUTCO_SOURCE_DIR) + "/data/catalog/builtin.json");
    CHECK(Catalog::builtin() == from_file);
    // Derived prices keep their label.
    for (const Offering& o : Catalog::builtin().offerings()) {
        for (const ReservedPrice& r : o.reserved) {
            if (r.source.name.starts_with("derived")) CHECK(o.key() == "aws/us-east-1/p4d.24xlarge");
        }
    }
}

TEST_CASE("a snapshot may be spot-only: sold only as spot then, on demand from a later date") {
    // Listed on demand from 2025-01-01 (12 $/h, spot 4); sold only as spot before, from 2024-07-01.
    Offering o = dated();
    o.history = {PriceSnapshot{Date{2024, 7, 1}, 0, 3.0, {}, {"spot list", "2024-07-01"}, "", true}};
    o.effective_from = Date{2025, 1, 1};
    o.on_demand_hourly = 12;
    o.spot_hourly = 4.0;
    o.source = {"list", "2025-01-01"};
    o.capacity_block_hourly = 20;
    o.validate();
    const Offering then = o.price_at(Date{2024, 9, 1});
    CHECK(then.spot_only);
    CHECK_FALSE(then.sells_on_demand());
    CHECK(then.on_demand_hourly == 0);
    CHECK(*then.spot_hourly == 3.0);
    CHECK_FALSE(then.capacity_block_hourly);  // no term of the later listing was on sale then
    const Offering now = o.price_at(Date{2025, 6, 1});
    CHECK_FALSE(now.spot_only);
    CHECK(now.on_demand_hourly == 12);
    // The catalog at each date, and its JSON, keep the snapshot's flag.
    const Catalog c({}, {o});
    CHECK(c.as_of(Date{2024, 9, 1}).offerings()[0].spot_only);
    const Catalog back = Catalog::from_json(c.to_json());
    REQUIRE(back.offerings()[0].history.size() == 1);
    CHECK(back.offerings()[0].history[0].spot_only);
    CHECK(back == c);
    // A spot-only snapshot follows the spot-only rules: no on-demand price, a spot price.
    Offering bad = o;
    bad.history[0].on_demand_hourly = 5;
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.history[0].on_demand_hourly = 5: must be 0 on a spot-only offering (it "
                                         "sells no on-demand hours)",
                         InvalidInput);
    bad = o;
    bad.history[0].spot_hourly.reset();
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.history[0].spot_only = true: needs a spot_hourly price", InvalidInput);
}
