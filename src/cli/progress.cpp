#include "progress.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <unistd.h>

namespace gputco::cli {
namespace {
std::string thousands(std::size_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}
}  // namespace

std::string progress_line(std::string_view task, std::size_t done, std::size_t total, std::size_t width,
                          std::string_view unit) {
    done = std::min(done, total);
    const std::size_t filled = total == 0 ? 0 : done * width / total;
    const std::size_t percent = total == 0 ? 0 : done * 100 / total;
    return fmt::format("{}  [{}{}]  {:3}%  {}/{} {}", task, std::string(filled, '#'), std::string(width - filled, '-'),
                       percent, thousands(done), thousands(total), unit);
}

ProgressBar::ProgressBar(std::FILE* out, bool force) : out_(out), enabled_(force || isatty(fileno(out))) {}

void ProgressBar::update(const std::string& task, std::size_t done, std::size_t total, std::string_view unit) {
    if (!enabled_) return;
    // \r back to the line's start, then the bar, then erase what a longer previous line left (\033[K)
    fmt::print(out_, "\r{}\033[K", progress_line(task, done, total, 30, unit));
    std::fflush(out_);
    drawn_ = true;
}

void ProgressBar::finish() {
    if (!enabled_ || !drawn_) return;
    fmt::print(out_, "\r\033[K");
    std::fflush(out_);
    drawn_ = false;
}

}  // namespace gputco::cli
