// Each importer on the real excerpts in tests/data/price-formats (sources in its README): rows
// checked by hand against the file, skipped rows accounted for, malformed input named to the letter.
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>
#include <fmt/format.h>

#include "gputco/catalog/gpu_names.hpp"
#include "gputco/catalog/importers.hpp"
#include "legacy/legacy_cyclenerd.hpp"

using namespace gputco;

namespace {

const std::string dir = std::string(GPUTCO_SOURCE_DIR) + "/tests/data/price-formats/";

std::string data(const std::string& name) { return read_text_file(dir + name); }

const Offering& find(const ImportResult& r, std::string_view region, std::string_view type, std::string_view zone = {}) {
    for (const Offering& o : r.offerings) {
        if (o.region == region && o.instance_type == type && o.zone == zone) return o;
    }
    FAIL("no offering ", type, " in ", region, " ", zone);
    throw 0;
}

/// Every row read is either an offering's row or a skipped row: nothing disappears.
void check_accounting(const ImportResult& r) {
    CHECK(r.skipped_count == r.skipped.size());
    std::size_t by_reason = 0;
    for (const auto& [reason, n] : r.skipped_reasons) by_reason += n;
    CHECK(by_reason == r.skipped_count);
    for (const Offering& o : r.offerings) {
        CHECK_FALSE(o.source.name.empty());
        CHECK_FALSE(o.source.row.empty());
        CHECK_FALSE(o.source.as_of.empty());
    }
}

}  // namespace

TEST_CASE("SkyPilot GCP vms.csv: machine rows joined with their GPU rows") {
    const ImportResult r = import_skypilot_csv(data("skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"),
                                               {.file = "gcp/vms.csv", .published = "2026-04-02", .provider = "gcp"});
    check_accounting(r);
    CHECK(r.rows_read == 200);
    // Line 4: a2-highgpu-1g us-central1-a 0.73948 (spot 0.36975) + line 56: A100 x1 2.93391 (spot 1.4341).
    const Offering& a2 = find(r, "us-central1", "a2-highgpu-1g", "us-central1-a");
    CHECK(a2.gpu == "A100-40GB");
    CHECK(a2.gpus_per_instance == 1);
    CHECK(a2.on_demand_hourly == doctest::Approx(0.73948 + 2.93391));  // 3.67339
    CHECK(*a2.spot_hourly == doctest::Approx(0.36975 + 1.4341));       // 1.80385
    CHECK(a2.source.row == "lines 4+56");
    CHECK(a2.source.as_of == "2026-04-02");
    CHECK(a2.source.name == "SkyPilot catalog gcp/vms.csv (gcp)");
    // Line 10 + line 74: a2-highgpu-8g 5.91582 + A100 x8 23.47126 = 29.38708 (the built-in Cyclenerd figure).
    CHECK(find(r, "us-central1", "a2-highgpu-8g", "us-central1-a").on_demand_hourly == doctest::Approx(29.38708));
    CHECK(find(r, "us-central1", "a2-ultragpu-8g", "us-central1-a").gpu == "A100-80GB");
    CHECK(find(r, "us-central1", "a3-megagpu-8g", "us-central1-a").gpu == "H100");
    CHECK(find(r, "us-central1", "g2-standard-48", "us-central1-a").gpus_per_instance == 4);
    // GPU rows of T4 (attached to N1 machines) and unused counts join no machine: reported, not dropped.
    CHECK(r.skipped_reasons.count("GCP GPU row joined to no machine type in the file (GPUs attached to N1 machines are not an instance type)") == 1);
    CHECK(r.offerings.size() + r.skipped_count >= r.rows_read - 100);  // joined GPU rows are inside the offerings
}

TEST_CASE("SkyPilot Lambda vms.csv (CRLF, other column order): CPU rows skipped and counted") {
    const ImportResult r = import_skypilot_csv(data("skypilot_catalog_lambda_vms_excerpt_2026-04-02.csv"),
                                               {.file = "lambda/vms.csv", .published = "2026-04-02", .provider = "lambda"});
    check_accounting(r);
    CHECK(r.rows_read == 32);
    CHECK(r.offerings.size() + r.skipped_count == 32);
    CHECK(r.skipped_reasons.at("no GPU") == 2);  // cpu_4x_general in us-east-1 and us-west-1
    // Line 6: gpu_8x_a100,A100,8.0,...,11.84,us-east-1 (40960 MiB per GPU → A100 40 GB).
    const Offering& a100 = find(r, "us-east-1", "gpu_8x_a100");
    CHECK(a100.on_demand_hourly == 11.84);
    CHECK(a100.gpu == "A100-40GB");
    CHECK(a100.gpus_per_instance == 8);
    CHECK_FALSE(a100.spot_hourly.has_value());
    CHECK(a100.source.row == "line 6");
    CHECK(a100.billing_increment_seconds == 60);
    // Line 14: gpu_1x_h100_pcie,H100,1.0,... — written "H100" (80 GB), but the type is the PCIe card,
    // which must not be ranked with SXM5 throughput.
    const Offering& pcie = find(r, "us-east-1", "gpu_1x_h100_pcie");
    CHECK(pcie.gpu == "H100-PCIe");
    CHECK(pcie.notes == "the file names the GPU \"H100\"; the instance type carries H100-PCIe (provider's size table)");
    CHECK(find(r, "us-east-1", "gpu_1x_h100_sxm5").gpu == "H100");
}

TEST_CASE("SkyPilot Vast.ai vms.csv: the type's card names the variant the GPU column leaves out") {
    // Rows as anycloud-sh/catalog vast/vms.csv (2026-04-29) writes them (lines 19, 22, 54, 33, 41, 63).
    const std::string text =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
        "1x-H100_SXM-32-65536,H100,1,32,64.0,\"{'Gpus': [{'Name': 'H100', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 81559}}], "
        "'TotalGpuMemoryInMiB': 81559}\",1.80,0.00,\"Florida, US, NA\"\n"
        "1x-H100_NVL-32-65536,H100,1,32,64.0,\"{'Gpus': [{'Name': 'H100', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 95830}}], "
        "'TotalGpuMemoryInMiB': 95830}\",1.98,0.00,\"Bulgaria, BG, EU\"\n"
        "2x-A100_PCIE-32-65536,A100,2,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 81920}}], "
        "'TotalGpuMemoryInMiB': 81920}\",1.33,0.00,\"South Korea, KR, AS\"\n"
        "1x-A100_SXM4-32-65536,A100,1,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 81920}}], "
        "'TotalGpuMemoryInMiB': 81920}\",0.93,0.00,\"Czechia, CZ, EU\"\n"
        // Lines 41 and 63: two cards whose SizeInMiB is the pair's total, as TotalGpuMemoryInMiB says.
        "2x-A100_SXM4-32-65536,A100,2,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 81920}}], "
        "'TotalGpuMemoryInMiB': 81920}\",1.87,0.00,\"Germany, DE, EU\"\n"
        "2x-Tesla_V100-32-65536,V100,2,32,64.0,\"{'Gpus': [{'Name': 'V100', 'Count': 2, 'MemoryInfo': {'SizeInMiB': 32768}}], "
        "'TotalGpuMemoryInMiB': 32768}\",0.35,0.00,\"North Carolina, US, NA\"\n"
        // Not in the file: an A100 PCIe with 80 GB is the 80 GB PCIe card, the type's name gives only "PCIE".
        "1x-A100_PCIE-32-65536,A100,1,32,64.0,\"{'Gpus': [{'Name': 'A100', 'Count': 1, 'MemoryInfo': {'SizeInMiB': 81920}}], "
        "'TotalGpuMemoryInMiB': 81920}\",1.10,0.00,\"Texas, US, NA\"\n";
    const ImportResult r = import_skypilot_csv(text, {.file = "vast/vms.csv", .provider = "vast"});
    CHECK(find(r, "Florida, US, NA", "1x-H100_SXM-32-65536").gpu == "H100");
    CHECK(find(r, "Bulgaria, BG, EU", "1x-H100_NVL-32-65536").gpu == "H100-NVL");
    CHECK(find(r, "South Korea, KR, AS", "2x-A100_PCIE-32-65536").gpu == "A100-40GB-PCIe");
    CHECK(find(r, "Czechia, CZ, EU", "1x-A100_SXM4-32-65536").gpu == "A100-80GB");  // the file's memory decides
    // One card's memory is the total over the count: 81920 MiB / 2 = 40 GiB, 32768 MiB / 2 = 16 GiB.
    CHECK(find(r, "Germany, DE, EU", "2x-A100_SXM4-32-65536").gpu == "A100-40GB");
    CHECK(find(r, "North Carolina, US, NA", "2x-Tesla_V100-32-65536").gpu == "V100");
    CHECK(find(r, "Texas, US, NA", "1x-A100_PCIE-32-65536").gpu == "A100-80GB-PCIe");
}

TEST_CASE("SkyPilot Azure layout: unquoted V1,V2 rows are an error unless joined into the last column") {
    const std::string text = data("skypilot_format_azure_vms_gpu_excerpt_anycloud_2026-04-02.csv");
    CHECK_THROWS_WITH_AS(import_skypilot_csv(text, {.file = "azure/vms.csv", .provider = "azure"}),
                         "azure/vms.csv:10 = \"11 fields\": the header has 10 (a field with an unquoted comma?)",
                         InvalidInput);
    const ImportResult r = import_skypilot_csv(
        text, {.file = "azure/vms.csv", .published = "2026-04-02", .provider = "azure", .join_extra_fields_into_last_column = true});
    check_accounting(r);
    CHECK(r.rows_read == 35);
    CHECK(r.offerings.size() == 35);
    // Line 10: Standard_NC4as_T4_v3,T4,1,...,0.526,0.194515,eastus,V1,V2
    const Offering& t4 = find(r, "eastus", "Standard_NC4as_T4_v3");
    CHECK(t4.on_demand_hourly == 0.526);
    CHECK(*t4.spot_hourly == 0.194515);
    // Line 26: Standard_ND96asr_v4,A100,8,...,27.197,5.98334,eastus — the A100 40 GB of the built-in catalog.
    const Offering& nd = find(r, "eastus", "Standard_ND96asr_v4");
    CHECK(nd.gpu == "A100-40GB");
    CHECK(nd.on_demand_per_gpu_hour() == doctest::Approx(27.197 / 8));
    // Line 6: Standard_NC40ads_H100_v5,H100,1,...: written "H100", but the size carries an H100 NVL.
    const Offering& nvl = find(r, "eastus", "Standard_NC40ads_H100_v5");
    CHECK(nvl.gpu == "H100-NVL");
    CHECK(nvl.notes == "the file names the GPU \"H100\"; the instance type carries H100-NVL (provider's size table)");
    CHECK(find(r, "eastus", "Standard_ND96isr_H100_v5").gpu == "H100");
}

TEST_CASE("SkyPilot community Tencent layout, prices in the currency the option names") {
    const ImportResult r = import_skypilot_csv(data("skypilot_format_tencentcloud_vms_excerpt_sugarlxn.csv"),
                                               {.file = "tencentcloud/vms.csv", .provider = "tencent", .currency = "USD"});
    check_accounting(r);
    CHECK(r.offerings.size() == 7);
    const Offering& gt4 = find(r, "ap-beijing", "GT4.41XLARGE948", "ap-beijing-6");
    CHECK(gt4.on_demand_hourly == 32.78328);
    CHECK(gt4.gpu == "A100-40GB");
    CHECK(gt4.gpus_per_instance == 8);
    CHECK(gt4.source.as_of == "undated");
    CHECK(find(r, "ap-beijing", "PTX1.7XLARGE116", "ap-beijing-6").gpu == "Tencent Zixiao C100");  // unknown: kept as named
    // Line 4: GN10Xp.2XLARGE40,V100,1,...,"V100 x1, family GN10Xp",2.898 — "V100" with no memory, but the
    // GN10Xp family carries the 32 GB card (Tencent's family table in gpu_names), not the 16 GB one.
    const Offering& gn10xp = find(r, "ap-bangkok", "GN10Xp.2XLARGE40", "ap-bangkok-2");
    CHECK(gn10xp.gpu == "V100-32GB");
    CHECK(gn10xp.on_demand_hourly == 2.898);
    CHECK(gn10xp.notes == "the file names the GPU \"V100\"; the instance type carries V100-32GB (provider's size table)");
    CHECK(find(r, "ap-bangkok", "GN7.2XLARGE32", "ap-bangkok-2").notes.empty());  // T4: the name already says so
    const auto gn10x = instance_gpus("tencent", "GN10X.18XLARGE320");
    REQUIRE(gn10x);
    CHECK(gn10x->gpu == "V100-32GB");
    CHECK(gn10x->count == 0);  // the file's count stands
    CHECK_FALSE(instance_gpus("tencent", "PTX1.7XLARGE116"));
    const ImportResult cny = import_skypilot_csv(
        "InstanceType,AcceleratorName,AcceleratorCount,Price,SpotPrice,Region\ngn6i,T4,1,8.5,,cn-beijing\n",
        {.file = "alicloud.csv", .provider = "alibaba", .currency = "CNY"});
    CHECK(cny.offerings.at(0).currency == "CNY");
    CHECK(cny.offerings.at(0).billing_increment_seconds == 1);
}

