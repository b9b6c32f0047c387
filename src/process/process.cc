#include "process/process.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "core/files.h"
#include "core/secrets.h"
#include "core/text.h"
#include "process/bounded_output.h"
#include "process/cgroup.h"
#include "process/journal.h"
#include "process/signals.h"

extern char** environ;

namespace cobench::process {
namespace {

using Clock = std::chrono::steady_clock;

/// The first executable file `name` in the folders of a PATH value (an empty entry is ".").
std::optional<std::filesystem::path> search_path(const std::string& name, const std::string& path_value) {
  size_t start = 0;
  while (start <= path_value.size()) {
    size_t end = path_value.find(':', start);
    if (end == std::string::npos) end = path_value.size();
    std::string dir = path_value.substr(start, end - start);
    std::filesystem::path candidate = std::filesystem::path(dir.empty() ? "." : dir) / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

std::string find_executable(const std::string& name, const std::vector<std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  std::string path_value = "/usr/local/bin:/usr/bin:/bin";
  for (const auto& entry : env)
    if (entry.rfind("PATH=", 0) == 0) path_value = entry.substr(5);
  // Not found: exec fails with ENOENT, reported as a spawn error.
  return search_path(name, path_value).value_or(name).string();
}

std::vector<std::string> build_environment(const Command& command) {
  std::vector<std::string> env;
  if (command.env) {
    env = *command.env;
  } else {
    for (char** e = environ; *e; ++e) env.emplace_back(*e);
  }
  for (const auto& [key, value] : command.env_overrides) {
    std::string prefix = key + "=";
    std::erase_if(env, [&](const std::string& e) { return e.rfind(prefix, 0) == 0; });
    env.push_back(prefix + value);
  }
  return env;
}

int open_for_output(const std::filesystem::path& path) {
  note_written(path);
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
  }
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

/// One output stream of the child: a pipe that cobench reads into a bounded
/// file or string. A pipe rather than handing the child the file, so that the
/// cap holds however much the child writes.
class Capture {
 public:
  /// Into `path`, or into memory when it is empty; keeps `keep` bytes at each end (0: all).
  Capture(const std::filesystem::path& path, std::size_t keep) : sink_(keep, -1) {
    if (!path.empty() && (file_fd_ = open_for_output(path)) < 0) {
      error_ = fmt::format("cannot open {}: {}", path.string(), std::strerror(errno));
      return;
    }
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
      error_ = fmt::format("pipe: {}", std::strerror(errno));
      return;
    }
    read_fd_ = fds[0];
    child_fd_ = fds[1];
    ::fcntl(read_fd_, F_SETFL, O_NONBLOCK);
    // A bigger pipe (where allowed) lets a chatty benchmark write on while cobench is not reading yet.
    ::fcntl(child_fd_, F_SETPIPE_SZ, kPipeBytes);
    sink_ = BoundedOutput(keep, file_fd_);
  }
  ~Capture() {
    for (int fd : {read_fd_, child_fd_, file_fd_})
      if (fd >= 0) ::close(fd);
  }
  Capture(const Capture&) = delete;
  Capture& operator=(const Capture&) = delete;

  /// Empty, or why the stream could not be set up.
  const std::string& error() const { return error_; }
  /// The pipe end the child gets as its stdout or stderr.
  int child_fd() const { return child_fd_; }
  /// Closes cobench's copy of the child's end, so the pipe ends when the child's side closes.
  void close_child_end() {
    ::close(child_fd_);
    child_fd_ = -1;
  }
  /// The end cobench reads; -1 once the pipe has ended.
  int fd() const { return read_fd_; }
  /// One read of what is there; false when nothing was (or the pipe ended, which closes it).
  bool read_some() {
    if (read_fd_ < 0) return false;
    char buffer[1 << 16];
    ssize_t n = ::read(read_fd_, buffer, sizeof buffer);
    if (n > 0) {
      sink_.append(std::string_view(buffer, static_cast<size_t>(n)));
      return true;
    }
    if (n < 0 && (errno == EAGAIN || errno == EINTR)) return false;
    ::close(read_fd_);
    read_fd_ = -1;
    return false;
  }
  /// Completes the file, or returns the kept text when capturing into memory.
  std::string finish() {
    sink_.finish();
    return std::move(sink_.text());
  }

 private:
  static constexpr int kPipeBytes = 1 << 20;
  BoundedOutput sink_;
  int read_fd_ = -1, child_fd_ = -1, file_fd_ = -1;
  std::string error_;
};

/// What the child tells cobench between fork and exec, through a pipe that
/// exec closes: the step that failed and its errno. Only a failed exec, chdir
/// or pin ends the child; a cgroup it could not enter leaves its process group.
struct ChildReport {
  enum Step : int { EnterCgroup, Pin, Chdir, Exec };
  Step step;
  int error;
};

void child_report(int report_fd, ChildReport::Step step, int error) {
  const ChildReport report{step, error};
  ssize_t ignored = ::write(report_fd, &report, sizeof report);
  (void)ignored;
}

[[noreturn]] void child_fail(int report_fd, ChildReport::Step step, int error) {
  child_report(report_fd, step, error);
  ::_exit(127);
}

/// Moves the calling process into the cgroup whose cgroup.procs is `procs_fd`,
/// writing its pid with async-signal-safe calls only (the child between fork and exec).
bool enter_cgroup(int procs_fd) {
  char reversed[24], text[24];
  int length = 0;
  for (pid_t pid = ::getpid(); pid > 0 && length < 24; pid /= 10)
    reversed[length++] = static_cast<char>('0' + pid % 10);
  for (int i = 0; i < length; ++i) text[i] = reversed[length - 1 - i];
  return ::write(procs_fd, text, length) == length;
}

/// The spawn error for a step the child reported failing.
std::string spawn_error(const Command& command, const ChildReport& report) {
  const char* why = std::strerror(report.error);
  switch (report.step) {
    case ChildReport::Pin: return fmt::format("cannot pin to CPU {}: {}", command.cpu.value_or(-1), why);
    case ChildReport::Chdir: return fmt::format("cannot change to {}: {}", command.cwd.string(), why);
    default: return fmt::format("{}: {}", command.argv[0], why);
  }
}

/// Waits for the child to exit (true), or for the deadline or a cancellation
/// (false), reading its output meanwhile so that it never stalls on a full
/// pipe. A pidfd wakes the wait the moment the child exits, so wall time is
/// exact; without one (old kernels), wait4 is retried every 2 ms.
bool wait_draining(pid_t pid, int pidfd, const std::vector<Capture*>& captures,
                   std::optional<Clock::time_point> deadline, bool watch_cancel, int& status, rusage& usage) {
  while (true) {
    if (::wait4(pid, &status, WNOHANG, &usage) == pid) return true;
    if (watch_cancel && signals::cancellation_requested()) return false;
    int timeout_ms = pidfd >= 0 ? 200 : 2;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - Clock::now()).count();
      if (left <= 0) return false;
      timeout_ms = static_cast<int>(std::min<long long>(left, timeout_ms));
    }
    std::vector<pollfd> watched;
    if (pidfd >= 0) watched.push_back({pidfd, POLLIN, 0});
    for (const auto* capture : captures)
      if (capture->fd() >= 0) watched.push_back({capture->fd(), POLLIN, 0});
    ::poll(watched.data(), watched.size(), timeout_ms);
    for (auto* capture : captures) capture->read_some();
  }
}

/// Reads what the pipes still hold once the child is gone. Its last output is
/// there even when a descendant that outlived it keeps a pipe open, so the
/// first empty read ends a pipe's drain; a time limit ends it for a
/// descendant that never stops writing.
void drain(const std::vector<Capture*>& captures) {
  const auto until = Clock::now() + std::chrono::milliseconds(500);
  for (auto* capture : captures)
    while (capture->read_some() && Clock::now() < until) {
    }
}

void kill_group(pid_t pid, int sig) {
  if (::killpg(pid, sig) != 0) ::kill(pid, sig);
}

}  // namespace

