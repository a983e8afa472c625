#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include <doctest/doctest.h>

#include "gputco/engines/checkpoint.hpp"
#include "gputco/engines/work_cost.hpp"
#include "gputco/work/throughput.hpp"

using namespace gputco;

namespace {

const Source test_source{"test", "2026-11"};

GpuSpec gpu(std::string name, double memory_gb) {
    GpuSpec g;
    g.name = std::move(name);
    g.vendor = "NVIDIA";
    g.memory_gb = memory_gb;
    g.memory_bandwidth_gbps = 600;
    g.fp16_tflops = 100;
    g.fp32_tflops = 20;
    g.tdp_watts = 300;
    g.source = test_source;
    return g;
}

Offering offering(std::string provider, std::string gpu_name, double on_demand, std::string currency = "USD") {
    Offering o;
    o.provider = std::move(provider);
    o.region = "r1";
    o.instance_type = "x1";
    o.gpu = std::move(gpu_name);
    o.on_demand_hourly = on_demand;
    o.currency = std::move(currency);
    o.billing_increment_seconds = 1;
    o.minimum_billed_seconds = 60;
    o.source = test_source;
    return o;
}

// Three offerings in USD: A10 at $1/h (spot $0.30), V100 at $2/h, A100 80GB at $5/h with a 1-year
// all-upfront reservation of 26,280 (effective 26,280 / 8,760 = $3/h); and an A10 at 100 JPY/h, a
// currency without a rate in the built-in exchange-rate table.
Catalog three_offerings() {
    Offering a10 = offering("cheap", "A10", 1.0);
    a10.spot_hourly = 0.30;
    Offering a100 = offering("fast", "A100-80GB", 5.0);
    ReservedPrice r;
    r.term_years = 1;
    r.payment = Payment::all_upfront;
    r.upfront = 26280;
    r.source = test_source;
    a100.reserved.push_back(r);
    return Catalog({gpu("A10", 24), gpu("V100", 16), gpu("A100-80GB", 80)},
                   {a10, offering("mid", "V100", 2.0), a100, offering("yen", "A10", 100, "JPY")});
}

// The user's own measurements: 100, 150 and 400 units/s on one GPU; the A10 row has a price and power.
ThroughputTable my_table() {
    return ThroughputTable::from_csv("name_gpu,num_gpu,watt,price,mymodel\n"
                                     "A10,1,150,3125,100\n"
                                     "V100 16GB,1,,,150\n"
                                     "A100 80GB SXM4,1,,,400\n",
                                     Precision::mixed, {"my benchmark", "2026-11"});
}

// 3.6e6 units per epoch, 2 epochs: 7.2e6 units = 20 h on the A10, 13.33 h on the V100, 5 h on the A100.
const Workload job{.name = "mine", .model = "mymodel", .work_per_epoch = 3.6e6, .epochs = 2};

// A copy: callers often pass a ranking that lives only for the call.
WorkCostRow find(const WorkRanking& r, std::string_view provider, BuyingWay way) {
    const auto it = std::find_if(r.rows.begin(), r.rows.end(),
                                 [&](const WorkCostRow& x) { return x.provider == provider && x.buying == way; });
    REQUIRE(it != r.rows.end());
    return *it;
}

}  // namespace