TEST_CASE("SkyPilot community Alibaba layout: shares written in the GPU's name, memory slices reported, not whole cards") {
    // Lines of data/catalog/sources/skypilot/files/alibaba.vms.csv (sugarlxn/skypilot-catalog
    // catalogs/v8/alicloud/vms.csv, commit b3e23ad), in the file's order and columns.
    const std::string text =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone,Generation,Arch\n"
        "ecs.sgn8ga-wy-128g-x1.16xlarge,RTX 5880,1,64,128,RTX 5880 48GB,3.47656886,1.08376644,ap-northeast-1,ap-northeast-1a,ecs.sgn8ga-wy,X86\n"
        "ecs.sgn8ga-wy-12g-m2.3large,RTX 5880,1,6,12,RTX 5880 2GB,0.19474946,0.06640243,ap-northeast-1,ap-northeast-1a,ecs.sgn8ga-wy,X86\n"
        "ecs.sgn7i-vws-m2.xlarge,A10*1/12,1,4,15.5,A10*1/12 2GB,0.35840322,0.11713509,ap-northeast-1,ap-northeast-1b,ecs.sgn7i-vws,X86\n"
        "ecs.sgn6i-vws-m8.4xlarge,T4/2,1,16,32,T4/2 8GB,1.03897657,0.14309656,ap-southeast-1,ap-southeast-1a,ecs.sgn6i-vws,X86\n"
        "ecs.gn6e-c12g1.3xlarge,V100,1,12,92,V100 32GB,3.81637344,1.18944408,ap-southeast-1,ap-southeast-1b,ecs.gn6e,X86\n"
        "ecs.gn6v-c8g1.2xlarge,V100,1,8,32,V100 16GB,3.663072,0.8514324,cn-beijing,cn-beijing-f,ecs.gn6v,X86\n"
        "ecs.vgn7i-vws-m24.7xlarge,A10*1,1,30,186,A10*1 24GB,2.15576659,0.29033471,cn-beijing,cn-beijing-i,ecs.vgn7i-vws,X86\n";
    const ImportResult r = import_skypilot_csv(text, {.file = "alicloud/vms.csv", .provider = "alibaba", .currency = "USD"});
    check_accounting(r);
    CHECK(r.offerings.size() == 6);
    // Line 4: one twelfth of an A10 (2 GB of its 24), not an A10: its unit is the share.
    const Offering& twelfth = find(r, "ap-northeast-1", "ecs.sgn7i-vws-m2.xlarge", "ap-northeast-1b");
    CHECK(twelfth.gpu == "A10/12");
    CHECK(twelfth.gpus_per_instance == 1);
    CHECK(twelfth.on_demand_hourly == 0.35840322);
    CHECK(twelfth.notes == "a 1/12 share of one A10 (the file writes \"A10*1/12\", AcceleratorCount 1): one unit is the share");
    CHECK(find(r, "ap-southeast-1", "ecs.sgn6i-vws-m8.4xlarge", "ap-southeast-1a").gpu == "T4/2");
    // Line 3: 2 GB of an RTX 5880 whose whole-card rows show 48 GB, written as one card: the share of the
    // card's compute is not in the file, so the row is reported, never kept as a whole card.
    CHECK(r.skipped_reasons.at("a slice of one RTX 5880 (2 GB of the 48 GB its whole-card rows show): its share of the "
                               "card is not in the file") == 1);
    CHECK(find(r, "ap-northeast-1", "ecs.sgn8ga-wy-128g-x1.16xlarge", "ap-northeast-1a").gpu == "RTX 5880");
    // V100 16 GB and 32 GB are two cards, not a card and its half.
    CHECK(find(r, "ap-southeast-1", "ecs.gn6e-c12g1.3xlarge", "ap-southeast-1b").gpu == "V100-32GB");
    CHECK(find(r, "cn-beijing", "ecs.gn6v-c8g1.2xlarge", "cn-beijing-f").gpu == "V100");
    CHECK(find(r, "cn-beijing", "ecs.vgn7i-vws-m24.7xlarge", "cn-beijing-i").gpu == "A10");  // "A10*1": one whole A10
}

TEST_CASE("SkyPilot CSV malformed input, to the letter") {
    const ImportOptions o{.file = "vms.csv", .provider = "aws"};
    CHECK_THROWS_WITH_AS(import_skypilot_csv("InstanceType,Price\np3.2xlarge,3.06\n", o),
                         "vms.csv:1 = \"InstanceType,Price\": header has no Region column", InvalidInput);
    CHECK_THROWS_WITH_AS(import_skypilot_csv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np3.2xlarge,V100,1,3.o6,us-east-1\n", o),
                         "vms.csv:2: Price = \"3.o6\": must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(import_skypilot_csv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np3.2xlarge,V100,1,3.06\n", o),
                         "vms.csv:2 = \"4 fields\": the header has 5", InvalidInput);
    CHECK_THROWS_WITH_AS(import_skypilot_csv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np3.2xlarge,V100,1.5,3.06,us-east-1\n", o),
                         "vms.csv:2: AcceleratorCount = \"1.5\": must be a whole number >= 1 and <= 1e6, or 1/n of one GPU (0.5, 0.333, 0.25, ...)", InvalidInput);
    // Beyond int: rejected by its range, not converted (that was undefined behaviour).
    CHECK_THROWS_WITH_AS(import_skypilot_csv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np3.2xlarge,V100,1e66,3.06,us-east-1\n", o),
                         "vms.csv:2: AcceleratorCount = \"1e66\": must be a whole number >= 1 and <= 1e6, or 1/n of one GPU (0.5, 0.333, 0.25, ...)", InvalidInput);
    // Count 0 is a CPU row only where no GPU is named (Nebius writes its CPU rows so).
    CHECK_THROWS_WITH_AS(import_skypilot_csv("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ngpu-x,H100,0,3.06,eu-north1\n", o),
                         "vms.csv:2: AcceleratorCount = \"0\": must be a whole number >= 1 and <= 1e6, or 1/n of one GPU (0.5, 0.333, 0.25, ...)", InvalidInput);
    const ImportResult cpu = import_skypilot_csv(
        "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\ncpu-d3_4vcpu-16gb,,0,0.0992,eu-north1\n"
        "gpu-h100-sxm_1gpu-16vcpu-200gb,H100,1,2.95,eu-north1\n",
        ImportOptions{.file = "vms.csv", .provider = "nebius"});
    CHECK(cpu.offerings.size() == 1);
    CHECK(cpu.skipped.at(0) == SkippedRow{"line 2", "no GPU"});
    CHECK_THROWS_WITH_AS(import_skypilot_csv("", o), "vms.csv = \"\": is empty (no header line)", InvalidInput);
    CHECK_THROWS_WITH_AS(import_skypilot_csv("a\n", ImportOptions{.file = "vms.csv"}),
                         "options.provider = \"\": must name the cloud of a SkyPilot vms.csv (aws, azure, gcp, lambda, alibaba, tencent)",
                         InvalidInput);
    // A second row of the same instance, region and zone: counted as a duplicate, the first kept.
    const ImportResult dup = import_skypilot_csv(
        "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np3.2xlarge,V100,1,3.06,us-east-1\np3.2xlarge,V100,1,9,us-east-1\n", o);
    CHECK(dup.offerings.size() == 1);
    CHECK(dup.offerings[0].on_demand_hourly == 3.06);
    CHECK(dup.skipped.at(0) == SkippedRow{"line 3", "duplicate of line 2 (aws/us-east-1/p3.2xlarge)"});
}

TEST_CASE("Azure Retail Prices: consumption, spot and reservations; the rest counted") {
    const ImportResult r = import_azure_retail_prices(data("azure_retail_prices_items_gpu_excerpt_2026-08-22.json"),
                                                      {.file = "azure_prices.json", .published = "2026-08-22"});
    check_accounting(r);
    CHECK(r.rows_read == 12);
    REQUIRE(r.offerings.size() == 3);
    // Standard_NC48ads_A100_v4 eastus2: Consumption 7.346; Reservation 1 Year 42066.0, 3 Years 71642.0 (whole term).
    const Offering& nc = find(r, "eastus2", "Standard_NC48ads_A100_v4");
    CHECK(nc.on_demand_hourly == 7.346);
    CHECK(nc.gpu == "A100-80GB-PCIe");
    CHECK(nc.gpus_per_instance == 2);
    CHECK(nc.reserved_price(1, Payment::all_upfront)->upfront == 42066.0);
    CHECK(nc.reserved_price(3, Payment::all_upfront)->upfront == 71642.0);
    // Paid monthly, the same total: 71642 / 26280 h = 2.72610... $/h.
    CHECK(nc.reserved_price(3, Payment::no_upfront)->hourly == doctest::Approx(71642.0 / 26280));
    CHECK(nc.reserved_price(3, Payment::all_upfront)->effective_hourly() == doctest::Approx(2.7261035));
    CHECK(nc.source.row == "/6");
    CHECK(nc.reserved_price(1, Payment::all_upfront)->source.row == "/7");
    // ND96isrH200v5 usgovvirginia: 106.0 per hour; 1 Year 509408.0.
    const Offering& h200 = find(r, "usgovvirginia", "Standard_ND96isr_H200_v5");
    CHECK(h200.on_demand_hourly == 106.0);
    CHECK(h200.gpu == "H200");
    CHECK(h200.reserved_price(1, Payment::all_upfront)->upfront == 509408.0);
    CHECK(r.skipped_reasons.at("Low Priority (batch tier)") == 1);
    CHECK(r.skipped_reasons.at("DevTest price") == 1);
    CHECK(r.skipped_reasons.count("operating system Windows (keeping linux)") == 1);
    // Item /5: "NV4as v4 Spot", usgovarizona, 0.053777 — an eighth of one MI25 (Azure's NVv4 size table),
    // sold here only as spot.
    const Offering& nv4 = find(r, "usgovarizona", "Standard_NV4as_v4");
    CHECK(nv4.gpu == "MI25/8");
    CHECK(nv4.gpus_per_instance == 1);
    CHECK(nv4.spot_only);
    CHECK(*nv4.spot_hourly == 0.053777);
    CHECK(r.skipped_count == 12 - 7);  // 7 items (3 each, and one) went into the three offerings
}

TEST_CASE("Azure: the other snapshot has a 10-year reservation and older H200 prices") {
    const ImportResult r = import_azure_retail_prices(data("azure_retail_prices_items_gpu_excerpt_2026-05-28.json"),
                                                      {.file = "azure_prices.json", .published = "2026-05-28"});
    check_accounting(r);
    CHECK(r.rows_read == 13);
    for (const Offering& o : r.offerings) CHECK(o.source.as_of == "2026-05-28");
}

TEST_CASE("Azure malformed input, to the letter") {
    const ImportOptions o{.file = "page.json"};
    CHECK_THROWS_WITH_AS(import_azure_retail_prices("{\"Items\": [{\"type\": \"Consumption\"", o),
                         "page.json:1:34 = \"syntax error while parsing object - unexpected end of input; expected '}'\": malformed JSON",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(import_azure_retail_prices("{\"Count\": 0}", o),
                         "page.json: /Items = (missing): required (an Azure Retail Prices page)", InvalidInput);
    std::string item = data("azure_retail_prices_items_gpu_excerpt_2026-08-22.json");
    const std::size_t at = item.find("\"retailPrice\": 3.63");
    REQUIRE(at != std::string::npos);
    item.replace(at, 19, "\"retailPrice\": true");
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(item, o), "page.json: /0/retailPrice = true: must be a number", InvalidInput);
    CHECK_THROWS_WITH_AS(import_azure_retail_prices("[{\"type\": 3}]", o), "page.json: /0/type = 3: must be a string", InvalidInput);
    std::string deep(100, '[');
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(deep, o),
                         "page.json = 65: nesting deeper than the limit of 64 (ImportOptions::max_depth)", InvalidInput);
    // A number beyond a double is the DOM parser's own finding: InvalidInput too, not its exception.
    const auto overflow = [&] { (void)import_azure_retail_prices("[{\"retailPrice\": 1e400}]", o); };
    CHECK_THROWS_AS(overflow(), InvalidInput);
    // 64 levels are within the limit (the 64th array's elements sit at depth 64).
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(std::string(64, '[') + std::string(64, ']'), o),
                         "page.json: /0 = [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[...: must be an object", InvalidInput);
}

