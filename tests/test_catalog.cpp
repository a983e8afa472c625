#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <doctest/doctest.h>

#include "gputco/catalog/catalog.hpp"
#include "gputco/catalog/gpu_names.hpp"
#include "gputco/catalog/query.hpp"

namespace gputco::detail {
extern const char builtin_catalog_json[];  // the compiled-in data/catalog/builtin.json (cmake/embed.cmake)
extern const std::size_t builtin_catalog_json_size;
}  // namespace gputco::detail

using namespace gputco;

namespace {

const std::string data_dir = std::string(GPUTCO_SOURCE_DIR) + "/tests/data/";

Source src() { return {"test", "2026-01"}; }

GpuSpec small_gpu(std::string name) {
    GpuSpec g;
    g.name = std::move(name);
    g.vendor = "NVIDIA";
    g.memory_gb = 16;
    g.memory_bandwidth_gbps = 320;
    g.fp16_tflops = 65;
    g.fp32_tflops = 8.1;
    g.tdp_watts = 70;
    g.source = src();
    return g;
}

Offering small_offering(std::string provider, std::string region, std::string type,
                        double on_demand_hourly) {
    Offering o;
    o.provider = std::move(provider);
    o.region = std::move(region);
    o.instance_type = std::move(type);
    o.gpu = "T4";
    o.on_demand_hourly = on_demand_hourly;
    o.source = src();
    return o;
}

// A minimal valid JSON catalog with one offering whose fields are spliced in.
std::string one_offering(const std::string& fields) {
    return R"({"offerings": [{"provider": "a", "region": "r", "instance_type": "x", "gpu": "T4", )"
           R"("source": {"name": "s", "as_of": "2026"})" +
           (fields.empty() ? std::string() : ", " + fields) + "}]}";
}

}  // namespace

TEST_CASE("payment names round-trip and bad names are rejected") {
    for (Payment p : {Payment::no_upfront, Payment::partial_upfront, Payment::all_upfront}) {
        CHECK(parse_payment(to_string(p)) == p);
    }
    CHECK(to_string(Payment::partial_upfront) == "partial_upfront");
    CHECK_THROWS_WITH_AS(parse_payment("upfront"),
                         "payment = \"upfront\": must be one of no_upfront, partial_upfront, all_upfront",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(parse_payment("All_Upfront", "reserved[1].payment"),
                         "reserved[1].payment = \"All_Upfront\": must be one of no_upfront, "
                         "partial_upfront, all_upfront",
                         InvalidInput);
}

TEST_CASE("effective hourly follows the AWS convention") {
    ReservedPrice r;
    r.term_years = 3;
    r.upfront = 26280;  // 26280 / (3 x 8760) = 1.0 $/h
    r.hourly = 0.5;
    CHECK(r.effective_hourly() == doctest::Approx(1.5));
}

TEST_CASE("reservations from a discount split the cost by payment option") {
    // on-demand 10 $/h, 40% off -> effective 6 $/h; 1 year = 8760 h -> 52,560 over the term.
    const ReservedPrice all = reserved_from_discount(10, 0.4, 1, Payment::all_upfront, src());
    CHECK(all.upfront == doctest::Approx(52560));
    CHECK(all.hourly == 0);
    const ReservedPrice none = reserved_from_discount(10, 0.4, 1, Payment::no_upfront, src());
    CHECK(none.upfront == 0);
    CHECK(none.hourly == doctest::Approx(6));
    const ReservedPrice half = reserved_from_discount(10, 0.4, 1, Payment::partial_upfront, src());
    CHECK(half.upfront == doctest::Approx(26280));  // half of 52,560
    CHECK(half.hourly == doctest::Approx(3));       // half of 6
    for (const ReservedPrice& r : {all, none, half}) CHECK(r.effective_hourly() == doctest::Approx(6));

    CHECK_THROWS_WITH_AS(reserved_from_discount(10, 1.5, 1, Payment::no_upfront, src()),
                         "discount = 1.5: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(reserved_from_discount(-1, 0.5, 1, Payment::no_upfront, src()),
                         "on_demand_hourly = -1: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(reserved_from_discount(10, 0.5, 0, Payment::no_upfront, src()),
                         "term_years = 0: must be >= 1", InvalidInput);
}

TEST_CASE("offering validation names the first bad field") {
    Offering o = small_offering("aws", "us-east-1", "g4dn.xlarge", 0.526);
    CHECK_NOTHROW(o.validate());

    Offering bad = o;
    bad.on_demand_hourly = -1;
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.on_demand_hourly = -1: must be finite and >= 0",
                         InvalidInput);
    bad = o;
    bad.spot_hourly = std::numeric_limits<double>::quiet_NaN();
    CHECK_THROWS_WITH_AS(bad.validate("offerings[4]"),
                         "offerings[4].spot_hourly = nan: must be finite and >= 0", InvalidInput);
    bad = o;
    bad.gpus_per_instance = 0;
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.gpus_per_instance = 0: must be in [1, 1024]", InvalidInput);
    bad = o;
    bad.provider = "";
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.provider = \"\": must not be empty", InvalidInput);
    bad = o;
    bad.source.as_of = "";
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.source.as_of = \"\": must not be empty",
                         InvalidInput);
    bad = o;
    bad.billing_increment_seconds = 0;
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.billing_increment_seconds = 0: must be finite and > 0",
                         InvalidInput);
    bad = o;
    bad.reserved = {reserved_from_discount(0.526, 0.3, 1, Payment::no_upfront, src()),
                    reserved_from_discount(0.526, 0.4, 1, Payment::no_upfront, src())};
    CHECK_THROWS_WITH_AS(bad.validate(),
                         "offering.reserved[1].payment = \"no_upfront\": duplicate of reserved[0] (same "
                         "term_years, payment and class)",
                         InvalidInput);
    bad.reserved[1].term_years = 3;
    CHECK_NOTHROW(bad.validate());
    bad.reserved[1].upfront = -5;
    CHECK_THROWS_WITH_AS(bad.validate(), "offering.reserved[1].upfront = -5: must be finite and >= 0",
                         InvalidInput);
}

TEST_CASE("GPU spec validation") {
    GpuSpec g = small_gpu("T4");
    CHECK_NOTHROW(g.validate());
    g.tdp_watts = 0;
    CHECK_THROWS_WITH_AS(g.validate(), "gpu.tdp_watts = 0: must be finite and > 0", InvalidInput);
    g = small_gpu("");
    CHECK_THROWS_WITH_AS(g.validate("gpus[2]"), "gpus[2].name = \"\": must not be empty", InvalidInput);
}

TEST_CASE("a catalog rejects duplicate keys") {
    CHECK_THROWS_WITH_AS(Catalog({small_gpu("T4"), small_gpu("T4")}, {}),
                         "gpus[1].name = \"T4\": duplicate of gpus[0]", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog({}, {small_offering("a", "r", "x", 1), small_offering("a", "r", "y", 1),
                                      small_offering("a", "r", "x", 2)}),
                         "offerings[2] = \"a/r/x\": duplicate key of offerings[0]", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog({}, {small_offering("a", "r", "x", -2)}),
                         "offerings[0].on_demand_hourly = -2: must be finite and >= 0", InvalidInput);
}

TEST_CASE("look-ups: found entries and errors that list what is known") {
    const Catalog c({small_gpu("T4"), small_gpu("L4")},
                    {small_offering("aws", "us-east-1", "g4dn.xlarge", 0.526),
                     small_offering("aws", "us-west-2", "g4dn.xlarge", 0.53),
                     small_offering("aws", "us-east-1", "g4dn.2xlarge", 0.752),
                     small_offering("gcp", "us-central1", "n1-t4", 0.35)});
    CHECK(c.gpu("L4").name == "L4");
    CHECK_THROWS_WITH_AS(c.gpu("B200"), "gpu = \"B200\": unknown GPU (known: L4, T4)", InvalidInput);

    CHECK(c.offering("aws", "g4dn.xlarge").region == "us-east-1");  // first listed region
    CHECK(c.offering("aws", "g4dn.xlarge", "us-west-2").on_demand_hourly == 0.53);
    CHECK_THROWS_WITH_AS(c.offering("foo", "g4dn.xlarge"),
                         "provider = \"foo\": unknown provider (known: aws, gcp)", InvalidInput);
    CHECK_THROWS_WITH_AS(c.offering("aws", "p9.huge"),
                         "instance_type = \"p9.huge\": unknown instance type for provider \"aws\" "
                         "(known: g4dn.2xlarge, g4dn.xlarge)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(c.offering("aws", "g4dn.xlarge", "mars-1"),
                         "region = \"mars-1\": no \"g4dn.xlarge\" offering of provider \"aws\" in this "
                         "region (known: us-east-1, us-west-2)",
                         InvalidInput);

    CHECK(c.providers() == std::vector<std::string>{"aws", "gcp"});
    CHECK(c.find().size() == 4);
    CHECK(c.find("aws").size() == 3);
    CHECK(c.find("", "T4").size() == 4);
    CHECK(c.find("", "L4").empty());
    CHECK(c.find("aws", "T4", "us-east-1").size() == 2);
    CHECK(c.find("", "", "us-central1").front().instance_type == "n1-t4");
}

TEST_CASE("overridden_by replaces entries with the same key and appends new ones") {
    const Catalog base({small_gpu("T4")}, {small_offering("aws", "us-east-1", "g4dn.xlarge", 0.526),
                                           small_offering("aws", "us-east-1", "g4dn.2xlarge", 0.752)});
    GpuSpec t4 = small_gpu("T4");
    t4.tdp_watts = 75;
    const Catalog mine({t4, small_gpu("L4")}, {small_offering("aws", "us-east-1", "g4dn.xlarge", 0.4),
                                              small_offering("lambda", "us-east-1", "gpu_1x_t4", 0.3)});
    const Catalog merged = base.overridden_by(mine);
    REQUIRE(merged.gpus().size() == 2);
    CHECK(merged.gpu("T4").tdp_watts == 75);
    REQUIRE(merged.offerings().size() == 3);
    CHECK(merged.offerings()[0].on_demand_hourly == 0.4);  // replaced in place
    CHECK(merged.offerings()[1].on_demand_hourly == 0.752);
    CHECK(merged.offerings()[2].provider == "lambda");
    CHECK(base.offering("aws", "g4dn.xlarge").on_demand_hourly == 0.526);  // base unchanged
}

TEST_CASE("currency conversion multiplies every price by the rate") {
    const Offering& gn6i = Catalog::builtin().offering("alibaba", "gn6i", "cn-beijing");
    REQUIRE(gn6i.currency == "CNY");
    CHECK(gn6i.on_demand_hourly == 8.5);
    const Offering usd = gn6i.converted("USD", 0.138);
    CHECK(usd.currency == "USD");
    CHECK(usd.on_demand_hourly == doctest::Approx(1.173));  // 8.5 x 0.138 = 1.173
    const auto r3 = usd.reserved_price(3, Payment::all_upfront);
    REQUIRE(r3);
    // 58% off: 0.42 x 8.5 = 3.57 CNY/h -> x 0.138 = 0.49266 USD/h effective.
    CHECK(r3->effective_hourly() == doctest::Approx(0.49266));
    CHECK(usd.notes.find("prices converted from CNY at 0.138 USD per CNY") != std::string::npos);
    CHECK(gn6i.converted("CNY", 1.0) == gn6i);

    CHECK_THROWS_WITH_AS(gn6i.converted("USD", -1), "rate = -1: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(gn6i.converted("CNY", 0.5),
                         "rate = 0.5: must be 1 when converting CNY to CNY", InvalidInput);
    CHECK_THROWS_WITH_AS(gn6i.converted("", 0.5), "to_currency = \"\": must not be empty",
                         InvalidInput);

    Offering spot = small_offering("a", "r", "x", 10);
    spot.currency = "CNY";
    spot.spot_hourly = 4;
    CHECK(*spot.converted("USD", 0.138).spot_hourly == doctest::Approx(0.552));  // 4 x 0.138
}