TEST_CASE("cost per epoch, run and million units by hand; ranking order on three offerings") {
    RankOptions on_demand_only;
    on_demand_only.spot = on_demand_only.reserved = on_demand_only.owned = false;
    const WorkRanking r = rank_offerings(job, three_offerings(), my_table(), on_demand_only);
    REQUIRE(r.rows.size() == 3);
    // A10: 7.2e6 / 100 /s = 72,000 s = 20 h (a whole number of seconds: no rounding) x $1 = $20;
    // per epoch $10; per million units 20 / 7.2 = $2.7778.
    const WorkCostRow& a10 = r.rows[0];
    CHECK(a10.provider == "cheap");
    CHECK(a10.run_hours == doctest::Approx(20));
    CHECK(a10.hours_per_epoch == doctest::Approx(10));
    CHECK(a10.cost_per_run == doctest::Approx(20));
    CHECK(a10.cost_per_epoch == doctest::Approx(10));
    CHECK(a10.cost_per_million == doctest::Approx(20 / 7.2));
    CHECK(a10.match == MatchKind::measured);
    CHECK(a10.throughput_basis == "measured 1-GPU row");
    // A100: 7.2e6 / 400 = 18,000 s = 5 h x $5 = $25. V100: 48,000 s = 13.333 h x $2 = $26.667.
    CHECK(r.rows[1].provider == "fast");
    CHECK(r.rows[1].cost_per_run == doctest::Approx(25));
    CHECK(r.rows[2].provider == "mid");
    CHECK(r.rows[2].cost_per_run == doctest::Approx(80.0 / 3));
    CHECK(r.rows[2].match == MatchKind::measured);
    CHECK(r.unit == "units");
    // The JPY offering is left out, and says why.
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].offering == "yen/r1/x1");
    CHECK(r.skipped[0].reason ==
          "priced in JPY: currency = \"JPY\": no exchange rate to USD in force at 2024-06-28 (known: EUR/CNY from "
          "2024-06-28, EUR/USD from 2024-06-28)");

    // Utilisation 0.8: the A10 runs 25 h.
    Workload slower = job;
    slower.utilisation = 0.8;
    CHECK(rank_offerings(slower, three_offerings(), my_table(), on_demand_only).rows[0].cost_per_run ==
          doctest::Approx(25));

    // Frontier (fastest first): A100 (5 h, $25), then A10 (20 h, $20); the V100 is beaten on both.
    const std::vector<WorkCostRow> frontier = cost_time_frontier(r);
    REQUIRE(frontier.size() == 2);
    CHECK(frontier[0].provider == "fast");
    CHECK(frontier[1].provider == "cheap");
}

TEST_CASE("one currency: offerings in another are converted at a dated rate, and say so") {
    // An A10 at 0.5 EUR/h: at the built-in ECB rate of 2024-06-28 (1 EUR = 1.0705 USD) $0.53525/h, so
    // the 20 h run costs $10.705 and ranks first.
    const Catalog c({gpu("A10", 24)}, {offering("euro", "A10", 0.5, "EUR"), offering("cheap", "A10", 1.0)});
    RankOptions o;
    o.spot = o.reserved = o.owned = false;
    const WorkRanking r = rank_offerings(job, c, my_table(), o);
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].provider == "euro");
    CHECK(r.rows[0].currency == "USD");
    CHECK(r.rows[0].price_per_hour == doctest::Approx(0.53525));
    CHECK(r.rows[0].cost_per_run == doctest::Approx(10.705));
    CHECK(r.rows[0].note.find("prices converted from EUR at 1.0705 USD per EUR") != std::string::npos);
    // Ranked in EUR instead: the USD offering is converted at 1 / 1.0705.
    o.currency = "EUR";
    const WorkRanking eur = rank_offerings(job, c, my_table(), o);
    CHECK(eur.rows[1].provider == "cheap");
    CHECK(eur.rows[1].cost_per_run == doctest::Approx(20 / 1.0705));
    // Before the table's first rate there is no rate: skipped.
    o.rates_as_of = "2020-01-01";
    CHECK(rank_offerings(job, c, my_table(), o).skipped.size() == 1);
    o.rates_as_of = "2020-13";
    CHECK_THROWS_WITH_AS(rank_offerings(job, c, my_table(), o),
                         "options.rates_as_of = \"2020-13\": must be an ISO date YYYY-MM-DD, YYYY-MM or YYYY that exists",
                         InvalidInput);
}

TEST_CASE("billing: a run is one launch, rounded up to the increment") {
    Catalog c = three_offerings();
    std::vector<Offering> offerings = c.offerings();
    offerings[0].billing_increment_seconds = 3600;  // hourly
    const Catalog hourly(c.gpus(), offerings);
    Workload w = job;
    w.work_per_epoch = 3.6e6 + 100;  // 72,001 s: 21 whole hours charged
    RankOptions o;
    o.spot = o.reserved = o.owned = false;
    const WorkCostRow& a10 = find(rank_offerings(w, hourly, my_table(), o), "cheap", BuyingWay::on_demand);
    CHECK(a10.cost_per_run == doctest::Approx(21));
}

