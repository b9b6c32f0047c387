#pragma once
// A job's own folder inside the work dir (<work>/job-XXXXXX): created new,
// marked as cobench's and locked for the job's life, removed at its end
// unless kept. Two jobs on one repository each get their own. The next job
// removes the folders of killed jobs (marked, no longer locked), after
// stopping whatever the killed job left running (its process journal,
// process/journal.h), and says so. A kept folder (--keep) is never removed by
// another job: `cobench clean` removes it. Nothing else in the work dir is
// ever touched.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/file_lock.h"

namespace cobench::job {

class JobFolder {
 public:
  /// Creates `<work_dir>/<prefix>XXXXXX` after removing killed jobs' folders
  /// of the same prefix; `repo` is told to forget their worktrees. What it
  /// stopped and removed, and the kept folders it left, are said on stderr.
  JobFolder(const std::filesystem::path& repo, const std::filesystem::path& work_dir, const std::string& prefix);
  ~JobFolder();
  JobFolder(const JobFolder&) = delete;
  JobFolder& operator=(const JobFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  /// Leaves it in place for inspection, marked as kept: no later job removes it.
  void keep();

 private:
  std::filesystem::path repo_;
  std::filesystem::path path_;
  std::optional<FileLock> lock_;
  bool keep_ = false;
};

/// The marker and lock file inside every job folder.
inline constexpr const char* kJobMarker = ".cobench-job";
/// Beside the marker in a folder kept with --keep.
inline constexpr const char* kKeptMarker = ".cobench-kept";
/// The processes a job started (process/journal.h).
inline constexpr const char* kProcessJournal = ".cobench-processes";

/// Whether `path` is inside (or is) a job folder of `work_dir` (any job's:
/// job folders are removed, so nothing of the user's may live there).
bool inside_a_job_folder(const std::filesystem::path& path, const std::filesystem::path& work_dir);

/// `cobench clean`: the job folders in `work_dir` that no running job holds
/// (kept ones, killed ones), each stopped (what its job left running) and
/// removed, or with `dry_run` only listed. Folders without cobench's marker
/// and folders in use are never touched. Returns one line per folder, "removed
/// DIR (kept with --keep)" or "would remove DIR (...)".
std::vector<std::string> clean_work_dir(const std::filesystem::path& repo, const std::filesystem::path& work_dir,
                                        bool dry_run);

}  // namespace cobench::job
