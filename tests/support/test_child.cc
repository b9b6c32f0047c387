// cobench_test_child: the misbehaving benchmarks and readers that tests of
// process::run and of cobench need, as one small program so that no test
// depends on what a particular shell does.
//
//   spew <stdout bytes> <stderr bytes> [<file> <file bytes>]
//       writes "HEAD\n", filler and "TAIL\n" (exactly that many bytes) to each
//       stream, and a file of its own the way --benchmark_out does
//   orphan <pid file> exit|hang
//       ignores SIGTERM, leaves a grandchild in a session of its own (setsid)
//       that writes its pid to <pid file> and sleeps 60 s, then exits or hangs
//   head <bytes> <program> <args>...
//       runs the program with its stdout a pipe, reads <bytes> from it, closes
//       the pipe like `| head -c` and exits as the program did (128 + signal)
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

namespace {

bool write_all(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) return false;
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

/// "HEAD\n", lines of x, "TAIL\n": exactly `size` bytes (>= 10), so a kept log shows both ends.
bool spew(int fd, long long size) {
  if (size < 10) return false;
  if (!write_all(fd, "HEAD\n", 5)) return false;
  std::string block(1 << 16, 'x');
  for (size_t i = 63; i < block.size(); i += 64) block[i] = '\n';
  for (long long left = size - 10; left > 0;) {
    const size_t n = static_cast<size_t>(std::min<long long>(left, static_cast<long long>(block.size())));
    if (!write_all(fd, block.data(), n)) return false;
    left -= static_cast<long long>(n);
  }
  return write_all(fd, "TAIL\n", 5);
}

int spew_main(int argc, char** argv) {
  if (argc != 4 && argc != 6) return 2;
  if (argc == 6) {
    int file = ::open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (file < 0 || !spew(file, std::atoll(argv[5]))) return 3;
    ::close(file);
  }
  if (!spew(1, std::atoll(argv[2])) || !spew(2, std::atoll(argv[3]))) return 4;
  return 0;
}

int orphan_main(int argc, char** argv) {
  if (argc != 4) return 2;
  const std::filesystem::path pid_file = argv[2];
  ::signal(SIGTERM, SIG_IGN);  // inherited: only SIGKILL stops any of them
  pid_t middle = ::fork();
  if (middle == 0) {
    ::setsid();  // out of the process group that a timeout kills
    if (::fork() == 0) {
      const auto temp = pid_file.string() + ".tmp";
      std::ofstream(temp) << ::getpid() << '\n';
      std::filesystem::rename(temp, pid_file);
      ::sleep(60);  // bounded, so a failing test leaves nothing for long
      ::_exit(0);
    }
    ::_exit(0);
  }
  ::waitpid(middle, nullptr, 0);
  // The test reads the pid after the run: it must exist before this process is done.
  for (int i = 0; i < 500 && !std::filesystem::exists(pid_file); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (std::string(argv[3]) == "hang")
    for (;;) ::pause();
  return 0;
}

int head_main(int argc, char** argv) {
  if (argc < 4) return 2;
  const long long wanted = std::atoll(argv[2]);
  int fds[2];
  if (::pipe(fds) != 0) return 3;
  pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execvp(argv[3], argv + 3);
    ::_exit(127);
  }
  ::close(fds[1]);
  char buffer[4096];
  for (long long got = 0; got < wanted;) {
    ssize_t n = ::read(fds[0], buffer, sizeof buffer);
    if (n <= 0) break;
    write_all(1, buffer, static_cast<size_t>(n));
    got += n;
  }
  ::close(fds[0]);  // from here on the program's stdout is a pipe nobody reads
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "spew") return spew_main(argc, argv);
  if (mode == "orphan") return orphan_main(argc, argv);
  if (mode == "head") return head_main(argc, argv);
  std::fprintf(stderr, "usage: cobench_test_child spew|orphan|head ...\n");
  return 2;
}
