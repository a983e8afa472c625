// gputco: run, compare and check scenario files; browse the catalog; simulate a spot job.
// The work is in command.cpp; here only the process: its streams and Ctrl-C.
#include <atomic>
#include <csignal>
#include <cstdio>

#include "command.hpp"

namespace {
std::atomic<bool> interrupted{false};
extern "C" void on_sigint(int) { interrupted.store(true); }
}  // namespace

int main(int argc, char** argv) {
    std::signal(SIGINT, on_sigint);
    return gputco::cli::run_command(argc, argv, stdout, stderr, [] { return interrupted.load(); });
}