TEST_CASE("built-in catalog: providers, GPUs and cross references") {
    const Catalog& c = Catalog::builtin();
    CHECK(c.providers() == std::vector<std::string>{"alibaba", "aws", "azure", "coreweave", "gcp", "huawei", "hyperstack",
                                                    "lambda", "nebius", "paperspace", "runpod", "tencent", "tensorwave",
                                                    "vast", "vultr"});
    for (const char* name : {"A100-40GB", "A100-80GB", "H100", "H200", "T4", "V100", "V100-32GB", "V100S",
                             "A10", "A10G", "L4", "RTX-6000-Ada", "RTX-A6000", "MI250X", "MI300X"}) {
        CAPTURE(name);
        CHECK_NOTHROW(c.gpu(name));
    }
    for (const Offering& o : c.offerings()) {
        CAPTURE(o.key());
        // A GPU with a spec, or a share of one (its card's spec, never taken for the card).
        const auto share = parse_gpu_share(o.gpu);
        CHECK_NOTHROW(c.gpu(share ? share->card : o.gpu));
        CHECK(c.knows_gpu(o.gpu));
        CHECK(!o.source.name.empty());
        for (const ReservedPrice& r : o.reserved) {
            // A reservation that costs more than on-demand would be a data-entry error.
            CHECK(r.effective_hourly() < o.on_demand_hourly);
        }
        if (o.spot_hourly) CHECK(*o.spot_hourly < o.on_demand_hourly);
    }
    // Datasheet figures the seeds also quote: A100 FP16 312 TFLOPS (seeds 000/001), T4 70 W (seed 000).
    CHECK(c.gpu("A100-40GB").fp16_tflops == 312);
    CHECK(c.gpu("T4").tdp_watts == 70);
    CHECK(c.gpu("MI300X").memory_gb == 192);
    // Memory per card matches the name where the name says it.
    CHECK(c.gpu("A100-80GB").memory_gb == 80);
    CHECK(c.gpu("V100-32GB").memory_gb == 32);
}

TEST_CASE("built-in: AWS p3.2xlarge 2017 reservation rates (ec2instances.info, 2017-11-12)") {
    // The 2017 snapshot is the history of the us-east-1 offering (dated prices, not a region of its own).
    const Offering p3 = Catalog::builtin().offering("aws", "p3.2xlarge", "us-east-1").price_at(Date{2017, 11, 12});
    CHECK(p3.source.as_of == "2017-11-12");
    CHECK(p3.on_demand_hourly == 3.06);
    CHECK(p3.reserved_price(3, Payment::all_upfront)->effective_hourly() == doctest::Approx(1.159));
    CHECK(p3.reserved_price(3, Payment::partial_upfront)->effective_hourly() == doctest::Approx(1.234));
    CHECK(p3.reserved_price(3, Payment::no_upfront)->effective_hourly() == doctest::Approx(1.332));
    // 1 - 1.159 / 3.06 = 0.6212: the 62.1% docs/models.md (section 2.2) quotes.
    CHECK(1 - p3.reserved_price(3, Payment::all_upfront)->effective_hourly() / p3.on_demand_hourly ==
          doctest::Approx(0.621).epsilon(0.001));
    // all upfront pays everything at the start: 1.159 x 26,280 h = 30,458.52.
    CHECK(p3.reserved_price(3, Payment::all_upfront)->upfront == doctest::Approx(30458.52));
    CHECK(p3.reserved_price(1, Payment::no_upfront)->hourly == doctest::Approx(2.088));
    CHECK_FALSE(p3.reserved_price(2, Payment::no_upfront));
}

TEST_CASE("built-in: AWS p4d.24xlarge reservations and the 70/30 blend of docs/models.md (before the June 2025 cut)") {
    const Offering& listed = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    const Offering p4d = listed.price_at(Date{2025, 5, 31});
    CHECK(p4d.on_demand_hourly == 32.7726);
    CHECK(p4d.gpus_per_instance == 8);
    const double r3 = p4d.reserved_price(3, Payment::all_upfront)->effective_hourly();
    CHECK(1 - r3 / p4d.on_demand_hourly == doctest::Approx(0.619).epsilon(0.001));
    // 70% reserved at r3 + 30% on demand = $18.581/h (docs/models.md, section 2.5).
    CHECK(0.7 * r3 + 0.3 * p4d.on_demand_hourly == doctest::Approx(18.581).epsilon(1e-5));
    const double r1 = p4d.reserved_price(1, Payment::all_upfront)->effective_hourly();
    CHECK(1 - r1 / p4d.on_demand_hourly == doctest::Approx(0.384));
    CHECK(Catalog::builtin().offering("aws", "p4d.24xlarge").region == "us-east-1");
    CHECK(Catalog::builtin().as_of(Date{2025, 7, 1}).offering("aws", "p4d.24xlarge", "us-east-1").on_demand_hourly == 21.96);
}

TEST_CASE("built-in: AWS's June 2025 cut on every affected instance and purchase option, as AWS published it") {
    const Catalog& c = Catalog::builtin();
    // AWS News Blog 2025-06-05: on demand -33% P4d/P4de, -44% P5, -25% P5en, from 2025-06-01.
    struct Cut {
        const char* instance;
        double before, after, published;
    };
    for (const Cut& cut : {Cut{"p4d.24xlarge", 32.7726, 21.96, 0.33}, Cut{"p4de.24xlarge", 40.96575, 27.4470525, 0.33},
                           Cut{"p5.48xlarge", 98.32, 55.04, 0.44}, Cut{"p5en.48xlarge", 84.8, 63.296, 0.25}}) {
        CAPTURE(cut.instance);
        const Offering& o = c.offering("aws", cut.instance, "us-east-1");
        CHECK(o.on_demand_hourly == cut.after);  // the listed price is today's
        CHECK(o.effective_from == Date{2025, 6, 1});
        CHECK(o.price_at(Date{2025, 5, 31}).on_demand_hourly == cut.before);
        CHECK(o.price_at(Date{2026, 1, 1}).on_demand_hourly == cut.after);
        // AWS rounds its list prices: the published percentage within half a point.
        CHECK(1 - cut.after / cut.before == doctest::Approx(cut.published).epsilon(0.02));
    }
    // Savings Plans by their own percentages per term (EC2 Instance SP: P4d 1 yr -31%, 3 yr -25%).
    const Offering& p4d = c.offering("aws", "p4d.24xlarge", "us-east-1");
    const Offering pre = p4d.price_at(Date{2025, 5, 31});
    CHECK(p4d.reserved_price(1, Payment::all_upfront)->upfront ==
          doctest::Approx(pre.reserved_price(1, Payment::all_upfront)->upfront * 0.69));
    CHECK(p4d.reserved_price(3, Payment::all_upfront)->upfront ==
          doctest::Approx(pre.reserved_price(3, Payment::all_upfront)->upfront * 0.75));
    // as_of keeps the offerings that existed then, at their pre-cut prices.
    const Catalog end_2024 = c.as_of(Date{2024, 12, 31});
    CHECK(end_2024.offering("aws", "p4d.24xlarge", "us-east-1").on_demand_hourly == 32.7726);
    CHECK(end_2024.offering("aws", "p5.48xlarge", "us-east-1").on_demand_hourly == 98.32);
    // Spot is a market price: the 2025-H1 quote carries on.
    CHECK(*p4d.spot_hourly == *pre.spot_hourly);
}

TEST_CASE("built-in: every offering lists its newest price, so the catalog answers at today's prices") {
    const Date today{2026, 12, 5};
    for (const Offering& o : Catalog::builtin().offerings()) {
        CAPTURE(o.key());
        for (const PriceSnapshot& s : o.history) {
            REQUIRE(o.effective_from);
            CHECK(s.effective_from < *o.effective_from);
        }
        if (o.effective_from) CHECK(*o.effective_from <= today);
        CHECK(o.price_at(today) == [&] { Offering x = o; x.history.clear(); return x; }());
    }
}

TEST_CASE("built-in: Lambda at its current list, with the dated rises") {
    const Catalog& c = Catalog::builtin();
    const Offering& h100 = c.offering("lambda", "gpu_8x_h100_sxm5");
    CHECK(h100.on_demand_per_gpu_hour() == doctest::Approx(3.99));  // lambda.ai/instances, 2026-09-20
    CHECK(h100.price_at(Date{2025, 12, 11}).on_demand_per_gpu_hour() == doctest::Approx(2.99));
    CHECK(h100.price_at(Date{2026, 4, 2}).on_demand_hourly == 27.52);  // SkyPilot catalog, 2026-04-02
    const Offering& b200 = c.offering("lambda", "gpu_8x_b200_sxm6");
    CHECK(b200.on_demand_per_gpu_hour() == doctest::Approx(6.69));
    CHECK(b200.price_at(Date{2026, 1, 1}).on_demand_per_gpu_hour() == doctest::Approx(4.99));
    // Prices go up too: +33.4% and +34.1% between Dec 2025 and Sep 2026.
    CHECK(3.99 / 2.99 - 1 == doctest::Approx(0.334).epsilon(0.002));
    CHECK(b200.on_demand_hourly / b200.price_at(Date{2025, 12, 31}).on_demand_hourly - 1 ==
          doctest::Approx(0.341).epsilon(0.002));
    CHECK(c.offering("lambda", "gpu_8x_a100").on_demand_hourly == doctest::Approx(15.92));  // 8 x 1.99
    CHECK(c.offering("lambda", "gpu_8x_a100").gpu == "A100-40GB");
}

TEST_CASE("built-in: one price per provider, checked by hand against its source") {
    const Catalog& c = Catalog::builtin();
    CHECK(c.offering("aws", "p5.48xlarge", "us-east-1").on_demand_hourly == 55.04);
    CHECK(c.offering("azure", "Standard_ND96is_MI300X_v5", "eastus2").on_demand_per_gpu_hour() == 6.0);
    CHECK(c.offering("gcp", "a3-highgpu-8g", "us-central1").on_demand_hourly == doctest::Approx(88.49).epsilon(1e-4));
    CHECK(c.offering("lambda", "gpu_1x_gh200").on_demand_hourly == 2.29);
    CHECK(c.offering("hyperstack", "NVIDIA-B200").on_demand_hourly == 6.00);
    CHECK(c.offering("runpod", "1x_H100-SXM_SECURE", "US").on_demand_hourly == 3.99);
    CHECK(c.offering("vast", "H100-SXM-median").on_demand_hourly == 2.40);
    CHECK(c.offering("coreweave", "HGX-H100").on_demand_per_gpu_hour() == doctest::Approx(6.16));
    CHECK(c.offering("paperspace", "H100").on_demand_hourly == 3.09);
    CHECK(c.offering("alibaba", "gn6i").gpu == "T4");  // gn6i carries T4s, whatever the seeds say
    CHECK(c.offering("azure", "Standard_NC40ads_H100_v5").gpu == "H100-NVL");
    CHECK(c.offering("tencent", "GT4.41XLARGE948").on_demand_hourly == 32.78328);
}

TEST_CASE("built-in: dated prices of the neoclouds' saved files, checked by hand against their sources at today's date") {
    // ctest pins GPUTCO_TODAY=2026-12-05: the catalog read as of that day (observations.csv rows).
    REQUIRE(Date::today() == Date{2026, 12, 5});
    const Catalog c = Catalog::builtin().as_of(Date::today());
    // Nebius: api-evangelist/nebius plans/nebius-plans-pricing.yml (commit 37bdedf, read 2026-10-07),
    // "NVIDIA HGX H200 $4.50 ... $5.40 effective October 1, 2026": 8 x 5.40 = 43.20 for the 8-GPU preset.
    const Offering& h200 = c.offering("nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", "eu-north1");
    CHECK(h200.on_demand_hourly == doctest::Approx(43.20));
    CHECK(h200.effective_from == Date{2026, 10, 1});
    CHECK(h200.source.as_of == "2026-10-07");
    CHECK_FALSE(h200.spot_hourly);  // the page's preemptible prices are "from" prices: not recorded
    // Before it: $4.50 (fetched 2026-09-08, research notes) = 36.00, and the undated file's 28.00 is no
    // snapshot (compared instead).
    CHECK(Catalog::builtin().offering("nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", "eu-north1")
              .price_at(Date{2026, 9, 30}).on_demand_hourly == doctest::Approx(36.00));  // 8 x 4.50
    // Hyperstack: hyperstack.cloud/gpu-pricing as transcribed on 2026-08-26 (api-evangelist/nexgen-cloud,
    // commit 0fa0509): NVIDIA A100 $1.35 per GPU-hour, Spot VMs NVIDIA A100 $1.08; the file's n3-A100x8
    // (8 GPUs) is 8 x 1.35 = 10.80 and n3-A100x1 carries the spot price.
    CHECK(c.offering("hyperstack", "n3-A100x8", "CANADA-1").on_demand_hourly == doctest::Approx(10.80));
    CHECK(*c.offering("hyperstack", "n3-A100x1", "CANADA-1").spot_hourly == 1.08);
    CHECK(c.offering("hyperstack", "n3-A100x8", "CANADA-1").effective_from == Date{2026, 8, 26});
    // RunPod: runpod.io/pricing fetched 2026-09-08 (research notes, fact 4): H200 Secure Cloud $4.59,
    // recorded at US.
    const Offering& runpod = c.offering("runpod", "1x_H200-SXM_SECURE", "US");
    CHECK(runpod.on_demand_hourly == 4.59);
    CHECK(runpod.effective_from == Date{2026, 9, 8});
    // RunPod prices per GPU and alike in every region (its saved file lists 1x_H200-SXM_SECURE at 3.99 in all
    // eight regions, 8x at 8 x 3.99 = 31.92): the US observation dates the same type in Sweden too, and the
    // 8-GPU size is 8 x 4.59 = 36.72; the saved file's undated 31.92 is no longer listed.
    const Offering& sweden = c.offering("runpod", "8x_H200-SXM_SECURE", "SE");
    CHECK(sweden.on_demand_hourly == doctest::Approx(36.72));
    CHECK(sweden.effective_from == Date{2026, 9, 8});
    CHECK(sweden.notes == "one price in every region: the US observation");
    CHECK_FALSE(sweden.spot_hourly);
    // Its H100 SXM: 3.49 on 2026-09-08, 3.99 on 2026-11-09 (the newer is listed), in Canada as in the US.
    const Offering& h100 = Catalog::builtin().offering("runpod", "1x_H100-SXM_SECURE", "CA");
    CHECK(h100.on_demand_hourly == 3.99);
    CHECK(h100.price_at(Date{2026, 10, 1}).on_demand_hourly == 3.49);
    // Paperspace: paperspace.com/pricing on 2026-09-20 (curated.json), H100 $3.09.
    CHECK(c.offering("paperspace", "H100", "global").on_demand_hourly == 3.09);
    CHECK(c.offering("paperspace", "H100", "global").source.as_of == "2026-09-20");
}

