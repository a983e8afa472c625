// Speed of rank_offerings(): ResNet-50 for 90 epochs over the built-in catalog, (a) without spot (the
// deterministic rows: throughput look-ups, scaling fits, billing) and (b) with spot, where each spot
// offering runs one simulate_spot of the run. References measured in the same run: (a) one throughput
// row look-up (ThroughputTable::find) per offering, the least a ranking must do; (b) one simulate_spot of the same job,
// so the ratio reads as "how many spot simulations a ranking costs".
//
//   build/benchmarks/bench_work [--rounds N]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include <fmt/format.h>

#include <gputco/gputco.hpp>

using namespace gputco;
using Clock = std::chrono::steady_clock;

namespace {

template <class F>
double best_milliseconds(F&& call, int repeats, int rounds) {
    double best = 1e300;
    for (int r = 0; r < rounds; ++r) {
        const auto start = Clock::now();
        for (int i = 0; i < repeats; ++i) call();
        const std::chrono::duration<double, std::milli> elapsed = Clock::now() - start;
        best = std::min(best, elapsed.count() / repeats);
    }
    return best;
}

volatile double sink = 0;

}  // namespace

int main(int argc, char** argv) {
    int rounds = 5;
    if (argc > 2 && std::strcmp(argv[1], "--rounds") == 0) rounds = std::max(1, std::atoi(argv[2]));
    const Catalog& catalog = Catalog::builtin();
    const ThroughputTable& table = ThroughputTable::builtin();
    const Workload resnet{.name = "ResNet-50", .model = "resnet50", .work_per_epoch = 1'281'167, .epochs = 90};

    RankOptions deterministic;
    deterministic.spot = false;
    const double reference_a = best_milliseconds(
        [&] {
            double total = 0;
            for (const Offering& o : catalog.offerings()) {
                const GpuMatch m = match_gpu(o.gpu);
                if (const ThroughputRow* row = table.find(m.benchmark_gpu, o.gpus_per_instance, Precision::mixed, "resnet50"))
                    total += row->per_second;
            }
            sink = total;
        },
        200, rounds);
    const double ranking_a = best_milliseconds(
        [&] { sink = rank_offerings(resnet, catalog, table, deterministic).rows.front().cost_per_run; }, 50, rounds);

    RankOptions with_spot;  // 20,000 paths per spot offering, all cores
    const WorkRanking r = rank_offerings(resnet, catalog, table, with_spot);
    const auto spot_rows = std::count_if(r.rows.begin(), r.rows.end(),
                                         [](const WorkCostRow& x) { return x.buying == BuyingWay::spot; });
    // One spot simulation of the same run on the p4d (8 GPUs, 3.11 h of work).
    const Offering& p4d = catalog.offering("aws", "p4d.24xlarge", "us-east-1");
    const auto& s = with_spot.spot_assumptions;
    Job job;
    job.work_hours = resnet.total_work() / table.find("A100 80GB SXM4", 8, Precision::mixed, "resnet50")->per_second / 3600;
    job.checkpoint_write_hours = s.checkpoint_write_hours;
    job.checkpoint_interval_hours = optimal_checkpoint_interval(s.checkpoint_write_hours, s.mtbf_hours);
    job.restart_hours = s.restart_hours;
    SpotPricing pricing;
    pricing.price_per_hour = *p4d.spot_hourly;
    pricing.billing_increment_hours = p4d.billing_increment_seconds / 3600;
    pricing.minimum_billed_hours = p4d.minimum_billed_seconds / 3600;
    const double reference_b = best_milliseconds(
        [&] { sink = simulate_spot(job, Poisson{.mtbf_hours = s.mtbf_hours}, pricing, s.simulation).cost.mean; }, 5,
        rounds);
    const double ranking_b = best_milliseconds(
        [&] { sink = rank_offerings(resnet, catalog, table, with_spot).rows.front().cost_per_run; }, 2, rounds);

    fmt::print("rank_offerings, ResNet-50 x 90 epochs, built-in catalog ({} offerings), best of {} rounds\n",
               catalog.offerings().size(), rounds);
    fmt::print("(a) no spot: {:.3f} ms per ranking; reference (one row look-up per offering) {:.4f} ms; "
               "ratio {:.1f}\n",
               ranking_a, reference_a, ranking_a / reference_a);
    fmt::print("(b) with spot ({} spot rows, {} paths each): {:.1f} ms per ranking; one simulate_spot of the p4d "
               "run {:.2f} ms; ratio {:.1f}\n",
               spot_rows, s.simulation.paths, ranking_b, reference_b, ranking_b / reference_b);
    return 0;
}
