#pragma once
// xoshiro256++ (Blackman and Vigna, "Scrambled linear pseudorandom number generators", 2021): a
// 64-bit generator with 256 bits of state, period 2^256 - 1, that passes BigCrush and costs a few
// shifts, xors and adds per number, several times cheaper than mt19937_64. It models the standard
// UniformRandomBitGenerator concept, so Boost.Random distributions accept it.
//
//   gputco::Xoshiro256pp engine(42);  // state filled from a splitmix64 stream seeded with 42
//   boost::random::exponential_distribution<double> exponential;
//   const double x = exponential(engine);
#include <array>
#include <cstdint>
#include <limits>

namespace gputco {

/// One step of splitmix64 (Steele, Lea and Flood, 2014): a bijective 64-bit mix of `z` plus the
/// golden-ratio increment. Successive outputs for z, z + 0x9E37..., z + 2 * 0x9E37... are the
/// splitmix64 stream seeded with z.
constexpr std::uint64_t splitmix64(std::uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

class Xoshiro256pp {
public:
    using result_type = std::uint64_t;

    /// The state is four successive outputs of the splitmix64 stream seeded with `seed` (the
    /// authors' recommended seeding; it cannot give the forbidden all-zero state).
    explicit constexpr Xoshiro256pp(std::uint64_t seed) {
        for (auto& word : state_) {
            word = splitmix64(seed);
            seed += 0x9E3779B97F4A7C15ULL;
        }
    }

    static constexpr result_type min() { return 0; }
    static constexpr result_type max() { return std::numeric_limits<result_type>::max(); }

    constexpr result_type operator()() {
        auto& s = state_;
        const std::uint64_t result = rotl(s[0] + s[3], 23) + s[0];
        step();
        return result;
    }

    /// xoshiro256+'s output of the same state step: s[0] + s[3], without the ++ scrambler's rotation and
    /// addition. The authors' choice for floating-point numbers (its lowest three bits are weak in
    /// linear-complexity tests; the upper bits are as good as ++'s); the spot engine's lifetime draws use
    /// it. Calls of both kinds share one state sequence.
    constexpr result_type next_plus() {
        auto& s = state_;
        const std::uint64_t result = s[0] + s[3];
        step();
        return result;
    }

    /// The four state words, for engines that run several streams side by side.
    constexpr const std::array<std::uint64_t, 4>& state() const { return state_; }

    friend constexpr bool operator==(const Xoshiro256pp&, const Xoshiro256pp&) = default;

private:
    static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

    constexpr void step() {
        auto& s = state_;
        const std::uint64_t t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = rotl(s[3], 45);
    }

    std::array<std::uint64_t, 4> state_{};
};

}  // namespace gputco
