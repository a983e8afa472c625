// The spot executor (src/engines/spot/executor.hpp, internal): every batch runs once whatever the
// threads, thread creation failures fall back to the threads that exist, and exceptions of helper
// threads reach the caller instead of terminating the process.
#include <doctest/doctest.h>

#include <atomic>
#include <cstddef>
#include <new>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "executor.hpp"
#include "gputco/engines/spot.hpp"

using gputco::spot::for_each_parallel;
using gputco::spot::run_batches;

namespace {

// A spawner that creates `allowed` threads, then fails as the system does when it has no more.
struct FailingSpawn {
    int allowed;
    std::jthread operator()(std::function<void()> work) {
        if (allowed-- <= 0) throw std::system_error(std::make_error_code(std::errc::resource_unavailable_try_again));
        return std::jthread(std::move(work));
    }
};

std::vector<int> run_counted(std::size_t batches, unsigned threads, const gputco::spot::Spawn& spawn) {
    std::vector<std::atomic<int>> runs(batches);
    run_batches(0, batches, threads, {}, [&](std::size_t b, const std::atomic<bool>&) { ++runs[b]; }, spawn);
    std::vector<int> counts;
    for (const auto& r : runs) counts.push_back(r.load());
    return counts;
}

}  // namespace

TEST_CASE("run_batches: every batch exactly once, whatever the threads that could be created") {
    const std::vector<int> once(100, 1);
    for (const unsigned threads : {1u, 2u, 7u, 4000u}) {
        for (const int allowed : {0, 1, 3, 1000}) {
            INFO(threads << " threads wanted, " << allowed << " creatable");
            CHECK(run_counted(100, threads, FailingSpawn{allowed}) == once);
        }
    }
}

TEST_CASE("run_batches: a batch's exception reaches the caller; should_stop cancels") {
    CHECK_THROWS_WITH_AS(run_batches(0, 50, 4, {},
                                     [](std::size_t b, const std::atomic<bool>&) {
                                         if (b == 17) throw std::bad_alloc();
                                     }),
                         "std::bad_alloc", std::bad_alloc);
    std::atomic<int> ran{0};
    CHECK_THROWS_AS(run_batches(0, 1000, 2, [] { return true; },
                                [&](std::size_t, const std::atomic<bool>& cancel) {
                                    while (!cancel.load()) std::this_thread::yield();
                                    ++ran;
                                }),
                    gputco::Cancelled);
    CHECK(ran.load() <= 2);
}

TEST_CASE("for_each_parallel: a helper's bad_alloc is rethrown on the caller, not std::terminate") {
    for (const int allowed : {0, 1, 5}) {
        CHECK_THROWS_AS(for_each_parallel(6, 6,
                                          [](std::size_t i) {
                                              if (i == 3) throw std::bad_alloc();
                                          },
                                          FailingSpawn{allowed}),
                        std::bad_alloc);
        std::vector<std::atomic<int>> runs(6);
        for_each_parallel(6, 6, [&](std::size_t i) { ++runs[i]; }, FailingSpawn{allowed});
        for (const auto& r : runs) CHECK(r.load() == 1);
    }
}
