#pragma once
// Time and memory of a benchmarked call: the best wall time of `repeat` runs, and the peak resident set
// during a run minus the resident set before it (VmHWM reset through /proc/self/clear_refs; Linux).
#include <algorithm>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <string>

namespace bench {

/// A field of /proc/self/status in KiB ("VmRSS:", "VmHWM:"), or -1.
inline long status_kib(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind(field, 0) == 0) return std::stol(line.substr(std::strlen(field) + 1));
    }
    return -1;
}

inline void reset_peak() { std::ofstream("/proc/self/clear_refs") << "5"; }

struct Measure {
    double seconds = 1e300;
    double peak_mib = 0;
    /// The best run's processor time (std::clock: this process's CPU seconds), which other processes
    /// sharing the cores do not inflate as they do the wall time.
    double cpu_seconds = 1e300;
};

/// Whose peak is reported: the first run's (the allocator still clean) or the largest of all runs.
enum class PeakOf { first_run, largest_run };

template <class F>
Measure measure(int repeat, F&& run, PeakOf peak_of) {
    Measure m;
    for (int i = 0; i < repeat; ++i) {
        reset_peak();
        const long before = status_kib("VmRSS:");
        const auto t0 = std::chrono::steady_clock::now();
        const std::clock_t c0 = std::clock();
        run();
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        m.cpu_seconds = std::min(m.cpu_seconds, static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC);
        const double peak_mib = static_cast<double>(status_kib("VmHWM:") - before) / 1024.0;
        m.seconds = std::min(m.seconds, s);
        if (peak_of == PeakOf::largest_run) m.peak_mib = std::max(m.peak_mib, peak_mib);
        else if (i == 0) m.peak_mib = peak_mib;
    }
    return m;
}

}  // namespace bench
