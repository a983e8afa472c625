// From a FOCUS bill to hourly GPU demand, unmatched SKUs and FinOps figures: the three providers'
// test files worked by hand, the errors, and a property over seeded random bills that the hourly
// demand sums to the usage rows' GPU quantities.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <fmt/format.h>
#include <zlib.h>

#include "gputco/bills/bill.hpp"
#include "gputco/core/error.hpp"
#include "gputco/core/gzip_file.hpp"

using namespace gputco;

namespace {

std::string data(const std::string& name) { return std::string(GPUTCO_SOURCE_DIR) + "/tests/data/focus/" + name; }

std::size_t pricing(PricingCategory c) { return std::size_t(c); }
std::size_t charge(ChargeCategory c) { return std::size_t(c); }

const std::string head =
    "BilledCost,EffectiveCost,ListCost,ContractedCost,BillingCurrency,ChargeCategory,ChargeClass,ChargePeriodStart,"
    "ChargePeriodEnd,PricingCategory,ConsumedQuantity,ConsumedUnit,ProviderName,ServiceCategory,SkuId,RegionId,"
    "CommitmentDiscountId,CommitmentDiscountStatus,x_UsageType";

std::string temp_file(const std::string& name, const std::string& text) {
    const auto path = std::filesystem::temp_directory_path() / ("gputco_test_bill_" + name);
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
}

std::string iso(std::int64_t seconds) {
    const std::int64_t days = seconds / 86400, rest = seconds % 86400;
    // civil from days (H. Hinnant), for the generator only
    const std::int64_t z = days + 719468, era = z / 146097, doe = z - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    const std::int64_t d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, rest / 3600, rest % 3600 / 60, rest % 60);
}

