#include <doctest/doctest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gputco/core/atomic_file.hpp"
#include "gputco/core/error.hpp"

using namespace gputco;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// A fresh folder per test case.
fs::path scratch(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / fmt::format("gputco_atomic_{}_{}", name, ::getpid());
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

std::size_t entries(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("a file written atomically holds the text, replaced or new") {
    const fs::path dir = scratch("plain");
    const fs::path target = dir / "catalog.json";
    write_file_atomically(target.string(), "first");
    CHECK(slurp(target) == "first");
    ::chmod(target.c_str(), 0640);
    write_file_atomically(target.string(), std::string(200'000, 'x'));
    CHECK(slurp(target) == std::string(200'000, 'x'));
    struct stat st {};
    REQUIRE(::stat(target.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0640);  // a replaced file keeps its mode
    CHECK(entries(dir) == 1);            // no temporary file left beside it
    fs::remove_all(dir);
}

TEST_CASE("a symbolic link is followed: the file it points to is replaced, the link stays") {
    const fs::path dir = scratch("link");
    write_file_atomically((dir / "real.json").string(), "old");
    fs::create_symlink("real.json", dir / "link.json");
    write_file_atomically((dir / "link.json").string(), "new");
    CHECK(fs::is_symlink(dir / "link.json"));
    CHECK(slurp(dir / "real.json") == "new");
    fs::remove_all(dir);
}

TEST_CASE("a target that cannot be written is an error naming it, and nothing is left behind") {
    const fs::path dir = scratch("errors");
    CHECK_THROWS_WITH_AS(write_file_atomically(dir.string(), "x"),
                         fmt::format("path = \"{}\": cannot be written: Is a directory", dir.string()).c_str(), InvalidInput);
    const fs::path missing = dir / "no" / "such.json";
    CHECK_THROWS_WITH_AS(write_file_atomically(missing.string(), "x"),
                         fmt::format("path = \"{}\": cannot be written: No such file or directory", missing.string()).c_str(),
                         InvalidInput);
    CHECK(entries(dir) == 0);
    fs::remove_all(dir);
}

TEST_CASE("a write that fails midway (file size limit) leaves the old file byte for byte") {
    const fs::path dir = scratch("limit");
    const fs::path target = dir / "catalog.json";
    const std::string old = "{\"gpus\": [], \"offerings\": []}\n";
    write_file_atomically(target.string(), old);
    const pid_t child = ::fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        // As `ulimit -f 64` in a shell: writes past 64 KiB fail with EFBIG (SIGXFSZ ignored, as Python does).
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{64 * 1024, 64 * 1024};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            write_file_atomically(target.string(), std::string(1 << 20, 'y'));
        } catch (const InvalidInput& e) {
            const std::string expected = fmt::format("path = \"{}\": cannot be written: File too large", target.string());
            ::_exit(e.what() == expected ? 3 : 4);
        }
        ::_exit(5);
    }
    int status = 0;
    REQUIRE(::waitpid(child, &status, 0) == child);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 3);  // the error, in the library's words
    CHECK(slurp(target) == old);
    CHECK(entries(dir) == 1);  // the partial temporary file removed
    fs::remove_all(dir);
}
