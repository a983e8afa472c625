// Catalog queries: each filter, GPU names across providers, ranking in one currency.
#include <algorithm>
#include <set>

#include <doctest/doctest.h>

#include "gputco/catalog/importers.hpp"
#include "gputco/catalog/query.hpp"

using namespace gputco;

TEST_CASE("query: every criterion filters, and only it") {
    const Catalog& c = Catalog::builtin();
    CHECK(query(c, {}).size() == c.offerings().size());
    OfferingQuery q;
    q.provider = "gcp";
    for (const Offering& o : query(c, q)) CHECK(o.provider == "gcp");
    q = {};
    q.gpu = "Nvidia Tesla A100";  // GCP's spelling of the A100 40 GB
    const auto a100 = query(c, q);
    CHECK_FALSE(a100.empty());
    for (const Offering& o : a100) CHECK(o.gpu == "A100-40GB");
    // A100 40 GB on AWS (p4d), Azure (ND96asr_v4) and GCP (a2-highgpu) is one GPU.
    std::set<std::string> providers;
    for (const Offering& o : a100) providers.insert(o.provider);
    CHECK(providers.count("aws") == 1);
    CHECK(providers.count("azure") == 1);
    CHECK(providers.count("gcp") == 1);
    q = {};
    q.min_gpu_memory_gb = 80;
    for (const Offering& o : query(c, q)) CHECK(c.gpu(o.gpu).memory_gb >= 80);
    q = {};
    q.gpus_per_instance = 8;
    q.has_spot = true;
    q.has_reservations = true;
    for (const Offering& o : query(c, q)) {
        CHECK(o.gpus_per_instance == 8);
        CHECK(o.spot_hourly.has_value());
        CHECK_FALSE(o.reserved.empty());
    }
    q = {};
    q.currency = "CNY";
    for (const Offering& o : query(c, q)) CHECK(o.currency == "CNY");
    q.region = "cn-beijing";
    CHECK(query(c, q).size() == 1);  // Alibaba gn6i
    q = {};
    q.has_spot = false;
    for (const Offering& o : query(c, q)) CHECK_FALSE(o.spot_hourly.has_value());
    CHECK_THROWS_WITH_AS(query(c, OfferingQuery{.gpus_per_instance = 0}), "query.gpus_per_instance = 0: must be >= 1", InvalidInput);
}

TEST_CASE("query at a date sees the prices then") {
    OfferingQuery q;
    q.gpu = "A100";
    q.provider = "aws";
    q.as_of = Date{2025, 7, 1};
    const auto after = query(Catalog::builtin(), q);
    REQUIRE(after.size() == 1);
    CHECK(after[0].on_demand_hourly == 21.96);
}

TEST_CASE("rank_by_gpu_hour_price: one currency, rates from the table, no silent mixing") {
    const Catalog& c = Catalog::builtin();
    OfferingQuery q;
    q.gpu = "T4";
    const auto t4 = query(c, q);
    // T4 offerings include Tencent's GN7 at 2.8 CNY/h: ranking in USD needs a rate in force.
    CHECK_THROWS_WITH_AS(rank_by_gpu_hour_price(t4, "USD", ExchangeRates(), Date{2025, 1, 1}),
                         "currency = \"CNY\": no exchange rate to USD in force at 2025-01-01 (known: none)", InvalidInput);
    const auto ranked = rank_by_gpu_hour_price(t4, "USD", ExchangeRates::builtin(), Date{2025, 1, 1});
    CHECK(ranked.size() == t4.size());
    for (std::size_t i = 1; i < ranked.size(); ++i) CHECK(ranked[i - 1].per_gpu_hour <= ranked[i].per_gpu_hour);
    for (const RankedOffering& r : ranked) {
        CHECK(r.currency == "USD");
        if (r.offering.instance_type == "GN7") {
            // 2.8 CNY/h x 1.0705 / 7.7748 = 0.385528 USD/h.
            CHECK(r.per_gpu_hour == doctest::Approx(2.8 * 1.0705 / 7.7748));
            CHECK(r.conversion.find("ECB") != std::string::npos);
        }
        if (r.offering.instance_type == "g4dn.xlarge" && r.offering.region == "us-east-1") CHECK(r.per_gpu_hour == 0.526);
    }
    // Spot ranks only offerings with a spot price; 3-year reservations by the cheapest effective rate.
    const auto spot = rank_by_gpu_hour_price(query(c, {}), "USD", ExchangeRates::builtin(), Date{2025, 1, 1}, PriceKind::spot);
    for (const RankedOffering& r : spot) CHECK(r.offering.spot_hourly.has_value());
    const Offering p4d_before_cut = c.offering("aws", "p4d.24xlarge").price_at(Date{2025, 5, 31});
    const auto r3 = rank_by_gpu_hour_price({p4d_before_cut}, "USD", ExchangeRates(), Date{2025, 1, 1}, PriceKind::reserved_3y);
    REQUIRE(r3.size() == 1);
    // (18.581 - 0.3 x 32.7726) / 0.7 = 12.4987 $/h per instance, / 8 GPUs = 1.56234 $/GPU-h.
    CHECK(r3[0].per_gpu_hour == doctest::Approx((18.581 - 0.3 * 32.7726) / 0.7 / 8));
    // Today's (listed) price: 25% lower after AWS's 3-year EC2 Instance Savings Plan cut of June 2025.
    const auto today = rank_by_gpu_hour_price({c.offering("aws", "p4d.24xlarge")}, "USD", ExchangeRates(), Date{2025, 1, 1},
                                              PriceKind::reserved_3y);
    CHECK(today[0].per_gpu_hour == doctest::Approx(0.75 * (18.581 - 0.3 * 32.7726) / 0.7 / 8));
    CHECK_THROWS_WITH_AS(parse_price_kind("cheap"), "price = \"cheap\": must be one of on_demand, spot, reserved_1y, reserved_3y",
                         InvalidInput);
}

