// Speed of the spot Monte Carlo on the reference job (benchmarks/README.md):
// W = 2000 h, MTBF 20 h, tau = 2 h, delta = 0.1 h, R = 0.25 h, $1.2/h, 10^6 paths.
// Prints ns per interruption event and paths per second on 1 thread and on all cores, best of
// --repeat runs, for the kernel simulate_spot picks or, with --kernels all, for each kernel this CPU
// runs (the portable one first, the reference of the others' ratios).
// --models all also times the other interruption models on the same job (1 thread, on each lane kernel
// timed).
// Each kernel is also timed with keep_samples = false (no samples; summaries streamed per batch).
// Usage: bench_spot [--paths N] [--repeat K] [--threads T] [--kernels auto|all] [--models all]
//                   [--model-paths N]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>
#include <cstdlib>
#include <stdlib.h>  // setenv
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "gputco/core/random.hpp"
#include "gputco/engines/spot.hpp"

namespace {

struct Timing {
    double seconds = 0;   // whole simulate_spot call (simulation + the five summaries)
    double summaries_seconds = 0;
    double events = 0;    // interruptions summed over all paths
    double mean_cost = 0;
    std::string kernel;
};

Timing run(std::size_t paths, unsigned threads,
           const gputco::InterruptionModel& model = gputco::Poisson{.mtbf_hours = 20}, bool keep_samples = true) {
    const gputco::Job job{.work_hours = 2000, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                          .restart_hours = 0.25};
    const auto start = std::chrono::steady_clock::now();
    const gputco::SpotResult r = gputco::simulate_spot(job, model, {.price_per_hour = 1.2},
                                                       {.paths = paths, .seed = 2024, .threads = threads,
                                                        .keep_samples = keep_samples});
    const auto stop = std::chrono::steady_clock::now();
    // The summaries alone, to separate them from the path simulation.
    const auto s0 = std::chrono::steady_clock::now();
    if (keep_samples) {
        for (const auto* v : {&r.samples.wall_hours, &r.samples.billed_hours, &r.samples.cost,
                              &r.samples.interruptions, &r.samples.lost_work_hours})
            (void)gputco::summarize(*v);
    }
    const auto s1 = std::chrono::steady_clock::now();
    Timing t;
    t.seconds = std::chrono::duration<double>(stop - start).count();
    t.summaries_seconds = std::chrono::duration<double>(s1 - s0).count();
    t.events = r.interruptions.mean * static_cast<double>(r.paths);
    t.mean_cost = r.cost.mean;
    t.kernel = r.kernel;
    return t;
}

Timing best_of(std::size_t paths, unsigned threads, int repeat,
               const gputco::InterruptionModel& model = gputco::Poisson{.mtbf_hours = 20}, bool keep_samples = true) {
    Timing best = run(paths, threads, model, keep_samples);
    for (int i = 1; i < repeat; ++i) {
        const Timing t = run(paths, threads, model, keep_samples);
        if (t.seconds < best.seconds) best = t;
    }
    return best;
}

}  // namespace