TEST_CASE("built-in: every region of the SkyPilot-format files, checked by hand against their lines") {
    const Catalog& c = Catalog::builtin();
    // anycloud-sh/catalog azure/vms.csv (commit 62ff0a9, 2026-05-20) line 56180:
    // Standard_ND96isr_H200_v5,H200,8,96,1850,H200,122.96,122.96,australiaeast,V2 — the spot column repeats
    // the on-demand price, so no spot price is kept.
    const Offering& h200 = c.offering("azure", "Standard_ND96isr_H200_v5", "australiaeast");
    CHECK(h200.on_demand_hourly == 122.96);
    CHECK(h200.gpu == "H200");
    CHECK(h200.gpus_per_instance == 8);
    CHECK_FALSE(h200.spot_hourly);
    CHECK(h200.source.row == "line 56180");
    // The same prices since the file's first snapshot (commit 62971ab, 2026-04-02, line 59913): in force
    // from then, read from the newest.
    CHECK(h200.effective_from == Date{2026, 4, 2});
    CHECK(h200.source.as_of == "2026-05-20");
    // gcp/vms.csv lines 281 + 29169: a3-ultragpu-8g us-central1-b machine 12.266 (spot 5.0093) plus
    // 8 x H200 74.49392 (spot 37.2472).
    const Offering& a3u = c.offering("gcp", "a3-ultragpu-8g", "us-central1");
    CHECK(a3u.on_demand_hourly == doctest::Approx(12.266 + 74.49392));
    CHECK(*a3u.spot_hourly == doctest::Approx(5.0093 + 37.2472));
    CHECK(a3u.source.row == "lines 281+29169");
    // The newest dated price wins where sources overlap: Cyclenerd's 2026-07-30 a3-highgpu-8g is listed,
    // the SkyPilot-format 2026-05-20 price (105.5% apart: skypilot/cross-check.csv) is its history.
    const Offering& a3 = c.offering("gcp", "a3-highgpu-8g", "us-central1");
    CHECK(a3.effective_from == Date{2026, 7, 30});
    CHECK(a3.price_at(Date{2026, 6, 1}).on_demand_hourly == doctest::Approx(43.06615));
    // lambda/vms.csv (2026-05-07) lists gpu_8x_h100_sxm5 in europe-central-1 at 31.92 (line 325); Lambda's
    // dated lists (one price for every region) give it the Dec 2025 price before the rise.
    const Offering& lambda = c.offering("lambda", "gpu_8x_h100_sxm5", "europe-central-1");
    CHECK(lambda.on_demand_per_gpu_hour() == doctest::Approx(3.99));
    CHECK(lambda.price_at(Date{2026, 1, 1}).on_demand_per_gpu_hour() == doctest::Approx(2.99));
    CHECK(lambda.price_at(Date{2026, 5, 10}).source.row == "line 325");
    // vast/vms.csv (2026-04-29) line 10: 1x-H200-32-65536 in "France, FR, EU" at 2.35; spot column 0.00.
    const Offering& vast = c.offering("vast", "1x-H200-32-65536", "France, FR, EU");
    CHECK(vast.on_demand_hourly == 2.35);
    CHECK_FALSE(vast.spot_hourly);
    // AWS: tsaol/aws-gpu data/all_gpu_instances.js (instances.vantage.sh), commit 7412fd2 (2026-01-21),
    // record 79 ("name": "p5.48xlarge", "gpuCount": 8), line 6601: "eu-north-1": {"onDemand": 58.8928};
    // the same price in the file's first version (2025-11-30).
    const Offering& p5 = c.offering("aws", "p5.48xlarge", "eu-north-1");
    CHECK(p5.on_demand_hourly == 58.8928);
    CHECK(p5.gpu == "H100");
    CHECK(p5.gpus_per_instance == 8);
    CHECK(p5.source.row == "/79/pricing/eu-north-1/onDemand");
    CHECK(p5.effective_from == Date{2025, 11, 30});
    CHECK(p5.source.as_of == "2026-01-21");
    CHECK_FALSE(p5.spot_hourly);
    // Record 83, p6-b200.48xlarge: us-east-1 113.9328 (8 x B200).
    CHECK(c.offering("aws", "p6-b200.48xlarge", "us-west-2").on_demand_per_gpu_hour() == doctest::Approx(113.9328 / 8));
    // us-east-1 rows kept by hand (reservations, the June 2025 cut) stay as they were: not replaced.
    CHECK(c.offering("aws", "p4d.24xlarge", "us-east-1").on_demand_hourly == 21.96);
    CHECK_FALSE(c.offering("aws", "p4d.24xlarge", "us-east-1").reserved.empty());
    // Every region: the files list many.
    for (const auto& want : std::vector<std::pair<std::string, std::size_t>>{
             {"aws", 30}, {"azure", 40}, {"gcp", 20}, {"lambda", 15}, {"vast", 10}}) {
        const std::string provider = want.first;
        std::set<std::string> regions;
        for (const Offering& o : c.offerings())
            if (o.provider == provider) regions.insert(o.region);
        CAPTURE(provider);
        CHECK(regions.size() >= want.second);
    }
}

TEST_CASE("built-in: history from the SkyPilot-format files' git history, checked by hand against the snapshots") {
    const Catalog& c = Catalog::builtin();
    // anycloud-sh/catalog gcp/vms.csv, a3-highgpu-1g in asia-east1-c: the machine row (line 160) plus the
    // GPU row, on demand 1.36923 + 11.34343 throughout; spot moved up every two weeks:
    //   69b86f0 2026-04-02  line 160 ...,1.36923,0.3959   line 28250 ,,,H100,1,...,11.34343,3.2816
    //   c378e57 2026-04-13  line 160 ...,1.36923,0.41574  line 28345 ...,11.34343,3.4457
    //   d798aa8 2026-04-27  line 160 ...,1.36923,0.43657  line 28736 ...,11.34343,3.618
    //   2471c22 2026-05-11  line 160 ...,1.36923,0.45838  line 28874 ...,11.34343,3.7989
    //   62ff0a9 2026-05-20  the same as 2026-05-11 (lines 160 + 29025): listed, in force from 2026-05-11
    const Offering& a3 = c.offering("gcp", "a3-highgpu-1g", "asia-east1");
    CHECK(a3.on_demand_hourly == doctest::Approx(1.36923 + 11.34343));
    CHECK(*a3.spot_hourly == doctest::Approx(0.45838 + 3.7989));
    CHECK(a3.effective_from == Date{2026, 5, 11});
    CHECK(a3.source.as_of == "2026-05-20");
    CHECK(a3.source.row == "lines 160+29025");
    REQUIRE(a3.history.size() == 3);
    CHECK(a3.history[0].effective_from == Date{2026, 4, 2});
    CHECK(*a3.history[0].spot_hourly == doctest::Approx(0.3959 + 3.2816));
    CHECK(a3.history[0].source.row == "lines 160+28250");
    CHECK(a3.history[0].source.name.ends_with("commit 69b86f0"));
    CHECK(*a3.history[1].spot_hourly == doctest::Approx(0.41574 + 3.4457));
    CHECK(*a3.history[2].spot_hourly == doctest::Approx(0.43657 + 3.618));
    // as_of before and after a change: the price in force that day.
    CHECK(*c.as_of(Date{2026, 4, 12}).offering("gcp", "a3-highgpu-1g", "asia-east1").spot_hourly ==
          doctest::Approx(3.6775));
    CHECK(*c.as_of(Date{2026, 4, 13}).offering("gcp", "a3-highgpu-1g", "asia-east1").spot_hourly ==
          doctest::Approx(3.86144));
    CHECK_THROWS_AS(c.as_of(Date{2026, 4, 1}).offering("gcp", "a3-highgpu-1g", "asia-east1"), InvalidInput);

    // A rise: lambda/vms.csv, 8 x H100 SXM5 in us-east-1:
    //   69b86f0 2026-04-02 line 179: gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,27.52,us-east-1,...
    //   ba0a209 2026-04-06 line 179: gpu_8x_h100_sxm5,H100,8.0,208.0,1800.0,31.92,us-east-1,...
    const Offering& h100 = c.offering("lambda", "gpu_8x_h100_sxm5", "us-east-1");
    CHECK(h100.price_at(Date{2026, 4, 5}).on_demand_hourly == 27.52);
    CHECK(h100.price_at(Date{2026, 4, 5}).source.name.find("commit 69b86f0") != std::string::npos);
    CHECK(h100.price_at(Date{2026, 4, 6}).on_demand_hourly == 31.92);
    CHECK(h100.price_at(Date{2026, 4, 6}).source.row == "line 332");  // the newest file's (4c06102) line
    CHECK(c.as_of(Date{2026, 4, 5}).offering("lambda", "gpu_8x_h100_sxm5", "us-east-1").on_demand_hourly == 27.52);
    CHECK(c.as_of(Date{2026, 4, 6}).offering("lambda", "gpu_8x_h100_sxm5", "us-east-1").on_demand_hourly == 31.92);

    // Azure's file lists a Windows price for some days (Linux + 0.046 $/vCPU-hour; NC16as_T4_v3 has 16
    // vCPUs: 1.342 + 0.736 = 2.078 in northeurope) and comes back the next snapshot: not a change.
    const Offering& t4 = c.offering("azure", "Standard_NC16as_T4_v3", "northeurope");
    CHECK(t4.on_demand_hourly == 1.342);
    for (const PriceSnapshot& s : t4.history) CHECK(s.on_demand_hourly == 1.342);
}