TEST_CASE("reserved at its effective rate, owned at full use") {
    const WorkRanking r = rank_offerings(job, three_offerings(), my_table());
    // Reserved A100: 5 h x (26,280 / 8,760 = $3/h) = $15.
    const WorkCostRow& reserved = find(r, "fast", BuyingWay::reserved);
    CHECK(reserved.cost_per_run == doctest::Approx(15));
    CHECK(reserved.terms == "1-year all_upfront");
    // Owned A10 (capex 3,125, 150 W): 3,125 x 0.9 / (3 x 8,760) = 0.107021 + 0.15 kW x 1.3 x $0.12 = 0.0234
    // -> $0.130421/h x 20 h = $2.60842.
    const WorkCostRow& owned = find(r, "owned", BuyingWay::owned);
    CHECK(owned.cost_per_run == doctest::Approx(2.60842).epsilon(1e-5));
    CHECK(owned.instance_type == "1x A10");
    // The V100 and A100 rows have no price or power: not owned, and said so.
    CHECK(std::count_if(r.skipped.begin(), r.skipped.end(), [](const SkippedOffering& s) {
              return s.reason == "no hardware price or board power in the throughput row";
          }) == 2);
    for (std::size_t i = 1; i < r.rows.size(); ++i) CHECK(r.rows[i - 1].cost_per_run <= r.rows[i].cost_per_run);
}

TEST_CASE("spot through the spot engine agrees with Daly's closed form within 4 standard errors") {
    RankOptions o;
    o.on_demand = o.reserved = o.owned = false;
    o.spot_assumptions.mtbf_hours = 5;  // many interruptions over the 20 h run
    o.spot_assumptions.simulation.paths = 40'000;
    const WorkCostRow& spot = find(rank_offerings(job, three_offerings(), my_table(), o), "cheap", BuyingWay::spot);
    Job j;
    j.work_hours = 20;
    j.checkpoint_write_hours = o.spot_assumptions.checkpoint_write_hours;
    j.checkpoint_interval_hours = optimal_checkpoint_interval(j.checkpoint_write_hours, 5);
    j.restart_hours = o.spot_assumptions.restart_hours;
    const ExpectedSpotTime expected = expected_spot_time(j, 5);
    // Per-second billing with a 60 s minimum adds at most 60 s per launch: E[launches] = E[N] + 1.
    const double billing_bound = (expected.interruptions + 1) * 60.0 / 3600 * 0.30;
    CHECK(std::abs(spot.cost_per_run - expected.billed_hours * 0.30) <=
          4 * spot.cost_per_run_standard_error + billing_bound);
    CHECK(spot.cost_per_run_p95 >= spot.cost_per_run);
    CHECK(spot.cost_per_epoch == doctest::Approx(spot.cost_per_run / 2));
}

TEST_CASE("memory: GPUs too small are skipped; a workload that fits no GPU is an error") {
    Workload big = job;
    big.memory_gb = 30;
    const WorkRanking r = rank_offerings(big, three_offerings(), my_table());
    for (const WorkCostRow& row : r.rows) CHECK((row.catalog_gpu == "A100-80GB" || row.benchmark_gpu == "A100 80GB SXM4"));
    CHECK(std::any_of(r.skipped.begin(), r.skipped.end(), [](const SkippedOffering& s) {
        return s.offering == "mid/r1/x1" && s.reason == "needs 30 GB per GPU; V100 has 16 GB";
    }));
    big.memory_gb = 100;
    CHECK_THROWS_WITH_AS(rank_offerings(big, three_offerings(), my_table()),
                         "workload.memory_gb = 100: fits no GPU of the catalog (the largest, A100-80GB, has 80 GB)",
                         InvalidInput);
    Workload unknown = job;
    unknown.model = "resnet50";
    CHECK_THROWS_WITH_AS(rank_offerings(unknown, three_offerings(), my_table()),
                         "workload.model = \"resnet50\": not in the throughput table (known: mymodel)", InvalidInput);
}

TEST_CASE("cheapest way to finish within D hours with probability >= p") {
    RankOptions rent;
    rent.owned = false;
    // Within 10 h only the A100 finishes (5 h): reserved ($15) beats on-demand ($25).
    const auto best = cheapest_within(job, three_offerings(), my_table(), 10, 0.95, rent);
    REQUIRE(best);
    CHECK(best->provider == "fast");
    CHECK(best->buying == BuyingWay::reserved);
    rent.reserved = false;
    CHECK(cheapest_within(job, three_offerings(), my_table(), 10, 0.95, rent)->cost_per_run == doctest::Approx(25));
    CHECK_FALSE(cheapest_within(job, three_offerings(), my_table(), 4, 0.95, rent));
    // Spot on the A10 (20 h of work, MTBF 20 h): P(wall <= 21 h) is well below 0.99 but above 0.
    rent.on_demand = false;
    RankOptions spot = rent;
    spot.deadline_hours = 21;
    const WorkCostRow& a10 = find(rank_offerings(job, three_offerings(), my_table(), spot), "cheap", BuyingWay::spot);
    CHECK(a10.probability_within_deadline > 0);
    CHECK(a10.probability_within_deadline < 0.99);
    CHECK_THROWS_WITH_AS(cheapest_within(job, three_offerings(), my_table(), 10, 0), "probability = 0: must be in (0, 1]",
                         InvalidInput);
}

