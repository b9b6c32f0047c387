#include "process/journal.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "process/cgroup.h"

namespace cobench::process {
namespace {

namespace fs = std::filesystem;

std::mutex journal_mutex;
fs::path& journal_path() {
  static fs::path path;
  return path;
}

/// The fields of /proc/PID/stat after the command name, which may hold blanks and parentheses.
struct ProcStat {
  std::string name;
  char state = '?';
  pid_t group = 0;
  unsigned long long start = 0;
};

std::optional<ProcStat> proc_stat(pid_t pid) {
  std::string text;
  try {
    text = read_file(fs::path("/proc") / std::to_string(pid) / "stat");
  } catch (const InputError&) {
    return std::nullopt;
  }
  const size_t open = text.find('('), close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  ProcStat stat;
  stat.name = text.substr(open + 1, close - open - 1);
  std::istringstream rest(text.substr(close + 1));
  long long field = 0;
  pid_t parent = 0, session = 0;
  rest >> stat.state >> parent >> stat.group >> session;
  for (int i = 7; i < 22 && rest >> field; ++i) {  // fields 7..21
  }
  if (!(rest >> stat.start)) return std::nullopt;
  return stat;
}

std::vector<pid_t> all_pids() {
  std::vector<pid_t> pids;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.empty() && name.find_first_not_of("0123456789") == std::string::npos) pids.push_back(std::stoi(name));
  }
  return pids;
}

struct Entry {
  pid_t pid = 0;
  unsigned long long start = 0;
  std::string cgroup;
};

std::vector<Entry> read_journal(const fs::path& path) {
  std::vector<Entry> entries;
  std::string text;
  try {
    text = read_file(path);
  } catch (const InputError&) {
    return entries;
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    // "PID START CGROUP-FOLDER" (the folder, when there is one, may hold blanks: it is the rest of the line)
    std::istringstream fields(line);
    Entry entry;
    if (!(fields >> entry.pid >> entry.start) || entry.pid <= 1) continue;
    std::getline(fields >> std::ws, entry.cgroup);
    entries.push_back(entry);
  }
  return entries;
}

}  // namespace

void set_spawn_journal(const fs::path& path) {
  std::lock_guard<std::mutex> guard(journal_mutex);
  journal_path() = path;
}

std::optional<unsigned long long> start_time(pid_t pid) {
  const auto stat = proc_stat(pid);
  return stat ? std::optional(stat->start) : std::nullopt;
}

void journal_spawn(pid_t pid, const std::string& cgroup) {
  std::lock_guard<std::mutex> guard(journal_mutex);
  if (journal_path().empty()) return;
  const auto start = start_time(pid);
  if (!start) return;  // already gone
  const int fd = ::open(journal_path().c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;  // best effort: a job folder that cannot be written fails the job elsewhere
  const std::string line = fmt::format("{} {} {}\n", pid, *start, cgroup);
  const ssize_t ignored = ::write(fd, line.data(), line.size());
  (void)ignored;
  ::close(fd);
}

Stopped stop_journaled(const fs::path& journal) {
  Stopped stopped;
  const auto entries = read_journal(journal);
  if (entries.empty()) return stopped;
  std::vector<std::pair<pid_t, ProcStat>> processes;
  for (pid_t pid : all_pids())
    if (auto stat = proc_stat(pid); stat && stat->state != 'Z') processes.emplace_back(pid, *stat);
  for (const auto& entry : entries) {
    // Another process holding the leader's pid means the pid (and so the group id) was reused: not ours.
    const auto leader = proc_stat(entry.pid);
    if (leader && leader->start != entry.start) continue;
    for (const auto& [pid, stat] : processes) {
      if (stat.group != entry.pid || stat.start < entry.start || pid == ::getpid()) continue;
      if (::kill(pid, SIGKILL) == 0) stopped.processes.push_back(fmt::format("{} ({})", pid, stat.name));
    }
  }
  for (const auto& entry : entries) {
    std::error_code ec;
    if (entry.cgroup.empty() || !fs::exists(fs::path(entry.cgroup) / "cgroup.procs", ec)) continue;
    std::string members;
    try {
      members = read_file(fs::path(entry.cgroup) / "cgroup.procs");
    } catch (const InputError&) {
      continue;  // gone meanwhile
    }
    std::istringstream pids(members);
    for (pid_t pid = 0; pids >> pid;)
      if (auto stat = proc_stat(pid)) stopped.processes.push_back(fmt::format("{} ({})", pid, stat->name));
    if (kill_cgroup(entry.cgroup)) stopped.cgroups.push_back(entry.cgroup);
  }
  std::sort(stopped.processes.begin(), stopped.processes.end());
  stopped.processes.erase(std::unique(stopped.processes.begin(), stopped.processes.end()), stopped.processes.end());
  return stopped;
}

}  // namespace cobench::process