TEST_CASE("AWS GetProducts: on-demand and all twelve Reserved terms of the Linux shared SKU") {
    const ImportResult r = import_aws_get_products(data("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json"),
                                                   {.file = "get-products.json", .include_cpu_instances = true});
    check_accounting(r);
    CHECK(r.rows_read == 15);
    REQUIRE(r.offerings.size() == 1);  // Linux, Shared, no pre-installed software; 14 other SKUs counted
    CHECK(r.skipped_count == 14);
    const Offering& m4 = r.offerings[0];
    CHECK(m4.region == "eu-west-1");  // "EU (Ireland)"
    CHECK(m4.instance_type == "m4.xlarge");
    CHECK(m4.on_demand_hourly == 0.222);
    CHECK(m4.source.as_of == "2019-01-16");
    CHECK(m4.source.row == "/PriceList/1");
    CHECK(m4.reserved.size() == 12);
    // 1yr standard partial upfront: upfront 631, hourly 0.072; 3yr standard all upfront 2470; 3yr convertible no upfront 0.1242.
    const ReservedPrice p = *m4.reserved_price(1, Payment::partial_upfront);
    CHECK(p.upfront == 631);
    CHECK(p.hourly == 0.072);
    CHECK(p.effective_hourly() == doctest::Approx(0.072 + 631.0 / 8760));
    CHECK(m4.reserved_price(3, Payment::all_upfront)->upfront == 2470);
    CHECK(m4.reserved_price(3, Payment::all_upfront)->hourly == 0);
    CHECK(m4.reserved_price(3, Payment::no_upfront, true)->hourly == 0.1242);
    CHECK(m4.reserved_price(3, Payment::no_upfront, true)->source.row == "/PriceList/1/terms/Reserved/6FU9JEK79WWSARQ9.Z2E3P23VKM");
    CHECK(m4.reserved_price(1, Payment::all_upfront, true)->upfront == 1422);
    // Without CPU instances nothing is kept, and every product is counted.
    const ImportResult gpu_only = import_aws_get_products(data("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json"), {});
    CHECK(gpu_only.offerings.empty());
    CHECK(gpu_only.skipped_reasons.at("no GPU") == 1);
}

TEST_CASE("AWS bulk offer file, streamed: products then their terms") {
    std::ifstream in(dir + "aws_offer_file_AmazonEC2_excerpt_2017-11-17_autoscaler_mock.json");
    const ImportResult r = import_aws_offer_file(in, {.file = "AmazonEC2.json", .include_cpu_instances = true});
    check_accounting(r);
    CHECK(r.rows_read == 6);
    REQUIRE(r.offerings.size() == 6);
    const Offering& m4 = find(r, "us-east-1", "m4.xlarge");  // "US East (N. Virginia)"
    CHECK(m4.on_demand_hourly == 0.2);
    CHECK(m4.source.as_of == "2017-11-17");
    CHECK(m4.source.row == "/products/47GP959QAF69YPG5");
    CHECK(find(r, "us-east-1", "m4.16xlarge").on_demand_hourly == 3.2);
}

TEST_CASE("AWS bulk offer file: GPU products, reserved terms, and malformed streams") {
    // A GPU product in the bulk layout (the reference has no GPU excerpt): p3.2xlarge with the
    // ec2instances.info 2017 prices, an on-demand and one Reserved term.
    const std::string text = R"json({"formatVersion":"v1.0","publicationDate":"2017-11-17T19:00:39Z",
      "products":{"ABC":{"sku":"ABC","productFamily":"Compute Instance","attributes":{"instanceType":"p3.2xlarge",
        "location":"US East (N. Virginia)","operatingSystem":"Linux","tenancy":"Shared","preInstalledSw":"NA"}},
        "WIN":{"sku":"WIN","productFamily":"Compute Instance","attributes":{"instanceType":"p3.2xlarge",
        "location":"US East (N. Virginia)","operatingSystem":"Windows","tenancy":"Shared"}}},
      "terms":{"OnDemand":{"ABC":{"ABC.JRTCKXETXF":{"priceDimensions":{"ABC.JRTCKXETXF.6YS6EN2CT7":{"unit":"Hrs",
        "pricePerUnit":{"USD":"3.0600000000"}}},"termAttributes":{}}}},
       "Reserved":{"ABC":{"ABC.HU7G6KETJZ":{"priceDimensions":{"ABC.HU7G6KETJZ.2TG2D8R56U":{"unit":"Quantity",
        "pricePerUnit":{"USD":"8764"}},"ABC.HU7G6KETJZ.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"USD":"1.0000000000"}}},
        "termAttributes":{"LeaseContractLength":"1yr","OfferingClass":"standard","PurchaseOption":"Partial Upfront"}}}}}})json";
    std::istringstream in(text);
    const ImportResult r = import_aws_offer_file(in, {.file = "offer.json"});
    REQUIRE(r.offerings.size() == 1);
    const Offering& p3 = r.offerings[0];
    CHECK(p3.gpu == "V100");
    CHECK(p3.gpus_per_instance == 1);
    CHECK(p3.on_demand_hourly == 3.06);
    CHECK(p3.reserved_price(1, Payment::partial_upfront)->upfront == 8764);
    CHECK(p3.reserved_price(1, Payment::partial_upfront)->hourly == 1.0);
    CHECK(r.skipped.at(0) == SkippedRow{"/products/WIN", "operating system Windows (keeping Linux)"});

    std::istringstream truncated(text.substr(0, 200));
    CHECK_THROWS_WITH_AS(import_aws_offer_file(truncated, {.file = "offer.json"}),
                         "offer.json:3:20 = \"syntax error while parsing value - unexpected end of input; expected '[', '{', or "
                         "a literal\": malformed JSON",
                         InvalidInput);
    std::string wrong = text;
    wrong.replace(wrong.find("\"3.0600000000\""), 14, "[3.06]");
    std::istringstream wrong_in(wrong);
    CHECK_THROWS_WITH_AS(import_aws_offer_file(wrong_in, {.file = "offer.json"}),
                         "offer.json: /terms/OnDemand/ABC/ABC.JRTCKXETXF/priceDimensions/ABC.JRTCKXETXF.6YS6EN2CT7/pricePerUnit/USD = "
                         "[3.06]: must be a number",
                         InvalidInput);
}

TEST_CASE("GCP Billing Catalog SKUs: A2 machines joined from core, RAM and GPU SKUs") {
    const ImportResult r = import_gcp_skus(data("gcp_billing_catalog_skus_excerpt_2023-03-24_opencost.json"), {.file = "skus.json"});
    check_accounting(r);
    CHECK(r.rows_read == 3);
    // a2-highgpu-1g: 12 vCPU x 0.031611 + 85 GiB x 0.004237 + 1 x 2.933908
    //              = 0.379332 + 0.360145 + 2.933908 = 3.673385 $/h (Cyclenerd's us-central1 figure).
    const Offering& a2 = find(r, "us-central1", "a2-highgpu-1g");
    CHECK(a2.on_demand_hourly == doctest::Approx(3.673385).epsilon(1e-12));
    CHECK(a2.gpu == "A100-40GB");
    CHECK(a2.source.as_of == "2023-03-24");
    CHECK(a2.source.row == "/skus/2+/skus/1+/skus/0");
    // 8g: 96 x 0.031611 + 680 x 0.004237 + 8 x 2.933908 = 3.034656 + 2.88116 + 23.471264 = 29.38708.
    CHECK(find(r, "us-west1", "a2-highgpu-8g").on_demand_hourly == doctest::Approx(29.38708).epsilon(1e-12));
    CHECK(r.offerings.size() == 3 * 5);  // a2-highgpu-1/2/4/8g and a2-megagpu-16g in 3 regions
    CHECK(r.skipped_count == 0);
    CHECK_THROWS_WITH_AS(import_gcp_skus("{\"skus\": [{\"description\": \"x\", \"category\": {\"resourceGroup\": \"GPU\", "
                                         "\"usageType\": \"OnDemand\"}}]}",
                                         {.file = "skus.json"}),
                         "skus.json: /skus/0/pricingInfo = (missing): required", InvalidInput);
}

TEST_CASE("Cyclenerd pricing.yml: on-demand, spot and 1- and 3-year commitments per region") {
    const ImportResult r = import_cyclenerd_pricing_yml(data("gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml"),
                                                        {.file = "pricing.yml"});
    check_accounting(r);
    CHECK(r.rows_read == 247);
    CHECK(r.offerings.size() == 247);
    const Offering& a2 = find(r, "us-central1", "a2-highgpu-1g");
    CHECK(a2.on_demand_hourly == 3.673385);
    CHECK(*a2.spot_hourly == 1.92802);
    CHECK(a2.gpu == "A100-40GB");
    // month_1y 1689.3711392 / 730 h = 2.31420704 $/h; month_3y 938.56707798 / 730 = 1.28570833 $/h.
    CHECK(a2.reserved_price(1, Payment::no_upfront)->hourly == doctest::Approx(1689.3711392 / 730));
    CHECK(a2.reserved_price(3, Payment::no_upfront)->hourly == doctest::Approx(1.28570833).epsilon(1e-8));
    CHECK(a2.source.as_of == "2026-07-30");  // about.timestamp 1785391997
    CHECK(a2.source.row == "/compute/instance/a2-highgpu-1g/cost/us-central1");
    CHECK(find(r, "us-east4", "a3-megagpu-8g").gpu == "H100");  // h100-80gb-mega: 8
    CHECK(find(r, "us-central1", "g2-standard-48").gpus_per_instance == 4);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("compute:\n  instance:\n    a2: [1, 2\n", {.file = "pricing.yml"}),
                         "pricing.yml:4:1 = \"end of sequence flow not found\": malformed YAML", InvalidInput);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("compute:\n  instance:\n    a2-highgpu-1g:\n      a100: 1\n      cost:\n"
                                                      "        us-central1:\n          hour: abc\n",
                                                      {.file = "pricing.yml"}),
                         "pricing.yml: /compute/instance/a2-highgpu-1g/cost/us-central1/hour = \"abc\": must be a number",
                         InvalidInput);
}

TEST_CASE("Cyclenerd pricing.yml of unexpected shapes: InvalidInput naming the place, never yaml-cpp's exception") {
    // Found by fuzz_importers (fuzz/findings/importers-cyclenerd-*): yaml-cpp threw its own exceptions
    // for operator[] on a scalar and for a list used as a key, and a huge timestamp or GPU count was
    // converted to an integer without a bound (undefined behaviour).
    const ImportOptions o{.file = "pricing.yml"};
    const std::string instance = "compute:\n  instance:\n    a2-highgpu-1g:\n";
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("5", o),
                         "pricing.yml: /compute/instance = \"(missing)\": required (a map of machine types)", InvalidInput);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("compute:\n  instance:\n    a2-highgpu-1g: 5\n", o),
                         "pricing.yml: /compute/instance/a2-highgpu-1g = \"5\": must be a mapping (the machine's specs and cost)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("compute:\n  instance:\n    [a, b]: {}\n", o),
                         "pricing.yml: /compute/instance = \"(a list)\": must be text (a mapping key)", InvalidInput);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml(instance + "      a100: 1\n      cost:\n        [x]: {hour: 1}\n", o),
                         "pricing.yml: /compute/instance/a2-highgpu-1g/cost = \"(a list)\": must be text (a mapping key)",
                         InvalidInput);
    // A region whose prices are a scalar has no hourly price: skipped and counted, not an exception.
    const ImportResult scalar_prices = import_cyclenerd_pricing_yml(instance + "      a100: 1\n      cost:\n        us-central1: 5\n", o);
    CHECK(scalar_prices.offerings.empty());
    CHECK(scalar_prices.skipped_reasons.at("no hourly, spot or commitment price") == 1);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("about:\n  timestamp: 1e300\n" + instance, o),
                         "pricing.yml: /about/timestamp = 1e+300: must be a Unix time in [0, 253402300799] (up to the year 9999)",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml(instance + "      a100: 1e10\n", o),
                         "pricing.yml: /compute/instance/a2-highgpu-1g/a100 = 10000000000: must be a whole number of GPUs in [0, 1024]",
                         InvalidInput);
    // ImportOptions::max_depth holds for YAML as for JSON (the root mapping is level 1): compute's
    // mapping is level 2, instance's {} level 3.
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("compute:\n  instance: {}\n", {.file = "pricing.yml", .max_depth = 1}),
                         "pricing.yml:2:3 = 2: levels of nesting: more than the limit of 1 (ImportOptions::max_depth)",
                         InvalidInput);
    CHECK(import_cyclenerd_pricing_yml("compute:\n  instance: {}\n", {.file = "pricing.yml", .max_depth = 3}).rows_read == 0);
}

