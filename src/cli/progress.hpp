#pragma once
// A progress bar for long Monte Carlo runs, drawn on stderr only when it is a terminal: a pipe, a
// file or a CI log gets nothing (no control characters in captured output).
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace gputco::cli {

/// One line of the bar, without the carriage return: "spot job j  [#####-----]  50%  10,000/20,000 paths"
/// with `width` cells in the bar and `unit` what is counted (paths, traces, futures). done is capped at
/// total; total 0 shows 0%.
std::string progress_line(std::string_view task, std::size_t done, std::size_t total, std::size_t width = 30,
                          std::string_view unit = "paths");

/// Draws progress_line() over the previous one on `out` (the engine calls about every 50 ms) if `out`
/// is a terminal (or `force`); finish() clears the line.
class ProgressBar {
public:
    explicit ProgressBar(std::FILE* out, bool force = false);
    void update(const std::string& task, std::size_t done, std::size_t total, std::string_view unit = "paths");
    void finish();
    bool enabled() const { return enabled_; }

private:
    std::FILE* out_;
    bool enabled_;
    bool drawn_ = false;
};

}  // namespace gputco::cli