TEST_CASE("estimates only when asked for, and labelled") {
    const Catalog c({gpu("T4", 16), gpu("V100", 16)}, {offering("t4", "T4", 0.5), offering("v100", "V100", 2.0)});
    RankOptions o;
    o.spot = o.reserved = o.owned = false;
    const WorkRanking plain = rank_offerings(job, c, my_table(), o);
    REQUIRE(plain.rows.size() == 1);
    CHECK(plain.skipped[0].offering == "t4/r1/x1");
    o.allow_estimates = true;
    const WorkRanking est = rank_offerings(job, c, my_table(), o);
    const WorkCostRow& t4 = find(est, "t4", BuyingWay::on_demand);
    CHECK(t4.match == MatchKind::estimate);
    // Both GPUs have 100 TFLOPS here: the estimate is the V100's 150 units/s.
    CHECK(t4.throughput_per_second == doctest::Approx(150));
    CHECK(t4.throughput_basis == "estimate: V100 16GB × 1.000 (peak TFLOPS ratio to V100): measured 1-GPU row");
}

TEST_CASE("invariants over random workloads on the built-in catalog") {
    std::mt19937_64 rng(2026);
    const std::vector<std::string> models = ThroughputTable::builtin().models();
    RankOptions o;
    o.spot_assumptions.simulation.paths = 2048;
    for (int trial = 0; trial < 40; ++trial) {
        Workload w;
        w.model = models[rng() % models.size()];
        w.work_per_epoch = std::exp(std::uniform_real_distribution<double>(std::log(1e3), std::log(1e9))(rng));
        w.epochs = std::uniform_real_distribution<double>(0.5, 100)(rng);
        w.utilisation = std::uniform_real_distribution<double>(0.3, 1)(rng);
        w.precision = rng() % 2 ? Precision::mixed : Precision::fp32;
        o.spot = trial % 4 == 0;
        CAPTURE(w.model);
        const WorkRanking r = rank_offerings(w, Catalog::builtin(), ThroughputTable::builtin(), o);
        for (std::size_t i = 0; i < r.rows.size(); ++i) {
            const WorkCostRow& row = r.rows[i];
            if (i > 0) CHECK(r.rows[i - 1].cost_per_run <= row.cost_per_run);
            CHECK(row.cost_per_run > 0);
            CHECK(row.cost_per_epoch * w.epochs == doctest::Approx(row.cost_per_run));
            CHECK(row.hours_per_epoch * w.epochs * row.throughput_per_second * 3600 == doctest::Approx(w.total_work()));
            // Billing rounds up, except within a relative 1e-9 above a whole increment (as the spot engine).
            if (row.buying == BuyingWay::on_demand)
                CHECK(row.cost_per_run >= row.run_hours * row.price_per_hour * (1 - 1e-9));
            if (row.buying == BuyingWay::spot) CHECK(row.run_hours >= row.hours_per_epoch * w.epochs);
            CHECK(row.currency == "USD");
        }
    }
}

TEST_CASE("cancellation: checked before each offering and by each spot run; a stop returns nothing") {
    RankOptions o;
    o.spot = false;
    int calls = 0;
    o.should_stop = [&] { return ++calls == 2; };
    CHECK_THROWS_WITH_AS(rank_offerings(job, three_offerings(), my_table(), o), "rank_offerings: stopped", Cancelled);
    CHECK(calls == 2);  // before the first and the second offering
    // A check that never stops changes nothing: asked before each of the 4 offerings and the owned machines.
    int asked = 0;
    o.should_stop = [&] { return ++asked < 0; };
    const WorkRanking watched = rank_offerings(job, three_offerings(), my_table(), o);
    CHECK(asked == 5);
    o.should_stop = {};
    CHECK(watched.rows.size() == rank_offerings(job, three_offerings(), my_table(), o).rows.size());
    // The spot run of the first offering gets the ranking's check: its first poll stops it.
    o.spot = true;
    o.spot_assumptions.simulation.paths = 2'048;
    int spot_calls = 0;
    o.should_stop = [&] { return ++spot_calls == 2; };
    CHECK_THROWS_AS(rank_offerings(job, three_offerings(), my_table(), o), Cancelled);
    CHECK(spot_calls == 2);
}

