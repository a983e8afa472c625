#pragma once
// The executor: runs a round's batches over worker threads. A batch's result depends only on (seed,
// batch index), never on which thread ran it or when, so any thread count gives the same samples.
// Standard-library threads, created per round: a round is milliseconds to minutes, thread start-up
// is microseconds, and no pool outlives the call (no global state).
#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>

namespace gputco::spot {

/// Starts a thread running `work`; throws std::system_error when the system cannot create one. A
/// parameter only so that tests can make creation fail.
using Spawn = std::function<std::jthread(std::function<void()>)>;
std::jthread spawn_thread(std::function<void()> work);

/// Calls run(batch, cancel) for every batch in [first, last) on up to `threads` threads (the calling
/// thread is one of them). If fewer threads can be created, the ones that were share the batches.
/// While workers run, the calling thread calls `should_stop` (if set) about every 50 ms; true sets
/// `cancel` and throws Cancelled. The first exception a batch throws stops the others and is rethrown
/// here, on the calling thread.
void run_batches(std::size_t first, std::size_t last, unsigned threads, const std::function<bool()>& should_stop,
                 const std::function<void(std::size_t batch, const std::atomic<bool>& cancel)>& run,
                 const Spawn& spawn = spawn_thread);

/// Calls task(i) for i in [0, count) on up to `threads` threads, rethrowing the first exception on the
/// calling thread (a thread that cannot be created leaves its tasks to the others).
void for_each_parallel(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& task,
                       const Spawn& spawn = spawn_thread);

}  // namespace gputco::spot
