// Price ages and the cross-source check, on the real excerpts in tests/data/price-formats.
#include <doctest/doctest.h>

#include "gputco/catalog/gpu_names.hpp"
#include "gputco/catalog/importers.hpp"
#include "gputco/catalog/price_trust.hpp"
#include "gputco/catalog/query.hpp"

using namespace gputco;

namespace {
const std::string price_formats = std::string(GPUTCO_SOURCE_DIR) + "/tests/data/price-formats/";

Offering priced(double price, std::string as_of, std::optional<Date> from = std::nullopt) {
    Offering o;
    o.provider = "p";
    o.region = "r";
    o.instance_type = "x";
    o.gpu = "H100";
    o.on_demand_hourly = price;
    o.source = {"s", std::move(as_of)};
    o.effective_from = from;
    return o;
}
}  // namespace

TEST_CASE("cross-source warning: GCP a3-highgpu-8g us-central1 is about 2x apart in Cyclenerd and SkyPilot") {
    const Catalog cyclenerd({}, import_cyclenerd_pricing_yml(read_text_file(price_formats + "gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml"),
                                                             {.file = "pricing.yml"}).offerings);
    const Catalog skypilot({}, import_skypilot_csv(read_text_file(price_formats + "skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"),
                                                   {.file = "gcp/vms.csv", .published = "2026-04-02", .provider = "gcp"}).offerings);
    const auto found = cross_check(cyclenerd, skypilot);
    const PriceDisagreement* a3 = nullptr;
    for (const PriceDisagreement& d : found)
        if (d.key == "gcp/us-central1/a3-highgpu-8g/us-central1-a") a3 = &d;
    REQUIRE(a3);
    // Cyclenerd 88.49 $/h (whole VM); SkyPilot line 24 host 9.46006 + line 126 GPUs 33.60609 = 43.06615.
    CHECK(a3->first == doctest::Approx(88.49).epsilon(1e-6));
    CHECK(a3->second == doctest::Approx(9.46006 + 33.60609));
    CHECK(a3->relative == doctest::Approx(88.4899999025753 / 43.06615 - 1));  // 105% apart
    CHECK(a3->used == "first");                                              // Cyclenerd, 2026-07-30, is newer
    CHECK(a3->message().starts_with("gcp/us-central1/a3-highgpu-8g/us-central1-a: 88.49"));
    CHECK(a3->message().find("differ by 105.5% (more than 10%); using 88.49 (Cyclenerd pricing.yml pricing.yml, 2026-07-30)") !=
          std::string::npos);
    // The same files agree on a2-highgpu-1g us-central1 (3.673385 vs 0.73948 + 2.93391): no warning.
    for (const PriceDisagreement& d : found) CHECK(d.key.find("us-central1/a2-highgpu-1g/") == std::string::npos);
    // Swapped, the newer is the second.
    for (const PriceDisagreement& d : cross_check(skypilot, cyclenerd))
        if (d.key == "gcp/us-central1/a3-highgpu-8g/us-central1-a") CHECK(d.used == "second");
    CHECK_THROWS_WITH_AS(cross_check(cyclenerd, skypilot, -0.1), "tolerance = -0.1: must be finite and >= 0", InvalidInput);
}

TEST_CASE("cross-source tolerance: exactly at the limit is agreement, above it a warning") {
    const Catalog a({}, {priced(100, "2026-01-01")});
    CHECK(cross_check(a, Catalog({}, {priced(110, "2026-02-01")})).empty());  // 10% of the lower: within
    const auto d = cross_check(a, Catalog({}, {priced(110.5, "2026-02-01")}));
    REQUIRE(d.size() == 1);
    CHECK(d[0].used == "second");
    Offering cny = priced(500, "2026-02-01");
    cny.currency = "CNY";
    CHECK(cross_check(a, Catalog({}, {cny})).empty());  // other currencies are not compared
}

