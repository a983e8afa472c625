// The lifetime lane kernel compiled without extensions beyond the target's baseline (SSE2 on x86-64; NEON on arm64).
#define GPUTCO_LANE_KERNEL lifetime_lanes_portable
#include "spot_lanes_kernel.inc"