TEST_CASE("ec2instances.info 2017: effective reserved rates of the p3 family") {
    const ImportResult r = import_ec2instances_json(data("ec2instances_info_instances_json_gpu_excerpt_2017-11-12.json"),
                                                    {.file = "instances.json", .published = "2017-11-12"});
    check_accounting(r);
    const Offering& p3 = find(r, "us-east-1", "p3.2xlarge");
    CHECK(p3.on_demand_hourly == 3.06);
    CHECK(p3.gpu == "V100");
    // yrTerm1Standard.allUpfront 1.949 $/h effective → upfront 1.949 x 8760 = 17073.24 $.
    CHECK(p3.reserved_price(1, Payment::all_upfront)->upfront == doctest::Approx(17073.24));
    CHECK(p3.reserved_price(3, Payment::no_upfront)->hourly == 1.332);
    CHECK(p3.reserved_price(3, Payment::partial_upfront)->hourly == 1.234);
    CHECK(p3.reserved_price(1, Payment::no_upfront, true)->hourly == 2.403);
    CHECK(p3.reserved.size() == 12);
    CHECK(p3.source.row == "/0/pricing/us-east-1/linux");
    CHECK(find(r, "us-east-1", "g3.4xlarge").gpu == "M60");
}

TEST_CASE("ec2instances.info 2025 record: spot average; CPU-only record counted") {
    const std::string text = data("ec2instances_info_instances_json_record_x2iedn.32xlarge_test_mock_2025-06.json");
    const ImportResult none = import_ec2instances_json(text, {.file = "instances.json"});
    CHECK(none.offerings.empty());
    CHECK(none.skipped.at(0) == SkippedRow{"/0", "no GPU"});
    const ImportResult r = import_ec2instances_json(text, {.file = "instances.json", .include_cpu_instances = true});
    const Offering& x = find(r, "us-east-1", "x2iedn.32xlarge");
    CHECK(x.on_demand_hourly == 26.676);
    CHECK(*x.spot_hourly == 6.669);
    CHECK(x.reserved_price(3, Payment::all_upfront)->upfront == doctest::Approx(7.447412 * 26280));
}

TEST_CASE("Round trip: import, write the catalog JSON, read it back, equal") {
    const ImportResult r = import_aws_get_products(data("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json"),
                                                   {.file = "get-products.json", .include_cpu_instances = true});
    const ImportResult sky = import_skypilot_csv(data("skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"),
                                                 {.file = "gcp/vms.csv", .published = "2026-04-02", .provider = "gcp"});
    std::vector<Offering> all = r.offerings;
    all.insert(all.end(), sky.offerings.begin(), sky.offerings.end());
    const Catalog catalog(Catalog::builtin().gpus(), all);
    const Catalog back = Catalog::from_json(catalog.to_json());
    CHECK(back == catalog);
    CHECK(back.offerings().front().reserved_price(3, Payment::no_upfront, true)->source.row ==
          "/PriceList/1/terms/Reserved/6FU9JEK79WWSARQ9.Z2E3P23VKM");
}

TEST_CASE("Limits: rows and bytes") {
    ImportOptions o{.file = "vms.csv", .provider = "lambda", .max_rows = 3};
    CHECK_THROWS_WITH_AS(import_skypilot_csv(data("skypilot_catalog_lambda_vms_excerpt_2026-04-02.csv"), o),
                         "vms.csv = 4: rows: more than the limit of 3 (ImportOptions::max_rows)", InvalidInput);
    ImportOptions b{.file = "p.json", .max_bytes = 10};
    CHECK_THROWS_WITH_AS(import_azure_retail_prices("[                 ]", b),
                         "p.json = 19: bytes: more than the limit of 10 (ImportOptions::max_bytes)", InvalidInput);
}

namespace {

/// A SkyPilot AWS vms.csv of `rows` distinct V100 instances.
std::string many_skypilot_rows(int rows) {
    std::string text = "InstanceType,AcceleratorName,AcceleratorCount,Price,Region\n";
    for (int i = 0; i < rows; ++i) text += "p3.x" + std::to_string(i) + ",V100,1,3.06,us-east-1\n";
    return text;
}

/// A should_stop that says stop at its n-th call, counting calls in `calls`.
StopCheck stop_at(int n, int& calls) {
    return [n, &calls] { return ++calls == n; };
}

}  // namespace

TEST_CASE("Cancellation: every 1,024 rows and 16,384 parser events; a stop throws Cancelled and returns nothing") {
    const std::string csv = many_skypilot_rows(5'000);
    int calls = 0;
    ImportOptions o{.file = "vms.csv", .provider = "aws"};
    o.should_stop = stop_at(3, calls);
    CHECK_THROWS_WITH_AS(import_skypilot_csv(csv, o), "importing vms.csv: stopped", Cancelled);
    CHECK(calls == 3);  // rows 1,024, 2,048 and 3,072

    // A check that never says stop changes nothing: 5,000 rows ask it 4 times.
    int asked = 0;
    o.should_stop = [&] { return ++asked < 0; };
    const ImportResult watched = import_skypilot_csv(csv, o);
    CHECK(asked == 4);
    o.should_stop = {};
    const ImportResult plain = import_skypilot_csv(csv, o);
    CHECK(watched.offerings.size() == 5'000);
    CHECK(watched.offerings == plain.offerings);

    // The JSON importers ask while parsing, before any row: an object holding an array of 40,000
    // numbers (no rows) is over 40,000 parser events, so a check that says stop at once stops each
    // of them in the parser.
    std::string numbers = R"({"x": [0)";
    for (int i = 1; i < 40'000; ++i) numbers += ",0";
    numbers += "]}";
    using Importer = ImportResult (*)(std::string_view, const ImportOptions&);
    for (const Importer importer : {Importer(import_azure_retail_prices), Importer(import_aws_get_products),
                                    Importer(import_gcp_skus), Importer(import_ec2instances_json)}) {
        int n = 0;
        const ImportOptions j{.file = "big.json", .should_stop = stop_at(1, n)};
        CHECK_THROWS_WITH_AS(importer(numbers, j), "importing big.json: stopped", Cancelled);
        CHECK(n == 1);
    }
    // The AWS offer file, streamed: 2,000 products (CPU-only, skipped) are 2 checks by rows or events.
    std::string offer = R"({"formatVersion":"v1.0","products":{)";
    for (int i = 0; i < 2'000; ++i) {
        offer += fmt::format(R"j({1}"S{0}":{{"sku":"S{0}","productFamily":"Compute Instance",)j"
                                              R"j("attributes":{{"instanceType":"m4.x{0}","location":"US East (N. Virginia)",)j"
                                              R"j("operatingSystem":"Linux","tenancy":"Shared","preInstalledSw":"NA"}}}})j",
                                              i, i ? "," : "");
    }
    offer += R"(},"terms":{}})";
    std::istringstream whole(offer);
    int offer_calls = 0;
    const ImportResult skipped = import_aws_offer_file(whole, {.file = "offer.json", .should_stop = [&] { return ++offer_calls < 0; }});
    CHECK(skipped.rows_read == 2'000);
    CHECK(offer_calls >= 2);
    std::istringstream stopped(offer);
    int offer_stop = 0;
    CHECK_THROWS_WITH_AS(import_aws_offer_file(stopped, {.file = "offer.json", .should_stop = stop_at(2, offer_stop)}),
                         "importing offer.json: stopped", Cancelled);
    CHECK(offer_stop == 2);
}

TEST_CASE("read_text_file: the size is checked before reading (sparse files, nothing written)") {
    namespace fs = std::filesystem;
    const fs::path path = fs::temp_directory_path() / fmt::format("gputco_sparse_{}.csv", std::random_device{}());
    { std::ofstream(path) << "Date,USD\n"; }
    CHECK(read_text_file(path.string()) == "Date,USD\n");
    CHECK(read_text_file(path.string(), 9) == "Date,USD\n");
    CHECK_THROWS_WITH_AS(read_text_file(path.string(), 8), fmt::format("{} = 9: bytes: more than the limit of 8 (max_bytes)", path.string()).c_str(),
                         InvalidInput);
    // One byte over the importers' default limit of 4 GiB: a sparse file, so no disk or memory is used;
    // reading first and checking after would allocate 4 GiB.
    const std::size_t limit = ImportOptions{}.max_bytes;
    fs::resize_file(path, limit + 1);
    CHECK_THROWS_WITH_AS(read_text_file(path.string()),
                         fmt::format("{} = {}: bytes: more than the limit of {} (max_bytes)", path.string(), limit + 1, limit).c_str(),
                         InvalidInput);
    fs::remove(path);
    CHECK_THROWS_WITH_AS(read_text_file(path.string()),
                         fmt::format("path = \"{}\": cannot be opened for reading: No such file or directory", path.string()).c_str(),
                         InvalidInput);
}

TEST_CASE("a folder or a missing file is an error naming it, never the standard library's exception") {
    // A folder opens; its first read threw "basic_filebuf::underflow error reading the file" out of
    // the AWS offer reader.
    namespace fs = std::filesystem;
    const std::string folder = fs::temp_directory_path().string();
    const std::string is_folder = fmt::format("path = \"{}\": is a directory, not a file", folder);
    CHECK_THROWS_WITH_AS(read_text_file(folder), is_folder.c_str(), InvalidInput);
    CHECK_THROWS_WITH_AS(import_aws_offer_file(folder, {}), is_folder.c_str(), InvalidInput);
    CHECK_THROWS_WITH_AS(import_aws_offer_file(std::string("/no/such/offer.json"), {}),
                         "path = \"/no/such/offer.json\": cannot be opened for reading: No such file or directory", InvalidInput);
}

TEST_CASE("an endless input is read up to the size limit, then refused in the limit's words") {
    // /dev/zero has no size to check first: read in chunks, it stops one chunk past the limit instead
    // of growing a string until std::bad_alloc.
    if (!std::filesystem::exists("/dev/zero")) return;
    CHECK_THROWS_WITH_AS(read_text_file("/dev/zero", 1 << 20), "/dev/zero = 1114112: bytes: more than the limit of 1048576 (max_bytes)",
                         InvalidInput);
    // The streamed AWS offer file, too, at its own limit: endless white space.
    std::istringstream spaces(std::string(3 << 20, ' '));
    CHECK_THROWS_WITH_AS(import_aws_offer_file(spaces, {.file = "offer.json", .max_streamed_bytes = 1 << 20}),
                         "offer.json = 1048577: bytes: more than the limit of 1048576 (ImportOptions::max_streamed_bytes)",
                         InvalidInput);
    // No limit at all (the largest size_t) reads to the end.
    std::istringstream small(R"({"products": {}, "terms": {}})");
    CHECK(import_aws_offer_file(small, {.max_streamed_bytes = std::numeric_limits<std::size_t>::max()}).rows_read == 0);
    std::ifstream zero("/dev/zero", std::ios::binary);
    CHECK_THROWS_WITH_AS(import_aws_offer_file(zero, {.file = "/dev/zero"}), doctest::Contains("/dev/zero:1:1"), InvalidInput);
}

TEST_CASE("every JSON reader refuses a top level that is a single value, and a key twice in one object") {
    // An Azure Retail Prices file whose top level was null imported as zero rows.
    const ImportOptions o{.file = "f.json"};
    const std::string single = "f.json: / = (a single value): the top level must be an object or an array";
    for (const std::string text : {"null", "  null", "5", "\"Items\"", "true"}) {
        CAPTURE(text);
        CHECK_THROWS_WITH_AS(import_azure_retail_prices(text, o), single.c_str(), InvalidInput);
        CHECK_THROWS_WITH_AS(import_aws_get_products(text, o), single.c_str(), InvalidInput);
        CHECK_THROWS_WITH_AS(import_gcp_skus(text, o), single.c_str(), InvalidInput);
        CHECK_THROWS_WITH_AS(import_ec2instances_json(text, o), single.c_str(), InvalidInput);
        std::istringstream in(text);
        CHECK_THROWS_WITH_AS(import_aws_offer_file(in, o), single.c_str(), InvalidInput);
    }
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(R"({"Items": null, "Count": 0})", o),
                         "f.json: /Items = null: must be an array", InvalidInput);
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(R"({"Items": 7})", o), "f.json: /Items = 7: must be an array", InvalidInput);
    const std::string twice = "f.json: key = \"Items\": appears twice in one object";
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(R"({"Items": [], "Items": []})", o), twice.c_str(), InvalidInput);
    CHECK_THROWS_WITH_AS(import_gcp_skus(R"({"skus": [{"a": 1, "a": 2}]})", o),
                         "f.json: key = \"a\": appears twice in one object", InvalidInput);
    CHECK_THROWS_WITH_AS(import_ec2instances_json(R"([{"GPU": 1, "GPU": 2}])", o),
                         "f.json: key = \"GPU\": appears twice in one object", InvalidInput);
    CHECK_THROWS_WITH_AS(import_aws_get_products(R"({"PriceList": [], "PriceList": []})", o),
                         "f.json: key = \"PriceList\": appears twice in one object", InvalidInput);
    std::istringstream offer(R"({"products": {}, "terms": {}, "products": {}})");
    CHECK_THROWS_WITH_AS(import_aws_offer_file(offer, o), "f.json: key = \"products\": appears twice in one object", InvalidInput);
    // Equal keys in different objects are fine.
    CHECK(import_azure_retail_prices(R"({"Items": [], "Count": 0, "x": {"Count": 1}})", o).offerings.empty());
}

TEST_CASE("Cyclenerd pricing.yml: a key twice in one mapping and an alias bomb are refused") {
    const ImportOptions o{.file = "pricing.yml"};
    // The loaded tree keeps both copies; reading found the first and imported silently.
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml("compute:\n  instance: {}\ncompute: {}\n", o),
                         "pricing.yml:3:1: key = \"compute\": appears twice in one mapping (first at line 1)", InvalidInput);
    // "Billion laughs": 9 levels of 10 aliases each stand for 10^9 nodes in a file of 1 KB; reading them
    // ran past 20 s. The check stops at the node that passes the limit, counting without expanding.
    std::string bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
    for (int level = 1; level <= 9; ++level) {
        bomb += fmt::format("a{}: &a{} [", level, level);
        for (int k = 0; k < 10; ++k) bomb += fmt::format("{}*a{}", k ? ", " : "", level - 1);
        bomb += "]\n";
    }
    bomb += "compute: {instance: {}}\n";
    CHECK_THROWS_WITH_AS(import_cyclenerd_pricing_yml(bomb, o),
                         "pricing.yml:7:45: yaml nodes = 10123463: more than the limit of 10000000 with aliases expanded",
                         InvalidInput);
    // Aliases well within the limit are read as before.
    CHECK_NOTHROW(import_cyclenerd_pricing_yml("base: &b {hour: 1}\ncompute: {instance: {}}\nother: *b\n", o));
}