TEST_CASE("built-in: cards given a spec and AWS types added to the type table, checked by hand against their lines") {
    const Catalog& c = Catalog::builtin();
    // Each new card is a spec of the catalog, with its source and date.
    for (const char* name : {"L40", "RTX-A4000", "RTX-A5000", "RTX-4090", "RTX-3090", "Quadro-RTX-6000"}) {
        CAPTURE(name);
        CHECK_FALSE(c.gpu(name).source.name.empty());
        CHECK_FALSE(c.gpu(name).source.as_of.empty());
    }
    CHECK(c.gpu("RTX-A5000").fp16_tflops == doctest::Approx(111.1));  // the datasheet's 222.2 with sparsity / 2
    // The price files' spellings of them, in the one normalisation table.
    CHECK(normalise_gpu_name("RTXA4000") == "RTX-A4000");
    CHECK(normalise_gpu_name("A4000") == "RTX-A4000");
    CHECK(normalise_gpu_name("RTXA5000") == "RTX-A5000");
    CHECK(normalise_gpu_name("RTX4090") == "RTX-4090");
    CHECK(normalise_gpu_name("RTX3090") == "RTX-3090");
    CHECK(normalise_gpu_name("L40") == "L40");
    CHECK(normalise_gpu_name("L40S") == "L40S");
    // files/runpod.vms.csv line 702: 1x_L40_SECURE,L40,1.0,16.0,48.0,L40,CA,0.69,1.14,CA-MTL-1 (spot 0.69,
    // on demand 1.14; the same prices in CA-MTL-2 and -3).
    const Offering& l40 = c.offering("runpod", "1x_L40_SECURE", "CA");
    CHECK(l40.gpu == "L40");
    CHECK(l40.on_demand_hourly == 1.14);
    CHECK(*l40.spot_hourly == 0.69);
    CHECK(l40.source.row == "line 702");
    // files/hyperstack.vms.csv line 18: n3-RTX-A4000x1,RTX-A4000,1,4,21.0,"{...}",0.15,NORWAY-1, — the same
    // 0.15 as hyperstack.cloud's 2026-08-26 page (NVIDIA A4000), whose dated row is listed.
    const Offering& a4000 = c.offering("hyperstack", "n3-RTX-A4000x1", "NORWAY-1");
    CHECK(a4000.gpu == "RTX-A4000");
    CHECK(a4000.on_demand_hourly == 0.15);
    CHECK(a4000.effective_from == Date{2026, 8, 26});
    CHECK(a4000.source.row == "On-Demand: NVIDIA A4000");
    // files/paperspace.vms.csv line 13: A4000,A4000,1.0,8,32.0,A4000,East Coast (NY2),,0.76
    const Offering& paperspace = c.offering("paperspace", "A4000", "East Coast (NY2)");
    CHECK(paperspace.gpu == "RTX-A4000");
    CHECK(paperspace.on_demand_hourly == 0.76);
    // anycloud-sh/catalog vast/vms.csv (336ccee, 2026-04-29) line 47:
    // 2x-RTX_A5000-32-65536,RTXA5000,2,32,64.0,"{...}",0.46,0.00,"France, FR, EU" — $0.23 per GPU-hour.
    const Offering& a5000 = c.offering("vast", "2x-RTX_A5000-32-65536", "France, FR, EU");
    CHECK(a5000.gpu == "RTX-A5000");
    CHECK(a5000.gpus_per_instance == 2);
    CHECK(a5000.on_demand_per_gpu_hour() == doctest::Approx(0.23));  // 0.46 / 2
    CHECK(a5000.effective_from == Date{2026, 4, 29});
    // tsaol/aws-gpu data/all_gpu_instances.js (7412fd2, 2026-01-21): [55] g7e.2xlarge, "NVIDIA RTX PRO 6000
    // Blackwell", gpuCount 1, us-east-1 onDemand 3.36312 (first listed in that version); [59] gr6.4xlarge,
    // "NVIDIA L4", 1.5392 (from 2025-11-30); [46] g6e.4xlarge, "NVIDIA L40S", 3.00424.
    const Offering& g7e = c.offering("aws", "g7e.2xlarge", "us-east-1");
    CHECK(g7e.gpu == "RTX-PRO-6000");
    CHECK(g7e.gpus_per_instance == 1);
    CHECK(g7e.on_demand_hourly == 3.36312);
    CHECK(g7e.source.row == "/55/pricing/us-east-1/onDemand");
    CHECK(c.offering("aws", "g7e.48xlarge", "us-east-1").gpus_per_instance == 8);
    const Offering& gr6 = c.offering("aws", "gr6.4xlarge", "us-east-1");
    CHECK(gr6.gpu == "L4");
    CHECK(gr6.on_demand_hourly == 1.5392);
    CHECK(gr6.effective_from == Date{2025, 11, 30});
    // anycloud-sh/catalog lambda/vms.csv (4c06102, 2026-05-07) line 210: gpu_1x_rtx6000,RTX6000,1.0,14.0,46.0,
    // 0.69,asia-northeast-1,... — the Turing Quadro RTX 6000, one price in every region.
    const Offering& rtx6000 = c.offering("lambda", "gpu_1x_rtx6000", "asia-northeast-1");
    CHECK(rtx6000.gpu == "Quadro-RTX-6000");
    CHECK(rtx6000.on_demand_hourly == 0.69);
    CHECK(rtx6000.source.row == "line 210");
    const Offering& g6e = c.offering("aws", "g6e.4xlarge", "us-east-1");
    CHECK(g6e.gpu == "L40S");
    CHECK(g6e.gpus_per_instance == 1);
    CHECK(g6e.on_demand_hourly == 3.00424);
}

TEST_CASE("built-in: the MI25, and the shares Azure NVv4 and AWS G6f/Gr6f rent, checked by hand against their lines") {
    const Catalog& c = Catalog::builtin();
    // curated.json: AMD's MI25 launch figures (ocaholic.ch, source AMD): 16 GB HBM2 at 484 GB/s, 24.6 TFLOPS
    // FP16 (packed, no matrix units), 12.3 FP32, 300 W.
    const GpuSpec& mi25 = c.gpu("MI25");
    CHECK(mi25.vendor == "AMD");
    CHECK(mi25.memory_gb == 16);
    CHECK(mi25.memory_bandwidth_gbps == 484);
    CHECK(mi25.fp16_tflops == 24.6);
    CHECK(mi25.fp32_tflops == 12.3);
    CHECK(mi25.tdp_watts == 300);
    CHECK_FALSE(mi25.source.as_of.empty());
    // anycloud-sh/catalog azure/vms.csv (62ff0a9, 2026-05-20) line 56546:
    // Standard_NV4as_v4,MI25,1,4,14,MI25,0.233,0.043058,eastus,V1,V2 — one whole MI25 as the file writes it,
    // an eighth of one by Microsoft's NVv4 size table.
    const Offering& nv4 = c.offering("azure", "Standard_NV4as_v4", "eastus");
    CHECK(nv4.gpu == "MI25/8");
    CHECK(nv4.gpus_per_instance == 1);
    CHECK(nv4.on_demand_hourly == 0.233);
    CHECK(*nv4.spot_hourly == 0.043058);
    CHECK(nv4.source.row == "line 56546");
    CHECK(c.offering("azure", "Standard_NV8as_v4", "eastus").gpu == "MI25/4");    // line 56648, 0.466
    CHECK(c.offering("azure", "Standard_NV16as_v4", "eastus").gpu == "MI25/2");   // line 56333, 0.932
    // Line 56425: Standard_NV32as_v4,MI25,1,32,112,MI25,1.864,0.344467,eastus — the whole card.
    const Offering& nv32 = c.offering("azure", "Standard_NV32as_v4", "eastus");
    CHECK(nv32.gpu == "MI25");
    CHECK(nv32.gpus_per_instance == 1);
    CHECK(nv32.on_demand_hourly == 1.864);
    // Per MI25-hour the eighth costs 8 x 0.233 = 1.864 $/h, the whole card's price: the share table and
    // Azure's prices agree.
    const auto ranked = rank_by_gpu_hour_price({nv4, nv32}, "USD", ExchangeRates::builtin(), Date{2026, 12, 5});
    REQUIRE(ranked.size() == 2);
    for (const auto& row : ranked) CHECK(row.per_gpu_hour == doctest::Approx(1.864));
    // tsaol/aws-gpu data/all_gpu_instances.js (7412fd2, 2026-01-21) record /51, g6f.large, us-east-1 onDemand
    // 0.202 (gpuCount 0.125, "NVIDIA L40" there): an eighth of one L4.
    const Offering& g6f = c.offering("aws", "g6f.large", "us-east-1");
    CHECK(g6f.gpu == "L4/8");
    CHECK(g6f.gpus_per_instance == 1);
    CHECK(g6f.on_demand_hourly == 0.202);
    CHECK(g6f.source.row == "/51/pricing/us-east-1/onDemand");
    CHECK(g6f.effective_from == Date{2025, 11, 30});
    // Record /49: g6f.2xlarge 0.475, a quarter — per L4-hour 4 x 0.475 = 1.90 $/h.
    const Offering& quarter = c.offering("aws", "g6f.2xlarge", "us-east-1");
    CHECK(quarter.gpu == "L4/4");
    CHECK(quarter.on_demand_hourly / gpu_fraction(quarter.gpu) == doctest::Approx(1.90));
    // Record /61: gr6f.4xlarge 1.066, half an L4.
    const Offering& gr6f = c.offering("aws", "gr6f.4xlarge", "us-east-1");
    CHECK(gr6f.gpu == "L4/2");
    CHECK(gr6f.on_demand_hourly == 1.066);
    // A share is never ranked as its card.
    CHECK(share_refusal("MI25/8") ==
          "a 1/8 share of one MI25: throughput and memory are known per whole card, and a share is never ranked as one");
    // Still without a spec or a table entry: g4ad (Radeon Pro V520), g5g (T4G).
    for (const Offering& o : c.offerings()) {
        CAPTURE(o.key());
        CHECK_FALSE(o.instance_type.starts_with("g4ad."));
        CHECK_FALSE(o.instance_type.starts_with("g5g."));
    }
}

TEST_CASE("built-in: the A30, L20, K80 and RTX 5090 given a spec, checked by hand against their lines") {
    const Catalog& c = Catalog::builtin();
    // Specs re-typed from their sources (curated.json names each): memory, dense FP16, FP32, bandwidth, power.
    struct Figures {
        const char* name;
        double memory, fp16, fp32, bandwidth, watts;
    };
    for (const Figures& f : {Figures{"A30", 24, 165, 10.3, 933, 165},  // datasheet: 330 with sparsity / 2
                             Figures{"L20", 48, 119, 59.35, 864, 275},   // NVIDIA's TensorRT-LLM table, whole TFLOPS
                             Figures{"K80", 12, 4.37, 4.37, 240, 150},   // one GK210: the board's 8.74, 480, 300 / 2
                             Figures{"RTX-5090", 32, 209.5, 104.8, 1792, 575}}) {  // 838 sparse FP16 acc. / 4
        CAPTURE(f.name);
        const GpuSpec& g = c.gpu(f.name);
        CHECK(g.memory_gb == f.memory);
        CHECK(g.fp16_tflops == f.fp16);
        CHECK(g.fp32_tflops == f.fp32);
        CHECK(g.memory_bandwidth_gbps == f.bandwidth);
        CHECK(g.tdp_watts == f.watts);
        CHECK_FALSE(g.source.name.empty());
        CHECK_FALSE(g.source.as_of.empty());
    }
    CHECK(normalise_gpu_name("RTX5090") == "RTX-5090");  // Vast.ai's spelling
    CHECK(normalise_gpu_name("A30") == "A30");
    CHECK(normalise_gpu_name("L20") == "L20");
    CHECK(normalise_gpu_name("L20N 48G") == "L20N 48G");  // another card, still without a spec
    // files/alibaba.vms.csv line 544:
    // ecs.gn7s-c16g1.4xlarge,A30,1,16,120,A30,2.425902,0.7600281,cn-hangzhou,cn-hangzhou-j,ecs.gn7s,X86
    const Offering& a30 = c.offering("alibaba", "ecs.gn7s-c16g1.4xlarge", "cn-hangzhou");
    CHECK(a30.gpu == "A30");
    CHECK(a30.gpus_per_instance == 1);
    CHECK(a30.on_demand_hourly == 2.425902);
    CHECK(*a30.spot_hourly == 0.7600281);
    CHECK(a30.source.row == "line 544");
    // files/alibaba.vms.csv line 57:
    // ecs.gn8is-2x.8xlarge,L20,2,32,256,L20 48GB,6.37914384,0.83689189,ap-northeast-1,ap-northeast-1c,ecs.gn8is,X86
    const Offering& l20 = c.offering("alibaba", "ecs.gn8is-2x.8xlarge", "ap-northeast-1");
    CHECK(l20.gpu == "L20");
    CHECK(l20.gpus_per_instance == 2);
    CHECK(l20.on_demand_hourly == 6.37914384);
    CHECK(*l20.spot_hourly == 0.83689189);
    CHECK(l20.source.row == "line 57");
    // tsaol/aws-gpu data/all_gpu_instances.js (7412fd2, 2026-01-21): [72] p2.xlarge, "NVIDIA K80", gpuCount 1,
    // us-east-1 onDemand 0.9 (the same in every version from 2025-11-30).
    const Offering& k80 = c.offering("aws", "p2.xlarge", "us-east-1");
    CHECK(k80.gpu == "K80");
    CHECK(k80.gpus_per_instance == 1);
    CHECK(k80.on_demand_hourly == 0.9);
    CHECK(k80.source.row == "/72/pricing/us-east-1/onDemand");
    CHECK(k80.effective_from == Date{2025, 11, 30});
    // anycloud-sh/catalog vast/vms.csv (336ccee, 2026-04-29) line 6:
    // 2x-RTX_5090-32-65536,RTX5090,2,32,64.0,"{...}",0.93,0.00,"Czechia, CZ, EU" -- $0.465 per GPU-hour.
    const Offering& rtx5090 = c.offering("vast", "2x-RTX_5090-32-65536", "Czechia, CZ, EU");
    CHECK(rtx5090.gpu == "RTX-5090");
    CHECK(rtx5090.gpus_per_instance == 2);
    CHECK(rtx5090.on_demand_per_gpu_hour() == doctest::Approx(0.465));  // 0.93 / 2
    CHECK_FALSE(rtx5090.spot_hourly);  // the file's 0.00 is no spot price
    CHECK(rtx5090.source.row == "line 6");
}

