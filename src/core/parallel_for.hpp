#pragma once
// A deterministic parallel loop over indices, for the library's per-item fan-outs (the serving search,
// generated zones, the re-planning policy's futures).
#include <cstddef>
#include <functional>

namespace gputco::detail {

/// Calls body(i) for i in [0, count) on `threads` workers (0 = all cores). Each i writes only its own
/// slot, so results do not depend on the thread count. After a failure no further i is started; the
/// exception of the lowest failing i is rethrown (every i below a failing one has been started by then).
void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body);

}  // namespace gputco::detail
