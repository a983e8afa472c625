// The gputco command's progress bar: what one line shows, and that it stays silent off a terminal.
#include <doctest/doctest.h>

#include <cstdio>
#include <string>

#include <fmt/format.h>

#include "progress.hpp"

using gputco::cli::progress_line;
using gputco::cli::ProgressBar;

TEST_CASE("a progress line shows the task, a bar of done / total, the percentage and the path counts") {
    // 10,000 of 20,000 in 10 cells: 5 filled; 50%
    CHECK(progress_line("spot job j", 10000, 20000, 10) == "spot job j  [#####-----]   50%  10,000/20,000 paths");
    CHECK(progress_line("t", 0, 20000, 4) == "t  [----]    0%  0/20,000 paths");
    CHECK(progress_line("t", 20000, 20000, 4) == "t  [####]  100%  20,000/20,000 paths");
    // 1 of 3 in 10 cells: 10 / 3 = 3 cells, 100 / 3 = 33% (rounded down: never 100% before the end)
    CHECK(progress_line("t", 1, 3, 10) == "t  [###-------]   33%  1/3 paths");
    CHECK(progress_line("t", 2999, 3000, 10) == "t  [#########-]   99%  2,999/3,000 paths");
    CHECK(progress_line("t", 5, 3, 10) == "t  [##########]  100%  3/3 paths");  // done capped at total
    CHECK(progress_line("t", 0, 0, 4) == "t  [----]    0%  0/0 paths");
    CHECK(progress_line("t", 1234567, 1234567, 2) == "t  [##]  100%  1,234,567/1,234,567 paths");
}

TEST_CASE("the bar draws over itself and clears its line, and is silent when not forced on a file") {
    std::FILE* file = std::tmpfile();
    REQUIRE(file != nullptr);
    ProgressBar silent(file);  // a file is not a terminal
    CHECK_FALSE(silent.enabled());
    silent.update("t", 1, 2);
    silent.finish();
    ProgressBar drawn(file, true);
    drawn.update("t", 1, 2);
    drawn.update("t", 2, 2);
    drawn.finish();
    std::rewind(file);
    std::string text;
    for (int c; (c = std::fgetc(file)) != EOF;) text += char(c);
    std::fclose(file);
    // carriage return, the line, erase to the end of the line (\033[K); twice; then a cleared line
    CHECK(text == fmt::format("\r{}\033[K\r{}\033[K\r\033[K", progress_line("t", 1, 2), progress_line("t", 2, 2)));
}