TEST_CASE("built-in: the RTX A4500, the M60 and the A100 40GB PCIe given a spec, checked by hand against their lines") {
    const Catalog& c = Catalog::builtin();
    // Specs re-typed from their sources (curated.json names each): memory, dense FP16, FP32, bandwidth, power.
    struct Figures {
        const char* name;
        double memory, fp16, fp32, bandwidth, watts;
    };
    for (const Figures& f : {Figures{"RTX-A4500", 20, 94.6, 23.7, 640, 200},  // datasheet tensor 189.2 with sparsity / 2
                             Figures{"M60", 8, 4.825, 4.825, 160.4, 150},  // one GM204: 2,048 x 2 x 1.178 GHz; 300 W / 2
                             Figures{"A100-40GB-PCIe", 40, 312, 19.5, 1555, 250}}) {  // A100 datasheet, 40GB PCIe
        CAPTURE(f.name);
        const GpuSpec& g = c.gpu(f.name);
        CHECK(g.memory_gb == f.memory);
        CHECK(g.fp16_tflops == f.fp16);
        CHECK(g.fp32_tflops == f.fp32);
        CHECK(g.memory_bandwidth_gbps == f.bandwidth);
        CHECK(g.tdp_watts == f.watts);
        CHECK_FALSE(g.source.name.empty());
        CHECK_FALSE(g.source.as_of.empty());
    }
    CHECK(normalise_gpu_name("RTXA4500") == "RTX-A4500");        // RunPod's spelling
    CHECK(normalise_gpu_name("RTX4000-Ada") == "RTX4000-Ada");  // another card, still without a spec
    CHECK(instance_gpus("vast", "2x-A100_PCIE-32-65536")->gpu == "A100-40GB-PCIe");
    CHECK(normalise_gpu_name("A100-PCIE-40GB") == "A100-40GB-PCIe");  // its own card now, not the SXM4 part
    CHECK(normalise_gpu_name("Nvidia Tesla A100") == "A100-40GB");     // GCP's spelling: the SXM4 part
    // files/runpod.vms.csv line 1402: 1x_RTXA4500_SECURE,RTXA4500,1.0,12.0,20.0,RTXA4500,CA,0.19,0.34,CA-MTL-1
    // (columns ...,Region,SpotPrice,Price,AvailabilityZone).
    const Offering& a4500 = c.offering("runpod", "1x_RTXA4500_SECURE", "CA");
    CHECK(a4500.gpu == "RTX-A4500");
    CHECK(a4500.gpus_per_instance == 1);
    CHECK(a4500.on_demand_hourly == 0.34);
    CHECK(*a4500.spot_hourly == 0.19);
    CHECK(a4500.source.row == "line 1402");
    // tsaol/aws-gpu data/all_gpu_instances.js (7412fd2, 2026-01-21): [4] g3.4xlarge, "NVIDIA M60", gpuCount 1,
    // us-east-1 onDemand 1.14 (the same in every version from 2025-11-30).
    const Offering& g3 = c.offering("aws", "g3.4xlarge", "us-east-1");
    CHECK(g3.gpu == "M60");
    CHECK(g3.gpus_per_instance == 1);
    CHECK(g3.on_demand_hourly == 1.14);
    CHECK(g3.source.row == "/4/pricing/us-east-1/onDemand");
    CHECK(g3.effective_from == Date{2025, 11, 30});
    // anycloud-sh/catalog azure/vms.csv (62ff0a9, 2026-05-20) line 56310:
    // Standard_NV12s_v3,M60,1,12,112,M60,1.59,0.293832,australiaeast,V1,V2 -- one GM204 of an M60 board.
    const Offering& nv12 = c.offering("azure", "Standard_NV12s_v3", "australiaeast");
    CHECK(nv12.gpu == "M60");
    CHECK(nv12.gpus_per_instance == 1);
    CHECK(nv12.on_demand_hourly == 1.59);
    CHECK(*nv12.spot_hourly == 0.293832);
    CHECK(nv12.source.row == "line 56310");
    // anycloud-sh/catalog vast/vms.csv (336ccee, 2026-04-29) line 54:
    // 2x-A100_PCIE-32-65536,A100,2,32,64.0,"{... 'SizeInMiB': 81920 ...}",1.33,0.00,"South Korea, KR, AS":
    // 81920 MiB for 2 cards = 40 GB each, PCIe by the type's name; $0.665 per GPU-hour.
    const Offering& a100 = c.offering("vast", "2x-A100_PCIE-32-65536", "South Korea, KR, AS");
    CHECK(a100.gpu == "A100-40GB-PCIe");
    CHECK(a100.gpus_per_instance == 2);
    CHECK(a100.on_demand_per_gpu_hour() == doctest::Approx(0.665));  // 1.33 / 2
    CHECK_FALSE(a100.spot_hourly);  // the file's 0.00 is no spot price
    CHECK(a100.source.row == "line 54");
}

TEST_CASE("built-in: the neoclouds' SkyPilot-format files saved in the repository, checked by hand against their lines") {
    const Catalog& c = Catalog::builtin();
    // data/catalog/sources/skypilot/files/nebius.vms.csv (skypilot-org/skypilot-catalog
    // catalogs/v8/nebius/vms.csv, commit 0082b04; undated) line 54:
    // gpu-l40s-d_2gpu-64vcpu-384gb,L40S,2,64,384,4.5688,eu-north1,"{'Gpus': [{'Name': 'L40S', ...}]...}",
    const Offering& nebius = c.offering("nebius", "gpu-l40s-d_2gpu-64vcpu-384gb", "eu-north1");
    CHECK(nebius.on_demand_hourly == 4.5688);
    CHECK_FALSE(nebius.spot_hourly);
    CHECK(nebius.gpu == "L40S");
    CHECK(nebius.gpus_per_instance == 2);
    CHECK(nebius.source.row == "line 54");
    CHECK(nebius.source.as_of == "undated");  // no date in the file, none known for the commit
    CHECK_FALSE(nebius.effective_from);
    // Line 45 (gpu-h200-sxm_8gpu-128vcpu-1600gb, eu-north1, 28.00, spot 11.60) and line 62 (the same in
    // us-central1) have dated prices from observations.csv, which are listed: the undated rows cannot
    // be placed in time beside them, so they are compared (skypilot/cross-check.csv), not added.
    const Offering& h200 = c.offering("nebius", "gpu-h200-sxm_8gpu-128vcpu-1600gb", "us-central1");
    CHECK(h200.gpu == "H200");
    CHECK(h200.gpus_per_instance == 8);
    CHECK(h200.on_demand_hourly == doctest::Approx(43.20));  // 8 x 5.40 from 2026-10-01
    for (const PriceSnapshot& s : h200.history) CHECK(s.source.as_of != "undated");
    // files/hyperstack.vms.csv (catalogs/v8/hyperstack/vms.csv, commit fdc9d90) line 13:
    // n3-H100-SXM5x8,H100-80G-SXM5,8,192,960.0,"{...}",19.2,US-1, — undated; hyperstack.cloud's
    // 2026-08-26 page gives H100 SXM $3.20 per GPU-hour, so the listed price is 8 x 3.20 = 25.60.
    const Offering& sxm = c.offering("hyperstack", "n3-H100-SXM5x8", "US-1");
    CHECK(sxm.on_demand_hourly == doctest::Approx(25.60));
    CHECK(sxm.gpu == "H100");
    CHECK(sxm.gpus_per_instance == 8);
    CHECK_FALSE(sxm.spot_hourly);
    // line 11: n3-H100x8-NVLink,H100-80G-PCIe-NVLink,8,...,15.6,CANADA-1, — PCIe cards with NVLink
    // bridges (80 GB each), not the 94 GB H100 NVL; the page's H100 NVLink $2.60: 8 x 2.60 = 20.80.
    const Offering& bridged = c.offering("hyperstack", "n3-H100x8-NVLink", "CANADA-1");
    CHECK(bridged.on_demand_hourly == doctest::Approx(20.80));
    CHECK(bridged.gpu == "H100-PCIe");
    // files/runpod.vms.csv (catalogs/v7/runpod/vms.csv, commit 0727c2b) line 13:
    // 1x_A100-80GB_SECURE,A100-80GB,1.0,8.0,80.0,A100-80GB,US,1.19,1.64,US-CA-1 — the same prices in the
    // 14 US zones, so one US row; the PCIe card.
    const Offering& runpod = c.offering("runpod", "1x_A100-80GB_SECURE", "US");
    CHECK(runpod.on_demand_hourly == 1.64);
    CHECK(*runpod.spot_hourly == 1.19);
    CHECK(runpod.gpu == "A100-80GB-PCIe");
    CHECK(runpod.source.row == "line 13");
    // line 588: 8x_H200-SXM_SECURE,H200-SXM,8.0,160.0,1128.0,H200-SXM,US,28.72,31.92,US-CA-1 — undated, beside
    // RunPod's dated page price (8 x 4.59 = 36.72 from 2026-09-08): the dated one is listed.
    CHECK(c.offering("runpod", "8x_H200-SXM_SECURE", "US").on_demand_hourly == doctest::Approx(36.72));
    CHECK(c.offering("runpod", "1x_H100_SECURE", "US").gpu == "H100-PCIe");
    // line 802: 1x_L40S_SECURE,L40S,1.0,12.0,62.0,L40S,CA,0.86,0.43,CA-MTL-1 — spot twice on demand: the
    // columns look swapped, so neither price is kept (counted in runpod.source.json).
    CHECK(c.find("runpod", "L40S").empty());
    // files/paperspace.vms.csv (catalogs/v6/paperspace/vms.csv, commit e520054) line 2:
    // H100,H100,1.0,15.0,80.0,H100,East Coast (NY2),,5.95
    const Offering& paperspace = c.offering("paperspace", "H100", "East Coast (NY2)");
    CHECK(paperspace.on_demand_hourly == 5.95);
    CHECK(paperspace.source.row == "line 2");
    CHECK(paperspace.source.name == "SkyPilot-format catalog skypilot-org/skypilot-catalog catalogs/v6/paperspace/vms.csv, "
                                    "commit e520054");
    // The hand-dated rows of other sources stay beside them (other instance types): hyperstack.cloud's
    // 2026-08-26 page, paperspace.com's 2026-09-20 page.
    CHECK(c.offering("hyperstack", "NVIDIA-B200").on_demand_hourly == 6.00);
    CHECK(c.offering("paperspace", "H100", "global").on_demand_hourly == 3.09);
    std::map<std::string, std::set<std::string>> regions;
    for (const Offering& o : c.offerings()) regions[o.provider].insert(o.region);
    CHECK(regions["nebius"] == std::set<std::string>{"eu-north1", "eu-west1", "us-central1"});
    // NORWAY-1: the file's RTX A4000 rows (n3-RTX-A4000x1 ... x10), kept since the card has a spec.
    CHECK(regions["hyperstack"] == std::set<std::string>{"CANADA-1", "NORWAY-1", "US-1", "global"});
    CHECK(regions["paperspace"] == std::set<std::string>{"East Coast (NY2)", "global"});
    CHECK(regions["runpod"] == std::set<std::string>{"CA", "CZ", "IS", "NL", "NO", "RO", "SE", "US"});
}

TEST_CASE("built-in: every region of Tencent's community SkyPilot-format file, checked by hand against its lines") {
    const Catalog& c = Catalog::builtin();
    // data/catalog/sources/skypilot/files/tencent.vms.csv (sugarlxn/skypilot-catalog
    // catalogs/v8/tencentcloud/vms.csv, commit 3193645; undated; USD converted from CNY by the source) line 380:
    // GN10Xp.20XLARGE320,V100,8,80,320,"V100 x8, family GN10Xp",23.80914,,eu-frankfurt,eu-frankfurt-1,GN10Xp,
    const Offering& v100 = c.offering("tencent", "GN10Xp.20XLARGE320", "eu-frankfurt");
    CHECK(v100.on_demand_hourly == 23.80914);
    CHECK(v100.currency == "USD");
    CHECK_FALSE(v100.spot_hourly);
    CHECK(v100.gpus_per_instance == 8);
    CHECK(v100.gpu == "V100-32GB");  // written "V100"; GN10Xp carries the 32 GB card (Tencent's family table)
    CHECK(v100.source.row == "line 380");
    CHECK(v100.source.as_of == "undated");
    // line 379: GN10X.18XLARGE320,V100,8,72,320,"V100 x8, family GN10X",20.82972,,eu-frankfurt,... — GN10X too.
    CHECK(c.offering("tencent", "GN10X.18XLARGE320", "eu-frankfurt").gpu == "V100-32GB");
    // The undated listing of the same file (ap-beijing, kept by hand before) is the extract's row now, at the
    // same price; the CNY list prices of other sources stay beside it.
    CHECK(c.offering("tencent", "GT4.41XLARGE948", "ap-beijing").on_demand_hourly == 32.78328);
    CHECK(c.offering("tencent", "GN7", "ap-beijing").currency == "CNY");
    std::set<std::string> regions;
    for (const Offering& o : c.offerings()) {
        if (o.provider == "tencent") regions.insert(o.region);
    }
    CHECK(regions == std::set<std::string>{"ap-bangkok", "ap-beijing", "ap-chengdu", "ap-chongqing", "ap-guangzhou",
                                           "ap-hongkong", "ap-jakarta", "ap-nanjing", "ap-seoul", "ap-shanghai",
                                           "ap-singapore", "ap-tokyo", "cn-unspecified", "eu-frankfurt", "na-ashburn",
                                           "na-siliconvalley", "sa-saopaulo"});
    // Rows of cards with no spec in the catalog (Intel SG1, Tencent Zixiao C100) are counted per reason
    // in tencent.source.json, not kept: no Tencent offering names them. P40 and P4 have specs now.
    std::set<std::string> cards;
    for (const Offering& o : c.offerings()) {
        if (o.provider != "tencent") continue;
        CHECK(c.gpu(o.gpu).name == o.gpu);
        cards.insert(o.gpu);
    }
    CHECK(cards.count("P40") == 1);
    CHECK(cards.count("P4") == 1);
}

