// Reducing a FOCUS CSV export to hourly GPU demand: rows per second and memory.
//   A synthetic AWS-style FOCUS 1.2 export (default 2 million rows, ~500 MB on disk) of 24 GPU series
//   (instance types × regions) over a year of hours, with on-demand, Savings Plan used and unused, spot,
//   a split hour every 7th row, taxes, credits and non-GPU compute, is written to a temporary file and
//   read back by read_bill (streamed CSV, checked rows, catalog matching, hourly spreading, FinOps sums).
//   Reference in the same run: a plain pass over the same file that reads it in the same 1 MiB chunks
//   and only splits lines (memchr for '\n'), i.e. the I/O and the newline scan every reader pays.
// Memory: peak resident set during the read minus resident set before (VmHWM reset through
// /proc/self/clear_refs; benchmarks/peak_memory.hpp, as bench_import), the largest of the runs.
//
// CPU time (user + system of the process, getrusage) beside the wall time: on a shared machine the wall
// time counts the waits for a core, the CPU time only the work. --plain 0 leaves the reference out (a
// file larger than the page cache is then read once from disk, not twice). TMPDIR sets where the file
// is written; it is deleted afterwards.
//
// Usage: bench_focus [--rows N] [--repeat N] [--plain 0|1]
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "peak_memory.hpp"

#include "gputco/bills/bill.hpp"

namespace {

using bench::Measure;

/// User and system CPU seconds of the process so far.
std::pair<double, double> cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return {double(u.ru_utime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec),
            double(u.ru_stime.tv_sec) + 1e-6 * double(u.ru_stime.tv_usec)};
}

struct Timed {
    Measure m;
    double cpu = 1e300;  ///< the least CPU time (user + system) of the runs
    double system = 0;   ///< the system part of that run (reading the file: the kernel's copies)
};

// The largest peak of the runs, the least CPU time.
template <class F>
Timed measure(int repeat, F&& run) {
    Timed t;
    t.m = bench::measure(repeat, [&] {
        const auto [u0, s0] = cpu_seconds();
        run();
        const auto [u1, s1] = cpu_seconds();
        if (u1 - u0 + s1 - s0 < t.cpu) {
            t.cpu = u1 - u0 + s1 - s0;
            t.system = s1 - s0;
        }
    }, bench::PeakOf::largest_run);
    return t;
}

std::string iso(long long seconds) {
    const long long days = seconds / 86400, rest = seconds % 86400;
    const long long z = days + 719468, era = z / 146097, doe = z - era * 146097;
    const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    const long long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9, y = yoe + era * 400 + (m <= 2);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", y, m, d, rest / 3600, rest % 3600 / 60, rest % 60);
}

/// Writes `rows` data rows; returns the file's size in bytes.
std::size_t write_export(const std::string& path, std::size_t rows) {
    const char* header =
        "BilledCost,BillingAccountId,BillingCurrency,ChargeCategory,ChargeClass,ChargeDescription,ChargePeriodEnd,"
        "ChargePeriodStart,CommitmentDiscountId,CommitmentDiscountStatus,CommitmentDiscountType,ConsumedQuantity,"
        "ConsumedUnit,ContractedCost,EffectiveCost,ListCost,PricingCategory,ProviderName,RegionId,ResourceId,"
        "ServiceCategory,ServiceName,SkuId,x_Operation,x_UsageType\n";
    const std::vector<std::string> instances{"p4d.24xlarge", "p5.48xlarge", "g5.xlarge", "g6.12xlarge",
                                             "g5.48xlarge", "p4de.24xlarge", "g6e.xlarge", "p3.16xlarge"};
    const std::vector<std::string> regions{"us-east-1", "us-west-2", "eu-west-1"};
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> out(std::fopen(path.c_str(), "wb"), &std::fclose);
    std::fputs(header, out.get());
    const long long t0 = 1735689600;  // 2025-01-01T00:00Z
    std::string line;
    std::uint64_t x = 88172645463325252ULL;  // xorshift: the same file every run
    auto next = [&] { x ^= x << 13; x ^= x >> 7; x ^= x << 17; return x; };
    for (std::size_t i = 0; i < rows; ++i) {
        const std::uint64_t r = next();
        const std::string& instance = instances[r % instances.size()];
        const std::string& region = regions[(r >> 8) % regions.size()];
        const long long hour = (long long)((r >> 16) % 8760);
        const bool split = i % 7 == 0;
        const long long start = t0 + hour * 3600 + (split ? 1800 : 0);
        const std::string from = iso(start), to = iso(start + 3600);
        const double quantity = double((r >> 32) % 8 + 1);
        const int kind = int((r >> 40) % 20);
        const std::string usage = fmt::format("USE1-{}:{}", kind < 4 ? "SpotUsage" : "BoxUsage", instance);
        if (kind < 4) {
            line = fmt::format("{:.4f},111122223333,USD,Usage,,Spot {},{},{},,,,{},Hrs,{:.4f},{:.4f},{:.4f},Dynamic,AWS,{},"
                               "i-{:08x},Compute,Amazon Elastic Compute Cloud,SKU{},RunInstances:SV001,{}\n",
                               quantity * 9.8, instance, to, from, quantity, quantity * 32.77, quantity * 9.8,
                               quantity * 32.77, region, r & 0xffffffff, r % 97, usage);
        } else if (kind < 10) {
            line = fmt::format("0,111122223333,USD,Usage,,{} covered by Savings Plan,{},{},arn:aws:savingsplans::1:sp/1,Used,"
                               "Compute Savings Plans,{},Hrs,{:.4f},{:.4f},{:.4f},Committed,AWS,{},i-{:08x},Compute,"
                               "Amazon Elastic Compute Cloud,SKU{},RunInstances,{}\n",
                               instance, to, from, quantity, quantity * 32.77, quantity * 20.1, quantity * 32.77, region,
                               r & 0xffffffff, r % 97, usage);
        } else if (kind == 10) {
            line = fmt::format("0,111122223333,USD,Usage,,Savings Plan unused,{},{},arn:aws:savingsplans::1:sp/1,Unused,"
                               "Compute Savings Plans,,,0,{:.4f},0,Committed,AWS,{},,Compute,Amazon Elastic Compute Cloud,,,"
                               "ComputeSP:1yrNoUpfront\n",
                               to, from, quantity * 20.1, region);
        } else if (kind == 11) {
            line = fmt::format("{:.4f},111122223333,USD,{},,Tax or credit,{},{},,,,,,0,{:.4f},0,,AWS,{},,Compute,"
                               "Amazon Elastic Compute Cloud,,,\n",
                               (r & 1) ? 1.5 : -2.0, (r & 1) ? "Tax" : "Credit", to, from, (r & 1) ? 1.5 : -2.0, region);
        } else if (kind == 12) {
            line = fmt::format("0.096,111122223333,USD,Usage,,m5.large,{},{},,,,1,Hrs,0.096,0.096,0.096,Standard,AWS,{},"
                               "i-{:08x},Compute,Amazon Elastic Compute Cloud,M5L,RunInstances,USE1-BoxUsage:m5.large\n",
                               to, from, region, r & 0xffffffff);
        } else {
            line = fmt::format("{:.4f},111122223333,USD,Usage,,On Demand {},{},{},,,,{},Hrs,{:.4f},{:.4f},{:.4f},Standard,AWS,{},"
                               "i-{:08x},Compute,Amazon Elastic Compute Cloud,SKU{},RunInstances,{}\n",
                               quantity * 32.77, instance, to, from, quantity, quantity * 32.77, quantity * 32.77,
                               quantity * 32.77, region, r & 0xffffffff, r % 97, usage);
        }
        std::fputs(line.c_str(), out.get());
    }
    std::fflush(out.get());
    return std::filesystem::file_size(path);
}

