// Issue 25, item 4: the container image is built from ci/Dockerfile by a
// daemonless builder packaged in Debian (podman), and `cobench demo` runs in
// it. The Debian 12 base comes from the registry when one is reachable, else
// from mmdebstrap (`podman import`), named by the Dockerfile's DEBIAN_IMAGE
// argument. Everything lives in a podman storage folder of the test's own,
// removed at the end: no image of the machine's is touched. Skips, saying
// why, where podman cannot run containers (not root, no podman, no Debian
// mirror, a kernel that refuses them).
#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "process/process.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kSource = COBENCH_SOURCE_DIR;
const std::string kImage = "localhost/cobench-test:latest";

// Everything this test starts (mmdebstrap, podman, the build and the demo in the
// containers) stays on CPU 0: the end-to-end tests that run beside it time their
// benchmarks pinned to the last CPU, and a bootstrap or a compiler there made a
// plain command's wall time swing by ±250% (CommandRun, in a fresh-clone make test).
constexpr int kOwnCpu = 0;

/// The last lines of a log file, for a failure message.
std::string log_tail(const fs::path& log, int lines) {
  std::ifstream in(log);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return process::tail_lines(text, lines);
}

/// `--ulimit` values podman can set without raising a limit: its defaults (1048576
/// open files) need CAP_SYS_RESOURCE, which a sandbox may not grant even to root.
std::vector<std::string> ulimit_args() {
  auto soft = [](int resource, rlim_t most) {
    rlimit limit{};
    ::getrlimit(resource, &limit);
    const rlim_t value = limit.rlim_cur == RLIM_INFINITY ? most : std::min(limit.rlim_cur, most);
    return std::to_string(value) + ":" + std::to_string(value);
  };
  return {"--ulimit", "nofile=" + soft(RLIMIT_NOFILE, 1048576), "--ulimit", "nproc=" + soft(RLIMIT_NPROC, 4096)};
}

/// podman with the test's own storage, and runc where it is installed: crun
/// (podman's default in Debian 12) refuses hosts that mount cgroup v2 beside v1.
class Podman {
 public:
  explicit Podman(const fs::path& folder) : folder_(folder) {
    base_ = {"podman", "--root", (folder / "storage").string(), "--runroot", (folder / "run").string(),
             "--events-backend=file", "--cgroup-manager=cgroupfs"};
    if (process::find_on_path("runc")) base_.insert(base_.end(), {"--runtime", "runc"});
  }
  /// Runs `podman ARGS...`; its output goes to `log` when given (replacing it), else into the result.
  /// `build` and `run` get the limits and CPU below.
  process::Result run(std::vector<std::string> args, double timeout_seconds, const fs::path& log = {}) const {
    process::Command command;
    command.cpu = kOwnCpu;
    command.argv = base_;
    command.argv.push_back(args.front());
    if (args.front() == "build" || args.front() == "run") {
      const auto limits = ulimit_args();
      command.argv.insert(command.argv.end(), limits.begin(), limits.end());
      // The containers too: the demo in there pins its runs to the last CPU it may use.
      command.argv.push_back("--cpuset-cpus=" + std::to_string(kOwnCpu));
      // The host's network: apt in the build reaches the Debian mirror without a bridge,
      // which would need iptables and CNI plugins set up.
      command.argv.push_back("--network=host");
    }
    command.argv.insert(command.argv.end(), args.begin() + 1, args.end());
    command.timeout_seconds = timeout_seconds;
    command.merge_stderr_into_stdout = true;
    if (!log.empty()) command.stdout_path = log;
    return process::run(command);
  }

 private:
  fs::path folder_;
  std::vector<std::string> base_;
};

