#pragma once
// The gputco command as a function: parse `argv` (argv[0] the program name), do the work, write to
// `out` and `err`, return the exit code. main.cpp calls it with the process's streams and a Ctrl-C
// flag; the fuzz target calls it with null streams and a time budget.
#include <cstdio>

#include "gputco/core/cancel.hpp"

namespace gputco::cli {

/// Exit codes: 0 success; 1 unexpected error (or output that could not be written); 2 bad input
/// (a scenario that does not load, bad flags); 3 compare: a figure moved beyond a --fail-above
/// limit; 130 stopped (`should_stop` said so). Reads the files the arguments name (and standard
/// input for "-"); writes none.
int run_command(int argc, const char* const* argv, std::FILE* out, std::FILE* err, StopCheck should_stop);

}  // namespace gputco::cli
