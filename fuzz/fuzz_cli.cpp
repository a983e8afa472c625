// The gputco command's argument parser and what it starts (run_command() in src/cli/command.hpp):
// the bytes are split at NUL or newline into argv after the program's name. The property: an exit
// code the command documents for input (0, 2, 3, 130), never a crash, an exception out of it, or 1
// (an unexpected error: an exception other than InvalidInput inside, the foreign errors users cannot act on). Output goes
// to the null device. The command writes no file; it reads the ones its arguments name, so the target
// refuses arguments holding '/', naming something that exists (also after an '='), or "-" (standard
// input): what the command is asked to read never exists. A run that is long by request (a long spot
// job) is stopped after a second, which the command reports as 130.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "command.hpp"
#include "fuzz_check.hpp"

namespace {

std::FILE* null_stream = nullptr;

/// Whether `arg` could make the command read something: standard input or a file that exists.
bool names_input(const std::string& arg) {
    if (arg == "-" || arg.find('/') != std::string::npos) return true;
    std::error_code ignored;
    const std::size_t eq = arg.find('=');
    return std::filesystem::exists(arg, ignored) ||
           (eq != std::string::npos && std::filesystem::exists(arg.substr(eq + 1), ignored));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    null_stream = std::fopen("/dev/null", "w");
    if (!null_stream) gputco::fuzz::finding("cannot open /dev/null");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<std::string> args{"gputco"};
    std::size_t start = 0;
    while (start <= text.size() && args.size() < 32) {
        const std::size_t end = std::min(text.find_first_of(std::string_view("\n\0", 2), start), text.size());
        args.emplace_back(text.substr(start, end - start));
        start = end + 1;
    }
    for (const std::string& a : std::span(args).subspan(1))
        // "--paths" sets how long a spot run is: bounded by the stop below, but its samples are
        // allocated first (a 10^9-path run is memory, not time), so it keeps its default (20,000).
        if (names_input(a) || a.starts_with("--paths")) return 0;
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    argv.push_back(nullptr);

    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
    int code = -1;
    try {
        code = gputco::cli::run_command(static_cast<int>(args.size()), argv.data(), null_stream, null_stream,
                                        [give_up] { return std::chrono::steady_clock::now() > give_up; });
    } catch (const std::exception& e) {
        gputco::fuzz::finding("exception out of run_command():", e.what());
    } catch (...) {
        gputco::fuzz::finding("non-standard exception out of run_command()");
    }
    if (code == 1) gputco::fuzz::finding("exit code 1, an unexpected error (see the command's stderr for these arguments)");
    if (code != 0 && code != 2 && code != 3 && code != 130)
        gputco::fuzz::finding("undocumented exit code:", std::to_string(code));
    // Output to the null device never fails; a failed write would be exit code 1.
    std::clearerr(null_stream);
    return 0;
}
