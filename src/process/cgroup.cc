#include "process/cgroup.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <sstream>
#include <thread>
#include <vector>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"

namespace cobench::process {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
constexpr auto kKillWait = std::chrono::seconds(2);

std::vector<std::string> split(std::string_view text, char separator) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in{std::string(text)};
  while (std::getline(in, part, separator)) parts.push_back(part);
  return parts;
}

/// mountinfo writes a space in a path as \040 (and tab, newline, backslash alike).
std::string unescape_mount_path(std::string_view text) {
  std::string path;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 3 < text.size()) {
      const std::string_view code = text.substr(i + 1, 3);
      if (code.find_first_not_of("01234567") == std::string_view::npos) {
        path += static_cast<char>(std::stoi(std::string(code), nullptr, 8));
        i += 3;
        continue;
      }
    }
    path += text[i];
  }
  return path;
}

/// A procfs or cgroupfs file's text; empty when unreadable (a cgroup already gone).
std::string read_or_empty(const fs::path& path) {
  try {
    return read_file(path);
  } catch (const InputError&) {
    return {};
  }
}

/// Writes a short value to a cgroup control file; false (with errno) when it fails.
bool write_control(const fs::path& path, std::string_view value) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool written = ::write(fd, value.data(), value.size()) == static_cast<ssize_t>(value.size());
  const int saved = errno;
  ::close(fd);
  errno = saved;
  return written;
}

/// This process's own cgroup v2 folder, looked up once.
const std::optional<fs::path>& own_folder() {
  static const auto folder =
      cgroup_v2_folder(read_or_empty("/proc/self/cgroup"), read_or_empty("/proc/self/mountinfo"));
  return folder;
}

/// True once no process is left in the cgroup (zombies are not: they have left it).
bool wait_until_empty(const fs::path& path) {
  const auto until = Clock::now() + kKillWait;
  do {
    const std::string events = read_or_empty(path / "cgroup.events");
    if (events.empty() || events.find("populated 0") != std::string::npos) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  } while (Clock::now() < until);
  return false;
}

}  // namespace

std::optional<fs::path> cgroup_v2_folder(std::string_view membership, std::string_view mountinfo) {
  std::optional<std::string> group;
  for (const auto& line : split(membership, '\n'))
    if (line.rfind("0::", 0) == 0) group = line.substr(3);
  if (!group || group->empty() || (*group)[0] != '/') return std::nullopt;
  for (const auto& line : split(mountinfo, '\n')) {
    // "36 25 0:30 / /sys/fs/cgroup rw,nosuid shared:9 - cgroup2 cgroup2 rw": root is field 4, mount point 5.
    const auto fields = split(line, ' ');
    const auto dash = std::find(fields.begin(), fields.end(), "-");
    if (fields.size() < 5 || dash == fields.end() || dash + 1 == fields.end() || dash[1] != "cgroup2") continue;
    const fs::path root = unescape_mount_path(fields[3]);
    const fs::path mount_point = unescape_mount_path(fields[4]);
    const fs::path relative = fs::path(*group).lexically_relative(root);
    if (relative.empty() || *relative.begin() == "..") continue;  // this mount does not show our cgroup
    return relative == "." ? mount_point : mount_point / relative;
  }
  return std::nullopt;
}

RunCgroup::RunCgroup() {
  if (!own_folder()) {
    why_not_ = "no cgroup v2 hierarchy holds this process (/proc/self/cgroup, /proc/self/mountinfo)";
    return;
  }
  parent_ = *own_folder();
  static std::atomic<unsigned> serial{0};
  int made = 0;
  do {  // a cobench killed before removing its cgroups may have left one of this name behind
    path_ = parent_ / fmt::format("cobench-{}-{}", ::getpid(), ++serial);
    made = ::mkdir(path_.c_str(), 0755);
  } while (made != 0 && errno == EEXIST);
  if (made != 0) {
    why_not_ = fmt::format("cannot create a cgroup in {}: {}", parent_.string(), std::strerror(errno));
    path_.clear();
    return;
  }
  procs_fd_ = ::open((path_ / "cgroup.procs").c_str(), O_WRONLY | O_CLOEXEC);
  if (procs_fd_ < 0) {
    why_not_ = fmt::format("cannot open {}: {}", (path_ / "cgroup.procs").string(), std::strerror(errno));
    ::rmdir(path_.c_str());
    path_.clear();
  }
}

RunCgroup::~RunCgroup() { kill_and_remove(); }

void RunCgroup::kill_and_remove() {
  if (procs_fd_ >= 0) ::close(procs_fd_);
  procs_fd_ = -1;
  if (path_.empty()) return;
  kill_cgroup(path_);
  path_.clear();
}

bool kill_cgroup(const fs::path& path) {
  if (!write_control(path / "cgroup.kill", "1")) kill_by_freezing(path);
  // A process stuck in the kernel (D state) may outlive the wait: its cgroup then stays behind.
  return wait_until_empty(path) && ::rmdir(path.c_str()) == 0;
}

void kill_by_freezing(const fs::path& path) {
  write_control(path / "cgroup.freeze", "1");
  const auto until = Clock::now() + kKillWait;
  while (Clock::now() < until) {
    std::istringstream pids(read_or_empty(path / "cgroup.procs"));
    bool any = false;
    for (pid_t pid = 0; pids >> pid;) {
      ::kill(pid, SIGKILL);  // frozen, a process still dies of SIGKILL
      any = true;
    }
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  write_control(path / "cgroup.freeze", "0");
}

}  // namespace cobench::process
