// Importing price files: time and memory against rows read and rows kept.
//   1. A SkyPilot vms.csv of 10,000 and 40,000 rows (AWS layout; every row a GPU offering kept).
//   2. Azure Retail Prices dumps of ~100 MB built from the excerpt's item shape, one where 1 item in
//      20 is kept and one where 1 in 2 is: streamed, so memory follows the rows kept, not the file.
//      Reference in the same run: parsing the same text into a DOM (nlohmann::json::parse).
//   3. An AWS bulk offer file of ~300 MB on disk, streamed.
//   4. ec2instances.info files and AWS GetProducts pages of 10,000 and 40,000 rows (the excerpts'
//      records repeated under new names): the time per row must not grow with the rows.
//   5. A Cyclenerd pricing.yml of about 4 MB (the size of the real file): the excerpt's machine blocks
//      repeated under new machine-type names (target: 0.5 s and 50 MiB); beside it, the importer it
//      replaced (tests/legacy/legacy_cyclenerd.cpp: the whole file as a yaml-cpp tree).
// Memory: peak resident set during the import minus resident set before (Linux VmHWM after
// resetting it through /proc/self/clear_refs), so the input text already in memory is not counted.
//
// Usage: bench_import [--repeat N] [--azure-mb M] [--aws-mb M]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "peak_memory.hpp"

#include "gputco/catalog/importers.hpp"
#include "legacy/legacy_cyclenerd.hpp"