Result run(const Command& command) {
  Result result;
  if (command.argv.empty()) {
    result.spawn_error = "empty command";
    return result;
  }
  // Once a cancellation is pending, nothing new starts: the wait below only sees it while a child
  // runs, and a child quick enough to exit before the first look (git under load) would carry on.
  if (command.stop_on_cancellation && signals::cancellation_requested()) {
    result.outcome = Result::Outcome::Interrupted;
    return result;
  }
  std::vector<std::string> env = build_environment(command);
  std::string exe = find_executable(command.argv[0], env);
  std::vector<char*> argv_ptrs, env_ptrs;
  for (const auto& a : command.argv) argv_ptrs.push_back(const_cast<char*>(a.c_str()));
  argv_ptrs.push_back(nullptr);
  for (const auto& e : env) env_ptrs.push_back(const_cast<char*>(e.c_str()));
  env_ptrs.push_back(nullptr);

  Capture out(command.stdout_path, command.keep_output_bytes);
  std::optional<Capture> err;
  if (!command.merge_stderr_into_stdout) err.emplace(command.stderr_path, command.keep_output_bytes);
  std::vector<Capture*> captures = {&out};
  if (err) captures.push_back(&*err);
  for (const auto* capture : captures) {
    if (!capture->error().empty()) {
      result.spawn_error = capture->error();
      return result;
    }
  }
  std::optional<RunCgroup> cgroup;
  if (command.own_cgroup) {
    cgroup.emplace();
    if (!cgroup->ok()) {
      result.containment = fmt::format("process group ({})", cgroup->why_not());
      cgroup.reset();
    }
  }
  int report_pipe[2];
  if (::pipe2(report_pipe, O_CLOEXEC) != 0) {
    result.spawn_error = fmt::format("pipe: {}", std::strerror(errno));
    return result;
  }

  // Block SIGINT/SIGTERM across fork so the child cannot run cobench's
  // recording handler (and carry on) before it resets them to the default.
  sigset_t cancel_signals, previous_mask;
  sigemptyset(&cancel_signals);
  sigaddset(&cancel_signals, SIGINT);
  sigaddset(&cancel_signals, SIGTERM);
  ::pthread_sigmask(SIG_BLOCK, &cancel_signals, &previous_mask);
  auto start = Clock::now();
  pid_t pid = ::fork();
  if (pid != 0) ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
  if (pid < 0) {
    result.spawn_error = fmt::format("fork: {}", std::strerror(errno));
    ::close(report_pipe[0]);
    ::close(report_pipe[1]);
    return result;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls from here to exec. Into the cgroup
    // first, before it can start anything that would be left outside.
    if (cgroup && !enter_cgroup(cgroup->procs_fd())) child_report(report_pipe[1], ChildReport::EnterCgroup, errno);
    ::setpgid(0, 0);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    ::sigaction(SIGINT, &dfl, nullptr);
    ::sigaction(SIGTERM, &dfl, nullptr);
    ::sigaction(SIGPIPE, &dfl, nullptr);
    ::pthread_sigmask(SIG_SETMASK, &previous_mask, nullptr);
    if (command.cpu) {
      cpu_set_t set;
      CPU_ZERO(&set);
      CPU_SET(*command.cpu, &set);
      if (::sched_setaffinity(0, sizeof set, &set) != 0) child_fail(report_pipe[1], ChildReport::Pin, errno);
    }
    if (!command.cwd.empty() && ::chdir(command.cwd.c_str()) != 0)
      child_fail(report_pipe[1], ChildReport::Chdir, errno);
    int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::dup2(out.child_fd(), 1);
    ::dup2(err ? err->child_fd() : out.child_fd(), 2);
    ::execve(exe.c_str(), argv_ptrs.data(), env_ptrs.data());
    child_fail(report_pipe[1], ChildReport::Exec, errno);
  }
  ::setpgid(pid, pid);  // also from the parent, so killpg works before the child runs
  journal_spawn(pid, cgroup ? cgroup->path().string() : "");
  ::close(report_pipe[1]);
  for (auto* capture : captures) capture->close_child_end();

  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  std::optional<Clock::time_point> deadline;
  if (command.timeout_seconds > 0)
    deadline = start + std::chrono::duration_cast<Clock::duration>(
                           std::chrono::duration<double>(command.timeout_seconds));
  int status = 0;
  rusage usage{};
  const bool stopped_early =
      !wait_draining(pid, pidfd, captures, deadline, command.stop_on_cancellation, status, usage);
  if (stopped_early) {
    result.outcome = signals::cancellation_requested() && command.stop_on_cancellation
                         ? Result::Outcome::Interrupted
                         : Result::Outcome::TimedOut;
    kill_group(pid, SIGTERM);
    if (!wait_draining(pid, pidfd, captures, Clock::now() + std::chrono::seconds(2), false, status, usage)) {
      kill_group(pid, SIGKILL);
      if (cgroup) cgroup->kill_and_remove();
      ::wait4(pid, &status, 0, &usage);
    }
  }
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (pidfd >= 0) ::close(pidfd);
  if (stopped_early) kill_group(pid, SIGKILL);  // grandchildren left in the group
  // Whatever the run left behind, in the group or not, even when it ended well.
  if (cgroup) cgroup->kill_and_remove();
  drain(captures);

  std::optional<ChildReport> failure;
  for (ChildReport report; ::read(report_pipe[0], &report, sizeof report) == sizeof report;) {
    if (report.step != ChildReport::EnterCgroup) {
      failure = report;
    } else if (cgroup) {
      result.containment = fmt::format("process group (cannot enter a cgroup in {}: {})", cgroup->parent().string(),
                                       std::strerror(report.error));
      cgroup.reset();
    }
  }
  ::close(report_pipe[0]);
  if (cgroup) result.containment = fmt::format("cgroup v2 ({})", cgroup->parent().string());

  result.user_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
  result.sys_seconds = usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  result.max_rss_kib = usage.ru_maxrss;
  result.out = out.finish();
  if (err) result.err = err->finish();

  if (failure) {
    result.outcome = Result::Outcome::SpawnFailed;
    result.spawn_error = spawn_error(command, *failure);
    return result;
  }
  if (stopped_early) return result;
  if (WIFEXITED(status)) {
    result.outcome = Result::Outcome::Exited;
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.outcome = Result::Outcome::Signaled;
    result.signal = WTERMSIG(status);
  }
  return result;
}

