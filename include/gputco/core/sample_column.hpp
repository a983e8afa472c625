// SampleColumn: one value per simulated path, in a std::vector that does not zero-fill when it grows.
#ifndef GPUTCO_CORE_SAMPLE_COLUMN_HPP
#define GPUTCO_CORE_SAMPLE_COLUMN_HPP

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace gputco {

/// std::allocator, except that a value constructed without arguments is default-initialised (for
/// double: left as it is) instead of value-initialised (zeroed). `resize(n)` and `vector(n)` then
/// only allocate; `resize(n, value)` and every other constructor behave as with std::allocator.
/// Why: a Monte Carlo run sizes its sample columns (48 MB for 10^6 paths) and then writes every
/// value; zero-filling them first is a serial pass over memory that the paths' threads overwrite
/// anyway, and the one part of the call a second thread did not shorten.
template <class T>
struct NoFillAllocator : std::allocator<T> {
    using value_type = T;
    template <class U>
    struct rebind {
        using other = NoFillAllocator<U>;
    };

    NoFillAllocator() noexcept = default;
    template <class U>
    NoFillAllocator(const NoFillAllocator<U>&) noexcept {}

    template <class U>
    void construct(U* place) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(place)) U;
    }
    template <class U, class... Args>
    void construct(U* place, Args&&... args) {
        ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
    }
};

template <class T, class U>
bool operator==(const NoFillAllocator<T>&, const NoFillAllocator<U>&) noexcept {
    return true;
}

/// A column of per-path samples. Every engine that sizes one writes each of its values before it
/// returns; read it as any std::vector<double> (`std::vector<double>(c.begin(), c.end())` copies it
/// into one).
using SampleColumn = std::vector<double, NoFillAllocator<double>>;

}  // namespace gputco

#endif