/// `text` gzip-compressed into a temporary file, as `members` concatenated gzip members (exports split
/// by size are sometimes joined so), through zlib's own writer.
std::string temp_gzip(const std::string& name, const std::string& text, int members = 1) {
    const auto path = (std::filesystem::temp_directory_path() / ("gputco_test_bill_" + name)).string();
    std::filesystem::remove(path);
    const std::size_t step = (text.size() + std::size_t(members) - 1) / std::size_t(members);
    for (int k = 0; k < members; ++k) {
        gzFile out = gzopen(path.c_str(), "ab");
        REQUIRE(out != nullptr);
        const std::string part = text.substr(std::min(text.size(), std::size_t(k) * step), step);
        REQUIRE(gzwrite(out, part.data(), unsigned(part.size())) == int(part.size()));
        REQUIRE(gzclose(out) == Z_OK);
    }
    return path;
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

TEST_CASE("gzip exports read as their CSV does, streamed; damaged ones are refused by name") {
    for (const char* name : {"aws_focus_1_2.csv", "azure_focuscost_1_0.csv", "gcp_focus_1_3.csv"}) {
        CAPTURE(name);
        const std::string text = file_text(data(name));
        const Bill plain = read_bill(data(name), Catalog::builtin());
        for (int members : {1, 3}) {
            const std::string gz = temp_gzip(std::string(name) + ".gz", text, members);
            CHECK(is_gzip_file(gz));
            CHECK_FALSE(is_gzip_file(data(name)));
            const Bill packed = read_bill(gz, Catalog::builtin());
            CHECK(packed.file == gz);
            CHECK(packed.rows_read == plain.rows_read);
            REQUIRE(packed.series.size() == plain.series.size());
            for (std::size_t i = 0; i < plain.series.size(); ++i) CHECK(packed.series[i].gpus == plain.series[i].gpus);
            CHECK(packed.figures.effective_cost == plain.figures.effective_cost);
            CHECK(packed.figures.billed_cost == plain.figures.billed_cost);
        }
    }
    // Small chunks give the same bytes as one large one.
    const std::string gz = temp_gzip("chunks.csv.gz", file_text(data("aws_focus_1_2.csv")), 2);
    std::string whole, pieces;
    read_file_chunks(gz, [&](std::string_view b) { whole += b; });
    read_file_chunks(gz, [&](std::string_view b) { CHECK(b.size() <= 7); pieces += b; }, 7);
    CHECK(whole == file_text(data("aws_focus_1_2.csv")));
    CHECK(pieces == whole);
    // Cut short: the reader says so instead of reducing half a file.
    std::string bytes = file_text(gz);
    bytes.resize(bytes.size() / 2);
    const std::string cut = temp_file("cut.csv.gz", bytes);
    CHECK_THROWS_WITH_AS(read_bill(cut, Catalog::builtin()),
                         fmt::format("path = \"{}\": is damaged gzip data (unexpected end of file)", cut).c_str(),
                         InvalidInput);
    CHECK_THROWS_WITH_AS(read_file_chunks("/nonexistent/bill.csv.gz", [](std::string_view) {}),
                         "path = \"/nonexistent/bill.csv.gz\": cannot be opened for reading", InvalidInput);
}

TEST_CASE("AWS FOCUS 1.2 with AWS columns: demand and FinOps figures by hand") {
    const Bill bill = read_bill(data("aws_focus_1_2.csv"), Catalog::builtin());
    CHECK(bill.version == FocusVersion::v1_2);
    CHECK(bill.currency == "USD");
    CHECK(bill.rows_read == 9);
    // p4d.24xlarge = 8 A100-40GB. On demand 00-01 (1 h × 8), Savings Plan 01-02 (8), spot 02:30-03:30
    // split over two hours (4 + 4). The unused commitment and the refund (a correction) are not usage.
    REQUIRE(bill.series.size() == 1);
    const GpuSeries& s = bill.series[0];
    CHECK(s.provider == "aws");
    CHECK(s.gpu == "A100-40GB");
    CHECK(s.instance_type == "p4d.24xlarge");
    CHECK(s.region == "us-east-1");
    CHECK(s.gpus_per_unit == 8);
    CHECK(s.first_hour == 1735689600 / 3600);  // 2025-01-01T00:00Z
    CHECK(s.gpus == std::vector<double>{8, 8, 4, 4});
    CHECK(s.gpu_hours == 24);
    CHECK(s.gpu_hours_by_pricing[pricing(PricingCategory::standard)] == 8);
    CHECK(s.gpu_hours_by_pricing[pricing(PricingCategory::committed)] == 8);
    CHECK(s.gpu_hours_by_pricing[pricing(PricingCategory::dynamic)] == 8);
    // Effective 32 + 20 + 12 = 64 over 24 GPU-hours; list 96 / 24 = 4.
    CHECK(s.effective_per_gpu_hour() == doctest::Approx(64.0 / 24));
    CHECK(s.list_per_gpu_hour() == 4.0);
    // The m5.large hours are compute without a GPU: reported with their spend.
    REQUIRE(bill.unmatched.size() == 1);
    CHECK(bill.unmatched[0].sku_id == "M5L-OD");
    CHECK(bill.unmatched[0].name == "m5.large");
    CHECK(bill.unmatched[0].effective_cost == doctest::Approx(0.192));
    // Usage rows: list 32 + 32 + 0 + 32 + 0.192 − 5 = 91.192; effective 32 + 20 + 4 + 12 + 0.192 − 5 = 63.192.
    const FinOpsFigures& f = bill.figures;
    CHECK(f.list_cost == doctest::Approx(91.192));
    CHECK(f.effective_cost == doctest::Approx(63.192));
    CHECK(f.effective_savings_rate() == doctest::Approx(28.0 / 91.192));  // 1 − 63.192 / 91.192 = 0.30704
    CHECK(f.used_commitment_cost == 20);
    CHECK(f.waste() == 4);
    CHECK(f.commitment_utilisation() == doctest::Approx(20.0 / 24));     // 0.8333
    CHECK(f.coverage() == doctest::Approx(32.0 / 91.192));               // covered list / list not Unused = 0.35091
    // Invoice: usage 32 + 0 + 0 + 12 + 0.192 − 5, purchase 24, tax 3, credit −10.
    CHECK(f.billed_by_charge[charge(ChargeCategory::usage)] == doctest::Approx(39.192));
    CHECK(f.billed_by_charge[charge(ChargeCategory::purchase)] == 24);
    CHECK(f.billed_by_charge[charge(ChargeCategory::tax)] == 3);
    CHECK(f.billed_by_charge[charge(ChargeCategory::credit)] == -10);
    CHECK(f.billed_cost == doctest::Approx(56.192));
    CHECK(f.effective_by_pricing[pricing(PricingCategory::standard)] == doctest::Approx(27.192));  // 32 + 0.192 − 5
    CHECK(f.effective_by_pricing[pricing(PricingCategory::committed)] == 24);                     // 20 used + 4 unused
    CHECK(f.effective_by_pricing[pricing(PricingCategory::dynamic)] == 12);
    // The Savings Plan: used 20, unused 4, its fee 24 billed, rows from 01:00 to 03:00.
    REQUIRE(bill.commitments.size() == 1);
    const CommitmentSummary& sp = bill.commitments[0];
    CHECK(sp.id == "arn:aws:savingsplans::111122223333:savingsplan/sp-1");
    CHECK(sp.type == "Compute Savings Plans");
    CHECK(sp.used_cost == 20);
    CHECK(sp.unused_cost == 4);
    CHECK(sp.covered_list_cost == 32);
    CHECK(sp.purchase_billed == 24);
    CHECK(sp.utilisation() == doctest::Approx(20.0 / 24));
    CHECK(sp.first_start == 1735689600 + 3600);
    CHECK(sp.last_end == 1735689600 + 3 * 3600);
    // The GPU rows alone: list 96, effective 64 → ESR 1/3; coverage 32 / 96.
    CHECK(bill.gpu_figures.effective_savings_rate() == doctest::Approx(1.0 / 3));
    CHECK(bill.gpu_figures.coverage() == doctest::Approx(1.0 / 3));
}

TEST_CASE("Azure FocusCost 1.0 in EUR: a reservation half unused, spot, an adjustment") {
    BillOptions options;
    options.focus.version = FocusVersion::v1_0;
    const Bill bill = read_bill(data("azure_focuscost_1_0.csv"), Catalog::builtin(), options);
    CHECK(bill.version == FocusVersion::v1_0);
    CHECK(bill.currency == "EUR");
    REQUIRE(bill.series.size() == 1);
    // Standard_ND96asr_v4 = 8 A100-40GB: 1 h under the reservation (8), then 2 spot instances (16).
    CHECK(bill.series[0].instance_type == "Standard_ND96asr_v4");
    CHECK(bill.series[0].gpu == "A100-40GB");
    CHECK(bill.series[0].gpus == std::vector<double>{8, 16});
    CHECK(bill.unmatched.empty());  // the disk is Storage, not compute
    const FinOpsFigures& f = bill.figures;
    // list 30 + 0 + 60 + 1.5 = 91.5; effective 18 + 18 + 12 + 1.5 = 49.5.
    CHECK(f.effective_savings_rate() == doctest::Approx(42.0 / 91.5));  // 0.45902
    CHECK(f.commitment_utilisation() == 0.5);                            // 18 / (18 + 18)
    CHECK(f.waste() == 18);
    CHECK(f.coverage() == doctest::Approx(30.0 / 91.5));                 // 0.32787
    CHECK(f.contracted_cost == doctest::Approx(27 + 60 + 1.5));
    CHECK(f.billed_cost == doctest::Approx(47.5));                       // 12 + 36 − 2 + 1.5
    CHECK(f.billed_by_charge[charge(ChargeCategory::adjustment)] == -2);
    REQUIRE(bill.commitments.size() == 1);
    CHECK(bill.commitments[0].type == "Reservation");
    CHECK(bill.commitments[0].utilisation() == 0.5);
    CHECK(bill.commitments[0].purchase_billed == 36);
}

TEST_CASE("GCP FOCUS 1.3 in JPY: GPUs as their own SKUs, seconds and hours, a CUD partly unused") {
    const Bill bill = read_bill(data("gcp_focus_1_3.csv"), Catalog::builtin());
    CHECK(bill.version == FocusVersion::v1_3);
    CHECK(bill.currency == "JPY");
    REQUIRE(bill.series.size() == 1);
    // 7,200 GPU-seconds (2 GPU-hours) + 1 spot GPU-hour in hour 0; 2 CUD GPU-hours in hour 1.
    CHECK(bill.series[0].gpu == "A100-40GB");
    CHECK(bill.series[0].instance_type.empty());
    CHECK(bill.series[0].gpus == std::vector<double>{3, 2});
    REQUIRE(bill.unmatched.size() == 1);
    CHECK(bill.unmatched[0].name == "A2 Instance Core running in Americas");
    CHECK(bill.unmatched[0].effective_cost == 400);
    const FinOpsFigures& f = bill.figures;
    // list 7000 + 7000 + 0 + 3500 + 400 − 100 = 17,800; effective 7000 + 4000 + 2000 + 1200 + 400 − 100 = 14,500.
    CHECK(f.effective_savings_rate() == doctest::Approx(3300.0 / 17800));  // 0.18539
    CHECK(f.commitment_utilisation() == doctest::Approx(4000.0 / 6000));
    CHECK(f.waste() == 2000);
    CHECK(f.coverage() == doctest::Approx(7000.0 / 17800));
    CHECK(f.billed_cost == 14300);  // 7000 + 4000 + 2000 + 1200 + 400 − 500 + 300 − 100
}

TEST_CASE("a window keeps the rows that start in it") {
    BillOptions options;
    options.window_start = 1735689600 + 3600;  // 01:00
    options.window_end = 1735689600 + 3 * 3600;
    const Bill bill = read_bill(data("aws_focus_1_2.csv"), Catalog::builtin(), options);
    // Rows starting at 01:00 and 02:00-02:30: Savings Plan (used), unused, purchase, spot.
    CHECK(bill.figures.rows == 4);
    CHECK(bill.figures.commitment_utilisation() == doctest::Approx(20.0 / 24));
    CHECK(bill.figures.list_cost == 64);
    REQUIRE(bill.series.size() == 1);
    CHECK(bill.series[0].gpus == std::vector<double>{8, 4, 4});
}

TEST_CASE("bill errors name file, row and column") {
    const std::string row = "1,1,1,1,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,1,Hrs,AWS,Compute,S,us-east-1,,,";
    const std::string eur = "1,1,1,1,EUR,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,1,Hrs,AWS,Compute,S,us-east-1,,,";
    const std::string path = temp_file("currency.csv", head + "\n" + row + "\n" + eur + "\n");
    BillOptions options;
    options.focus.file = "bill.csv";
    CHECK_THROWS_WITH_AS(read_bill(path, Catalog::builtin(), options),
                         "bill.csv:3 BillingCurrency = \"EUR\": differs from USD (row 2): one currency per bill", InvalidInput);
    // One GPU hour is not a month of history.
    const std::string gpu = "1,1,1,1,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,1,Hrs,AWS,Compute,S,us-east-1,,,"
                            "USE1-BoxUsage:p4d.24xlarge";
    const Bill short_bill = read_bill(temp_file("short.csv", head + "\n" + gpu + "\n"), Catalog::builtin());
    CHECK_THROWS_WITH_AS(short_bill.demand(), "bill.hours = 1: must be >= 730 (one whole month of usage) to make a demand history",
                         InvalidInput);
    CHECK_THROWS_WITH_AS(short_bill.demand("H100"), "bill.gpu = \"H100\": no GPU usage of it in the bill", InvalidInput);
    // GPU rows under ServiceCategory "AI and Machine Learning" count; Storage rows do not.
    const std::string ml = "1,1,1,1,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,2,Hrs,AWS,"
                           "AI and Machine Learning,S,us-east-1,,,USE1-BoxUsage:p4d.24xlarge";
    const std::string storage = "1,1,1,1,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,2,Hrs,AWS,"
                                "Storage,S,us-east-1,,,USE1-BoxUsage:p4d.24xlarge";
    const Bill categories = read_bill(temp_file("categories.csv", head + "\n" + ml + "\n" + storage + "\n"), Catalog::builtin());
    REQUIRE(categories.series.size() == 1);
    CHECK(categories.series[0].gpu_hours == 16);
    // A GPU billed in a unit that is not a time is reported with its spend, not dropped.
    const std::string months = "5,5,5,5,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,2,Instance-Months,AWS,"
                               "Compute,S,us-east-1,,,USE1-BoxUsage:p4d.24xlarge";
    const Bill unit = read_bill(temp_file("unit.csv", head + "\n" + months + "\n"), Catalog::builtin());
    CHECK(unit.series.empty());
    REQUIRE(unit.unmatched.size() == 1);
    CHECK(unit.unmatched[0].name == "p4d.24xlarge in Instance-Months (not a unit of time)");
    CHECK(unit.unmatched[0].effective_cost == 5);
    // A name that is not UTF-8 is refused where it is read, not kept as bytes no front door can show.
    const std::string latin1 = "1,1,1,1,USD,Usage,,2025-01-01T00:00:00Z,2025-01-01T01:00:00Z,Standard,1,Hrs,AWS,Compute,S,"
                               "us-east-1,,,Caf\xe9";
    CHECK_THROWS_WITH_AS(read_bill(temp_file("latin1.csv", head + "\n" + latin1 + "\n"), Catalog::builtin(), options),
                         "bill.csv:2 x_UsageType = \"Caf\\xE9\": must be UTF-8 text", InvalidInput);
    // The user's SKU map names an instance the export does not.
    BillOptions mapped;
    mapped.sku_instance_types["S"] = "p5.48xlarge";
    const Bill m = read_bill(temp_file("mapped.csv", head + "\n" + row + "\n"), Catalog::builtin(), mapped);
    REQUIRE(m.series.size() == 1);
    CHECK(m.series[0].gpu == "H100");
    CHECK(m.series[0].gpu_hours == 8);
}

TEST_CASE("property: over seeded random bills, hourly demand sums to the usage rows' GPU quantities") {
    // Random rows: GPU instances of known size, periods of 1 s to 30 h at any second, quantities in
    // hours or seconds, every charge category and commitment status, corrections, non-GPU compute.
    const std::vector<std::pair<std::string, int>> instances{{"p4d.24xlarge", 8}, {"g5.xlarge", 1}, {"p5.48xlarge", 8},
                                                             {"g6.12xlarge", 4}, {"m5.large", 0}};
    const std::vector<std::string> categories{"Usage", "Usage", "Usage", "Purchase", "Tax", "Credit", "Adjustment"};
    const std::vector<std::string> regions{"us-east-1", "us-west-2"};
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        std::mt19937_64 rng(seed);
        auto pick = [&](std::size_t n) { return std::size_t(rng() % n); };
        std::string text = head + "\n";
        double expected = 0, expected_list = 0;
        const int rows = 1 + int(pick(60));
        const std::int64_t t0 = 1735689600 + std::int64_t(pick(1000)) * 3600;
        for (int r = 0; r < rows; ++r) {
            const auto& [instance, gpus] = instances[pick(instances.size())];
            const std::string& category = categories[pick(categories.size())];
            const bool correction = pick(10) == 0;
            const int commitment = int(pick(3));  // none, Used, Unused
            const std::int64_t start = t0 + std::int64_t(pick(1000 * 3600));
            const std::int64_t end = start + 1 + std::int64_t(pick(30 * 3600));
            const bool seconds = pick(2) == 0;
            const double hours = double(pick(1000)) / 100.0;
            const double list = double(pick(10000)) / 100.0;
            const bool usage = category == "Usage";
            text += fmt::format("{0},{0},{0},{0},USD,{1},{2},{3},{4},{5},{6},{7},AWS,Compute,{8},{9},{10},{11},USE1-BoxUsage:{8}\n",
                                list, category, correction ? "Correction" : "", iso(start), iso(end),
                                commitment == 0 ? "Standard" : "Committed", seconds ? hours * 3600 : hours,
                                seconds ? "Seconds" : "Hrs", instance, regions[pick(regions.size())],
                                commitment == 0 ? "" : (pick(2) ? "cd-1" : "cd-2"),
                                commitment == 0 || !usage ? (commitment == 0 ? "" : "Used") : (commitment == 1 ? "Used" : "Unused"));
            if (usage) expected_list += list;
            if (usage && !correction && commitment != 2 && gpus > 0) expected += hours * gpus;
        }
        const Bill bill = read_bill(temp_file("random.csv", text), Catalog::builtin());
        double total = 0, series_total = 0;
        for (const GpuSeries& s : bill.series) {
            total += std::accumulate(s.gpus.begin(), s.gpus.end(), 0.0);
            series_total += s.gpu_hours;
            for (double g : s.gpus) CHECK(g >= 0.0);
        }
        INFO("seed ", seed);
        CHECK(total == doctest::Approx(expected).epsilon(1e-12));
        CHECK(series_total == doctest::Approx(expected).epsilon(1e-12));
        CHECK(bill.figures.list_cost == doctest::Approx(expected_list).epsilon(1e-12));
        // The commitments' sums are the figures' commitment sums, split by id.
        double used = 0, unused = 0;
        for (const CommitmentSummary& c : bill.commitments) {
            used += c.used_cost;
            unused += c.unused_cost;
        }
        CHECK(used == doctest::Approx(bill.figures.used_commitment_cost).epsilon(1e-12));
        CHECK(unused == doctest::Approx(bill.figures.unused_commitment_cost).epsilon(1e-12));
        // The demand history is the series' sum over the latest whole months of the bill's hours.
        if (expected > 0 && bill.series.front().gpus.size() >= 730) {
            const auto [first, count] = bill.demand_hours();
            double kept = 0;
            for (const GpuSeries& s : bill.series)
                for (std::size_t i = 0; i < s.gpus.size(); ++i) {
                    const std::int64_t h = s.first_hour + std::int64_t(i);
                    if (h >= first && h < first + std::int64_t(count)) kept += s.gpus[i];
                }
            CHECK(bill.demand().gpus_per_hour().sum() == doctest::Approx(kept).epsilon(1e-12));
        }
    }
}