class ContainerImage : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (::geteuid() != 0) {
      skip_reason_ = "podman's containers with their own storage need root here (rootless needs subuid ranges)";
      return;
    }
    if (!process::find_on_path("podman")) {
      skip_reason_ = "podman not found (make deps installs it)";
      return;
    }
    folder_ = new TempDir();
    podman_ = new Podman(folder_->path());
    build_log_ = folder_->path() / "build.log";
    base_ = base_image();
    if (base_.empty()) return;  // skip_reason_ says why
    build_ = new process::Result(podman_->run({"build", "--pull=never", "--build-arg", "DEBIAN_IMAGE=" + base_, "-f",
                                               (kSource / "ci/Dockerfile").string(), "-t", kImage, kSource.string()},
                                              2400, build_log_));
  }

  static void TearDownTestSuite() {
    if (podman_) podman_->run({"system", "reset", "--force"}, 300);  // unmounts and removes the storage
    delete podman_;
    delete build_;
    delete folder_;
  }

  void SetUp() override {
    if (!skip_reason_.empty()) GTEST_SKIP() << skip_reason_;
  }

  /// The Debian 12 base: the registry's when reachable, else made by mmdebstrap
  /// and imported. Empty, with skip_reason_ set, when neither works.
  static std::string base_image() {
    const std::string registry = "docker.io/library/debian:12";
    if (podman_->run({"pull", "--quiet", registry}, 300, folder_->path() / "pull.log").ok()) return registry;
    if (!process::find_on_path("mmdebstrap")) {
      skip_reason_ = "no image registry reachable and no mmdebstrap to make a Debian 12 base (make deps installs it)";
      return "";
    }
    const fs::path tarball = folder_->path() / "debian12.tar";
    process::Command strap;
    strap.argv = {"mmdebstrap", "--variant=minbase", "--quiet", "bookworm", tarball.string()};
    strap.cpu = kOwnCpu;
    strap.timeout_seconds = 900;
    strap.merge_stderr_into_stdout = true;
    const auto made = process::run(strap);
    if (!made.ok()) {
      skip_reason_ = "no image registry reachable, and mmdebstrap could not make a Debian 12 base (is the Debian "
                     "mirror reachable?): " + process::tail_lines(made.out, 3);
      return "";
    }
    const std::string name = "localhost/cobench-test-base:bookworm";
    const auto imported = podman_->run({"import", "--quiet", tarball.string(), name}, 300);
    fs::remove(tarball);
    if (!imported.ok()) {
      skip_reason_ = "podman cannot import an image here: " + process::tail_lines(imported.out, 3);
      return "";
    }
    // Can this machine run a container at all? If not, say podman's reason rather than fail the build.
    if (const auto probe = podman_->run({"run", "--rm", name, "true"}, 300); !probe.ok()) {
      skip_reason_ = "podman cannot run a container on this machine: " + process::tail_lines(probe.out, 3);
      return "";
    }
    return name;
  }

  static inline std::string skip_reason_;
  static inline TempDir* folder_ = nullptr;
  static inline Podman* podman_ = nullptr;
  static inline fs::path build_log_;
  static inline std::string base_;
  static inline process::Result* build_ = nullptr;
};

// One test, not several: CTest runs each test in a process of its own, and each
// would build the image again in SetUpTestSuite.
TEST_F(ContainerImage, BuildsFromCiDockerfileWithThePackageAndRunsTheDemoInside) {
  ASSERT_TRUE(build_->ok()) << "podman build failed:\n" << log_tail(build_log_, 60);
  const auto version = podman_->run({"run", "--rm", kImage, "cobench", "--version"}, 300);
  ASSERT_TRUE(version.ok()) << version.out;
  EXPECT_NE(version.out.find("cobench "), std::string::npos) << version.out;
  // Installed from the package, not copied: dpkg knows it, with the preload library beside it.
  const auto listed = podman_->run({"run", "--rm", kImage, "dpkg", "-L", "cobench"}, 300);
  ASSERT_TRUE(listed.ok()) << listed.out;
  for (const char* file : {"/usr/bin/cobench", "/usr/lib/cobench/libcobench_alloc_preload.so",
                           "/usr/share/cobench/gitlab/cobench.yml"})
    EXPECT_NE(listed.out.find(std::string(file) + "\n"), std::string::npos) << file << "\n" << listed.out;

  const auto demo = podman_->run({"run", "--rm", kImage, "cobench", "demo", "--out", "/tmp/demo"}, 900);
  ASSERT_TRUE(demo.ok()) << process::tail_lines(demo.out, 60);
  EXPECT_NE(demo.out.find("demo finished"), std::string::npos) << process::tail_lines(demo.out, 60);
  EXPECT_NE(demo.out.find("bench_checksum"), std::string::npos) << demo.out;
}

}  // namespace
}  // namespace cobench::testing