std::string containment() {
  static const std::string found = [] {
    Command probe;
    probe.argv = {"true"};  // even when it cannot start, it entered the cgroup (or said why not) first
    probe.own_cgroup = true;
    probe.stop_on_cancellation = false;
    probe.timeout_seconds = 10;
    return run(probe).containment;
  }();
  return found;
}

std::optional<std::filesystem::path> find_on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  return search_path(program, path ? path : "");
}

Result run_capture(std::vector<std::string> argv, const std::filesystem::path& cwd) {
  Command command;
  command.argv = std::move(argv);
  command.cwd = cwd;
  return run(command);
}

std::string signal_name(int sig) {
  if (const char* abbrev = ::sigabbrev_np(sig)) return std::string("SIG") + abbrev;
  return fmt::format("signal {}", sig);
}

std::string describe(const Result& result) {
  switch (result.outcome) {
    case Result::Outcome::Exited: return fmt::format("exit status {}", result.exit_code);
    case Result::Outcome::Signaled: return fmt::format("killed by {}", signal_name(result.signal));
    case Result::Outcome::TimedOut: return fmt::format("timed out after {:.0f} s", result.wall_seconds);
    case Result::Outcome::Interrupted: return "interrupted";
    case Result::Outcome::SpawnFailed: return "could not start: " + result.spawn_error;
  }
  return "unknown";
}

