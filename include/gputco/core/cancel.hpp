#pragma once
// Cancelling a long call. A function that can run for more than a second takes an optional
// `should_stop` and calls it now and then (on the calling thread); when it returns true the call
// throws Cancelled. The Python layer passes one that checks for Ctrl-C, so KeyboardInterrupt stops it.
#include <cstddef>
#include <functional>
#include <stdexcept>

namespace gputco {

/// Thrown when a `should_stop` check asks a call to stop. Python sees KeyboardInterrupt.
class Cancelled : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Returns true when the call should stop; empty = never.
using StopCheck = std::function<bool()>;

/// For a progress bar: (units done, units in all), called on the calling thread about every 50 ms
/// while a long call runs and once when it ends; empty = no reports. Rides on the same polling as
/// `should_stop`, so it costs the workers nothing.
using ProgressReport = std::function<void(std::size_t done, std::size_t total)>;

}  // namespace gputco