TEST_CASE("regions: an instance type is ranked in its cheapest region per way of buying unless every region is asked for") {
    // The same A10 type in three regions: on demand cheapest in r2, spot cheapest in r3.
    Offering r1 = offering("cloud", "A10", 1.2);
    r1.spot_hourly = 0.50;
    Offering r2 = offering("cloud", "A10", 1.0);
    r2.region = "r2";
    r2.spot_hourly = 0.40;
    Offering r3 = offering("cloud", "A10", 1.1);
    r3.region = "r3";
    r3.spot_hourly = 0.30;
    const Catalog c({gpu("A10", 24)}, {r1, r2, r3});
    RankOptions o;
    o.reserved = o.owned = false;
    o.spot_assumptions.simulation.paths = 200;
    const WorkRanking cheapest = rank_offerings(job, c, my_table(), o);
    std::set<std::string> rows;
    for (const WorkCostRow& row : cheapest.rows) rows.insert(row.region + "/" + std::string(to_string(row.buying)));
    // r2 is the cheapest on demand and r3 on spot; each of the two keeps both its rows, r1 is left out.
    CHECK(rows == std::set<std::string>{"r2/on_demand", "r2/spot", "r3/on_demand", "r3/spot"});
    o.every_region = true;
    CHECK(rank_offerings(job, c, my_table(), o).rows.size() == 6);
}

TEST_CASE("price age: an undated or too old price is left out by default, with its age; ranked and flagged when asked") {
    // The same A10 type in three regions: fresh (2026-11), a year and a half old (2025-06-01, read again
    // 2025-06), and undated. Aged at 2026-12-05 with the default limit of 365 days.
    Offering fresh = offering("cloud", "A10", 1.2);
    Offering old = offering("cloud", "A10", 0.5);
    old.region = "r2";
    old.effective_from = Date{2025, 6, 1};
    old.source = {"old list", "2025-06"};
    Offering undated = offering("cloud", "A10", 0.4);
    undated.region = "r3";
    undated.source = {"a file", "undated"};
    const Catalog c({gpu("A10", 24)}, {fresh, old, undated});
    RankOptions o;
    o.spot = o.reserved = o.owned = false;
    o.prices_as_of = "2026-12-05";
    const WorkRanking r = rank_offerings(job, c, my_table(), o);
    CHECK(RankOptions{}.max_price_age_days == stale_price_age_days);
    CHECK(r.max_price_age_days == 365);
    CHECK(r.prices_as_of == "2026-12-05");
    REQUIRE(r.rows.size() == 1);  // the dearer fresh price, not the cheaper stale ones
    CHECK(r.rows[0].region == "r1");
    CHECK(*r.rows[0].price_age_days == 34);  // from 2026-11-01
    CHECK_FALSE(r.rows[0].stale);
    CHECK(r.stale_left_out == 2);
    REQUIRE(r.skipped.size() == 2);
    CHECK(r.skipped[0].offering == "cloud/r2/x1");
    CHECK(r.skipped[0].reason == "price dated 2025-06-01, 552 days old on 2026-12-05: older than the price-age limit of "
                                 "365 days (include_stale_prices ranks it)");
    CHECK(r.skipped[1].reason == "price undated: its source gives no date, so it is left out as if older than the "
                                 "price-age limit of 365 days (include_stale_prices ranks it)");
    // A longer limit keeps the 2025 price, and it is the cheapest.
    o.max_price_age_days = 600;
    CHECK(rank_offerings(job, c, my_table(), o).rows[0].region == "r2");
    // Asked for, every price is ranked (the cheapest region per type among all), each row flagged.
    o.max_price_age_days = 365;
    o.include_stale_prices = true;
    o.every_region = true;
    const WorkRanking all = rank_offerings(job, c, my_table(), o);
    REQUIRE(all.rows.size() == 3);
    CHECK(all.stale_left_out == 0);
    CHECK(all.rows[0].region == "r3");
    CHECK(all.rows[0].stale);
    CHECK_FALSE(all.rows[0].price_age_days);
    CHECK(all.rows[1].stale);
    CHECK(*all.rows[1].price_age_days == 552);
    CHECK_FALSE(all.rows[2].stale);
    o.max_price_age_days = -1;
    CHECK_THROWS_WITH_AS(rank_offerings(job, c, my_table(), o), "options.max_price_age_days = -1: must be >= 0", InvalidInput);
    o.max_price_age_days = 365;
    o.prices_as_of = "2026-13-01";
    CHECK_THROWS_AS(rank_offerings(job, c, my_table(), o), InvalidInput);
}