TEST_CASE("Messages that quote the file in their rule are printable: control bytes as \\xNN") {
    // Two prices of one size and region in different currencies: the rule quotes the first item's
    // currency and the region, here with a BEL and a NUL (a NUL would end what()).
    const std::string item = R"({"currencyCode": "%s", "retailPrice": 1.0, "armRegionName": "east\u0000us",
        "armSkuName": "Standard_NC80adis_H100_v5", "skuName": "NC80adis H100 v5", "meterName": "NC80adis H100 v5",
        "productName": "Virtual Machines NCadsH100v5 Series", "serviceName": "Virtual Machines",
        "unitOfMeasure": "1 Hour", "type": "Consumption"})";
    const auto with = [&](std::string_view currency) {
        std::string s = item;
        s.replace(s.find("%s"), 2, currency);
        return s;
    };
    const std::string page = fmt::format("[{},{}]", with(R"(U\u0007D)"), with("USD"));
    CHECK_THROWS_WITH_AS(import_azure_retail_prices(page, {.file = "page.json"}),
                         "page.json: /1/currencyCode = \"USD\": differs from an earlier item of Standard_NC80adis_H100_v5 "
                         "in east\\x00us (U\\x07D)",
                         InvalidInput);
}

TEST_CASE("SkyPilot: a share of one GPU is an offering of its own unit, never a whole GPU") {
    // The layout of SkyPilot-format azure/vms.csv; Azure's NV A10 v5 sizes rent 1/6, 1/3 and 1/2 of an
    // A10 (24 GB), written 0.167, 0.333 and 0.5 with the share's memory in GpuInfo.
    const std::string csv =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation\n"
        "Standard_NV12ads_A10_v5,A10,0.333,12,110,\"{'Gpus': [{'Name': 'A10', 'Count': 0.333, 'MemoryInfo': {'SizeInMiB': 8192}}]}\",0.908,0.1816,eastus,V2\n"
        "Standard_NV6ads_A10_v5,A10,0.167,6,55,,0.454,,eastus,V2\n"
        "Standard_NV36ads_A10_v5,A10,1,36,440,,3.2,0.64,eastus,V2\n"
        "Standard_NVx_A10,A10,0.4,6,55,,0.5,,eastus,V2\n";
    CHECK_THROWS_WITH_AS(import_skypilot_csv(csv, {.file = "azure/vms.csv", .provider = "azure"}),
                         "azure/vms.csv:5: AcceleratorCount = \"0.4\": must be a whole number >= 1 and <= 1e6, or 1/n of one GPU "
                         "(0.5, 0.333, 0.25, ...)",
                         InvalidInput);
    const std::string good = csv.substr(0, csv.rfind("Standard_NVx"));
    const ImportResult r = import_skypilot_csv(good, {.file = "azure/vms.csv", .published = "2026-04-02", .provider = "azure"});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 3);
    const Offering& third = find(r, "eastus", "Standard_NV12ads_A10_v5");
    CHECK(third.gpu == "A10/3");
    CHECK(third.gpus_per_instance == 1);
    CHECK(third.on_demand_per_gpu_hour() == 0.908);  // per share-hour: the unit is the share
    CHECK(*third.spot_hourly == 0.1816);
    CHECK(third.notes == "a 1/3 share of one A10 (AcceleratorCount 0.333): one unit is the share");
    CHECK(find(r, "eastus", "Standard_NV6ads_A10_v5").gpu == "A10/6");
    CHECK(find(r, "eastus", "Standard_NV36ads_A10_v5").gpu == "A10");
    const auto share = parse_gpu_share("A10/3");
    REQUIRE(share);
    CHECK(share->card == "A10");
    CHECK(share->share_of == 3);
    CHECK_FALSE(parse_gpu_share("A100-80GB"));
    CHECK_FALSE(parse_gpu_share("x/1"));
}

TEST_CASE("SkyPilot Azure NVv4: the file writes one whole MI25 for every size; the share is Azure's size table's") {
    // anycloud-sh/catalog azure/vms.csv (62ff0a9, 2026-05-20) lines 56546, 56648, 56333, 56425 (eastus), then
    // two sizes of the family that Microsoft's NVv4 table does not list (made up here: an unknown size must
    // never be taken for a whole card or given a share it may not have).
    const std::string csv =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,Generation\n"
        "Standard_NV4as_v4,MI25,1,4,14,MI25,0.233,0.043058,eastus,V1\n"
        "Standard_NV8as_v4,MI25,1,8,28,MI25,0.466,0.086117,eastus,V1\n"
        "Standard_NV16as_v4,MI25,1,16,56,MI25,0.932,0.172234,eastus,V1\n"
        "Standard_NV32as_v4,MI25,1,32,112,MI25,1.864,0.344467,eastus,V1\n"
        "Standard_NV2as_v4,MI25,1,2,7,MI25,0.117,,eastus,V1\n"
        "Standard_NV64as_v4,MI25,1,64,224,MI25,3.728,,eastus,V1\n";
    const ImportResult r = import_skypilot_csv(csv, {.file = "azure/vms.csv", .published = "2026-05-20", .provider = "azure"});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 4);
    const Offering& eighth = find(r, "eastus", "Standard_NV4as_v4");
    CHECK(eighth.gpu == "MI25/8");
    CHECK(eighth.gpus_per_instance == 1);
    CHECK(eighth.on_demand_hourly == 0.233);
    CHECK(*eighth.spot_hourly == 0.043058);
    CHECK(eighth.notes == "a 1/8 share of one MI25 (the provider's size table; the file writes 1 x MI25): one unit is the share");
    CHECK(find(r, "eastus", "Standard_NV8as_v4").gpu == "MI25/4");
    CHECK(find(r, "eastus", "Standard_NV16as_v4").gpu == "MI25/2");
    const Offering& whole = find(r, "eastus", "Standard_NV32as_v4");
    CHECK(whole.gpu == "MI25");
    CHECK(whole.gpus_per_instance == 1);
    CHECK(whole.notes.empty());
    // Azure prices the shares in proportion: 8 x 0.233 = 4 x 0.466 = 2 x 0.932 = 1.864, the whole card's price.
    for (const char* size : {"Standard_NV4as_v4", "Standard_NV8as_v4", "Standard_NV16as_v4"}) {
        CAPTURE(size);
        const Offering& o = find(r, "eastus", size);
        CHECK(o.on_demand_hourly / gpu_fraction(o.gpu) == doctest::Approx(whole.on_demand_hourly));
    }
    // The sizes the table does not know are reported with their reason, never kept.
    CHECK(r.skipped == std::vector<SkippedRow>{
                           {"line 6", "Standard_NV2as_v4 is of a family that rents shares of one GPU and is not in the provider's "
                                      "size table (gpu_names.hpp): the file writes 1 x MI25, its share is unknown"},
                           {"line 7", "Standard_NV64as_v4 is of a family that rents shares of one GPU and is not in the provider's "
                                      "size table (gpu_names.hpp): the file writes 1 x MI25, its share is unknown"}});
    CHECK(sold_in_shares("azure", "Standard_NV2as_v4"));
    CHECK_FALSE(sold_in_shares("azure", "Standard_NV36ads_A10_v5"));  // its shares are written in the files
    CHECK_FALSE(sold_in_shares("azure", "Standard_D4as_v4"));
    CHECK(normalise_gpu_name("AMD Radeon Instinct MI25") == "MI25");
}

TEST_CASE("ec2instances.info: G6f and Gr6f rent a share of one L4, from the AWS table whatever GPU count the file writes") {
    // tsaol/aws-gpu data/all_gpu_instances.js (7412fd2, 2026-01-21) records /51 and /61 in us-east-1 (gpuCount
    // 0.125 and 0.5 there), re-shaped as the extract script does, plus a GPU field as ec2instances.info
    // writes it and a size of the family the table does not know (made up here).
    const std::string text = R"([
      {"instance_type": "g6f.large", "pricing": {"us-east-1": {"linux": {"ondemand": "0.202"}}}},
      {"instance_type": "gr6f.4xlarge", "GPU": 0.5, "GPU_model": "NVIDIA L40", "pricing": {"us-east-1": {"linux": {"ondemand": "1.066"}}}},
      {"instance_type": "g6f.8xlarge", "GPU": 1, "pricing": {"us-east-1": {"linux": {"ondemand": "3.8"}}}}
    ])";
    const ImportResult r = import_ec2instances_json(text, {.file = "instances.json"});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 2);
    const Offering& large = find(r, "us-east-1", "g6f.large");
    CHECK(large.gpu == "L4/8");
    CHECK(large.gpus_per_instance == 1);
    CHECK(large.on_demand_hourly == 0.202);
    CHECK(large.notes == "a 1/8 share of one L4 (the AWS table's share): one unit is the share");
    // Per L4-hour: 0.202 x 8 = 1.616 $/h.
    CHECK(large.on_demand_hourly / gpu_fraction(large.gpu) == doctest::Approx(1.616));
    const Offering& gr6f = find(r, "us-east-1", "gr6f.4xlarge");
    CHECK(gr6f.gpu == "L4/2");  // not the file's "NVIDIA L40", not a whole GPU
    CHECK(gr6f.notes == "a 1/2 share of one L4 (the AWS table's share; the file writes GPU 0.5): one unit is the share");
    CHECK(r.skipped == std::vector<SkippedRow>{{"/2", "g6f.8xlarge is of a family that rents shares of one GPU and is not in "
                                                      "the AWS table (gpu_names.hpp): its share is unknown"}});
    CHECK(instance_gpus("aws", "g6f.2xlarge")->gpu == "L4/4");
    CHECK(instance_gpus("aws", "g6f.4xlarge")->gpu == "L4/2");
    CHECK(instance_gpus("aws", "g6f.xlarge")->count == 1);
    CHECK_FALSE(instance_gpus("aws", "g6f.8xlarge"));
    // The AWS offer file (Price List API): the same table, and the same report for an unknown size of the
    // family (its "gpu" attribute is not taken for a whole card). Prices made up, in that file's layout.
    const std::string offer = R"json({"formatVersion":"v1.0","publicationDate":"2026-01-21T00:00:00Z",
      "products":{
        "A":{"sku":"A","productFamily":"Compute Instance","attributes":{"instanceType":"g6f.large","gpu":"0.125",
          "location":"US East (N. Virginia)","operatingSystem":"Linux","tenancy":"Shared","preInstalledSw":"NA"}},
        "B":{"sku":"B","productFamily":"Compute Instance","attributes":{"instanceType":"g6f.8xlarge","gpu":"1",
          "location":"US East (N. Virginia)","operatingSystem":"Linux","tenancy":"Shared","preInstalledSw":"NA"}}},
      "terms":{"OnDemand":{
        "A":{"A.JRTCKXETXF":{"priceDimensions":{"A.JRTCKXETXF.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"USD":"0.202"}}},"termAttributes":{}}},
        "B":{"B.JRTCKXETXF":{"priceDimensions":{"B.JRTCKXETXF.6YS6EN2CT7":{"unit":"Hrs","pricePerUnit":{"USD":"3.8"}}},"termAttributes":{}}}}}})json";
    std::istringstream in(offer);
    const ImportResult from_offer = import_aws_offer_file(in, {.file = "offer.json"});
    check_accounting(from_offer);
    REQUIRE(from_offer.offerings.size() == 1);
    CHECK(from_offer.offerings[0].gpu == "L4/8");
    CHECK(from_offer.offerings[0].gpus_per_instance == 1);
    CHECK(from_offer.offerings[0].on_demand_hourly == 0.202);
    CHECK(from_offer.skipped_reasons.at("g6f.8xlarge is of a family that rents shares of one GPU and is not in the AWS "
                                        "table (gpu_names.hpp): its share is unknown") == 1);
    // Still not placed: g4ad (Radeon Pro V520) and g5g (T4G) have no spec at hand.
    CHECK_FALSE(instance_gpus("aws", "g4ad.xlarge"));
    CHECK_FALSE(instance_gpus("aws", "g5g.xlarge"));
}