namespace {

using bench::Measure;

// The first run's peak: the allocator still clean.
template <class F>
Measure measure(int repeat, F&& run) {
    return bench::measure(repeat, std::forward<F>(run), bench::PeakOf::first_run);
}

std::string skypilot_csv(int rows) {
    // AWS layout of SkyPilot's catalog; distinct (type, region, zone) per row.
    static const char* types[] = {"p3.2xlarge", "p3.8xlarge", "p3.16xlarge", "p4d.24xlarge", "p5.48xlarge", "g4dn.xlarge",
                                  "g4dn.12xlarge", "g5.xlarge", "g5.48xlarge", "g6.xlarge"};
    static const char* gpus[] = {"V100", "V100", "V100", "A100", "H100", "T4", "T4", "A10G", "A10G", "L4"};
    static const int counts[] = {1, 4, 8, 8, 8, 1, 4, 1, 8, 1};
    std::string out = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";
    for (int i = 0; i < rows; ++i) {
        const int t = i % 10;
        const int region = (i / 10) % 100;
        const int zone = i / 1000;
        out += fmt::format("{},{},{},8.0,61.0,\"{{'Gpus': [{{'Name': '{}', 'Count': {}}}]}}\",{:.4f},{:.4f},region-{},region-{}-z{}\n",
                           types[t], gpus[t], counts[t], gpus[t], counts[t], 1.0 + t + region * 0.01, 0.3 + t * 0.1,
                           region, region, zone);
    }
    return out;
}

/// Items shaped like the excerpt's (same fields and value kinds); `keep_every` decides how many are
/// GPU sizes the importer keeps (the others are sizes it counts as "no whole GPU known").
std::string azure_dump(std::size_t target_bytes, int keep_every) {
    std::string out = "{\"BillingCurrency\":\"USD\",\"CustomerEntityId\":\"Default\",\"CustomerEntityType\":\"Retail\",\"Items\":[";
    for (std::size_t i = 0; out.size() < target_bytes; ++i) {
        const bool keep = i % static_cast<std::size_t>(keep_every) == 0;
        const std::size_t group = i / 3;  // consumption, 1-year and 3-year items of one size and region
        const char* type = i % 3 == 0 ? "Consumption" : "Reservation";
        const char* term = i % 3 == 1 ? ",\"reservationTerm\":\"1 Year\"" : (i % 3 == 2 ? ",\"reservationTerm\":\"3 Years\"" : "");
        const std::string size = keep ? "Standard_NC48ads_A100_v4" : fmt::format("Standard_D{}s_v5", 2 + i % 64);
        if (i) out += ',';
        out += fmt::format(
            "{{\"currencyCode\":\"USD\",\"tierMinimumUnits\":0.0{},\"retailPrice\":{:.3f},\"unitPrice\":{:.3f},"
            "\"armRegionName\":\"region{}\",\"location\":\"Region {}\",\"effectiveStartDate\":\"2026-08-01T00:00:00Z\","
            "\"meterId\":\"{:08x}-a3ee-57c5-bfd9-8ff9e9792b94\",\"meterName\":\"NC48ads A100 v4\",\"productId\":\"DZH318Z0F8W2\","
            "\"skuId\":\"DZH318Z0F8W2/0019\",\"productName\":\"NCads A100 v4 Series Linux\",\"skuName\":\"NC48ads A100 v4\","
            "\"serviceName\":\"Virtual Machines\",\"serviceId\":\"DZH313Z7MMC8\",\"serviceFamily\":\"Compute\","
            "\"unitOfMeasure\":\"1 Hour\",\"type\":\"{}\",\"isPrimaryMeterRegion\":true,\"armSkuName\":\"{}\"}}",
            term, 7.346 + static_cast<double>(i % 3) * 40000.0, 7.346, group, group, i, type, size);
    }
    return out + "],\"NextPageLink\":null}";
}

/// A bulk offer file: products (1 in `keep_every` a Linux p4d, the rest Windows m5), then their terms.
std::size_t write_offer_file(const std::string& path, std::size_t target_bytes, int keep_every) {
    std::ofstream out(path, std::ios::binary);
    out << "{\"formatVersion\":\"v1.0\",\"offerCode\":\"AmazonEC2\",\"publicationDate\":\"2025-06-01T00:00:00Z\",\"products\":{";
    std::size_t n = 0;
    std::size_t bytes = 0;
    for (; bytes < target_bytes / 2; ++n) {
        const bool keep = n % static_cast<std::size_t>(keep_every) == 0;
        const std::string p = fmt::format(
            "{}\"SKU{:010}\":{{\"sku\":\"SKU{:010}\",\"productFamily\":\"Compute Instance\",\"attributes\":{{\"servicecode\":\"AmazonEC2\","
            "\"location\":\"US East (N. Virginia)\",\"locationType\":\"AWS Region\",\"instanceType\":\"{}\",\"currentGeneration\":\"Yes\","
            "\"vcpu\":\"96\",\"memory\":\"1152 GiB\",\"tenancy\":\"Shared\",\"operatingSystem\":\"{}\",\"licenseModel\":\"No License required\","
            "\"usagetype\":\"BoxUsage:x\",\"operation\":\"RunInstances\",\"capacitystatus\":\"Used\",\"preInstalledSw\":\"NA\",\"regionCode\":\"r{}\"}}}}",
            n ? "," : "", n, n, keep ? "p4d.24xlarge" : "m5.24xlarge", keep ? "Linux" : "Windows", n);
        out << p;
        bytes += p.size();
    }
    out << "},\"terms\":{\"OnDemand\":{";
    for (std::size_t i = 0; i < n; ++i) {
        out << fmt::format(
            "{}\"SKU{:010}\":{{\"SKU{:010}.JRTCKXETXF\":{{\"offerTermCode\":\"JRTCKXETXF\",\"sku\":\"SKU{:010}\",\"effectiveDate\":\"2025-06-01T00:00:00Z\","
            "\"priceDimensions\":{{\"SKU{:010}.JRTCKXETXF.6YS6EN2CT7\":{{\"rateCode\":\"x\",\"description\":\"$21.96 per On Demand Linux p4d.24xlarge Instance Hour\","
            "\"beginRange\":\"0\",\"endRange\":\"Inf\",\"unit\":\"Hrs\",\"pricePerUnit\":{{\"USD\":\"21.9600000000\"}},\"appliesTo\":[]}}}},\"termAttributes\":{{}}}}}}",
            i ? "," : "", i, i, i, i);
    }
    out << "}}}";
    out.flush();
    return static_cast<std::size_t>(out.tellp());
}

std::string excerpt(const char* name) {
    return gputco::read_text_file(std::string(GPUTCO_SOURCE_DIR) + "/tests/data/price-formats/" + name);
}

/// ec2instances.info records of the excerpt under new instance types, until `rows` region rows.
std::string ec2instances_file(std::size_t rows) {
    const nlohmann::json records = nlohmann::json::parse(excerpt("ec2instances_info_instances_json_gpu_excerpt_2017-11-12.json"));
    nlohmann::json out = nlohmann::json::array();
    std::size_t n = 0;
    for (std::size_t i = 0; n < rows; ++i) {
        nlohmann::json r = records[i % records.size()];
        r["instance_type"] = fmt::format("p3.x{}", i);
        n += r["pricing"].size();
        out.push_back(std::move(r));
    }
    return out.dump();
}

/// A GetProducts page of `rows` copies of the excerpt's Linux shared-tenancy product under new SKUs.
std::string get_products_page(std::size_t rows) {
    const nlohmann::json page = nlohmann::json::parse(excerpt("aws_pricing_api_getproducts_m4.xlarge_eu-west-1_2019-01-16.json"));
    std::string product;
    for (const auto& e : page["PriceList"]) {
        const nlohmann::json p = nlohmann::json::parse(e.get<std::string>());
        const auto& a = p["product"]["attributes"];
        if (a["operatingSystem"] == "Linux" && a["tenancy"] == "Shared" && a.value("preInstalledSw", "NA") == "NA") product = p.dump();
    }
    const std::string sku = nlohmann::json::parse(product)["product"]["sku"];
    nlohmann::json list = nlohmann::json::array();
    for (std::size_t i = 0; i < rows; ++i) {
        std::string copy = product;
        const std::string mine = fmt::format("SKU{:013}", i);
        for (std::size_t at = copy.find(sku); at != std::string::npos; at = copy.find(sku, at + mine.size())) copy.replace(at, sku.size(), mine);
        list.push_back(std::move(copy));
    }
    return nlohmann::json{{"FormatVersion", "aws_v1"}, {"PriceList", std::move(list)}}.dump();
}

/// A Cyclenerd pricing.yml of at least `bytes`: the excerpt's header, then its machine blocks again and
/// again under new machine-type names ("a2-highgpu-1g-c3").
std::string cyclenerd_file(std::size_t bytes) {
    const std::string text = excerpt("gcp_cyclenerd_pricing_yml_gpu_excerpt_2026-07-30.yml");
    const std::string marker = "  instance:\n";
    const std::size_t body = text.find(marker) + marker.size();
    const std::string head = text.substr(0, body), blocks = text.substr(body);
    std::string out = head;
    for (int copy = 0; out.size() < bytes; ++copy) {
        std::string renamed;
        std::size_t at = 0;
        while (at < blocks.size()) {
            const std::size_t end = std::min(blocks.find('\n', at), blocks.size());
            std::string line = blocks.substr(at, end - at);
            // A machine type's line: four spaces, a name, a colon.
            if (line.size() > 5 && line.compare(0, 4, "    ") == 0 && line[4] != ' ' && line.back() == ':')
                line = line.substr(0, line.size() - 1) + fmt::format("-c{}:", copy);
            renamed += line + "\n";
            at = end + 1;
        }
        out += renamed;
    }
    return out;
}

}  // namespace

