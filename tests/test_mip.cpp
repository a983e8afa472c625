// The CBC wrapper of the recommender (src/optimise/mip.hpp): a solve can be stopped from outside.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "mip.hpp"

using gputco::Cancelled;
using gputco::detail::Mip;
using gputco::detail::MipSolution;

namespace {

struct Knapsack {
    std::vector<int> weight, value;
    int capacity = 0;
};

/// 40 items, weights 10-60, values weight + 0-10, capacity half the total weight: the LP relaxation
/// is fractional, so CBC (no cuts or heuristics added) has to branch.
Knapsack knapsack(unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> w(10, 60), extra(0, 10);
    Knapsack k;
    for (int i = 0; i < 40; ++i) {
        k.weight.push_back(w(rng));
        k.value.push_back(k.weight.back() + extra(rng));
    }
    for (const int x : k.weight) k.capacity += x;
    k.capacity /= 2;
    return k;
}

/// The best value by dynamic programming over the capacity (exact in integers).
int best_value(const Knapsack& k) {
    std::vector<int> best(std::size_t(k.capacity) + 1, 0);
    for (std::size_t i = 0; i < k.weight.size(); ++i)
        for (int c = k.capacity; c >= k.weight[i]; --c)
            best[std::size_t(c)] = std::max(best[std::size_t(c)], best[std::size_t(c - k.weight[i])] + k.value[i]);
    return best.back();
}

Mip programme(const Knapsack& k) {
    Mip mip;
    std::vector<int> columns;
    std::vector<double> weights;
    for (std::size_t i = 0; i < k.weight.size(); ++i) {
        columns.push_back(mip.add_column(0, 1, -double(k.value[i]), true));  // minimise minus the value
        weights.push_back(k.weight[i]);
    }
    mip.add_row(columns, weights, 'L', k.capacity);
    return mip;
}

}  // namespace

TEST_CASE("a CBC solve asks should_stop between nodes and stops when it says so") {
    for (unsigned seed = 1; seed <= 3; ++seed) {
        CAPTURE(seed);
        const Knapsack k = knapsack(seed);
        const Mip mip = programme(k);
        // A check that never stops: asked at least once (CBC branched), the optimum unchanged.
        int asked = 0;
        const MipSolution watched = mip.solve(60, [&] { return ++asked < 0; });
        CHECK(asked >= 1);
        REQUIRE(watched.proven_optimal);
        CHECK(-watched.objective == doctest::Approx(best_value(k)).epsilon(1e-9));
        const MipSolution plain = mip.solve(60);
        CHECK(plain.objective == watched.objective);
        // A check that says stop at once: Cancelled, no solution returned.
        int calls = 0;
        CHECK_THROWS_WITH_AS(mip.solve(60, [&] { return ++calls > 0; }), "CBC solve: stopped", Cancelled);
        CHECK(calls == 1);
    }
}