TEST_CASE("SkyPilot GCP: every accelerator-optimised family joins its GPU row (a3 1/2/4/8, edge, ultra; a4; g4)") {
    // Host rows without accelerator plus GPU rows without instance type, as skypilot's gcp/vms.csv.
    const std::string csv =
        "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n"
        "a3-highgpu-1g,26,234,,,,us-central1,us-central1-a,1.0,0.5\n"            // 2
        "a3-highgpu-2g,52,468,,,,us-central1,us-central1-a,2.0,1.0\n"            // 3
        "a3-ultragpu-8g,224,2952,,,,us-central1,us-central1-a,8.0,4.0\n"         // 4
        "a4-highgpu-8g,224,3968,,,,us-central1,us-central1-a,9.0,4.5\n"          // 5
        "g4-standard-48,48,180,,,,us-central1,us-central1-a,1.5,0.7\n"           // 6
        "a3-edgegpu-8g,208,1872,,,,us-central1,us-central1-a,7.0,\n"             // 7
        ",,,H100,1,,us-central1,us-central1-a,10.0,6.0\n"                        // 8
        ",,,H100,2,,us-central1,us-central1-a,20.0,12.0\n"                       // 9
        ",,,H200,8,,us-central1,us-central1-a,80.0,40.0\n"                       // 10
        ",,,B200,8,,us-central1,us-central1-a,90.0,30.0\n"                       // 11
        ",,,RTXPRO6000,1,,us-central1,us-central1-a,3.0,1.0\n"                   // 12
        ",,,H100,8,,us-central1,us-central1-a,80.0,48.0\n";                      // 13
    const ImportResult r = import_skypilot_csv(csv, {.file = "gcp/vms.csv", .published = "2026-04-02", .provider = "gcp"});
    check_accounting(r);
    CHECK(r.skipped_count == 0);
    CHECK(find(r, "us-central1", "a3-highgpu-1g", "us-central1-a").on_demand_hourly == 11.0);
    CHECK(find(r, "us-central1", "a3-highgpu-2g", "us-central1-a").gpus_per_instance == 2);
    const Offering& ultra = find(r, "us-central1", "a3-ultragpu-8g", "us-central1-a");
    CHECK(ultra.gpu == "H200");
    CHECK(ultra.on_demand_hourly == 88.0);
    CHECK(ultra.source.row == "lines 4+10");
    CHECK(find(r, "us-central1", "a4-highgpu-8g", "us-central1-a").gpu == "B200");
    CHECK(find(r, "us-central1", "g4-standard-48", "us-central1-a").gpu == "RTX-PRO-6000");
    CHECK(find(r, "us-central1", "a3-edgegpu-8g", "us-central1-a").gpu == "H100");
    CHECK_FALSE(find(r, "us-central1", "a3-edgegpu-8g", "us-central1-a").spot_hourly);  // host row has no spot
}

TEST_CASE("Cyclenerd pricing.yml: a family whose GPU key is new (g4) joins through the machine-type table") {
    const ImportResult r = import_cyclenerd_pricing_yml(
        "compute:\n  instance:\n    g4-standard-96:\n      cpu: 96\n      ram: 360\n      nvidia-rtx-pro-6000-vws: 2\n"
        "      cost:\n        us-central1:\n          hour: 9.5\n          hour_spot: 3.1\n"
        "    a4-highgpu-8g:\n      cpu: 224\n      ram: 3968\n      cost:\n        us-central1:\n          hour: 90.2\n",
        {.file = "pricing.yml"});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 2);
    const Offering& g4 = find(r, "us-central1", "g4-standard-96");
    CHECK(g4.gpu == "RTX-PRO-6000");
    CHECK(g4.gpus_per_instance == 2);
    CHECK(find(r, "us-central1", "a4-highgpu-8g").gpu == "B200");
    CHECK(find(r, "us-central1", "a4-highgpu-8g").gpus_per_instance == 8);
}

TEST_CASE("GPU names of 2026: each card its own name") {
    CHECK(normalise_gpu_name("H100 PCIe") == "H100-PCIe");
    CHECK(normalise_gpu_name("H100 NVL") == "H100-NVL");
    // Hyperstack's PCIe cards joined by NVLink bridges (80 GB) are PCIe cards, not the 94 GB NVL.
    CHECK(normalise_gpu_name("H100-80G-PCIe-NVLink", 80) == "H100-PCIe");
    CHECK(normalise_gpu_name("A100-80G-PCIe-NVLink", 80) == "A100-80GB-PCIe");
    CHECK(normalise_gpu_name("H100-80G-SXM5", 80) == "H100");
    // RunPod's plain "A100-80GB" and "H100" types are the PCIe cards (its SXM and NVL types are named so).
    CHECK(instance_gpus("runpod", "8x_A100-80GB_SECURE")->gpu == "A100-80GB-PCIe");
    CHECK(instance_gpus("runpod", "8x_A100-80GB_SECURE")->count == 8);
    CHECK(instance_gpus("runpod", "2x_H100_COMMUNITY")->gpu == "H100-PCIe");
    CHECK_FALSE(instance_gpus("runpod", "1x_H100-SXM_SECURE"));
    CHECK_FALSE(instance_gpus("runpod", "x_H100_SECURE"));
    CHECK_FALSE(instance_gpus("runpod", "cpu3c-2-4"));
    CHECK(normalise_gpu_name("H100-SXM") == "H100");
    CHECK(normalise_gpu_name("NVIDIA B200") == "B200");
    CHECK(normalise_gpu_name("B300") == "B300");
    CHECK(normalise_gpu_name("GB200") == "GB200");
    CHECK(normalise_gpu_name("RTX PRO 6000") == "RTX-PRO-6000");
    CHECK(normalise_gpu_name("RTXPRO6000") == "RTX-PRO-6000");
    CHECK(normalise_gpu_name("AMD Instinct MI325X") == "MI325X");
    CHECK(normalise_gpu_name("L40S") == "L40S");
    // Quadro RTX 6000 (Turing): a third card, neither the RTX 6000 Ada nor the RTX PRO 6000.
    CHECK(normalise_gpu_name("RTX 6000") == "Quadro-RTX-6000");
    CHECK(normalise_gpu_name("RTX 6000 Ada") == "RTX-6000-Ada");
    CHECK(instance_gpus("aws", "p5.4xlarge")->count == 1);
    CHECK(instance_gpus("aws", "p6-b200.48xlarge")->gpu == "B200");
    CHECK(instance_gpus("azure", "Standard_ND96isr_MI300X_v5")->count == 8);
    CHECK(instance_gpus("gcp", "a4x-highgpu-4g")->gpu == "GB200");
}

TEST_CASE("ec2instances.info older layouts: no GPU field, an operating system's price as a bare string") {
    // The 2017-11-12 excerpt's p3.2xlarge record cut down to what older files held: no "GPU" key and
    // "linux": "<on-demand price>" in place of {"ondemand": ..., "reserved": ...}.
    const std::string text = R"([
      {"instance_type": "p3.2xlarge", "pricing": {"us-east-1": {"linux": "3.06", "mswin": "3.584"}}},
      {"instance_type": "g2.2xlarge", "pricing": {"us-east-1": {"linux": "0.65"}}},
      {"instance_type": "p3.8xlarge", "pricing": {"us-east-1": {"linux": {"ondemand": "12.24"}}}}
    ])";
    const ImportResult r = import_ec2instances_json(text, {.file = "instances.json", .published = "2017-10-01"});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 2);
    const Offering& p3 = find(r, "us-east-1", "p3.2xlarge");
    CHECK(p3.gpu == "V100");
    CHECK(p3.gpus_per_instance == 1);  // from the AWS GPU table, the file has no GPU field
    CHECK(p3.on_demand_hourly == 3.06);
    CHECK(p3.source.row == "/0/pricing/us-east-1/linux");
    CHECK(find(r, "us-east-1", "p3.8xlarge").gpus_per_instance == 4);
    // g2 (GRID K520) is not in the table: reported under its own reason, never as a CPU instance.
    CHECK(r.skipped_reasons.at("no GPU field, and not a GPU type of the AWS table (gpu_names.hpp)") == 1);
    CHECK(r.skipped_reasons.count("no GPU") == 0);
    CHECK_THROWS_WITH_AS(
        import_ec2instances_json(R"([{"instance_type": "p3.2xlarge", "pricing": {"us-east-1": {"linux": "x"}}}])",
                                 {.file = "instances.json"}),
        "instances.json: /0/pricing/us-east-1/linux = \"x\": must be a number", InvalidInput);
}

// ------------------------------------------------------------------------------------------------
// Rows sold one way only: kept as spot_only / reservation_only offerings, never priced at 0.
// ------------------------------------------------------------------------------------------------

TEST_CASE("Azure: a size the file sells only through a reservation is kept, reservation_only") {
    const ImportResult r = import_azure_retail_prices(data("azure_retail_prices_items_gpu_excerpt_2026-05-28.json"),
                                                      {.file = "azure_prices.json", .published = "2026-05-28"});
    check_accounting(r);
    // Item /12: Reservation, Standard_ND96isr_H200_v5, italynorth, 9657000.0 for "10 Years"; no Consumption item.
    const Offering& h200 = find(r, "italynorth", "Standard_ND96isr_H200_v5");
    CHECK(h200.reservation_only);
    CHECK_FALSE(h200.spot_only);
    CHECK_FALSE(h200.sells_on_demand());
    CHECK(h200.on_demand_hourly == 0);
    CHECK(h200.gpu == "H200");
    CHECK(h200.gpus_per_instance == 8);
    CHECK(h200.source.row == "/12");
    CHECK(h200.reserved_price(10, Payment::all_upfront)->upfront == 9657000.0);
    CHECK(h200.reserved_price(10, Payment::no_upfront)->hourly == doctest::Approx(9657000.0 / (10 * 8760)));
    CHECK(h200.notes.starts_with("reservation only: the file lists reservation or commitment prices and no on-demand one"));
    CHECK(r.skipped_count == 5);  // the reason "no pay-as-you-go price" is gone: the row is placed
    // Item /5, NV4as v4 Spot: an eighth of one MI25 (Azure's NVv4 size table), placed since the table has it.
    CHECK(r.report("azure_prices.json") ==
          "azure_prices.json: 13 rows read, 4 offerings, 5 rows skipped (1 x DevTest price; 1 x Low Priority (batch "
          "tier); 1 x no GPU (whole or share) known for size Standard_NC320lds_xl_RTXPRO6000BSE_v6; 1 x no GPU (whole or "
          "share) known for size Standard_ND96ams_A100_v4; 1 x operating system Windows (keeping linux)); kept: 2 on "
          "demand, 1 reservation only, 1 spot only");
    const std::map<std::string, std::size_t> kept{{"on demand", 2}, {"reservation only", 1}, {"spot only", 1}};
    CHECK(r.kept_by_way() == kept);
    // The catalog reads it back as it was written.
    const Catalog c = r.catalog();
    CHECK(Catalog::from_json(c.to_json()) == c);
}