TEST_CASE("property: a bill fed in chunks of any size reads as the whole file does") {
    for (const std::string name : {"aws_focus_1_2.csv", "azure_focuscost_1_0.csv", "gcp_focus_1_3.csv"}) {
        std::ifstream in(data(name), std::ios::binary);
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const Bill whole = read_bill(data(name), Catalog::builtin());
        for (std::uint64_t seed = 1; seed <= 50; ++seed) {
            std::mt19937_64 rng(seed);
            BillStream stream(data(name), Catalog::builtin());
            for (std::size_t at = 0; at < text.size();) {
                const std::size_t n = std::min<std::size_t>(text.size() - at, 1 + rng() % 64);
                stream.feed(std::string_view(text).substr(at, n));
                at += n;
            }
            const Bill chunked = stream.finish();
            INFO(name, " seed ", seed);
            CHECK(chunked.version == whole.version);
            CHECK(chunked.rows_read == whole.rows_read);
            REQUIRE(chunked.series.size() == whole.series.size());
            for (std::size_t i = 0; i < whole.series.size(); ++i) CHECK(chunked.series[i].gpus == whole.series[i].gpus);
            CHECK(chunked.figures.effective_cost == whole.figures.effective_cost);
            CHECK(chunked.figures.billed_cost == whole.figures.billed_cost);
            CHECK(chunked.unmatched.size() == whole.unmatched.size());
        }
    }
    BillStream open_quote("x.csv", Catalog::builtin());
    open_quote.feed(head + "\n\"1");
    CHECK_THROWS_WITH_AS(open_quote.finish(), "x.csv:2 = (end of file): inside a quoted field", InvalidInput);
}

