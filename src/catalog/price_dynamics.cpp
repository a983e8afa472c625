// Prices that move both ways (see price_dynamics.hpp): simulation.
#include "gputco/catalog/price_dynamics.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <thread>

#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/core/random.hpp"
#include "price_blocks.hpp"

namespace gputco {
namespace {

/// The block kernel this CPU runs: the widest of AVX-512, AVX2 and portable that the build has and the
/// CPU supports; GPUTCO_PRICE_KERNEL=portable|avx2|avx512 forces one (the tests compare them bit for
/// bit). AVX-512 (with VBMI: Ice Lake, Zen 4 and later) pays since its copy uses real gathers, byte tables
/// and the transpose in registers (benchmarks/README.md).
using PriceKernel = void (*)(const detail::PriceBlockJob&, std::size_t, std::size_t);
PriceKernel price_kernel() {
    std::vector<std::pair<std::string, PriceKernel>> kernels{{"portable", simulate_blocks}};
#ifdef GPUTCO_X86_LANE_KERNELS
    if (__builtin_cpu_supports("avx2")) kernels.emplace_back("avx2", detail::simulate_price_blocks_avx2);
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
        __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vbmi"))
        kernels.emplace_back("avx512", detail::simulate_price_blocks_avx512);
#endif
    const char* wanted = std::getenv("GPUTCO_PRICE_KERNEL");
    if (wanted == nullptr || *wanted == 0) return kernels.back().second;
    std::string names;
    for (const auto& [name, kernel] : kernels) {
        if (name == wanted) return kernel;
        names += (names.empty() ? "" : ", ") + name;
    }
    fail("GPUTCO_PRICE_KERNEL", std::string(wanted), fmt::format("must be one of {} (the kernels this CPU runs)", names));
}

}  // namespace

void validate(const LogPriceProcess& p, std::string_view field) {
    const std::string f(field);
    require_non_negative(f + ".reversion", p.reversion);
    require_non_negative(f + ".volatility", p.volatility);
    require_finite(f + ".drift", p.drift);
    require_non_negative(f + ".jump_rate", p.jump_rate);
    require(p.jump_rate <= 10, f + ".jump_rate", p.jump_rate, "must be <= 10 jumps a month");
    require_finite(f + ".jump_mean", p.jump_mean);
    require_non_negative(f + ".jump_sd", p.jump_sd);
}

Eigen::ArrayXXd simulate_log_prices(const LogPriceProcess& process, int months, std::size_t paths, std::uint64_t seed,
                                    double initial_deviation) {
    validate(process, "process");
    require(paths >= 1, "paths", paths, "must be >= 1");
    return simulate_log_prices(std::vector<LogPriceProcess>(paths, process), months, seed, initial_deviation);
}

Eigen::ArrayXXd simulate_log_prices(const std::vector<LogPriceProcess>& processes, int months, std::uint64_t seed,
                                    double initial_deviation) {
    require(!processes.empty(), "processes", processes.size(), "must hold at least one process (one per path)");
    for (std::size_t j = 0; j < processes.size(); ++j) validate(processes[j], fmt::format("processes[{}]", j));
    require(months >= 1, "months", months, "must be >= 1");
    require_finite("initial_deviation", initial_deviation);
    const std::size_t paths = processes.size();
    Eigen::ArrayXXd out(months, Eigen::Index(paths));
    Normal normal;
    for (std::size_t j = 0; j < paths; ++j) {
        const Step step(processes[j]);
        Xoshiro256pp engine(splitmix64(seed ^ splitmix64(j)));
        normal.reset();
        double deviation = initial_deviation;
        JumpClock clock(step, engine);
        out(0, Eigen::Index(j)) = deviation;
        for (int m = 1; m < months; ++m) {
            const double z = step.shock_sd > 0 ? normal(engine) : 0.0;
            out(m, Eigen::Index(j)) = advance(step, deviation, m, z, clock, engine, normal);
        }
    }
    return out;
}

PricePaths simulate_price_paths(const PriceDynamics& d, Horizon horizon, std::size_t futures, std::uint64_t seed,
                                int term_years, unsigned threads) {
    PricePaths paths;
    simulate_price_paths(d, horizon, futures, seed, term_years, paths, threads);
    return paths;
}

namespace {

/// Throws InvalidInput naming `field`.<member> for a bad component or correlation.
void validate(const PriceDynamics& d, const std::string& field) {
    gputco::validate(d.on_demand, field + ".on_demand");
    gputco::validate(d.spot_spread, field + ".spot_spread");
    gputco::validate(d.reserved_1y_spread, field + ".reserved_1y_spread");
    gputco::validate(d.reserved_3y_spread, field + ".reserved_3y_spread");
    require(d.spot_correlation >= -1 && d.spot_correlation <= 1, field + ".spot_correlation", d.spot_correlation,
            "must be in [-1, 1]");
}

/// The simulation behind both overloads, after their checks: every future follows `d`, or with
/// `per_future` future f follows (*per_future)[f mod size] (launches: d's, d = the first).
void simulate(const PriceDynamics& d, const std::vector<PriceDynamics>* per_future, Horizon horizon, std::size_t futures,
              std::uint64_t seed, int term_years, PricePaths& paths, unsigned threads) {
    require(futures >= 1, "futures", futures, "must be >= 1");
    require(term_years == 0 || term_years == 1 || term_years == 3, "term_years", term_years,
            "must be 1 or 3 (reserved is that term's factor) or 0 (both: reserved the 1-year, reserved_3y the 3-year)");
    // The launches' rules are price_paths()'s (one place): run it on them alone for one future, for its
    // checks; its messages name them price_model.launches[i].
    const int months = horizon.month_count();
    if (!d.launches.empty()) {
        PriceModel launches_only;
        launches_only.launches = d.launches;
        (void)price_paths(launches_only, horizon, 1, seed);
    }

    const Step od(d.on_demand), spot(d.spot_spread),
        reserved(term_years == 3 ? d.reserved_3y_spread : d.reserved_1y_spread), reserved_3y(d.reserved_3y_spread);
    const double rho = d.spot_correlation, rho_rest = std::sqrt(std::max(0.0, 1 - rho * rho));
    const auto kernel = price_kernel();  // may throw: before `paths` is touched
    // Every entry is written below; resize() keeps the memory when the shape is the same.
    const auto cols = Eigen::Index(futures);
    paths.on_demand.resize(months, cols);
    paths.spot.resize(months, cols);
    paths.reserved.resize(months, cols);
    if (term_years == 0) {
        paths.reserved_3y.resize(months, cols);
    } else {
        paths.reserved_3y.resize(0, 0);
    }
    paths.launch_month.resize(Eigen::Index(d.launches.size()), cols);
    paths.launch_month.setConstant(-1);

    // Futures run in blocks side by side (price_blocks.hpp); threads take whole blocks.
    const std::size_t blocks = (futures + detail::price_block - 1) / detail::price_block;
    const detail::PriceBlockJob job{.dynamics = &d, .od = &od, .spot = &spot, .reserved = &reserved,
                                    .reserved_3y = term_years == 0 ? &reserved_3y : nullptr, .per_future = per_future,
                                    .term_years = term_years, .rho = rho, .rho_rest = rho_rest, .months = months,
                                    .futures = futures, .seed = seed, .paths = &paths};
    auto run = [&](std::size_t first_block, std::size_t last_block) { kernel(job, first_block, last_block); };
    unsigned workers = threads == 0 ? std::max(1u, std::thread::hardware_concurrency()) : threads;
    workers = unsigned(std::min<std::size_t>(workers, blocks));
    if (workers <= 1) {
        run(0, blocks);
    } else {
        std::vector<std::thread> pool;
        const std::size_t chunk = (blocks + workers - 1) / workers;
        for (unsigned w = 0; w < workers; ++w) {
            const std::size_t first = w * chunk, last = std::min(blocks, first + chunk);
            if (first < last) pool.emplace_back(run, first, last);
        }
        for (auto& t : pool) t.join();
    }
}

}  // namespace

void simulate_price_paths(const PriceDynamics& d, Horizon horizon, std::size_t futures, std::uint64_t seed,
                          int term_years, PricePaths& paths, unsigned threads) {
    validate(d, "price_dynamics");
    simulate(d, nullptr, horizon, futures, seed, term_years, paths, threads);
}

void simulate_price_paths(const std::vector<PriceDynamics>& per_future, Horizon horizon, std::size_t futures,
                          std::uint64_t seed, int term_years, PricePaths& paths, unsigned threads) {
    require(!per_future.empty(), "per_future", per_future.size(), "must hold at least one PriceDynamics");
    for (std::size_t i = 0; i < per_future.size(); ++i) {
        validate(per_future[i], fmt::format("per_future[{}]", i));
        if (i > 0 && !per_future[i].launches.empty())
            fail(fmt::format("per_future[{}].launches", i), per_future[i].launches.size(),
                 "must be empty (every future's launches are per_future[0]'s)");
    }
    simulate(per_future.front(), &per_future, horizon, futures, seed, term_years, paths, threads);
}

double implied_forward_hourly(double one_year_hourly, double three_year_hourly) {
    require_positive("one_year_hourly", one_year_hourly);
    require_positive("three_year_hourly", three_year_hourly);
    return (3 * three_year_hourly - one_year_hourly) / 2;
}

}  // namespace gputco