TEST_CASE("every price shows its age; older than the limit or undated is stale") {
    const Date today{2026, 12, 5};
    CHECK(*price_age_days(priced(1, "2026-11-09"), today) == 26);
    CHECK(*price_age_days(priced(1, "2026-08"), today) == 126);   // from 2026-08-01: never understated
    CHECK(*price_age_days(priced(1, "2025-H1"), today) == 703);   // from 2025-01-01
    CHECK(*price_age_days(priced(1, "x", Date{2026, 9, 20}), today) == 76);  // effective_from, the source undated
    // In force since 2025-06-01 and read again on 2026-11-09: known true on the later date.
    CHECK(*price_age_days(priced(1, "2026-11-09", Date{2025, 6, 1}), today) == 26);
    CHECK(*price_age_days(priced(1, "2025-H1", Date{2025, 6, 1}), today) == 552);
    CHECK(describe_price_age(priced(1, "2026-11-09", Date{2025, 6, 1}), today) == "dated 2026-11-09, 26 days old on 2026-12-05");
    CHECK(describe_price_age(priced(1, "undated"), today) == "undated");
    CHECK(is_stale(priced(1, "2026-08"), today, 100));  // 126 days: over a limit of 100
    CHECK_FALSE(price_age_days(priced(1, "undated"), today));
    CHECK(is_stale(priced(1, "undated"), today));
    CHECK(is_stale(priced(1, "2025-H1"), today));
    CHECK_FALSE(is_stale(priced(1, "2026-08"), today));
    CHECK(stale_price_age_days == 365);
    // A ranking flags them.
    const auto ranked = rank_by_gpu_hour_price({priced(2, "2023"), priced(1, "2026-11-09")}, "USD", ExchangeRates(), today);
    REQUIRE(ranked.size() == 2);
    CHECK(*ranked[0].price_age_days == 26);
    CHECK_FALSE(ranked[0].stale);
    CHECK(ranked[1].stale);
    // The built-in catalog at today's date: Lambda's list is fresh, the undated seed prices are not.
    const Catalog& c = Catalog::builtin();
    CHECK_FALSE(is_stale(c.offering("lambda", "gpu_8x_h100_sxm5"), today));
    // AWS's June 2025 cut price, recorded again in 2026-11: fresh.
    CHECK_FALSE(is_stale(c.offering("aws", "p5.48xlarge", "us-east-1"), today));
    CHECK(is_stale(c.offering("huawei", "GP60"), today));
}

TEST_CASE("a share's price per GPU-hour is its price per share-hour over its fraction of the card") {
    // A third of an A10 at $0.30/h is $0.90 per A10-hour: dearer than a whole A10 at $0.80/h.
    Offering third = priced(0.30, "2026-11-09");
    third.gpu = "A10/3";
    third.instance_type = "third";
    Offering whole = priced(0.80, "2026-11-09");
    whole.gpu = "A10";
    const Date today{2026, 12, 5};
    const auto ranked = rank_by_gpu_hour_price({third, whole}, "USD", ExchangeRates(), today);
    REQUIRE(ranked.size() == 2);
    CHECK(ranked[0].offering.gpu == "A10");
    CHECK(ranked[1].per_gpu_hour == doctest::Approx(0.90));
    CHECK(gpu_fraction("A10/3") == doctest::Approx(1.0 / 3));
    CHECK(gpu_fraction("A10") == 1.0);
    // The spread keeps the share apart from the card.
    const auto spread = price_spread(ranked);
    REQUIRE(spread.size() == 2);
    CHECK(spread[1].gpu == "A10/3");
    CHECK(spread[1].min == doctest::Approx(0.90));
    // Its memory is its fraction of the card's: 8 of the A10's 24 GB.
    GpuSpec a10;
    a10.name = "A10";
    a10.vendor = "NVIDIA";
    a10.memory_gb = 24;
    a10.memory_bandwidth_gbps = a10.fp16_tflops = a10.fp32_tflops = a10.tdp_watts = 1;
    a10.source = {"s", "2021"};
    const Catalog c({a10}, {third, whole});
    OfferingQuery q;
    q.min_gpu_memory_gb = 8;
    CHECK(query(c, q).size() == 2);
    q.min_gpu_memory_gb = 9;
    REQUIRE(query(c, q).size() == 1);
    CHECK(query(c, q)[0].gpu == "A10");
}
