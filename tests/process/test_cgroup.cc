// RunCgroup on this machine (skipped, saying why, where no cgroup can be made) and
// the lookup of a cgroup v2 folder on fixture texts of /proc/self/{cgroup,mountinfo}.
#include "process/cgroup.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace cobench::process {
namespace {

const char* const kUnified =
    "22 1 0:21 / / rw,relatime shared:1 - ext4 /dev/vda rw\n"
    "30 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n";

TEST(CgroupV2Folder, UnifiedHierarchy) {
  EXPECT_EQ(cgroup_v2_folder("0::/user.slice/user-1000.slice/session-2.scope\n", kUnified),
            "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope");
}

TEST(CgroupV2Folder, HybridHierarchyUsesTheUnifiedMount) {
  const char* membership = "4:memory:/job\n1:cpu:/\n0::/\n";
  const char* mountinfo =
      "30 22 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"
      "31 30 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
      "39 30 0:35 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n";
  EXPECT_EQ(cgroup_v2_folder(membership, mountinfo), "/sys/fs/cgroup/unified");
}

TEST(CgroupV2Folder, ContainerMountWhoseRootIsItsOwnCgroup) {
  // Without a cgroup namespace a container sees the host's path and a mount rooted at its own cgroup.
  const char* mountinfo = "700 690 0:26 /docker/abc /sys/fs/cgroup ro,nosuid master:4 - cgroup2 cgroup rw\n";
  EXPECT_EQ(cgroup_v2_folder("0::/docker/abc/job\n", mountinfo), "/sys/fs/cgroup/job");
  EXPECT_EQ(cgroup_v2_folder("0::/docker/abc\n", mountinfo), "/sys/fs/cgroup");
  EXPECT_EQ(cgroup_v2_folder("0::/elsewhere\n", mountinfo), std::nullopt);
}

TEST(CgroupV2Folder, EscapedMountPoint) {
  const char* mountinfo = "30 22 0:26 / /mnt/cgroup\\040two rw - cgroup2 cgroup2 rw\n";
  EXPECT_EQ(cgroup_v2_folder("0::/a\n", mountinfo), "/mnt/cgroup two/a");
}

TEST(CgroupV2Folder, NoneWithoutCgroupV2) {
  const char* v1_only = "31 30 0:27 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n";
  EXPECT_EQ(cgroup_v2_folder("4:memory:/\n", v1_only), std::nullopt);
  EXPECT_EQ(cgroup_v2_folder("0::/\n", v1_only), std::nullopt);
  EXPECT_EQ(cgroup_v2_folder("", kUnified), std::nullopt);
}

/// The name every cgroup this process makes starts with.
std::string ours() { return "cobench-" + std::to_string(::getpid()) + "-"; }

/// A child that has moved itself into `cgroup` (when this returns) and sleeps; reaped by the caller.
pid_t sleeper_in(const RunCgroup& cgroup) {
  int ready[2];
  if (::pipe(ready) != 0) return -1;
  pid_t pid = ::fork();
  if (pid == 0) {
    const std::string self = std::to_string(::getpid());
    if (::write(cgroup.procs_fd(), self.data(), self.size()) < 0) ::_exit(1);
    if (::write(ready[1], "!", 1) < 0) ::_exit(1);
    ::pause();
    ::_exit(0);
  }
  ::close(ready[1]);
  char byte = 0;
  if (::read(ready[0], &byte, 1) != 1) ADD_FAILURE() << "the sleeper could not enter the cgroup";
  ::close(ready[0]);
  return pid;
}

TEST(RunCgroup, KillsEverythingInItAndRemovesIt) {
  RunCgroup cgroup;
  if (!cgroup.ok()) GTEST_SKIP() << "no cgroup here: " << cgroup.why_not();
  const pid_t pid = sleeper_in(cgroup);
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, WNOHANG), 0);
  cgroup.kill_and_remove();
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  for (const auto& entry : std::filesystem::directory_iterator(cgroup.parent()))
    EXPECT_NE(entry.path().filename().string().rfind(ours(), 0), 0u) << entry.path() << " is left behind";
}

TEST(RunCgroup, FreezingKillsWhereCgroupKillIsMissing) {
  RunCgroup cgroup;
  if (!cgroup.ok()) GTEST_SKIP() << "no cgroup here: " << cgroup.why_not();
  const pid_t first = sleeper_in(cgroup), second = sleeper_in(cgroup);
  // The folder of this run's cgroup: this process's only one.
  std::filesystem::path folder;
  for (const auto& entry : std::filesystem::directory_iterator(cgroup.parent()))
    if (entry.path().filename().string().rfind(ours(), 0) == 0) folder = entry.path();
  ASSERT_FALSE(folder.empty());
  kill_by_freezing(folder);
  int status = 0;
  for (pid_t pid : {first, second}) {
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  }
}

}  // namespace
}  // namespace cobench::process
