#include <doctest/doctest.h>

#include <memory>
#include <type_traits>
#include <vector>

#include "gputco/core/sample_column.hpp"

using gputco::NoFillAllocator;
using gputco::SampleColumn;

namespace {

// Counts how each element came to be: the allocator must construct without arguments by default
// initialisation (Probe's own constructor runs, nothing zeroes first) and pass arguments through.
struct Probe {
    static inline int defaulted = 0, copied = 0;
    int value;
    Probe() : value(-1) { ++defaulted; }
    Probe(const Probe& other) : value(other.value) { ++copied; }
    explicit Probe(int v) : value(v) {}
};

}  // namespace

TEST_CASE("SampleColumn: an ordinary vector of doubles wherever a value is given") {
    SampleColumn c(4, 2.5);
    CHECK(c == SampleColumn{2.5, 2.5, 2.5, 2.5});
    c.resize(6, -1.0);  // a value given: filled with it
    CHECK(c[4] == -1.0);
    CHECK(c[5] == -1.0);
    c.push_back(3.0);
    CHECK(c.size() == 7);
    c.resize(3);  // shrinking keeps the first values
    CHECK(c == SampleColumn{2.5, 2.5, 2.5});
    const std::vector<double> copy(c.begin(), c.end());
    CHECK(copy == std::vector<double>{2.5, 2.5, 2.5});
    SampleColumn moved = std::move(c);
    CHECK(moved.size() == 3);
}

TEST_CASE("NoFillAllocator: default-initialises a value made without arguments, forwards the others") {
    Probe::defaulted = Probe::copied = 0;
    std::vector<Probe, NoFillAllocator<Probe>> v(3);
    CHECK(Probe::defaulted == 3);
    CHECK(v[2].value == -1);
    v.emplace_back(7);
    CHECK(v.back().value == 7);
    v.resize(6, Probe(9));
    CHECK(v[5].value == 9);
    CHECK(Probe::copied >= 2);
    // Rebinding (as containers of nodes do) keeps the allocator's behaviour, and any two compare equal.
    using Rebound = std::allocator_traits<NoFillAllocator<double>>::rebind_alloc<Probe>;
    static_assert(std::is_same_v<Rebound, NoFillAllocator<Probe>>);
    CHECK(NoFillAllocator<double>() == NoFillAllocator<Probe>());
}
