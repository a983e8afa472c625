// Kernel registry and choice (kernels.hpp).
#include "kernels.hpp"

#include <cstdlib>
#include <string_view>

#include <fmt/format.h>

#include "gputco/core/error.hpp"
#include "gputco/engines/spot.hpp"

namespace gputco::spot {

std::vector<Kernel> supported_kernels() {
    std::vector<Kernel> kernels{{"scalar", nullptr}, {"portable", detail::lifetime_lanes_portable}};
#if defined(GPUTCO_X86_LANE_KERNELS)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) kernels.push_back({"avx2", detail::lifetime_lanes_avx2});
    if (__builtin_cpu_supports("avx512f")) kernels.push_back({"avx512", detail::lifetime_lanes_avx512});
#endif
    return kernels;
}

namespace {

// The widest lane kernel: measured faster than the narrower ones and than the scalar loop, by 3.7x
// for the SSE2 kernel (benchmarks/README.md).
Kernel fastest(const std::vector<Kernel>& kernels) { return kernels.back(); }

}  // namespace

Kernel choose_kernel() {
    const std::vector<Kernel> kernels = supported_kernels();
    const char* wanted = std::getenv("GPUTCO_SPOT_KERNEL");
    if (wanted == nullptr || *wanted == '\0' || std::string_view(wanted) == "auto") return fastest(kernels);
    std::string names = "auto";
    for (const Kernel& k : kernels) {
        if (std::string_view(wanted) == k.name) return k;
        names += fmt::format(", {}", k.name);
    }
    fail("GPUTCO_SPOT_KERNEL", std::string(wanted), fmt::format("must be one of {} (the kernels this CPU runs)", names));
}

}  // namespace gputco::spot

namespace gputco {

std::vector<std::string> spot_kernels() {
    std::vector<std::string> names;
    for (const spot::Kernel& k : spot::supported_kernels()) names.emplace_back(k.name);
    return names;
}

std::string default_spot_kernel() {
    const std::vector<spot::Kernel> kernels = spot::supported_kernels();
    return spot::fastest(kernels).name;
}

}  // namespace gputco
