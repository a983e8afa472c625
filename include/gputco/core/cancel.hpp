#pragma once
// Cancelling a long call. A function that can run for more than a second takes an optional
// `should_stop` and calls it now and then (on the calling thread); when it returns true the call
// throws Cancelled. The Python layer passes one that checks for Ctrl-C, so KeyboardInterrupt stops it.
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

}  // namespace gputco
