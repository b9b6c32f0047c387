#pragma once
// What a job started, on disk, so that the next job can stop what a killed
// one left running. A job killed with SIGKILL cannot stop its benchmark: the
// benchmark runs on in its process group and cgroup, holding the CPU the next
// job pins to. While a journal is set, run() writes one line per process it
// starts (its pid, which is its process group, its start time, and its cgroup);
// the next job reads a killed job's journal and stops what is still there.
#include <sys/types.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cobench::process {

/// From now on run() records each process it starts in `path`; an empty path stops recording.
void set_spawn_journal(const std::filesystem::path& path);

/// Records a process run() just started (`cgroup`: its cgroup's folder, "" when it has none).
void journal_spawn(pid_t pid, const std::string& cgroup);

/// A process's start time in clock ticks since boot (/proc/PID/stat field 22); nullopt when it is gone.
std::optional<unsigned long long> start_time(pid_t pid);

/// What stop_journaled() found still running and stopped.
struct Stopped {
  std::vector<std::string> processes;  ///< "1234 (bench_x)"
  std::vector<std::string> cgroups;    ///< folders removed
};

/// Stops what the processes of `journal` left: every live process of each
/// recorded process group (the leader's start time must match, or the group
/// members must have started after it while no other process took the
/// leader's pid), and every recorded cgroup that still exists, which is then
/// removed. A journal that cannot be read stops nothing.
Stopped stop_journaled(const std::filesystem::path& journal);

}  // namespace cobench::process
