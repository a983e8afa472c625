#pragma once
// Cancelling a long call. A function that can run for more than a second takes an optional
// `should_stop` and calls it now and then (on the calling thread); when it returns true the call
// throws Cancelled. The Python layer passes one that checks for Ctrl-C, so KeyboardInterrupt stops it.
#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace gputco {

/// Thrown when a `should_stop` check asks a call to stop. Python sees KeyboardInterrupt.
class Cancelled : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Returns true when the call should stop; empty = never.
using StopCheck = std::function<bool()>;

/// Calls `should_stop` once per `every` units of work (rows, parser events, states), throwing
/// Cancelled(message) when it says stop. Counting work rather than time gives the same checks on
/// every machine, so a test can stop a call at exactly its N-th check. Holds `should_stop` by
/// reference: it must outlive the poll.
class StopPoll {
public:
    StopPoll(const StopCheck& should_stop, std::size_t every, std::string message)
        : should_stop_(should_stop), every_(every > 0 ? every : 1), message_(std::move(message)) {}
    /// Counts `work` units done; checks once `every` units have gathered since the last check.
    void step(std::size_t work = 1) {
        if (!should_stop_) return;
        done_ += work;
        if (done_ < every_) return;
        done_ = 0;
        check();
    }
    /// Checks now.
    void check() const {
        if (should_stop_ && should_stop_()) throw Cancelled(message_);
    }

private:
    const StopCheck& should_stop_;
    std::size_t every_;
    std::string message_;
    std::size_t done_ = 0;
};

/// For a progress bar: (units done, units in all), called on the calling thread about every 50 ms
/// while a long call runs and once when it ends; empty = no reports. Rides on the same polling as
/// `should_stop`, so it costs the workers nothing.
using ProgressReport = std::function<void(std::size_t done, std::size_t total)>;

}  // namespace gputco
