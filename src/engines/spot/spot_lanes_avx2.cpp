// The lifetime lane kernel compiled with AVX2 enabled (spot.cpp calls it only where the CPU has AVX2).
#define GPUTCO_LANE_KERNEL lifetime_lanes_avx2
#include "spot_lanes_kernel.inc"
