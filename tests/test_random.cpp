// xoshiro256++ and its + output (include/gputco/core/random.hpp).
#include <doctest/doctest.h>

#include <cstdint>

#include "gputco/core/random.hpp"

namespace {

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

TEST_CASE("xoshiro256++ and xoshiro256+ outputs of one state sequence") {
    // Both outputs are functions of the state before the step, and the step is the same: so a stream
    // read with next_plus() walks the same states as one read with operator().
    gputco::Xoshiro256pp plus(2024), plusplus(2024);
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(plus.state() == plusplus.state());
        const auto s = plus.state();
        REQUIRE(plus.next_plus() == s[0] + s[3]);
        REQUIRE(plusplus() == rotl(s[0] + s[3], 23) + s[0]);
    }
    // Mixed calls share it too.
    gputco::Xoshiro256pp mixed(7), reference(7);
    mixed.next_plus();
    reference();
    CHECK(mixed == reference);
}

TEST_CASE("seeding: four successive splitmix64 outputs, never the all-zero state") {
    const gputco::Xoshiro256pp engine(0);
    std::uint64_t z = 0;
    for (int w = 0; w < 4; ++w) {
        CHECK(engine.state()[w] == gputco::splitmix64(z));
        z += 0x9E3779B97F4A7C15ULL;
    }
    // splitmix64(0) of the published algorithm.
    CHECK(gputco::splitmix64(0) == 0xE220A8397B1DCDAFULL);
}