int run_scenario(const std::string& scenario, int repeat, std::size_t azure_mb, std::size_t aws_mb) {
    using namespace gputco;
    if (scenario == "skypilot10k" || scenario == "skypilot40k") {
        const int rows = scenario == "skypilot10k" ? 10'000 : 40'000;
        const std::string csv = skypilot_csv(rows);
        ImportResult r;
        const Measure m = measure(repeat, [&] { r = import_skypilot_csv(csv, {.file = "vms.csv", .provider = "aws"}); });
        fmt::print("{:<50} {:>7.1f} {:>8} {:>8} {:>9.4f} {:>9.1f}\n", fmt::format("SkyPilot vms.csv, {} rows", rows),
                   static_cast<double>(csv.size()) / 1e6, r.rows_read, r.offerings.size(), m.seconds, m.peak_mib);
    } else if (scenario == "azure20" || scenario == "azure2" || scenario == "azuredom") {
        const int keep_every = scenario == "azure2" ? 2 : 20;
        const std::string text = azure_dump(azure_mb * 1'000'000, keep_every);
        if (scenario == "azuredom") {
            std::size_t items = 0;
            const Measure dom = measure(repeat, [&] { items = nlohmann::json::parse(text)["Items"].size(); });
            fmt::print("{:<50} {:>7.1f} {:>8} {:>8} {:>9.3f} {:>9.1f}\n", "  reference: same text as a DOM (json::parse)",
                       static_cast<double>(text.size()) / 1e6, items, "-", dom.seconds, dom.peak_mib);
            return 0;
        }
        ImportResult r;
        const Measure m = measure(repeat, [&] { r = import_azure_retail_prices(text, {.file = "azure.json"}); });
        fmt::print("{:<50} {:>7.1f} {:>8} {:>8} {:>9.3f} {:>9.1f}\n", fmt::format("Azure Retail Prices, 1 item in {} kept", keep_every),
                   static_cast<double>(text.size()) / 1e6, r.rows_read, r.offerings.size(), m.seconds, m.peak_mib);
    } else if (scenario.starts_with("ec2instances") || scenario.starts_with("getproducts")) {
        const bool ec2 = scenario.starts_with("ec2instances");
        const std::size_t rows = scenario.ends_with("10k") ? 10'000 : 40'000;
        const std::string text = ec2 ? ec2instances_file(rows) : get_products_page(rows);
        ImportResult r;
        const Measure m = measure(repeat, [&] {
            r = ec2 ? import_ec2instances_json(text, {.file = "instances.json"})
                    : import_aws_get_products(text, {.file = "page.json", .include_cpu_instances = true});
        });
        fmt::print("{:<50} {:>7.1f} {:>8} {:>8} {:>9.3f} {:>9.1f}\n",
                   fmt::format("{}, {} rows ({:.0f} us/row)", ec2 ? "ec2instances.info" : "AWS GetProducts page", rows,
                               m.seconds / static_cast<double>(r.rows_read) * 1e6),
                   static_cast<double>(text.size()) / 1e6, r.rows_read, r.offerings.size(), m.seconds, m.peak_mib);
    } else if (scenario == "cyclenerd" || scenario == "cyclenerdtree") {
        // "cyclenerdtree": the importer before it read events (the whole file as a yaml-cpp tree).
        const bool tree = scenario == "cyclenerdtree";
        const std::string text = cyclenerd_file(4'000'000);
        ImportResult r;
        const Measure m = measure(repeat, [&] {
            r = tree ? legacy::import_cyclenerd_pricing_yml_tree(text, {.file = "pricing.yml"})
                     : import_cyclenerd_pricing_yml(text, {.file = "pricing.yml"});
        });
        fmt::print("{:<50} {:>7.1f} {:>8} {:>8} {:>9.3f} {:>9.1f}  (CPU {:.3f} s)\n",
                   tree ? "  before: the same file as a yaml-cpp tree" : "Cyclenerd pricing.yml (excerpt blocks repeated)",
                   static_cast<double>(text.size()) / 1e6, r.rows_read, r.offerings.size(), m.seconds, m.peak_mib,
                   m.cpu_seconds);
    } else if (scenario == "aws") {
        const std::string path = "bench_import_offer_file.json";
        const std::size_t bytes = write_offer_file(path, aws_mb * 1'000'000, 50);
        ImportResult r;
        const Measure m = measure(repeat, [&] {
            std::ifstream in(path, std::ios::binary);
            r = import_aws_offer_file(in, {.file = path});
        });
        fmt::print("{:<50} {:>7.1f} {:>8} {:>8} {:>9.3f} {:>9.1f}\n", "AWS bulk offer file (disk), 1 product in 50 kept",
                   static_cast<double>(bytes) / 1e6, r.rows_read, r.offerings.size(), m.seconds, m.peak_mib);
        std::remove(path.c_str());
    }
    return 0;
}

