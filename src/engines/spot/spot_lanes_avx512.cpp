// The lifetime lane kernel compiled with AVX-512F enabled (spot.cpp calls it only where the CPU has AVX-512F).
#define GPUTCO_LANE_KERNEL lifetime_lanes_avx512
#include "spot_lanes_kernel.inc"
