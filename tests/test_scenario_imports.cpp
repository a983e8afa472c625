// Scenario files: providers' price files imported into the scenario's catalog.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "gputco/catalog/importers.hpp"
#include "gputco/scenario/scenario.hpp"
#include "scenario_files.hpp"

using namespace gputco;

namespace {

using test::scenarios;

/// A scenario importing one price file given by `line9`/`line10`; line numbers matter below.
std::string importing(std::string_view line9, std::string_view line10 = "      format: skypilot_csv") {
    return fmt::format(
        "version: 1\n"                                                                  // 1
        "name: t\n"                                                                     // 2
        "horizon_months: 12\n"                                                          // 3
        "units: gpus\n"                                                                 // 4
        "offering: {{provider: gcp, instance_type: a2-highgpu-8g, region: us-central1, zone: us-central1-b}}\n"  // 5
        "demand: {{kind: constant, gpus: 8}}\n"                                         // 6
        "catalog:\n"                                                                    // 7
        "  imports:\n"                                                                  // 8
        "{}\n"                                                                          // 9
        "{}\n"                                                                          // 10
        "      provider: gcp\n"                                                         // 11
        "strategies: [{{name: od, on_demand: {{}}}}]\n",                                 // 12
        line9, line10);
}

}  // namespace

TEST_CASE("an imported price file prices the scenario: evaluate() on the imported row gives the same totals") {
    const Scenario s = load_scenario(scenarios + "/imported_gcp_prices.yaml");
    REQUIRE(s.imports.size() == 1);
    CHECK(s.imports[0].format == "skypilot_csv");
    CHECK(s.offering.zone == "us-central1-a");
    const ScenarioResult r = run_scenario(s);
    // the file's row: a2-highgpu-8g,...,us-central1,us-central1-a,29.38708,14.4308 (8 GPUs each):
    // on demand 16 GPUs × 8,760 h × 29.38708 / 8 = 514,861.64
    CHECK(r.strategies[0].report.total == doctest::Approx(16 * 8760 * 29.38708 / 8).epsilon(1e-12));
    const ImportResult imported = import_skypilot_csv(
        read_text_file(scenarios + "/data/skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv"),
        {.file = "data/skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv", .published = "2026-04-02", .provider = "gcp"});
    const Offering* row = nullptr;
    for (const Offering& o : imported.offerings)
        if (o.key() == "gcp/us-central1/a2-highgpu-8g/us-central1-a") row = &o;
    REQUIRE(row != nullptr);
    CHECK(*row->spot_hourly == 14.4308);
    EvaluationOptions options;
    options.units = Units::gpus;
    const DemandProfile demand = DemandProfile::constant(16, Horizon::months(12));
    for (std::size_t i = 0; i < s.strategies.size(); ++i)
        CHECK(r.strategies[i].report.total == evaluate(s.strategies[i].strategy, demand, *row, options).total);
    // and the built-in catalog still holds what the file does not override
    CHECK(scenario_catalog(s).offering("aws", "p4d.24xlarge", "us-east-1").provider == "aws");
}

TEST_CASE("price file errors name file, line, column, field, value and rule") {
    const std::string data = "    - file: " + scenarios + "/data/skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv";
    CHECK_NOTHROW(parse_scenario(importing(data), "/x/plan.yaml"));
    // "      format: " is 14 characters
    CHECK_THROWS_WITH_AS(parse_scenario(importing(data, "      format: skypilot_cvs"), "/x/plan.yaml"),
                         "/x/plan.yaml:10:15: catalog.imports[0].format = \"skypilot_cvs\": must be one of skypilot_csv, "
                         "azure_retail_prices, aws_get_products, aws_offer_file, gcp_skus, cyclenerd_pricing_yml, "
                         "ec2instances_json; did you mean \"skypilot_csv\"?",
                         InvalidInput);
    // a relative file resolves against the scenario's folder; the importer's message, at the import's
    // mapping ("    - " is 6 characters: column 7)
    CHECK_THROWS_WITH_AS(parse_scenario(importing("    - file: prices.csv"), "/x/plan.yaml"),
                         "/x/plan.yaml:9:7: path = \"/x/prices.csv\": cannot be opened for reading: No such file or directory", InvalidInput);
    CHECK_THROWS_WITH_AS(parse_scenario(importing(data, "      format: skypilot_csv\n      published: 2026-02-30"),
                                        "/x/plan.yaml"),
                         "/x/plan.yaml:11:18: catalog.imports[0].published = \"2026-02-30\": must be a date YYYY-MM or "
                         "YYYY-MM-DD",
                         InvalidInput);
    // a zone the file does not have
    std::string text = importing(data);
    text.replace(text.find("us-central1-b"), 13, "us-central1-z");
    CHECK_THROWS_WITH_AS(parse_scenario(text, "/x/plan.yaml"),
                         "/x/plan.yaml:5:11: offering = \"gcp/us-central1/a2-highgpu-8g/us-central1-z\": not in the "
                         "catalog; did you mean \"gcp/us-central1/a2-highgpu-8g/us-central1-a\"?",
                         InvalidInput);
}

