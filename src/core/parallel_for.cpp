#include "parallel_for.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <system_error>
#include <thread>
#include <vector>

namespace gputco::detail {

void parallel_for(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& body) {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(count, threads == 0 ? cores : threads);
    std::vector<std::exception_ptr> errors(count);
    std::atomic<std::size_t> next{0};
    auto work = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            try {
                body(i);
            } catch (...) {
                errors[i] = std::current_exception();
                next = count;  // hand out no more: every lower i is already handed out, so which is rethrown stays the same
            }
        }
    };
    std::vector<std::thread> pool;
    for (std::size_t w = 1; w < workers; ++w) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break;  // fewer threads than asked: the calling thread does the rest
        }
    }
    work();
    for (auto& thread : pool) thread.join();
    for (const auto& error : errors)
        if (error) std::rethrow_exception(error);
}

}  // namespace gputco::detail