int main(int argc, char** argv) {
    int repeat = 3;
    std::size_t azure_mb = 100;
    std::size_t aws_mb = 300;
    std::string scenario;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::atoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--azure-mb") == 0) azure_mb = std::strtoul(argv[i + 1], nullptr, 10);
        if (std::strcmp(argv[i], "--aws-mb") == 0) aws_mb = std::strtoul(argv[i + 1], nullptr, 10);
        if (std::strcmp(argv[i], "--scenario") == 0) scenario = argv[i + 1];
    }
    if (!scenario.empty()) return run_scenario(scenario, repeat, azure_mb, aws_mb);
    // Each scenario in its own process, so one's freed heap does not hide the next one's peak.
    fmt::print("{:<50} {:>7} {:>8} {:>8} {:>9} {:>9}\n", "input", "MB", "rows", "kept", "seconds", "peak MiB");
    std::fflush(stdout);
    for (const char* s : {"skypilot10k", "skypilot40k", "azure20", "azuredom", "azure2", "aws", "ec2instances10k",
                          "ec2instances40k", "getproducts10k", "getproducts40k", "cyclenerd", "cyclenerdtree"}) {
        const std::string command =
            fmt::format("'{}' --scenario {} --repeat {} --azure-mb {} --aws-mb {}", argv[0], s, repeat, azure_mb, aws_mb);
        if (std::system(command.c_str()) != 0) return 1;
    }
    return 0;
}