TEST_CASE("at_bill_rates: the offering at what the bill paid per GPU-hour") {
    const Bill bill = read_bill(data("aws_focus_1_2.csv"), Catalog::builtin());
    const Offering& p4d = Catalog::builtin().offering("aws", "p4d.24xlarge", "us-east-1");
    const Offering billed = at_bill_rates(p4d, bill, bill.series[0]);
    // Standard: 8 GPU-hours for 32 (the refund is a correction, not in the series) → 4 per GPU-hour × 8 GPUs.
    CHECK(billed.on_demand_hourly == 32);
    // Dynamic: 8 GPU-hours for 12 → 1.5 × 8 = 12 per instance-hour.
    REQUIRE(billed.spot_hourly.has_value());
    CHECK(*billed.spot_hourly == 12);
    CHECK(billed.reserved.size() == p4d.reserved.size());
    CHECK(billed.notes.find("on demand at the bill's effective rate (32 per instance-hour); spot at the bill's effective "
                            "rate (12 per instance-hour)") != std::string::npos);
    const Offering eur = p4d.converted("EUR", 0.9);
    CHECK_THROWS_WITH_AS(at_bill_rates(eur, bill, bill.series[0]),
                         "offering.currency = \"EUR\": must be the bill's currency (USD): convert the offering first", InvalidInput);
    const Offering& h100 = Catalog::builtin().offering("aws", "p5.48xlarge", "us-east-1");
    CHECK_THROWS_WITH_AS(at_bill_rates(h100, bill, bill.series[0]),
                         "series.gpu = \"A100-40GB\": must be the offering's GPU (H100)", InvalidInput);
}
