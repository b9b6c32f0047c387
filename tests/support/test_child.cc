// cobench_test_child: the misbehaving benchmarks and readers that tests of
// process::run and of cobench need, as one small program so that no test
// depends on what a particular shell does.
//
//   head <bytes> <program> <args>...
//       runs the program with its stdout a pipe, reads <bytes> from it, closes
//       the pipe like `| head -c` and exits as the program did (128 + signal)
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

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
  if (mode == "head") return head_main(argc, argv);
  std::fprintf(stderr, "usage: cobench_test_child head ...\n");
  return 2;
}