TEST_CASE("Imported rows join the same GPU names: Azure, GCP and Lambda A100 40 GB") {
    const std::string dir = std::string(GPUTCO_SOURCE_DIR) + "/tests/data/price-formats/";
    const ImportResult azure = import_skypilot_csv(read_text_file(dir + "skypilot_format_azure_vms_gpu_excerpt_anycloud_2026-04-02.csv"),
                                                   {.file = "azure.csv", .provider = "azure", .join_extra_fields_into_last_column = true});
    const ImportResult gcp = import_cyclenerd_pricing_yml(read_text_file(dir + "gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml"),
                                                          {.file = "pricing.yml"});
    std::vector<Offering> all = azure.offerings;
    all.insert(all.end(), gcp.offerings.begin(), gcp.offerings.end());
    const Catalog c(Catalog::builtin().gpus(), all);
    OfferingQuery q;
    q.gpu = "A100-40GB";
    q.gpus_per_instance = 8;
    std::set<std::string> providers;
    for (const Offering& o : query(c, q)) providers.insert(o.provider);
    CHECK(providers == std::set<std::string>{"azure", "gcp"});
}

TEST_CASE("provider kinds: hyperscalers, neoclouds and a marketplace, queryable") {
    CHECK(provider_kind("aws") == ProviderKind::hyperscaler);
    CHECK(provider_kind("lambda") == ProviderKind::neocloud);
    CHECK(provider_kind("vast") == ProviderKind::marketplace);
    CHECK(provider_kind("mycloud") == ProviderKind::unknown);
    const Catalog& c = Catalog::builtin();
    std::size_t total = 0;
    for (const ProviderKind kind : {ProviderKind::hyperscaler, ProviderKind::neocloud, ProviderKind::marketplace}) {
        OfferingQuery q;
        q.provider_kind = kind;
        const auto rows = query(c, q);
        CHECK_FALSE(rows.empty());
        for (const Offering& o : rows) CHECK(provider_kind(o.provider) == kind);
        total += rows.size();
    }
    CHECK(total == c.offerings().size());  // every built-in provider has a kind
    // Neoclouds beside hyperscalers: the H200 of both kinds.
    OfferingQuery h200;
    h200.gpu = "H200";
    h200.provider_kind = ProviderKind::neocloud;
    CHECK(query(c, h200).size() >= 2);  // Nebius, Hyperstack, CoreWeave
}

TEST_CASE("price spread per GPU: min, median and max per GPU-hour, by hand") {
    auto offering = [](std::string provider, std::string gpu, int gpus, double price) {
        Offering o;
        o.provider = std::move(provider);
        o.region = "r";
        o.instance_type = "x";
        o.gpu = std::move(gpu);
        o.gpus_per_instance = gpus;
        o.on_demand_hourly = price;
        o.source = {"test", "2026-12-05"};
        return o;
    };
    const std::vector<Offering> rows{offering("a", "H100", 8, 8 * 12.29), offering("b", "H100", 1, 2.69),
                                     offering("c", "H100", 8, 8 * 3.99), offering("d", "H100", 1, 2.95),
                                     offering("e", "B200", 8, 8 * 6.69)};
    const auto spread = price_spread(rank_by_gpu_hour_price(rows, "USD", ExchangeRates(), Date{2026, 12, 5}));
    REQUIRE(spread.size() == 2);
    CHECK(spread[0].gpu == "B200");
    CHECK(spread[0].min == doctest::Approx(6.69));
    CHECK(spread[0].median == doctest::Approx(6.69));
    CHECK(spread[1].gpu == "H100");
    CHECK(spread[1].offerings == 4);
    CHECK(spread[1].min == doctest::Approx(2.69));
    CHECK(spread[1].median == doctest::Approx((2.95 + 3.99) / 2));  // even count: mean of the middle two
    CHECK(spread[1].max == doctest::Approx(12.29));
    CHECK(spread[1].cheapest == "b/r/x");
    CHECK(spread[1].dearest == "a/r/x");
    // The built-in market: H100 SXM from about $2.4 (Vast.ai median) to $12.29 (Azure) per GPU-hour.
    OfferingQuery q;
    q.currency = "USD";
    const auto market = price_spread(rank_by_gpu_hour_price(query(Catalog::builtin(), q), "USD", ExchangeRates(), Date{2026, 12, 5}));
    const auto h100 = std::find_if(market.begin(), market.end(), [](const GpuPriceSpread& s) { return s.gpu == "H100"; });
    REQUIRE(h100 != market.end());
    CHECK(h100->min <= 2.5);
    CHECK(h100->max >= 11);
}