TEST_CASE("the built-in catalog's default ranking includes the neoclouds' dated prices and leaves out the undated files") {
    // Aged at GPUTCO_TODAY = 2026-12-05 (ctest) with the default limit of 365 days.
    const Workload w{.name = "resnet", .model = "resnet50", .work_per_epoch = 1'281'167, .epochs = 1};
    RankOptions o;
    o.spot = o.reserved = o.owned = false;
    const WorkRanking r = rank_offerings(w, Catalog::builtin(), ThroughputTable::builtin(), o);
    REQUIRE(r.prices_as_of == "2026-12-05");
    auto row = [&](const std::string& provider, const std::string& instance_type) -> const WorkCostRow* {
        for (const WorkCostRow& x : r.rows)
            if (x.provider == provider && x.instance_type == instance_type) return &x;
        return nullptr;
    };
    // Nebius B200 x 8: 8 x 8.50 = 68.00 from 2026-10-01 by a page read 2026-10-07, 59 days before
    // 2026-12-05 (Oct 7 -> Nov 7: 31, -> Dec 7: 30, minus 2). (Its H200s have no resnet50 measurement.)
    const WorkCostRow* nebius = row("nebius", "gpu-b200-sxm_8gpu-160vcpu-1792gb");
    REQUIRE(nebius);
    CHECK(nebius->price_per_hour == doctest::Approx(68.00));
    CHECK(*nebius->price_age_days == 59);
    CHECK_FALSE(nebius->stale);
    // Hyperstack's saved-file type n3-H100-SXM5x8, dated by the 2026-08-26 page: 101 days
    // (Aug 26 -> Sep 26: 31, -> Oct 26: 30, -> Nov 26: 31, -> Dec 5: 9).
    const WorkCostRow* hyperstack = row("hyperstack", "n3-H100-SXM5x8");
    REQUIRE(hyperstack);
    CHECK(*hyperstack->price_age_days == 101);
    // RunPod's B200, Secure Cloud $6.79 on 2026-09-08 (Sep 8 -> Oct 8: 30, -> Nov 8: 31, -> Dec 5: 27 = 88 days).
    const WorkCostRow* runpod = row("runpod", "1x_B200_SECURE");
    REQUIRE(runpod);
    CHECK(runpod->price_per_hour == 6.79);
    CHECK(*runpod->price_age_days == 88);
    CHECK(row("paperspace", "H100"));
    // Still undated: Nebius's L40S presets the pages do not price, every Alibaba and Tencent row.
    auto skipped = [&](const std::string& offering) {
        return std::any_of(r.skipped.begin(), r.skipped.end(), [&](const SkippedOffering& s) {
            return s.offering == offering && s.reason.starts_with("price undated");
        });
    };
    CHECK(skipped("nebius/eu-north1/gpu-l40s-d_2gpu-64vcpu-384gb"));
    for (const WorkCostRow& x : r.rows) {
        CAPTURE(x.provider);
        CHECK(x.provider != "alibaba");
        CHECK(x.provider != "tencent");
        CHECK_FALSE(x.stale);
    }
}

TEST_CASE("a share of a GPU is never ranked as a whole card, whatever its price") {
    // A third of an A10 at $0.40/h would be the cheapest "A10" by far if read as a whole card.
    Offering third = offering("cloud", "A10/3", 0.40);
    third.instance_type = "third";
    const Catalog c({gpu("A10", 24)}, {offering("cloud", "A10", 1.0), third});
    RankOptions o;
    o.spot = o.reserved = o.owned = false;
    const WorkRanking r = rank_offerings(job, c, my_table(), o);
    REQUIRE(r.rows.size() == 1);
    CHECK(r.rows[0].instance_type == "x1");
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].offering == "cloud/r1/third");
    CHECK(r.skipped[0].reason ==
          "a 1/3 share of one A10: throughput and memory are known per whole card, and a share is never ranked as one");
    CHECK(c.knows_gpu("A10/3"));
    CHECK_FALSE(c.knows_gpu("V100/2"));
    CHECK_FALSE(c.knows_gpu("A10/x"));
}
