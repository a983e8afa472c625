// write_file_atomically: a temporary file beside the target, written in full, fsync'd, renamed.
#include "gputco/core/atomic_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "gputco/core/error.hpp"

namespace gputco {
namespace {

[[noreturn]] void cannot_write(const std::string& path, int error) {
    throw InvalidInput(fmt::format("path = \"{}\": cannot be written: {}", printable_utf8(path), std::strerror(error)));
}

/// Closes the descriptor and removes the temporary file unless the rename has taken it.
class Temporary {
public:
    explicit Temporary(std::string path) : path_(std::move(path)) {}
    Temporary(const Temporary&) = delete;
    Temporary& operator=(const Temporary&) = delete;
    ~Temporary() {
        if (fd >= 0) ::close(fd);
        if (!renamed) ::unlink(path_.c_str());
    }
    const std::string& path() const { return path_; }
    int fd = -1;
    bool renamed = false;

private:
    std::string path_;
};

}  // namespace

void write_file_atomically(const std::string& path, std::string_view text) {
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path target(path);
    // Replace the file a link points to, not the link (relative links resolve against the link's folder).
    for (int hops = 0; hops < 40 && fs::is_symlink(target, ec); ++hops) {
        const fs::path next = fs::read_symlink(target, ec);
        if (ec) cannot_write(path, ec.value());
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat existing {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode)) cannot_write(path, S_ISDIR(existing.st_mode) ? EISDIR : EINVAL);

    // A name no other writer uses: the process id and a counter, created exclusively.
    static std::atomic<unsigned> counter{0};
    const std::string name = fmt::format(".{}.{}.{}.tmp", target.filename().string(), ::getpid(), counter++);
    Temporary temporary((folder / name).string());
    temporary.fd = ::open(temporary.path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (temporary.fd < 0) cannot_write(path, errno);
    if (exists && ::fchmod(temporary.fd, existing.st_mode & 07777) != 0) cannot_write(path, errno);

    for (std::size_t done = 0; done < text.size();) {
        const ssize_t n = ::write(temporary.fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) cannot_write(path, errno);
        if (n == 0) cannot_write(path, EIO);
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(temporary.fd) != 0) cannot_write(path, errno);
    const int fd = temporary.fd;
    temporary.fd = -1;
    if (::close(fd) != 0) cannot_write(path, errno);
    if (::rename(temporary.path().c_str(), target.c_str()) != 0) cannot_write(path, errno);
    temporary.renamed = true;
    // The rename itself reaches the disk once the folder is flushed; a folder that cannot be opened
    // for that (some file systems) still has the complete file.
    const int dir = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir >= 0) {
        ::fsync(dir);
        ::close(dir);
    }
}

}  // namespace gputco
