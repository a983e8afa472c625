#pragma once
// Which path loop runs the Poisson case: the scalar loop or a lane kernel, chosen per CPU.
#include <string>
#include <vector>

#include "spot_lanes.hpp"

namespace gputco::spot {

struct Kernel {
    const char* name;
    detail::LaneKernel lanes;  // nullptr: the scalar loop
};

/// The kernels this CPU runs: "scalar", "portable", then "avx2" and "avx512" where the CPU has them.
std::vector<Kernel> supported_kernels();

/// The one GPUTCO_SPOT_KERNEL names, else the widest lane kernel (the fastest measured). An unknown
/// name is an InvalidInput.
Kernel choose_kernel();

}  // namespace gputco::spot