TEST_CASE("a malformed price file gives the importer's message at the import") {
    const std::string bad = std::string(GPUTCO_BINARY_DIR) + "/tests/bad_vms.csv";
    {
        std::FILE* f = std::fopen(bad.c_str(), "w");
        REQUIRE(f != nullptr);
        std::fputs("InstanceType,vCPUs,MemoryGiB,AcceleratorName,AcceleratorCount,GpuInfo,Region,AvailabilityZone,Price,SpotPrice\n"
                   "a2-highgpu-8g,96.0,680.0,,,,us-central1,us-central1-a,cheap,2.9\n", f);
        std::fclose(f);
    }
    std::string message;
    try {
        parse_scenario(importing("    - file: " + bad), "/x/plan.yaml");
    } catch (const InvalidInput& e) {
        message = e.what();
    }
    // the place of the import, then what the importer says about the file's line and field
    CHECK(message == "/x/plan.yaml:9:7: " + bad + ":2: Price = \"cheap\": must be a number");
}

TEST_CASE("imports round-trip through YAML with every field") {
    Scenario s = load_scenario(scenarios + "/imported_gcp_prices.yaml");
    const std::string written = to_yaml(s);
    CHECK(written.find("zone: \"us-central1-a\"") != std::string::npos);
    CHECK(written.find("format: skypilot_csv") != std::string::npos);
    CHECK(to_yaml(parse_scenario(written, s.base_dir + "/written.yaml")) == written);
}

TEST_CASE("each file a scenario names is read once, on loading: the scenario runs after its files are gone") {
    // A scenario with a catalog file, an imported price file and a trace, in a folder of its own.
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / fmt::format("gputco_read_once_{}", std::random_device{}());
    fs::create_directories(dir / "data");
    const std::string csv = "data/skypilot_catalog_gcp_vms_gpu_excerpt_2026-04-02.csv";
    fs::copy_file(scenarios + "/" + csv, dir / csv);
    fs::copy_file(std::string(GPUTCO_SOURCE_DIR) + "/tests/data/catalog_small.json", dir / "data/catalog.json");
    {
        std::ofstream trace(dir / "data/lifetimes.txt");
        trace << "5\n7.5\n12\n";
    }
    std::string text = read_text_file(scenarios + "/imported_gcp_prices.yaml");
    text.replace(text.find("  imports:"), 10, "  file: data/catalog.json\n  imports:");
    text += "spot_jobs:\n"
            "  - {name: j, work_hours: 20, checkpoint_write_hours: 0.1, paths: 2000,\n"
            "     interruptions: {trace: {file: data/lifetimes.txt}}}\n";
    {
        std::ofstream out(dir / "s.yaml");
        out << text;
    }
    const Scenario s = load_scenario((dir / "s.yaml").string());
    const ScenarioResult before = run_scenario(s);
    fs::remove_all(dir);  // nothing left to read
    const ScenarioResult after = run_scenario(s);
    REQUIRE(after.strategies.size() == before.strategies.size());
    for (std::size_t i = 0; i < after.strategies.size(); ++i)
        CHECK(after.strategies[i].report.total == before.strategies[i].report.total);
    CHECK(after.spot_jobs.at(0).result.cost.mean == before.spot_jobs.at(0).result.cost.mean);
    CHECK(scenario_catalog(s).offering("mycloud", "a100x8", "eu-1").on_demand_hourly == 20);  // the catalog file's row

    // Changed after loading, the scenario's files are read anew (here: gone, so an error).
    Scenario changed = s;
    changed.imports[0].published = "2026-04-03";
    CHECK_THROWS_AS(scenario_catalog(changed), InvalidInput);
    // A scenario built in code reads its files when run.
    Scenario in_code = s;
    in_code.file_rows = nullptr;
    CHECK_THROWS_AS(run_scenario(in_code), InvalidInput);
}