TEST_CASE("built-in: every region of Alibaba's community SkyPilot-format file, checked by hand against its lines") {
    const Catalog& c = Catalog::builtin();
    // data/catalog/sources/skypilot/files/alibaba.vms.csv (sugarlxn/skypilot-catalog
    // catalogs/v8/alicloud/vms.csv, commit b3e23ad; undated; USD converted from CNY by the source) line 914:
    // ecs.gn6e-c12g1.24xlarge,V100,8,96,736,V100 32GB,21.804,6.76723848,cn-shanghai,cn-shanghai-m,ecs.gn6e,X86
    const Offering& v100 = c.offering("alibaba", "ecs.gn6e-c12g1.24xlarge", "cn-shanghai");
    CHECK(v100.on_demand_hourly == 21.804);
    CHECK(*v100.spot_hourly == 6.76723848);
    CHECK(v100.gpu == "V100-32GB");
    CHECK(v100.gpus_per_instance == 8);
    CHECK(v100.source.row == "line 914");
    CHECK(v100.source.as_of == "undated");
    // Shares of a card ("A10*1/12", "T4/8") are kept as shares (their unit is the share), and memory
    // slices of an RTX 5880 are reported: neither is ever a whole card here.
    std::set<std::string> regions;
    for (const Offering& o : c.offerings()) {
        if (o.provider != "alibaba") continue;
        regions.insert(o.region);
        // sgn6i/sgn7i/vgn6i/vgn7i-vws sell shares; only their whole-card sizes ("A10*1" 24 GB, "T4" 16 GB)
        // name the card itself.
        if (o.instance_type.find("vws") != std::string::npos && !parse_gpu_share(o.gpu)) {
            CHECK((o.instance_type == "ecs.vgn7i-vws-m24.7xlarge" || o.instance_type == "ecs.vgn6i-m16-vws.5xlarge"));
        }
        CHECK(o.instance_type.find("sgn8ga-wy") == std::string::npos);  // RTX 5880: no spec, slices reported
    }
    // 20: ap-southeast-7 has only L20 rows (ecs.gn8is-*), kept since the L20 has a spec.
    CHECK(regions.size() == 20);
}

TEST_CASE("built-in: cards and shares the imports once counted but did not keep, kept with their specs") {
    const Catalog& c = Catalog::builtin();
    // Specs re-typed from their sources (curated.json names each): memory, dense FP16 (Pascal: peak FP16,
    // no tensor cores), FP32, bandwidth, power.
    struct Figures {
        const char* name;
        double memory, fp16, fp32, bandwidth, watts;
    };
    for (const Figures& f : {Figures{"A40", 48, 149.7, 37.4, 696, 300}, Figures{"P100", 16, 18.7, 9.3, 720, 250},
                             Figures{"P40", 24, 0.1837, 12, 346, 250}, Figures{"P4", 8, 0.08912, 5.5, 192, 75}}) {
        CAPTURE(f.name);
        const GpuSpec& g = c.gpu(f.name);
        CHECK(g.memory_gb == f.memory);
        CHECK(g.fp16_tflops == f.fp16);
        CHECK(g.fp32_tflops == f.fp32);
        CHECK(g.memory_bandwidth_gbps == f.bandwidth);
        CHECK(g.tdp_watts == f.watts);
        CHECK_FALSE(g.source.name.empty());
        CHECK_FALSE(g.interconnect.empty());
    }
    // files/runpod.vms.csv line 202: 1x_A40_SECURE,A40,1.0,9.0,48.0,A40,CA,,0.44,CA-MTL-1 (same in CA-MTL-2, -3).
    const Offering& a40 = c.offering("runpod", "1x_A40_SECURE", "CA");
    CHECK(a40.gpu == "A40");
    CHECK(a40.on_demand_hourly == 0.44);
    // files/tencent.vms.csv line 32: GN8.14XLARGE448,P40,8,...,17.05266,,ap-beijing,ap-beijing-6 (USD from CNY).
    const Offering& p40 = c.offering("tencent", "GN8.14XLARGE448", "ap-beijing");
    CHECK(p40.gpu == "P40");
    CHECK(p40.gpus_per_instance == 8);
    CHECK(p40.on_demand_hourly == 17.05266);
    // anycloud-sh/catalog azure/vms.csv (62ff0a9, 2026-05-20) line 56273:
    // Standard_NV12ads_A10_v5,A10,0.333,12,110,A10,0.908,0.167798,eastus — a third of an A10, kept as its unit.
    const Offering& third = c.offering("azure", "Standard_NV12ads_A10_v5", "eastus");
    CHECK(third.gpu == "A10/3");
    CHECK(third.gpus_per_instance == 1);
    CHECK(third.on_demand_hourly == 0.908);
    CHECK(*third.spot_hourly == 0.167798);
    // Priced so since the first snapshot of the file's history (2026-04-02), read again on 2026-05-20.
    CHECK(*third.effective_from == Date{2026, 4, 2});
    CHECK(third.source.as_of == "2026-05-20");
    // Its price per A10-hour is three times its price per share-hour, never the share's price.
    const auto ranked = rank_by_gpu_hour_price({third}, "USD", ExchangeRates::builtin(), Date{2026, 12, 5});
    REQUIRE(ranked.size() == 1);
    CHECK(ranked[0].per_gpu_hour == doctest::Approx(3 * 0.908));
    // files/alibaba.vms.csv line 40: ecs.sgn7i-vws-m2.xlarge,A10*1/12,1,...,0.35840322,0.11713509,ap-northeast-1,
    // ap-northeast-1b — a twelfth of an A10.
    const auto twelfth = std::find_if(c.offerings().begin(), c.offerings().end(), [](const Offering& o) {
        return o.key() == "alibaba/ap-northeast-1/ecs.sgn7i-vws-m2.xlarge/ap-northeast-1b";
    });
    REQUIRE(twelfth != c.offerings().end());
    CHECK(twelfth->gpu == "A10/12");
    CHECK(twelfth->on_demand_hourly == 0.35840322);
    // anycloud-sh/catalog vast/vms.csv (336ccee, 2026-04-29) line 11: 2x-H200-32-65536 ... 5.65,0.00,", US, NA".
    const Offering& us = c.offering("vast", "2x-H200-32-65536", "US, NA");
    CHECK(us.on_demand_hourly == 5.65);
    CHECK(us.notes.starts_with("the file writes the region \", US, NA\""));
    for (const Offering& o : c.offerings()) {
        CAPTURE(o.key());
        CHECK_FALSE(o.region.starts_with(","));
        CHECK(o.region.find(", ,") == std::string::npos);
    }
}

TEST_CASE("built-in: H200, B200 and MI300X from at least three providers each, with dates") {
    const Catalog& c = Catalog::builtin();
    for (const char* gpu : {"H200", "B200", "MI300X"}) {
        CAPTURE(gpu);
        std::set<std::string> providers;
        for (const Offering& o : c.find({}, gpu)) {
            // A file with no known date (Nebius's SkyPilot file) says so; it does not count here.
            if (!o.effective_from) {
                CHECK(o.source.as_of == "undated");
                continue;
            }
            providers.insert(o.provider);
        }
        CHECK(providers.size() >= 3);
    }
}

TEST_CASE("built-in: other spot checks against the reference data") {
    const Catalog& c = Catalog::builtin();
    const Offering& nd = c.offering("azure", "Standard_ND96asr_v4", "eastus");
    CHECK(nd.on_demand_hourly == 27.197);
    CHECK(nd.on_demand_per_gpu_hour() == doctest::Approx(3.399625));  // 27.197 / 8
    // Spot from the dated SkyPilot-format file (anycloud-sh/catalog azure/vms.csv, 2026-05-20), which
    // replaced the undated skypilot-catalog v6 listing ($2.99167); the on-demand price is the same, so
    // the reservations derived from it are kept.
    CHECK(*nd.spot_hourly == 5.98334);
    // The same prices in the file's first snapshot (commit 62971ab, 2026-04-02, line 59866).
    CHECK(nd.effective_from == Date{2026, 4, 2});
    // seed 000: 3-year reserved saves 52% -> 0.48 x 27.197 = 13.05456 $/h.
    CHECK(nd.reserved_price(3, Payment::all_upfront)->effective_hourly() == doctest::Approx(13.05456));
    CHECK(nd.reserved_price(3, Payment::no_upfront)->hourly == doctest::Approx(13.05456));
    CHECK(nd.billing_increment_seconds == 60);

    const Offering& a2 = c.offering("gcp", "a2-highgpu-1g");
    CHECK(a2.on_demand_hourly == 3.673385);
    // 1-year commitment 1689.3711392 $/month / 730 h = 2.3142070 $/h.
    CHECK(a2.reserved_price(1, Payment::no_upfront)->hourly == doctest::Approx(2.3142070));
    CHECK(a2.minimum_billed_seconds == 60);

    CHECK(c.offering("lambda", "gpu_8x_a100").on_demand_per_gpu_hour() == doctest::Approx(1.99));  // 15.92/8
    CHECK_FALSE(c.offering("lambda", "gpu_8x_a100").spot_hourly);
    CHECK(c.offering("tencent", "GN7", "ap-beijing").currency == "CNY");
    CHECK(c.offering("huawei", "GP60").gpu == "V100S");
    CHECK(c.offering("aws", "g4dn.xlarge").spot_per_gpu_hour() == 0.201);
    CHECK(c.offering("paperspace", "V100").on_demand_hourly == 2.30);
    CHECK_THROWS_WITH_AS(c.offering("huawei", "p2s"),
                         "instance_type = \"p2s\": unknown instance type for provider \"huawei\" (known: "
                         "GP60)",
                         InvalidInput);
}

TEST_CASE("JSON: the whole built-in catalog round-trips exactly") {
    const Catalog& c = Catalog::builtin();
    const std::string text = c.to_json();
    const Catalog back = Catalog::from_json(text);
    CHECK(back == c);
    CHECK(back.to_json() == text);
    // Catalog::builtin() reads the compiled-in text without from_json's nesting and duplicate-key pass:
    // the text passes that pass, and gives the same catalog through it.
    const std::string_view embedded(gputco::detail::builtin_catalog_json, gputco::detail::builtin_catalog_json_size);
    CHECK(Catalog::from_json(embedded) == c);
}

TEST_CASE("JSON: a user's file, with reservations given as discounts") {
    const Catalog mine = Catalog::from_json_file(data_dir + "catalog_small.json");
    REQUIRE(mine.offerings().size() == 3);
    const Offering& o = mine.offering("mycloud", "a100x8");
    CHECK(o.gpus_per_instance == 8);
    CHECK(*o.spot_hourly == 6);
    CHECK(o.source == Source{"my quote", "2026-01"});
    // 50% off 20 $/h = 10 $/h effective; 3 years = 26,280 h.
    const auto all = o.reserved_price(3, Payment::all_upfront);
    CHECK(all->upfront == doctest::Approx(262800));  // 10 x 26,280
    CHECK(all->hourly == 0);
    CHECK(all->source == o.source);                   // inherits the offering's source
    const auto partial = o.reserved_price(3, Payment::partial_upfront);
    CHECK(partial->upfront == doctest::Approx(131400));  // half of 262,800
    CHECK(partial->hourly == doctest::Approx(5));
    CHECK(o.reserved_price(3, Payment::no_upfront)->hourly == doctest::Approx(12));  // 0.6 x 20
    const auto one = o.reserved_price(1, Payment::partial_upfront);
    CHECK(one->upfront == 50000);
    CHECK(one->hourly == 10);
    CHECK(one->source.name == "my 1-year quote");
    CHECK(mine.offering("mycloud", "cny-box").currency == "CNY");
    CHECK_FALSE(mine.offering("mycloud", "cny-box").spot_hourly);
    CHECK(mine.offering("mycloud", "cny-box").billing_increment_seconds == 3600);  // default

    const Catalog merged = Catalog::builtin().overridden_by(mine);
    CHECK(merged.offering("aws", "p4d.24xlarge", "us-east-1").on_demand_hourly == 21.96);
    CHECK(merged.offering("aws", "p4d.24xlarge", "us-east-1").reserved.empty());
    CHECK(merged.offerings().size() == Catalog::builtin().offerings().size() + 2);
    CHECK(merged.gpu("A100-40GB").notes == "a user's copy");
}

