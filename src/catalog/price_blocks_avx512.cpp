// The price model's block kernel (price_blocks.hpp) compiled for AVX-512 (F, DQ, VL, BW: 64-bit
// rotates, gathers and masked selects in eight lanes; VBMI: the ziggurat's byte table in registers);
// price_dynamics.cpp calls it when the CPU has them. Same results as the portable copy, bit for bit (see price_blocks.hpp).
#include "price_blocks.hpp"

namespace gputco::detail {

void simulate_price_blocks_avx512(const PriceBlockJob& job, std::size_t first_block, std::size_t last_block) {
    simulate_blocks(job, first_block, last_block);
}

}  // namespace gputco::detail