/// The reference: the same chunks, lines counted with memchr.
std::size_t split_lines(const std::string& path) {
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> in(std::fopen(path.c_str(), "rb"), &std::fclose);
    std::vector<char> chunk(std::size_t(1) << 20);
    std::size_t lines = 0;
    for (;;) {
        const std::size_t n = std::fread(chunk.data(), 1, chunk.size(), in.get());
        const char* p = chunk.data();
        const char* end = p + n;
        while ((p = static_cast<const char*>(std::memchr(p, '\n', std::size_t(end - p)))) != nullptr) {
            ++lines;
            ++p;
        }
        if (n < chunk.size()) break;
    }
    return lines;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t rows = 2'000'000;
    int repeat = 3;
    bool plain_pass = true;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (std::strcmp(argv[i], "--rows") == 0) rows = std::stoul(argv[i + 1]);
        if (std::strcmp(argv[i], "--repeat") == 0) repeat = std::stoi(argv[i + 1]);
        if (std::strcmp(argv[i], "--plain") == 0) plain_pass = std::stoi(argv[i + 1]) != 0;
    }
    const std::string path = (std::filesystem::temp_directory_path() / "gputco_bench_focus.csv").string();
    const std::size_t bytes = write_export(path, rows);
    fmt::print("FOCUS export: {} rows, {:.1f} MB\n", rows, double(bytes) / 1e6);
    const auto print = [&](const char* what, const Timed& t, const std::string& extra) {
        fmt::print("{}: {:.3f} s wall, {:.3f} s CPU ({:.3f} s system), {:.2f} M rows/s of CPU, {:.0f} MB/s of CPU, "
                   "peak +{:.1f} MiB{}\n",
                   what, t.m.seconds, t.cpu, t.system, double(rows) / t.cpu / 1e6, double(bytes) / t.cpu / 1e6,
                   t.m.peak_mib, extra);
    };
    std::size_t lines = 0;
    Timed plain;
    if (plain_pass) {
        plain = measure(repeat, [&] { lines = split_lines(path); });
        print("plain line split", plain, fmt::format(" ({} lines)", lines));
    }
    gputco::Bill bill;
    const gputco::Catalog& catalog = gputco::Catalog::builtin();
    const Timed reduce = measure(repeat, [&] { bill = gputco::read_bill(path, catalog); });
    print("read_bill       ", reduce, fmt::format(", peak resident {:.1f} MiB", double(bench::status_kib("VmHWM:")) / 1024));
    if (plain_pass) fmt::print("ratio read_bill / plain: {:.1f}x the CPU time\n", reduce.cpu / plain.cpu);
    double gpu_hours = 0;
    for (const auto& s : bill.series) gpu_hours += s.gpu_hours;
    fmt::print("{} series, {:.0f} GPU-hours, {} unmatched SKUs, ESR {:.4f}, utilisation {:.4f}\n", bill.series.size(),
               gpu_hours, bill.unmatched.size(), bill.figures.effective_savings_rate(),
               bill.figures.commitment_utilisation());
    std::filesystem::remove(path);
    return 0;
}