TEST_CASE("JSON: every bad input is named with its path") {
    CHECK_THROWS_WITH_AS(Catalog::from_json_file(data_dir + "catalog_bad_price.json"),
                         "offerings[2].on_demand_hourly = -3: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json_file(data_dir + "no_such_file.json"),
                         ("catalog file = \"" + data_dir + "no_such_file.json\": cannot be opened").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json_file(data_dir), ("catalog file = \"" + data_dir + "\": is a directory, not a file").c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json("[1, 2]"), "catalog = [1,2]: must be an object", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"offering": []})"),
                         "offering = []: unknown field (known: format, version, gpus, offerings)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"version": 2})"),
                         "version = 2: unsupported catalog format version (supported: 1)", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"format": "csv"})"),
                         "format = \"csv\": must be \"gputco-catalog\"", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"offerings": {}})"),
                         "offerings = {}: must be an array", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering("")),
                         "offerings[0].on_demand_hourly = (missing): required", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": "1.5")")),
                         "offerings[0].on_demand_hourly = \"1.5\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 1, "spot_hourly": -0.5)")),
                         "offerings[0].spot_hourly = -0.5: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 1, "spot_hourley": 0.5)")),
                         "offerings[0].spot_hourley = 0.5: unknown field (known: provider, region, "
                         "instance_type, gpu, gpus_per_instance, currency, on_demand_hourly, spot_hourly, "
                         "reserved, billing_increment_seconds, minimum_billed_seconds, source, notes, zone, effective_from, history, savings_plans, "
                         "capacity_block_hourly, capacity_block_source, reservation_only, spot_only, month_terms)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 1, "gpus_per_instance": 2.5)")),
                         "offerings[0].gpus_per_instance = 2.5: must be a whole number", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 1, "gpus_per_instance": 0)")),
                         "offerings[0].gpus_per_instance = 0: must be in [1, 1024]", InvalidInput);
    CHECK_THROWS_WITH_AS(
        Catalog::from_json(
            R"({"offerings": [{"provider": "a", "region": "r", "instance_type": "x", "gpu": "T4", "on_demand_hourly": 1}]})"),
        "offerings[0].source = (missing): required", InvalidInput);
    CHECK_THROWS_WITH_AS(
        Catalog::from_json(
            R"({"offerings": [{"provider": 7, "region": "r", "instance_type": "x", "gpu": "T4", "on_demand_hourly": 1}]})"),
        "offerings[0].provider = 7: must be a string", InvalidInput);

    const auto reserved = [](const std::string& entry) {
        return Catalog::from_json(one_offering(R"("on_demand_hourly": 10, "reserved": [)" + entry + "]"));
    };
    CHECK(reserved(R"({"term_years": 1, "payment": "no_upfront", "hourly": 7})").offerings()[0].reserved.size() == 1);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 1, "payment": "upfront", "hourly": 7})"),
                         "offerings[0].reserved[0].payment = \"upfront\": must be one of no_upfront, "
                         "partial_upfront, all_upfront",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 1, "payment": "no_upfront", "discount": 1.2})"),
                         "offerings[0].reserved[0].discount = 1.2: must be in [0, 1]", InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 1, "payment": "no_upfront", "discount": 0.3, "hourly": 7})"),
                         "offerings[0].reserved[0].discount = 0.3: give either discount or upfront/hourly, "
                         "not both",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 1, "payment": "no_upfront"})"),
                         "offerings[0].reserved[0] = {\"payment\":\"no_upfront\",\"term_years\":1}: needs a "
                         "discount, or an upfront and/or hourly price",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 0, "payment": "no_upfront", "hourly": 7})"),
                         "offerings[0].reserved[0].term_years = 0: must be >= 1", InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": "3", "payment": "no_upfront", "hourly": 7})"),
                         "offerings[0].reserved[0].term_years = \"3\": must be a whole number", InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 3, "payment": "all_upfront", "upfront": -100})"),
                         "offerings[0].reserved[0].upfront = -100: must be finite and >= 0", InvalidInput);
    CHECK_THROWS_WITH_AS(reserved(R"({"term_years": 3, "payment": "no_upfront", "hourly": 5}, {"term_years": 3, "payment": "no_upfront", "hourly": 6})"),
                         "offerings[0].reserved[1].payment = \"no_upfront\": duplicate of reserved[0] (same "
                         "term_years, payment and class)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(reserved("7"), "offerings[0].reserved[0] = 7: must be an object", InvalidInput);

    CHECK_THROWS_WITH_AS(
        Catalog::from_json(R"({"gpus": [{"name": "X", "vendor": "V", "memory_gb": 8, "memory_bandwidth_gbps": 1, "fp16_tflops": 1, "fp32_tflops": 1, "tdp_watts": -5, "source": {"name": "s", "as_of": "2026"}}]})"),
        "gpus[0].tdp_watts = -5: must be finite and > 0", InvalidInput);
    CHECK_THROWS_WITH_AS(
        Catalog::from_json(R"({"gpus": [{"name": "X", "vendor": "V", "memory_gb": 8, "memory_bandwidth_gbps": 1, "fp16_tflops": 1, "fp32_tflops": 1, "tdp_watts": 5, "source": {"name": "s"}}]})"),
        "gpus[0].source.as_of = (missing): required", InvalidInput);
}

TEST_CASE("JSON: text that is not JSON") {
    CHECK_THROWS_WITH_AS(Catalog::from_json("{\"offerings\": [nope]}"),
                         "catalog json = \"{\"offerings\": [nope]}\": not valid JSON (parse error at line 1, "
                         "column 17: syntax error while parsing value - "
                         "invalid literal; last read: '\"offerings\": [no')",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(""), "catalog json = \"\": not valid JSON (parse error at line 1, "
                         "column 1: syntax error while parsing value - unexpected end of input; "
                         "expected '[', '{', or a literal)",
                         InvalidInput);
    // Long input is cut to its first 40 characters.
    CHECK_THROWS_WITH_AS(Catalog::from_json("{\"offerings\": [], \"gpus\": [], \"version\": 1,,}"),
                         "catalog json = \"{\"offerings\": [], \"gpus\": [], \"version\":...\": not valid "
                         "JSON (parse error at line 1, column 44: syntax error while parsing object key - "
                         "unexpected ','; expected string literal)",
                         InvalidInput);
}

namespace {
bool valid_utf8(std::string_view text) { return is_utf8(text); }

std::string message_of(const std::string& text) {
    try {
        (void)Catalog::from_json(text);
    } catch (const InvalidInput& e) {
        return e.what();
    }
    return "(no error)";
}

/// `rows` offerings, each a valid row with its own instance type.
std::string many_offerings(std::size_t rows) {
    std::string text = R"({"offerings": [)";
    for (std::size_t i = 0; i < rows; ++i) {
        if (i > 0) text += ",";
        text += R"({"provider": "p", "region": "r", "instance_type": "x)" + std::to_string(i) +
                R"(", "gpu": "T4", "on_demand_hourly": 1.5, "source": {"name": "s", "as_of": "2026"}})";
    }
    return text + "]}";
}
}  // namespace

TEST_CASE("JSON: deep nesting is refused at 32 levels, without recursing through the rest") {
    // 10^5 nested arrays overflowed the stack (parsing, then dumping the value into the message).
    const std::string deep = R"({"gpus": )" + std::string(100'000, '[') + std::string(100'000, ']') + "}";
    CHECK_THROWS_WITH_AS(Catalog::from_json(deep), "catalog json depth = 33: must be at most 32 nested objects/arrays",
                         InvalidInput);
    std::string objects;
    for (int i = 0; i < 40; ++i) objects += R"({"a": )";
    objects += "1" + std::string(40, '}');
    CHECK_THROWS_WITH_AS(Catalog::from_json(objects), "catalog json depth = 33: must be at most 32 nested objects/arrays",
                         InvalidInput);
    // 32 levels pass the parser and reach the format's own rules.
    const std::string ok_depth = R"({"gpus": )" + std::string(31, '[') + std::string(31, ']') + "}";
    CHECK_THROWS_WITH_AS(Catalog::from_json(ok_depth),
                         ("gpus[0] = " + std::string(30, '[') + std::string(10, ']') + "...: must be an object").c_str(),
                         InvalidInput);
}

TEST_CASE("JSON: a key given twice in one object is an error, not last-wins") {
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"gpus": [], "gpus": []})"),
                         "catalog json key = \"gpus\": appears twice in one object", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 1, "on_demand_hourly": 2)")),
                         "catalog json key = \"on_demand_hourly\": appears twice in one object", InvalidInput);
    // The same key in different objects is fine.
    CHECK(Catalog::from_json(R"({"offerings": [{"provider": "a", "region": "r", "instance_type": "x", "gpu": "T4",
        "on_demand_hourly": 1, "source": {"name": "s", "as_of": "2026"}},
        {"provider": "a", "region": "r", "instance_type": "y", "gpu": "T4",
        "on_demand_hourly": 1, "source": {"name": "s", "as_of": "2026"}}]})").offerings().size() == 2);
}

TEST_CASE("JSON: a number too large for a double is InvalidInput, not the parser's exception") {
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"version": 1e400})"),
                         "catalog json = \"{\"version\": 1e400}\": not valid JSON (number overflow parsing '1e400')",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 1e300)")),
                         "offerings[0].on_demand_hourly = 1e+300: must be <= 1e+12", InvalidInput);
}

TEST_CASE("JSON: size and row limits fail fast") {
    const std::string huge(limits::max_catalog_bytes + 1, ' ');
    CHECK_THROWS_WITH_AS(Catalog::from_json(huge),
                         "catalog json.size = 16777217: must be at most 16777216 bytes (16 MiB)", InvalidInput);
    std::string rows = R"({"offerings": [{})";
    for (std::size_t i = 1; i <= limits::max_catalog_rows; ++i) rows += ",{}";
    rows += "]}";
    CHECK_THROWS_WITH_AS(Catalog::from_json(rows),
                         "offerings = [{},{},{},{},{},{},{},{},{},{},{},{},{},...: must have at most 100000 rows",
                         InvalidInput);
    // A file over the limit is refused before it is read.
    const std::string path = std::string(GPUTCO_BINARY_DIR) + "/catalog_too_big.json";
    {
        std::ofstream out(path, std::ios::binary);
        out << huge;
    }
    CHECK_THROWS_WITH_AS(Catalog::from_json_file(path),
                         ("catalog file = \"" + path + "\": is 16777217 bytes; must be at most 16777216 (16 MiB)").c_str(),
                         InvalidInput);
    std::remove(path.c_str());
    // A device has no size to check first (a scenario's catalog file may name one): reading stops
    // past the limit instead of filling memory.
    if (std::filesystem::exists("/dev/zero"))
        CHECK_THROWS_WITH_AS(Catalog::from_json_file("/dev/zero"),
                             "catalog file = \"/dev/zero\": is more than 16777216 bytes (16 MiB)", InvalidInput);
}

