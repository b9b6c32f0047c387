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
#include <thread>

#include <fmt/format.h>

#include "core/files.h"
#include "process/signals.h"

extern char** environ;

namespace cobench::process {
namespace {

using Clock = std::chrono::steady_clock;

std::string find_executable(const std::string& name, const std::vector<std::string>& env) {
  if (name.find('/') != std::string::npos) return name;
  std::string path_value = "/usr/local/bin:/usr/bin:/bin";
  for (const auto& entry : env)
    if (entry.rfind("PATH=", 0) == 0) path_value = entry.substr(5);
  size_t start = 0;
  while (start <= path_value.size()) {
    size_t end = path_value.find(':', start);
    if (end == std::string::npos) end = path_value.size();
    std::string dir = path_value.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return name;  // exec fails with ENOENT, reported as a spawn error
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

/// A temporary file for captured output; removed on destruction.
struct CaptureFile {
  std::string path;
  int fd = -1;
  CaptureFile() {
    const char* tmp = std::getenv("TMPDIR");
    path = std::string(tmp && *tmp ? tmp : "/tmp") + "/cobench-capture-XXXXXX";
    fd = ::mkstemp(path.data());
    if (fd >= 0) ::fcntl(fd, F_SETFD, FD_CLOEXEC);
  }
  ~CaptureFile() {
    if (fd >= 0) ::close(fd);
    if (!path.empty()) ::unlink(path.c_str());
  }
  std::string read_all() const {
    try {
      return cobench::read_file(path);
    } catch (...) {
      return {};
    }
  }
};

int open_for_output(const std::filesystem::path& path) {
  if (path.has_parent_path()) {
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
  }
  return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

[[noreturn]] void child_fail(int report_fd, int err) {
  ssize_t ignored = ::write(report_fd, &err, sizeof err);
  (void)ignored;
  ::_exit(127);
}

/// Waits for the child with a pidfd so wall time is exact and no busy loop is needed.
/// Returns false when the deadline passed or cancellation arrived first.
bool wait_readable(int pidfd, Clock::time_point deadline, bool has_deadline, bool watch_cancel) {
  while (true) {
    if (watch_cancel && signals::cancellation_requested()) return false;
    int timeout_ms = 200;
    if (has_deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) return false;
      timeout_ms = static_cast<int>(std::min<long long>(left, 200));
    }
    if (pidfd >= 0) {
      pollfd p{pidfd, POLLIN, 0};
      int rc = ::poll(&p, 1, timeout_ms);
      if (rc > 0) return true;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(timeout_ms, 2)));
      return true;  // caller re-checks with WNOHANG
    }
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
  std::vector<std::string> env = build_environment(command);
  std::string exe = find_executable(command.argv[0], env);
  std::vector<char*> argv_ptrs, env_ptrs;
  for (const auto& a : command.argv) argv_ptrs.push_back(const_cast<char*>(a.c_str()));
  argv_ptrs.push_back(nullptr);
  for (const auto& e : env) env_ptrs.push_back(const_cast<char*>(e.c_str()));
  env_ptrs.push_back(nullptr);

  CaptureFile out_capture, err_capture;
  int out_fd = command.stdout_path.empty() ? out_capture.fd : open_for_output(command.stdout_path);
  int err_fd = command.merge_stderr_into_stdout ? out_fd
               : command.stderr_path.empty() ? err_capture.fd
                                             : open_for_output(command.stderr_path);
  if (out_fd < 0 || err_fd < 0) {
    result.spawn_error = fmt::format("cannot open output file: {}", std::strerror(errno));
    return result;
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
    // Child: only async-signal-safe calls from here to exec.
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
      if (::sched_setaffinity(0, sizeof set, &set) != 0) child_fail(report_pipe[1], errno);
    }
    if (!command.cwd.empty() && ::chdir(command.cwd.c_str()) != 0) child_fail(report_pipe[1], errno);
    int null_fd = ::open("/dev/null", O_RDONLY);
    if (null_fd >= 0) ::dup2(null_fd, 0);
    ::dup2(out_fd, 1);
    ::dup2(err_fd, 2);
    ::execve(exe.c_str(), argv_ptrs.data(), env_ptrs.data());
    child_fail(report_pipe[1], errno);
  }
  ::setpgid(pid, pid);  // also from the parent, so killpg works before the child runs
  ::close(report_pipe[1]);
  if (!command.stdout_path.empty()) ::close(out_fd);
  if (!command.merge_stderr_into_stdout && !command.stderr_path.empty()) ::close(err_fd);

  int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  bool has_deadline = command.timeout_seconds > 0;
  auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(command.timeout_seconds));
  int status = 0;
  rusage usage{};
  bool stopped_early = false;
  while (true) {
    pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (!wait_readable(pidfd, deadline, has_deadline, command.stop_on_cancellation)) {
      stopped_early = true;
      result.outcome = signals::cancellation_requested() && command.stop_on_cancellation
                           ? Result::Outcome::Interrupted
                           : Result::Outcome::TimedOut;
      kill_group(pid, SIGTERM);
      auto grace_end = Clock::now() + std::chrono::seconds(2);
      while (::wait4(pid, &status, WNOHANG, &usage) != pid) {
        if (Clock::now() > grace_end) {
          kill_group(pid, SIGKILL);
          ::wait4(pid, &status, 0, &usage);
          break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
      break;
    }
  }
  result.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (pidfd >= 0) ::close(pidfd);
  if (stopped_early) kill_group(pid, SIGKILL);  // grandchildren left in the group

  int child_errno = 0;
  bool exec_failed = ::read(report_pipe[0], &child_errno, sizeof child_errno) == sizeof child_errno;
  ::close(report_pipe[0]);

  result.user_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6;
  result.sys_seconds = usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
  result.max_rss_kib = usage.ru_maxrss;
  if (command.stdout_path.empty()) result.out = out_capture.read_all();
  if (command.stderr_path.empty() && !command.merge_stderr_into_stdout) result.err = err_capture.read_all();

  if (exec_failed) {
    result.outcome = Result::Outcome::SpawnFailed;
    result.spawn_error = fmt::format("{}: {}", command.argv[0], std::strerror(child_errno));
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
  std::string line;
  for (const auto& arg : argv) {
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
