#include "core/file_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <random>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"

namespace cobench {

std::optional<FileLock> FileLock::try_acquire(const std::filesystem::path& path, const std::string& holder) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InfraError(fmt::format("{}: cannot open lock file: {}", path.string(), std::strerror(errno)));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return std::nullopt;
  }
  // Only the holder writes: the file keeps the previous holder's words until the lock is ours.
  if (::ftruncate(fd, 0) == 0) {
    const std::string line = holder + "\n";
    (void)!::pwrite(fd, line.data(), line.size(), 0);
  }
  return FileLock(fd);
}

FileLock FileLock::acquire(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) throw InfraError(fmt::format("{}: cannot open lock file: {}", path.string(), std::strerror(errno)));
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    const int error = errno;
    ::close(fd);
    throw InfraError(fmt::format("{}: cannot lock: {}", path.string(), std::strerror(error)));
  }
  return FileLock(fd);
}

std::string FileLock::holder_of(const std::filesystem::path& path) {
  try {
    std::string text = read_file(path);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
  } catch (const InputError&) {
    return "";
  }
}

FileLock::FileLock(FileLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

FileLock::~FileLock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

std::string make_job_id() {
  std::random_device entropy;
  const unsigned long long high = entropy(), low = entropy();
  return fmt::format("{:012x}", ((high << 32) ^ low ^ static_cast<unsigned long long>(::getpid())) & 0xffffffffffffULL);
}

std::string describe_this_process() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  char when[32] = {};
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  ::gmtime_r(&now, &utc);
  std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return fmt::format("pid {} on {} since {}", ::getpid(), host[0] ? host : "this host", when);
}

}  // namespace cobench