TEST_CASE("Azure: a size with only a spot item is kept spot_only; a spot item beside reservations is reported") {
    // The 2026-08-22 excerpt's items /6 (Consumption), /7 and /8 (Reservation) of NC48ads_A100_v4, re-read
    // without the Consumption item, plus a spot meter of the same size.
    const std::string item6 = R"({"currencyCode":"USD","retailPrice":7.346,"armRegionName":"eastus2","meterName":"NC48ads_A100_v4",
      "productName":"Virtual Machines NCads A100 v4 Series Linux","skuName":"Standard_NC48ads_A100_v4","serviceName":"Virtual Machines",
      "unitOfMeasure":"1 Hour","type":"Consumption","armSkuName":"Standard_NC48ads_A100_v4"})";
    const std::string spot = R"({"currencyCode":"USD","retailPrice":2.5,"armRegionName":"eastus2","meterName":"NC48ads_A100_v4 Spot",
      "productName":"Virtual Machines NCads A100 v4 Series Linux","skuName":"Standard_NC48ads_A100_v4 Spot","serviceName":"Virtual Machines",
      "unitOfMeasure":"1 Hour","type":"Consumption","armSkuName":"Standard_NC48ads_A100_v4"})";
    const std::string reservation = R"({"currencyCode":"USD","retailPrice":42066.0,"armRegionName":"eastus2","meterName":"NC48ads_A100_v4",
      "productName":"Virtual Machines NCads A100 v4 Series Linux","skuName":"Standard_NC48ads_A100_v4","serviceName":"Virtual Machines",
      "unitOfMeasure":"1 Hour","type":"Reservation","reservationTerm":"1 Year","armSkuName":"Standard_NC48ads_A100_v4"})";
    const ImportResult spot_only = import_azure_retail_prices("[" + spot + "]", {.file = "p.json"});
    check_accounting(spot_only);
    REQUIRE(spot_only.offerings.size() == 1);
    const Offering& s = spot_only.offerings[0];
    CHECK(s.spot_only);
    CHECK(s.on_demand_hourly == 0);
    CHECK(*s.spot_hourly == 2.5);
    CHECK(s.source.row == "/0");
    CHECK(s.notes == "spot only: the file lists a spot price and no on-demand one; spot: /0");
    CHECK(spot_only.report() == "1 rows read, 1 offerings, 0 rows skipped; kept: 1 spot only");
    const ImportResult both = import_azure_retail_prices("[" + spot + "," + reservation + "]", {.file = "p.json"});
    check_accounting(both);
    REQUIRE(both.offerings.size() == 1);
    CHECK(both.offerings[0].reservation_only);
    CHECK_FALSE(both.offerings[0].spot_hourly);
    CHECK(both.skipped == std::vector<SkippedRow>{{"/0", "spot price of Standard_NC48ads_A100_v4 in eastus2, which the file "
                                                         "sells only through reservations (no pay-as-you-go price)"}});
    // A size whose only item is of a price type not read: no offering, the item counted once.
    std::string other = spot;
    other.replace(other.find("\"type\":\"Consumption\""), 20, "\"type\":\"Other\"");
    const ImportResult none = import_azure_retail_prices("[" + other + "]", {.file = "p.json"});
    CHECK(none.offerings.empty());
    CHECK(none.skipped == std::vector<SkippedRow>{{"/0", "price type Other"}});
    // With its pay-as-you-go item the same size is an ordinary offering.
    const ImportResult all = import_azure_retail_prices("[" + item6 + "," + spot + "," + reservation + "]", {.file = "p.json"});
    REQUIRE(all.offerings.size() == 1);
    CHECK(all.offerings[0].sells_on_demand());
    CHECK(all.offerings[0].on_demand_hourly == 7.346);
    CHECK(*all.offerings[0].spot_hourly == 2.5);
}

TEST_CASE("SkyPilot: a row with a spot price and no on-demand one is kept spot_only; with neither, reported") {
    const std::string header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";
    const std::string text = header +
                             "p5.48xlarge,H100,8,192.0,2048.0,,,12.5,us-east-1,us-east-1a\n"
                             "p6-b200.48xlarge,B200,8,192.0,2048.0,,,,us-east-1,us-east-1a\n"
                             "p4d.24xlarge,A100,8,96.0,1152.0,,21.96,8.1,us-east-1,us-east-1a\n";
    const ImportResult r = import_skypilot_csv(text, {.file = "aws/vms.csv", .published = "2026-04-02", .provider = "aws"});
    check_accounting(r);
    CHECK(r.rows_read == 3);
    REQUIRE(r.offerings.size() == 2);
    const Offering& p5 = find(r, "us-east-1", "p5.48xlarge", "us-east-1a");
    CHECK(p5.spot_only);
    CHECK(p5.on_demand_hourly == 0);
    CHECK(*p5.spot_hourly == 12.5);
    CHECK(p5.notes == "spot only: the file lists a spot price and no on-demand one");
    CHECK_FALSE(find(r, "us-east-1", "p4d.24xlarge", "us-east-1a").spot_only);
    CHECK(r.skipped == std::vector<SkippedRow>{{"line 3", "no on-demand or spot price"}});
    CHECK(r.report() == "3 rows read, 2 offerings, 1 rows skipped (1 x no on-demand or spot price); kept: 1 on demand, 1 spot only");
}

TEST_CASE("SkyPilot GCP: machine and GPU rows that both price only spot join into a spot-only offering") {
    // Lines 4 and 56 of the GCP excerpt with their on-demand prices left out.
    const std::string text =
        "InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n"
        "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-a,,0.36975\n"
        ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-a,,1.4341\n"
        "a2-highgpu-1g,12.0,85.0,,,,us-central1,us-central1-b,0.73948,\n"
        ",,,A100,1,{'Gpus': [{'MemoryInfo': {'SizeInMiB': 40960}}]},us-central1,us-central1-b,,1.4341\n";
    const ImportResult r = import_skypilot_csv(text, {.file = "gcp/vms.csv", .published = "2026-04-02", .provider = "gcp"});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 1);
    const Offering& a2 = r.offerings[0];
    CHECK(a2.zone == "us-central1-a");
    CHECK(a2.spot_only);
    CHECK(*a2.spot_hourly == doctest::Approx(0.36975 + 1.4341));
    CHECK(a2.source.row == "lines 2+3");
    // Zone b: on-demand machine, spot-only GPU: no way of buying is priced by both rows.
    CHECK(r.skipped.at(0) == SkippedRow{"line 4", "no way of buying priced by both the machine row and GPU row line 5 "
                                                  "(one has only on-demand, the other only spot)"});
    CHECK(r.skipped.at(1).row == "line 5");  // its GPU row, joined to nothing
}

TEST_CASE("AWS: a product with Reserved terms and no OnDemand term is kept, reservation_only") {
    // The GetProducts page's Linux shared m4.xlarge (/PriceList/1) with its OnDemand terms renamed away.
    std::string text = data("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json");
    for (std::size_t at = text.find(R"(\"OnDemand\")"); at != std::string::npos; at = text.find(R"(\"OnDemand\")", at))
        text.replace(at, 12, R"(\"Other\")");
    const ImportResult r = import_aws_get_products(text, {.file = "get-products.json", .include_cpu_instances = true});
    check_accounting(r);
    REQUIRE(r.offerings.size() == 1);
    const Offering& m4 = r.offerings[0];
    CHECK(m4.reservation_only);
    CHECK(m4.on_demand_hourly == 0);
    CHECK(m4.reserved.size() == 12);
    CHECK(m4.reserved_price(1, Payment::partial_upfront)->upfront == 631);
    CHECK(m4.notes == "reservation only: the file lists reservation or commitment prices and no on-demand one; no GPU: "
                      "per-GPU figures are per instance");
    // A product with no term at all is no offering: reported.
    const std::string bare = R"json({"formatVersion":"v1.0","publicationDate":"2017-11-17T19:00:39Z",
      "products":{"ABC":{"sku":"ABC","productFamily":"Compute Instance","attributes":{"instanceType":"p3.2xlarge",
        "location":"US East (N. Virginia)","operatingSystem":"Linux","tenancy":"Shared","preInstalledSw":"NA"}}},
      "terms":{"OnDemand":{"ABC":{"ABC.JRTCKXETXF":{"priceDimensions":{"ABC.JRTCKXETXF.2TG2D8R56U":{"unit":"Quantity",
        "pricePerUnit":{"USD":"1"}}},"termAttributes":{}}}}}})json";
    std::istringstream in(bare);
    const ImportResult none = import_aws_offer_file(in, {.file = "offer.json"});
    CHECK(none.offerings.empty());
    // Its one on-demand term has no hourly price: that term, then the product, are reported (never priced at 0).
    CHECK(none.skipped == std::vector<SkippedRow>{
                              {"/terms/OnDemand/ABC/ABC.JRTCKXETXF", "on-demand term without an hourly price"},
                              {"/products/ABC", "no on-demand or reserved term"}});
}

TEST_CASE("ec2instances.info: spot-only and reservation-only regions kept; a region with no price reported") {
    const std::string text = R"([{"instance_type": "p3.2xlarge", "GPU": 1, "pricing": {
        "us-east-1": {"linux": {"spot_avg": "0.9"}},
        "us-west-2": {"linux": {"reserved": {"yrTerm1Standard.noUpfront": "2.1", "yrTerm3Standard.allUpfront": "1.2"}, "spot_avg": "0.95"}},
        "eu-west-1": {"linux": {"ondemand": ""}},
        "ap-south-1": {"linux": {"ondemand": "3.5", "spot_avg": "1.1"}},
        "sa-east-1": {"linux": {"reserved": {"yrTerm2Standard.noUpfront": "2.5"}}}}}])";
    const ImportResult r = import_ec2instances_json(text, {.file = "instances.json", .published = "2025-06-01"});
    check_accounting(r);
    CHECK(r.rows_read == 5);
    REQUIRE(r.offerings.size() == 3);
    const Offering& spot = find(r, "us-east-1", "p3.2xlarge");
    CHECK(spot.spot_only);
    CHECK(*spot.spot_hourly == 0.9);
    CHECK(spot.notes == "spot only: the file lists a spot price and no on-demand one; spot: ec2instances.info average spot price");
    const Offering& reserved = find(r, "us-west-2", "p3.2xlarge");
    CHECK(reserved.reservation_only);
    CHECK_FALSE(reserved.spot_hourly);
    CHECK(reserved.reserved_price(1, Payment::no_upfront)->hourly == 2.1);
    CHECK(reserved.reserved_price(3, Payment::all_upfront)->upfront == doctest::Approx(1.2 * 26280));
    CHECK(find(r, "ap-south-1", "p3.2xlarge").sells_on_demand());
    // sa-east-1: its one reserved term is not understood (2 years), so it has no price at all.
    CHECK(r.skipped_reasons == std::map<std::string, std::size_t>{
                                   {"no on-demand price and no reserved term understood", 1},
                                   {"no on-demand, spot or reserved price", 1},
                                   {"reserved term not understood", 1},
                                   {"spot price of a type the file sells only through reservations (no on-demand price)", 1}});
    CHECK(r.skipped.at(3).row == "/0/pricing/us-west-2/linux/spot_avg");  // regions in key order
}