int main(int argc, char** argv) {
    std::size_t paths = 1'000'000;
    int repeat = 3;
    unsigned all = std::max(1u, std::thread::hardware_concurrency());
    std::string which = "auto";
    bool models = false;
    std::size_t model_paths = 0;  // 0: --paths
    for (int i = 1; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--paths") paths = std::strtoull(argv[i + 1], nullptr, 10);
        else if (flag == "--repeat") repeat = std::atoi(argv[i + 1]);
        else if (flag == "--threads") all = static_cast<unsigned>(std::atoi(argv[i + 1]));
        else if (flag == "--kernels") which = argv[i + 1];
        else if (flag == "--models") models = std::string(argv[i + 1]) == "all";
        else if (flag == "--model-paths") model_paths = std::strtoull(argv[i + 1], nullptr, 10);
    }
    const gputco::Job job{.work_hours = 2000, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 0.1,
                          .restart_hours = 0.25};
    const auto exact = gputco::expected_spot_time(job, 20);
    fmt::print("spot benchmark: W=2000 h, MTBF=20 h, tau=2 h, delta=0.1 h, R=0.25 h, $1.2/h, {} paths, best of {}\n",
               paths, repeat);
    fmt::print("closed form: E[interruptions] = {:.3f}, E[cost] = ${:.2f}\n", exact.interruptions,
               1.2 * exact.billed_hours);
    std::vector<std::string> kernels{""};  // "" = simulate_spot's own choice
    if (which == "all") kernels = gputco::spot_kernels();
    double reference = 0;  // 1-thread seconds of the first kernel run
    for (const std::string& kernel : kernels) {
        if (!kernel.empty()) ::setenv("GPUTCO_SPOT_KERNEL", kernel.c_str(), 1);
        const Timing one = best_of(paths, 1, repeat);
        const Timing many = best_of(paths, all, repeat);
        if (reference == 0) reference = one.seconds;
        fmt::print("kernel {}:\n", one.kernel);
        for (const auto& [label, threads, t] :
             {std::tuple{"1 thread", 1u, one}, std::tuple{"all cores", all, many}}) {
            fmt::print("  {:>9} ({} thr): {:.3f} s, {:.0f} paths/s, {:.2f} ns/event, {:.2f} ns/event per core, "
                       "{:.4g} events, mean cost ${:.2f}\n",
                       label, threads, t.seconds, static_cast<double>(paths) / t.seconds,
                       1e9 * t.seconds / t.events, 1e9 * t.seconds * threads / t.events, t.events, t.mean_cost);
        }
        fmt::print("  1 thread without the five summaries ({:.3f} s of the call): {:.2f} ns/event\n",
                   one.summaries_seconds, 1e9 * (one.seconds - one.summaries_seconds) / one.events);
        const Timing streamed = best_of(paths, 1, repeat, gputco::Poisson{.mtbf_hours = 20}, false);
        fmt::print("  1 thread, keep_samples = false: {:.3f} s, {:.2f} ns/event\n", streamed.seconds,
                   1e9 * streamed.seconds / streamed.events);
        fmt::print("  speed-up 1 -> {} threads: {:.2f}x; 1 thread: {:.2f}x the first kernel\n", all,
                   one.seconds / many.seconds, reference / one.seconds);
    }
    if (models) {
        // The other models on the same job, 1 thread, on each kernel timed above: Weibull with shape 1
        // and a trace of exponential lifetimes have the Poisson's lifetime law (about the same events),
        // Weibull with shape 0.7 the same mean lifetime (20 h = 15.80 h x Gamma(1 + 1 / 0.7)); the AWS
        // rules add a 2-minute notice with an emergency checkpoint (the scalar loop).
        gputco::Xoshiro256pp engine(7);
        gputco::Trace trace;
        for (int i = 0; i < 100000; ++i)
            trace.lifetimes_hours.push_back(-20.0 * std::log((static_cast<double>(engine() >> 11) + 0.5) * 0x1p-53));
        if (model_paths == 0) model_paths = paths;
        const std::vector<std::pair<const char*, gputco::InterruptionModel>> others{
            {"weibull (shape 1)", gputco::Weibull{.shape = 1, .scale_hours = 20}},
            {"weibull (shape 0.7)", gputco::Weibull{.shape = 0.7, .scale_hours = 20 / std::tgamma(1 + 1 / 0.7)}},
            {"trace (exponential)", trace},
            {"poisson + aws rules", gputco::Poisson{.mtbf_hours = 20, .rules = gputco::aws_rules()}}};
        for (const std::string& kernel : kernels) {
            if (kernel == "scalar") continue;  // every model's scalar loop is timed by the rules row
            if (kernel.empty()) ::unsetenv("GPUTCO_SPOT_KERNEL");
            else ::setenv("GPUTCO_SPOT_KERNEL", kernel.c_str(), 1);
            const Timing poisson = best_of(model_paths, 1, repeat);
            fmt::print("models, 1 thread ({} for Poisson: {:.2f} ns/event):\n", poisson.kernel,
                       1e9 * poisson.seconds / poisson.events);
            for (const auto& [name, model] : others) {
                const Timing t = best_of(model_paths, 1, repeat, model);
                const double ns = 1e9 * t.seconds / t.events;
                fmt::print("  {:>20}: {:.3f} s, {:.2f} ns/event, {:.2f}x the Poisson kernel's ns/event ({})\n", name,
                           t.seconds, ns, ns / (1e9 * poisson.seconds / poisson.events), t.kernel);
            }
        }
    }
    return 0;
}
