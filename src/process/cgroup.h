#pragma once
// Containment of one run in a cgroup v2 of its own. A process group is left
// by anything that calls setsid() (daemons, some test harnesses); a cgroup is
// not, and cgroup.kill reaches every process in it at once.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace cobench::process {

/// A new, empty cgroup v2 below this process's own one, for one run; killed
/// whole and removed when it goes out of scope. Where cgroups cannot be made
/// (no cgroup v2, no permission: a plain login session, a read-only container
/// mount) ok() is false and why_not() says why, and the run falls back to its
/// process group.
class RunCgroup {
 public:
  /// Creates <own cgroup>/cobench-<pid>-<n>.
  RunCgroup();
  /// kill_and_remove(): nothing of a run survives its RunCgroup, even on an early return.
  ~RunCgroup();
  RunCgroup(const RunCgroup&) = delete;
  RunCgroup& operator=(const RunCgroup&) = delete;

  /// True when the cgroup exists and a child can move itself in.
  bool ok() const { return procs_fd_ >= 0; }
  /// Why ok() is false.
  const std::string& why_not() const { return why_not_; }
  /// The folder it is created in: this process's own cgroup.
  const std::filesystem::path& parent() const { return parent_; }
  /// Its own folder (empty when there is none).
  const std::filesystem::path& path() const { return path_; }
  /// Its cgroup.procs, open for writing: a child writes its pid here before exec.
  int procs_fd() const { return procs_fd_; }
  /// SIGKILL to every process in it, then waits (up to 2 s) until they are
  /// gone and removes it. Idempotent.
  void kill_and_remove();

 private:
  std::filesystem::path parent_, path_;
  int procs_fd_ = -1;
  std::string why_not_;
};

/// The folder of the cgroup v2 a process is in, from the text of its
/// /proc/<pid>/cgroup ("0::/user.slice/…") and of its /proc/<pid>/mountinfo
/// (a cgroup2 mount whose root holds that cgroup: /sys/fs/cgroup on unified
/// hosts, /sys/fs/cgroup/unified on hybrid ones); nullopt when there is none.
std::optional<std::filesystem::path> cgroup_v2_folder(std::string_view membership, std::string_view mountinfo);

/// Kills every process of the cgroup at `path` (cgroup.kill, or freezing it
/// on older kernels), waits (up to 2 s) until none is left and removes it.
/// False when it could not be removed (a process stuck in the kernel).
bool kill_cgroup(const std::filesystem::path& path);

/// Kills every process of the cgroup at `path` without cgroup.kill (kernels
/// before 5.14): freezes it so nothing forks meanwhile, sends SIGKILL to each
/// pid in cgroup.procs until none is left (up to 2 s), and thaws it.
void kill_by_freezing(const std::filesystem::path& path);

}  // namespace cobench::process