TEST_CASE("Cyclenerd pricing.yml: a region with only a spot or only commitment prices is kept; with none, reported") {
    // The excerpt's a2-highgpu-1g africa-south1 figures, one price kind per region.
    const std::string text = "compute:\n  instance:\n    a2-highgpu-1g:\n      a100: 1\n      cost:\n"
                             "        africa-south1:\n          hour_spot: 0.65224\n"
                             "        asia-east1:\n          month_1y: 1743.0630772\n          month_3y: 968.40125307\n          hour_spot: 0.444055\n"
                             "        asia-east2:\n          month: 3447.78527398\n"
                             "        asia-northeast1:\n          hour: 4.049590926\n";
    const ImportResult r = import_cyclenerd_pricing_yml(text, {.file = "pricing.yml", .published = "2026-07-30"});
    check_accounting(r);
    CHECK(r.rows_read == 4);
    REQUIRE(r.offerings.size() == 3);
    const Offering& spot = find(r, "africa-south1", "a2-highgpu-1g");
    CHECK(spot.spot_only);
    CHECK(*spot.spot_hourly == 0.65224);
    CHECK(spot.notes == "spot only: the file lists a spot price and no on-demand one");
    const Offering& committed = find(r, "asia-east1", "a2-highgpu-1g");
    CHECK(committed.reservation_only);
    CHECK_FALSE(committed.spot_hourly);
    CHECK(committed.reserved_price(1, Payment::no_upfront)->hourly == doctest::Approx(1743.0630772 / 730));
    CHECK(committed.notes == "reservation only: the file lists reservation or commitment prices and no on-demand one; "
                             "committed use: monthly price / 730 h");
    CHECK(find(r, "asia-northeast1", "a2-highgpu-1g").on_demand_hourly == 4.049590926);
    CHECK(r.skipped == std::vector<SkippedRow>{
                           {"/compute/instance/a2-highgpu-1g/cost/asia-east1/hour_spot",
                            "spot price of a machine the file sells only through commitments (no hourly price)"},
                           {"/compute/instance/a2-highgpu-1g/cost/asia-east2", "no hourly, spot or commitment price"}});
}

TEST_CASE("SkyPilot, random rows: a row is kept iff it has a price, spot_only iff it has no on-demand one") {
    std::mt19937_64 rng(20261205);
    for (int trial = 0; trial < 200; ++trial) {
        std::string text = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";
        const int rows = 1 + int(rng() % 20);
        std::vector<std::pair<bool, bool>> has;  // (on-demand, spot) per row
        for (int i = 0; i < rows; ++i) {
            const bool od = rng() % 2, sp = rng() % 2;
            has.emplace_back(od, sp);
            text += fmt::format("p5.48xlarge,H100,8,192.0,2048.0,,{},{},region-{},z\n", od ? fmt::format("{}.5", i + 1) : "",
                                sp ? fmt::format("0.{}", i + 1) : "", i);
        }
        const ImportResult r = import_skypilot_csv(text, {.file = "vms.csv", .provider = "aws"});
        CAPTURE(text);
        REQUIRE(r.offerings.size() + r.skipped_count == std::size_t(rows));
        std::size_t kept = 0;
        for (int i = 0; i < rows; ++i) {
            const bool od = has[std::size_t(i)].first, sp = has[std::size_t(i)].second;
            if (!od && !sp) continue;
            const Offering& o = r.offerings.at(kept++);
            CHECK(o.region == fmt::format("region-{}", i));
            CHECK(o.spot_only == !od);
            CHECK(o.on_demand_hourly == (od ? i + 1.5 : 0.0));
            CHECK(o.spot_hourly.has_value() == sp);
            CHECK_NOTHROW(o.validate());
        }
        CHECK(r.skipped_reasons.count("no on-demand or spot price") == (kept < std::size_t(rows) ? 1u : 0u));
    }
}

// ------------------------------------------------------------------------------------------------
// Cyclenerd pricing.yml read as events: the same result as the importer that loaded the whole tree
// (tests/legacy/legacy_cyclenerd.cpp), price for price, note for note, skipped row for skipped row.
// ------------------------------------------------------------------------------------------------

namespace {

void check_same_import(const std::string& text, const ImportOptions& options) {
    std::string tree_error, events_error;
    ImportResult tree, events;
    try {
        tree = legacy::import_cyclenerd_pricing_yml_tree(text, options);
    } catch (const InvalidInput& e) {
        tree_error = e.what();
    }
    try {
        events = import_cyclenerd_pricing_yml(text, options);
    } catch (const InvalidInput& e) {
        events_error = e.what();
    }
    CHECK(events_error == tree_error);
    CHECK(events.rows_read == tree.rows_read);
    CHECK(events.skipped_count == tree.skipped_count);
    CHECK(events.skipped == tree.skipped);
    CHECK(events.skipped_reasons == tree.skipped_reasons);
    REQUIRE(events.offerings.size() == tree.offerings.size());
    for (std::size_t i = 0; i < tree.offerings.size(); ++i) CHECK(events.offerings[i] == tree.offerings[i]);
}

}  // namespace

TEST_CASE("Cyclenerd pricing.yml: the event reader and the tree reader agree on the excerpt, every price") {
    const std::string text = data("gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml");
    check_same_import(text, {.file = "pricing.yml"});
    check_same_import(text, {.file = "pricing.yml", .include_cpu_instances = true});
    const ImportResult r = import_cyclenerd_pricing_yml(text, {.file = "pricing.yml"});
    CHECK(r.offerings.size() == 247);
    // The excerpt's blocks again under new names, as the benchmark's 4 MB file is made.
    const std::size_t body = text.find("  instance:\n") + 12;
    std::string twice = text;
    std::string again = text.substr(body);
    for (std::size_t at = again.find(":\n      "); at != std::string::npos; at = again.find(":\n      ", at + 10)) {
        const std::size_t line = again.rfind('\n', at) + 1;
        if (again.compare(line, 4, "    ") == 0 && again[line + 4] != ' ') again.insert(at, "-c1");
    }
    twice += again;
    check_same_import(twice, {.file = "pricing.yml"});
    CHECK(import_cyclenerd_pricing_yml(twice, {.file = "pricing.yml"}).offerings.size() == 2 * 247);
}

TEST_CASE("Cyclenerd pricing.yml, random documents: the event reader and the tree reader agree") {
    std::mt19937_64 rng(26);
    const std::vector<std::string> types = {"a2-highgpu-1g", "g2-standard-4", "n1-standard-1", "a3-highgpu-8g", "g4-standard-48",
                                            "a4-highgpu-8g"};
    const std::vector<std::string> gpu_keys = {"a100", "h100-80gb", "l4", "t4", "", "cpu"};
    const auto price = [&] { return fmt::format("{:.6f}", 0.01 + double(rng() % 100000) / 997.0); };
    for (int trial = 0; trial < 300; ++trial) {
        const std::string about = fmt::format("about:\n  copyright: x\n  timestamp: {}\n", 1'700'000'000 + rng() % 100'000'000);
        const int where_about = int(rng() % 3);  // before, after, or no timestamp
        std::string doc = where_about == 0 ? about : "";
        doc += "compute:\n  instance:\n";
        const int machines = 1 + int(rng() % 5);
        for (int m = 0; m < machines; ++m) {
            const std::string type = types[rng() % types.size()] + (m == 0 ? "" : fmt::format("-v{}", m));
            const int shape = int(rng() % 10);
            if (shape == 0) {  // no block at all
                doc += fmt::format("    {}:\n", type);
                continue;
            }
            doc += fmt::format("    {}:\n", type);
            const std::string& gpu = gpu_keys[rng() % gpu_keys.size()];
            if (!gpu.empty()) doc += fmt::format("      {}: {}\n", gpu, 1 + rng() % 8);
            doc += fmt::format("      ram: {}\n", 16 + rng() % 100);
            if (shape == 1) continue;  // no cost
            if (shape == 2) {  // the cost as one flow mapping
                doc += fmt::format("      cost: {{r-flow: {{hour: {}, hour_spot: {}}}}}\n", price(), price());
                continue;
            }
            doc += "      cost:\n";
            const int regions = 1 + int(rng() % 6);
            for (int g = 0; g < regions; ++g) {
                doc += fmt::format("        region-{}:\n", g);
                int fields = 0;
                for (const char* f : {"hour", "hour_spot", "month", "month_1y", "month_3y", "month_spot"}) {
                    if (rng() % 3 == 0) continue;
                    doc += fmt::format("          {}: {}\n", f, price());
                    ++fields;
                }
                if (fields == 0) doc += "          note: none\n";
            }
        }
        if (where_about == 1) doc += about;
        CAPTURE(doc);
        check_same_import(doc, {.file = "pricing.yml", .published = "2026-07-30"});
        check_same_import(doc, {.file = "pricing.yml", .include_cpu_instances = true});
    }
}

TEST_CASE("every sample file: each offering is counted by way of buying, and none sold one way is priced at 0 as if free") {
    const std::vector<std::pair<std::string, ImportResult>> results = {
        {"gcp", import_skypilot_csv(data("skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"), {.provider = "gcp"})},
        {"lambda", import_skypilot_csv(data("skypilot_catalog_lambda_vms_excerpt_2026-04-02.csv"), {.provider = "lambda"})},
        {"azure csv", import_skypilot_csv(data("skypilot_format_azure_vms_gpu_excerpt_anycloud_2026-04-02.csv"),
                                          {.provider = "azure", .join_extra_fields_into_last_column = true})},
        {"tencent", import_skypilot_csv(data("skypilot_format_tencentcloud_vms_excerpt_sugarlxn.csv"), {.provider = "tencent"})},
        {"azure 05", import_azure_retail_prices(data("azure_retail_prices_items_gpu_excerpt_2026-05-28.json"), {})},
        {"azure 08", import_azure_retail_prices(data("azure_retail_prices_items_gpu_excerpt_2026-08-22.json"), {})},
        {"getproducts", import_aws_get_products(data("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json"),
                                                {.include_cpu_instances = true})},
        {"skus", import_gcp_skus(data("gcp_billing_catalog_skus_excerpt_2023-03-24_opencost.json"), {})},
        {"cyclenerd", import_cyclenerd_pricing_yml(data("gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml"), {})},
        {"ec2 2017", import_ec2instances_json(data("ec2instances_info_instances_json_gpu_excerpt_2017-11-12.json"), {})},
    };
    std::size_t one_way = 0;
    for (const auto& entry : results) {  // no structured binding: clang 14 cannot capture one in CAPTURE
        const std::string& name = entry.first;
        const ImportResult& r = entry.second;
        CAPTURE(name);
        check_accounting(r);
        std::size_t counted = 0;
        for (const auto& [way, n] : r.kept_by_way()) counted += n;
        CHECK(counted == r.offerings.size());
        CHECK(r.skipped_reasons.count("no on-demand price") == 0);
        for (const Offering& o : r.offerings) {
            CHECK_NOTHROW(o.validate());
            if (o.sells_on_demand()) continue;
            ++one_way;
            CHECK(o.on_demand_hourly == 0);
            CHECK((o.spot_only ? o.spot_hourly.has_value() : !o.reserved.empty()));
        }
    }
    // The Azure 2026-05-28 H200 in italynorth, sold only through a 10-year reservation, and in both Azure
    // excerpts the NV4as v4 (an eighth of one MI25) in usgovarizona, sold only as spot.
    CHECK(one_way == 3);
}

TEST_CASE("SkyPilot Vast.ai: a region with an empty part is written clean, and the row says how the file wrote it") {
    // anycloud-sh/catalog vast/vms.csv (2026-04-29) line 11: a host whose place has no state part.
    const std::string text =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
        "2x-H200-32-65536,H200,2,32,64.0,,5.65,0.00,\", US, NA\"\n"
        "1x-H100_SXM-32-65536,H100,1,32,64.0,,1.80,0.00,\"Florida, US, NA\"\n"
        "1x-L40S-32-65536,L40S,1,32,64.0,,0.60,0.00,\" Japan , JP,, AS \"\n"
        "1x-L4-32-65536,L4,1,32,64.0,,0.30,0.00,\" , ,\"\n";
    CHECK_THROWS_WITH_AS(import_skypilot_csv(text, {.file = "vast/vms.csv", .provider = "vast"}),
                         "vast/vms.csv:5: Region = \"\": must not be empty", InvalidInput);
    const std::string good = text.substr(0, text.rfind("1x-L4"));
    const ImportResult r = import_skypilot_csv(good, {.file = "vast/vms.csv", .provider = "vast"});
    const Offering& h200 = find(r, "US, NA", "2x-H200-32-65536");
    CHECK(h200.notes == "the file writes the region \", US, NA\"");
    CHECK(find(r, "Japan, JP, AS", "1x-L40S-32-65536").notes == "the file writes the region \" Japan , JP,, AS \"");
    const Offering& florida = find(r, "Florida, US, NA", "1x-H100_SXM-32-65536");
    CHECK(florida.notes.empty());  // already clean: no note
    for (const Offering& o : r.offerings) {
        CHECK(o.region.find(",,") == std::string::npos);
        CHECK_FALSE(o.region.starts_with(","));
        CHECK_FALSE(o.region.starts_with(" "));
    }
}
