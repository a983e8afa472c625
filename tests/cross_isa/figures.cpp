// Seeded spot figures of every engine path, printed to 17 digits. The cross_isa_arm64 test builds this
// program for arm64 too, runs it under qemu and requires the same text: a seed gives the same numbers
// on any CPU (SSE2, AVX2, AVX-512, NEON), not only on any thread count.
#include <bit>
#include <cstdint>
#include <cstdio>

#include "gputco/engines/spot.hpp"

namespace {

// FNV-1a over the bits of every sample of every column: one unit in the last place anywhere shows.
std::uint64_t fingerprint(const gputco::SpotSamples& s) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const auto* column :
         {&s.wall_hours, &s.billed_hours, &s.charged_hours, &s.cost, &s.interruptions, &s.lost_work_hours}) {
        for (const double x : *column) h = (h ^ std::bit_cast<std::uint64_t>(x)) * 0x100000001b3ULL;
    }
    return h;
}

void print(const char* name, const gputco::SpotResult& r) {
    std::printf("%s: mean cost %.17g, p95 %.17g, sample 0 %.17g, samples' bits %016llx\n", name, r.cost.mean,
                r.cost.p95, r.samples.cost[0], static_cast<unsigned long long>(fingerprint(r.samples)));
}

}  // namespace

int main() {
    using namespace gputco;
    const Job job{.work_hours = 500, .checkpoint_interval_hours = 2, .checkpoint_write_hours = 5.0 / 60,
                  .restart_hours = 10.0 / 60, .capacity_wait_hours = 0.5};
    const SimulationOptions options{.paths = 3001, .seed = 42, .threads = 2};
    print("poisson (lane kernel)", simulate_spot(job, Poisson{.mtbf_hours = 24}, {.price_per_hour = 1.2}, options));
    print("poisson, hourly billing", simulate_spot(job, Poisson{.mtbf_hours = 24}, {.billing_increment_hours = 1}, options));
    print("poisson, AWS rules", simulate_spot(job, Poisson{.mtbf_hours = 24, .rules = aws_rules()}, {}, options));
    print("weibull", simulate_spot(job, Weibull{.shape = 0.7, .scale_hours = 12}, {}, options));
    print("price-driven", simulate_spot(job,
                                        PriceDriven{.reversion_per_hour = 0.5, .volatility_per_sqrt_hour = 0.3,
                                                    .price_cap_per_hour = 1.3, .step_hours = 0.25},
                                        {}, options));
    return 0;
}