TEST_CASE("JSON: tens of thousands of valid rows load, and overriding them is linear") {
    // 50,000 rows (about 8 MB): duplicate checks and overrides were pairwise, O(n^2), and hung.
    const Catalog big = Catalog::from_json(many_offerings(50'000));
    CHECK(big.offerings().size() == 50'000);
    CHECK(big.offering("p", "x49999").on_demand_hourly == 1.5);
    const Catalog merged = Catalog::builtin().overridden_by(big).overridden_by(big);
    CHECK(merged.offerings().size() == Catalog::builtin().offerings().size() + 50'000);
    std::string twice = many_offerings(3);
    twice.replace(twice.find("x2"), 2, "x0");
    CHECK_THROWS_WITH_AS(Catalog::from_json(twice), "offerings[2] = \"p/r/x0\": duplicate key of offerings[0]",
                         InvalidInput);
}

TEST_CASE("JSON: messages are valid UTF-8 whatever the input's bytes") {
    // 39 ASCII bytes then a 2-byte character: the 40-byte preview used to cut it in half.
    const std::string text = std::string(39, 'a') + "\xC3\xA9zzz";
    const std::string message = message_of(text);
    CHECK(valid_utf8(message));
    CHECK(message.starts_with("catalog json = \"" + std::string(39, 'a') + "...\": not valid JSON"));
    // Bytes that are not UTF-8 at all are shown as \xNN.
    const std::string bad = message_of("\xFF\xFE{}");
    CHECK(valid_utf8(bad));
    CHECK(bad.starts_with("catalog json = \"\\xFF\\xFE{}\": not valid JSON"));
    // A long multi-byte value in a field is cut between characters.
    const std::string provider =
        message_of(one_offering(R"("gpus_per_instance": ")" + std::string(30, 'x') + "€€€€€€€€\""));
    CHECK(valid_utf8(provider));
    CHECK(provider == "offerings[0].gpus_per_instance = \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx€€€...: must be a whole number");
}

TEST_CASE("text fields must be valid UTF-8") {
    Offering o = small_offering("a\xFF", "r", "x", 1.0);
    CHECK_THROWS_WITH_AS(o.validate(), "offering.provider = \"a\\xFF\": must be valid UTF-8 text", InvalidInput);
    GpuSpec g = small_gpu("T4");
    g.source = Source{std::string(1, '\xC3'), "2026"};
    CHECK_THROWS_WITH_AS(g.validate(), "gpu.source.name = \"\\xC3\": must be valid UTF-8 text", InvalidInput);
}

TEST_CASE("JSON: a large file can be cancelled while it loads") {
    const std::string text = many_offerings(5'000);
    int calls = 0;
    CHECK_THROWS_WITH_AS(Catalog::from_json(text, [&] { return ++calls == 3; }), "catalog loading cancelled",
                         Cancelled);
    CHECK(calls == 3);
    // A check that never says stop changes nothing; a small file never even asks.
    int asked = 0;
    CHECK(Catalog::from_json(text, [&] { return ++asked < 0; }).offerings().size() == 5'000);
    CHECK(asked >= 5);  // every 16,384 parser events and 1,024 rows
    CHECK(Catalog::from_json(many_offerings(2), [] { return true; }).offerings().size() == 2);
}

TEST_CASE("JSON: keys that are not plain names are quoted in the field path") {
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"": null})"),
                         "catalog[\"\"] = null: unknown field (known: format, version, gpus, offerings)", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(R"({"a b": 1})"),
                         "catalog[\"a b\"] = 1: unknown field (known: format, version, gpus, offerings)", InvalidInput);
}

TEST_CASE("JSON: Savings Plan rates of an offering round-trip, and bad ones are named") {
    const std::string text = R"({"format": "gputco-catalog", "version": 1, "offerings": [
        {"provider": "aws", "region": "us-east-1", "instance_type": "x8", "gpu": "H100", "gpus_per_instance": 8,
         "on_demand_hourly": 40, "source": {"name": "my quote", "as_of": "2026-11"},
         "savings_plans": [
            {"type": "aws_compute", "term_years": 1, "payment": "no_upfront", "hourly": 30},
            {"type": "aws_ec2_instance", "term_years": 3, "payment": "all_upfront", "hourly": 18,
             "source": {"name": "my 3-year quote", "as_of": "2026-12"}}]}]})";
    const Catalog c = Catalog::from_json(text);
    const Offering& o = c.offering("aws", "x8", "us-east-1");
    REQUIRE(o.savings_plans.size() == 2);
    CHECK(o.savings_plan_rate(SavingsPlanType::aws_compute, 1, Payment::no_upfront)->hourly == 30);
    CHECK(o.savings_plan_rate(SavingsPlanType::aws_compute, 1, Payment::no_upfront)->source == o.source);
    CHECK(o.savings_plan_rate(SavingsPlanType::aws_ec2_instance, 3, Payment::all_upfront)->source.name == "my 3-year quote");
    CHECK_FALSE(o.savings_plan_rate(SavingsPlanType::aws_compute, 3, Payment::no_upfront));
    CHECK(Catalog::from_json(c.to_json()).offering("aws", "x8", "us-east-1") == o);
    CHECK(o.converted("EUR", 0.5).savings_plans[0].hourly == 15);

    std::string bad = text;
    bad.replace(bad.find("\"term_years\": 1"), 15, "\"term_years\": 2");
    CHECK_THROWS_WITH_AS(Catalog::from_json(bad), "offerings[0].savings_plans[0].term_years = 2: must be 1 or 3", InvalidInput);
    bad = text;
    bad.replace(bad.find("\"hourly\": 30"), 12, "\"hourly\": 0");
    CHECK_THROWS_WITH_AS(Catalog::from_json(bad), "offerings[0].savings_plans[0].hourly = 0: must be finite and > 0",
                         InvalidInput);
    bad = text;
    bad.replace(bad.find("\"aws_ec2_instance\", \"term_years\": 3, \"payment\": \"all_upfront\""), 61,
                "\"aws_compute\", \"term_years\": 1, \"payment\": \"no_upfront\"");
    CHECK_THROWS_WITH_AS(Catalog::from_json(bad),
                         "offerings[0].savings_plans[1].payment = \"no_upfront\": duplicate of savings_plans[0] (same "
                         "type, term_years and payment)",
                         InvalidInput);
    bad = text;
    bad.replace(bad.find("\"aws_compute\""), 13, "\"aws_cmpute\"");
    CHECK_THROWS_WITH_AS(Catalog::from_json(bad),
                         "offerings[0].savings_plans[0].type = \"aws_cmpute\": must be one of aws_ec2_instance, aws_compute, "
                         "aws_sagemaker, azure_compute, gcp_flexible",
                         InvalidInput);
}

TEST_CASE("fixed windows in the catalog: capacity-block rate, reservation-only, month terms") {
    const std::string text = R"({"gpus": [], "offerings": [{
        "provider": "aws", "region": "us-east-1", "instance_type": "p6-test", "gpu": "B200", "gpus_per_instance": 8,
        "on_demand_hourly": 0, "source": {"name": "test", "as_of": "2026-12"},
        "capacity_block_hourly": 60.5,
        "reservation_only": true,
        "month_terms": [{"months": 3, "hourly": 40, "source": {"name": "term page", "as_of": "2026-08"}}]}]})";
    const Catalog c = Catalog::from_json(text);
    const Offering& o = c.offering("aws", "p6-test", "us-east-1");
    CHECK(*o.capacity_block_hourly == 60.5);
    CHECK(o.reservation_only);
    REQUIRE(o.month_terms.size() == 1);
    CHECK(o.month_terms[0].months == 3);
    CHECK(o.month_terms[0].hourly == 40);
    CHECK(Catalog::from_json(c.to_json()).offering("aws", "p6-test", "us-east-1") == o);  // round trip
    // No capacity_block_source: the rate's source is the offering's, and none is written.
    CHECK(o.capacity_block_source == Source{});
    CHECK(o.capacity_block_rate_source() == o.source);
    CHECK(c.to_json().find("capacity_block_source") == std::string::npos);
    // The built-in p5.48xlarge carries its capacity-block rate with its own source and date. Re-typed
    // from AWS's "Amazon EC2 Capacity Blocks for ML Pricing" table whose prices were "scheduled to be
    // updated on January 1, 2025", the row:
    //   p5.48xlarge  US East (N. Virginia)  $39.33 USD  $4.916 USD  8 x H100 ...
    // ($39.33 per instance-hour; per accelerator 39.33 / 8 = 4.916).
    const Offering& p5 = Catalog::builtin().offering("aws", "p5.48xlarge", "us-east-1");
    CHECK(*p5.capacity_block_hourly == 39.33);
    CHECK(*p5.capacity_block_hourly / p5.gpus_per_instance == doctest::Approx(4.916).epsilon(1e-3));
    const Source& rate = p5.capacity_block_rate_source();
    CHECK(rate.as_of == "2024-12");
    CHECK(rate.name.find("Amazon EC2 Capacity Blocks for ML Pricing") != std::string::npos);
    CHECK(rate.row.find("$39.33") != std::string::npos);
    CHECK(rate != p5.source);  // not the on-demand price's source
    CHECK_FALSE(p5.reservation_only);

    // A rate's own source is read, written and checked whole.
    std::string sourced = text;
    sourced.replace(sourced.find("\"reservation_only\""), 0,
                    R"("capacity_block_source": {"name": "block table", "as_of": "2026-10", "row": "p6-test"}, )");
    const Catalog with_source = Catalog::from_json(sourced);  // kept: `s` refers into it
    const Offering& s = with_source.offering("aws", "p6-test", "us-east-1");
    CHECK(s.capacity_block_rate_source() == Source{"block table", "2026-10", "p6-test"});
    CHECK(Catalog::from_json(Catalog::from_json(sourced).to_json()).offering("aws", "p6-test", "us-east-1") == s);
    std::string no_date = sourced;
    const std::string dated = R"("as_of": "2026-10")";
    no_date.replace(no_date.find(dated), dated.size(), R"("as_of": "")");
    CHECK_THROWS_WITH_AS(Catalog::from_json(no_date),
                         "offerings[0].capacity_block_source.as_of = \"\": must not be empty", InvalidInput);

    std::string bad = text;
    bad.replace(bad.find("\"months\": 3"), 11, "\"months\": 0");
    CHECK_THROWS_WITH_AS(Catalog::from_json(bad), "offerings[0].month_terms[0].months = 0: must be in [1, 12]", InvalidInput);
    bad = text;
    bad.replace(bad.find("\"reservation_only\": true"), 24, "\"reservation_only\": 1");
    CHECK_THROWS_WITH_AS(Catalog::from_json(bad), "offerings[0].reservation_only = 1: must be true or false", InvalidInput);
}

TEST_CASE("a spot-only offering: read, written, and its rules to the letter") {
    const std::string text = one_offering(R"("on_demand_hourly": 0, "spot_hourly": 0.9, "spot_only": true)");
    const Catalog c = Catalog::from_json(text);
    const Offering& o = c.offering("a", "x", "r");
    CHECK(o.spot_only);
    CHECK_FALSE(o.sells_on_demand());
    CHECK(o.no_on_demand_reason() == "is sold only as spot capacity");
    CHECK(Catalog::from_json(c.to_json()).offering("a", "x", "r") == o);  // round trip
    CHECK(c.to_json().find("\"spot_only\": true") != std::string::npos);
    // An ordinary offering writes no spot_only field, and sells on demand.
    const Catalog plain = Catalog::from_json(one_offering(R"("on_demand_hourly": 1)"));
    CHECK(plain.to_json().find("spot_only") == std::string::npos);
    CHECK(plain.offerings()[0].sells_on_demand());
    CHECK(plain.offerings()[0].no_on_demand_reason().empty());
    CHECK_NOTHROW(plain.offerings()[0].require_on_demand("on-demand hours"));

    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 0, "spot_only": "yes")")),
                         "offerings[0].spot_only = \"yes\": must be true or false", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 0, "spot_only": true)")),
                         "offerings[0].spot_only = true: needs a spot_hourly price", InvalidInput);
    // Its 0 must not be a price: a spot-only row with an on-demand price is a contradiction.
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(R"("on_demand_hourly": 2, "spot_hourly": 0.9, "spot_only": true)")),
                         "offerings[0].on_demand_hourly = 2: must be 0 on a spot-only offering (it sells no on-demand hours)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(
                             R"("on_demand_hourly": 0, "spot_hourly": 0.9, "spot_only": true, "reservation_only": true)")),
                         "offerings[0].spot_only = true: cannot be set with reservation_only", InvalidInput);
    CHECK_THROWS_WITH_AS(Catalog::from_json(one_offering(
                             R"("on_demand_hourly": 0, "spot_hourly": 0.9, "spot_only": true, "capacity_block_hourly": 3)")),
                         "offerings[0].spot_only = true: cannot be set with reservations, Savings Plans, month terms or a "
                         "capacity-block price",
                         InvalidInput);
    // The one refusal every engine uses, naming the offering and what was asked.
    CHECK_THROWS_WITH_AS(o.require_on_demand("on-demand hours"),
                         "offering.spot_only = \"a/r/x\": is sold only as spot capacity: on-demand hours cannot be priced",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(o.require_terms("plan.commitments[0]"),
                         "offering.spot_only = \"a/r/x\": is sold only as spot capacity: plan.commitments[0] cannot be priced",
                         InvalidInput);
    Offering reserved_only = plain.offerings()[0];
    reserved_only.reservation_only = true;
    CHECK_NOTHROW(reserved_only.require_terms("plan.commitments[0]"));
    CHECK_THROWS_WITH_AS(reserved_only.require_on_demand("on-demand hours"),
                         "offering.reservation_only = \"a/r/x\": is sold only through capacity blocks or reservations: "
                         "on-demand hours cannot be priced",
                         InvalidInput);
}