std::string short_cause(const Result& result) {
  switch (result.outcome) {
    case Result::Outcome::Exited: return fmt::format("exit {}", result.exit_code);
    case Result::Outcome::Signaled: return signal_name(result.signal);
    case Result::Outcome::TimedOut: return "timeout";
    case Result::Outcome::Interrupted: return "interrupted";
    case Result::Outcome::SpawnFailed: return "spawn failed";
  }
  return "unknown";
}

std::string quote_command_line(const std::vector<std::string>& argv) {
  // For people: an argument may be megabytes (a filter, a generated flag); each is shown shortened,
  // scrubbed before it is cut (a credential cut in half would no longer be found).
  constexpr size_t kShownArgumentBytes = 256;
  std::string line;
  for (const auto& whole : argv) {
    const std::string arg = secrets::scrub_and_shorten(whole, kShownArgumentBytes);
    if (!line.empty()) line += ' ';
    bool plain = !arg.empty() && arg.find_first_not_of(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == std::string::npos;
    if (plain) {
      line += arg;
    } else {
      line += '\'';
      for (char c : arg) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += '\'';
    }
  }
  return line;
}

std::string tail_lines(const std::string& text, size_t max_lines) {
  if (max_lines == 0) return {};
  size_t end = text.size();
  while (end > 0 && text[end - 1] == '\n') --end;
  size_t pos = end, count = 0;
  while (pos > 0) {
    if (text[pos - 1] == '\n' && ++count == max_lines) break;
    --pos;
  }
  return text.substr(pos, end - pos);
}

}  // namespace cobench::process
