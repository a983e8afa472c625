// The executor (executor.hpp): batches over threads, exceptions and cancellation to the caller.
#include "executor.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <vector>

#include "gputco/engines/spot.hpp"

namespace gputco::spot {

std::jthread spawn_thread(std::function<void()> work) { return std::jthread(std::move(work)); }

namespace {

// The first exception of any thread, and a flag that asks the others to stop.
struct FirstError {
    std::mutex mutex;
    std::exception_ptr error;
    std::atomic<bool> cancel{false};

    void keep(std::exception_ptr e) {
        const std::lock_guard lock(mutex);
        if (!error) error = std::move(e);
        cancel = true;
    }
};

// Starts up to `helpers` threads running `body`; returns those that could be created. Creation stops
// at the first failure: the threads already running, and the caller, do the remaining work.
std::vector<std::jthread> start_helpers(unsigned helpers, const std::function<void()>& body, const Spawn& spawn) {
    std::vector<std::jthread> started;
    started.reserve(helpers);
    for (unsigned h = 0; h < helpers; ++h) {
        try {
            started.push_back(spawn(body));
        } catch (const std::system_error&) {
            break;
        }
    }
    return started;
}

}  // namespace

void run_batches(std::size_t first, std::size_t last, unsigned threads, const std::function<bool()>& should_stop,
                 const std::function<void(std::size_t, const std::atomic<bool>&)>& run, const Spawn& spawn) {
    std::atomic<std::size_t> next{first};
    FirstError failure;
    auto work = [&] {
        try {
            for (;;) {
                const std::size_t batch = next.fetch_add(1, std::memory_order_relaxed);
                if (batch >= last || failure.cancel.load(std::memory_order_relaxed)) break;
                run(batch, failure.cancel);
            }
        } catch (...) {
            failure.keep(std::current_exception());
        }
    };
    const auto workers = static_cast<unsigned>(std::min<std::size_t>(last - first, std::max(threads, 1u)));
    if (workers <= 1 && !should_stop) {
        work();
        if (failure.error) std::rethrow_exception(failure.error);
        return;
    }
    // Every worker, the caller's share included, runs on a helper thread so that the caller is free to
    // poll should_stop; if none can be created, the caller runs the batches itself.
    std::mutex mutex;
    std::condition_variable finished_cv;
    unsigned running = 0;
    const auto body = [&] {
        work();
        const std::lock_guard lock(mutex);
        if (--running == 0) finished_cv.notify_all();
    };
    {
        const std::lock_guard lock(mutex);
        running = workers;  // lowered below for threads that could not be created
    }
    std::vector<std::jthread> helpers = start_helpers(workers, body, spawn);
    {
        const std::lock_guard lock(mutex);
        running -= workers - static_cast<unsigned>(helpers.size());
    }
    if (helpers.empty()) work();
    bool stopped = false;
    {
        std::unique_lock lock(mutex);
        while (running > 0) {
            finished_cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return running == 0; });
            if (running == 0 || stopped || !should_stop) continue;
            lock.unlock();
            try {
                stopped = should_stop();
            } catch (...) {
                failure.keep(std::current_exception());
            }
            lock.lock();
            if (stopped) failure.cancel = true;
        }
    }
    helpers.clear();  // joins
    if (!stopped && !failure.error && should_stop && should_stop()) stopped = true;
    if (failure.error) std::rethrow_exception(failure.error);
    if (stopped) throw Cancelled("simulate_spot cancelled by should_stop");
}

void for_each_parallel(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task,
                       const Spawn& spawn) {
    if (count == 0) return;
    std::atomic<std::size_t> next{0};
    FirstError failure;
    auto work = [&] {
        try {
            for (std::size_t i; (i = next.fetch_add(1)) < count && !failure.cancel.load();) task(i);
        } catch (...) {
            failure.keep(std::current_exception());
        }
    };
    const auto helpers = static_cast<unsigned>(std::min<std::size_t>(count, std::max(threads, 1u)) - 1);
    {
        std::vector<std::jthread> started = start_helpers(helpers, work, spawn);
        work();
    }  // joins
    if (failure.error) std::rethrow_exception(failure.error);
}

}  // namespace gputco::spot
