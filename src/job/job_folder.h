#pragma once
// A job's own folder inside the work dir (<work>/job-XXXXXX): created new,
// marked as cobench's and locked for the job's life, removed at its end
// unless kept. Two jobs on one repository each get their own; folders of
// killed jobs (marked, no longer locked) are removed by the next job. Nothing
// else in the work dir is ever touched.
#include <filesystem>
#include <optional>
#include <string>

#include "core/file_lock.h"

namespace cobench::job {

class JobFolder {
 public:
  /// Creates `<work_dir>/<prefix>XXXXXX` after removing stale folders of the
  /// same prefix; `repo` is told to forget their worktrees.
  JobFolder(const std::filesystem::path& repo, const std::filesystem::path& work_dir, const std::string& prefix);
  ~JobFolder();
  JobFolder(const JobFolder&) = delete;
  JobFolder& operator=(const JobFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }  ///< leave it in place for inspection

 private:
  std::filesystem::path repo_;
  std::filesystem::path path_;
  std::optional<FileLock> lock_;
  bool keep_ = false;
};

/// The marker and lock file inside every job folder.
inline constexpr const char* kJobMarker = ".cobench-job";

/// Whether `path` is inside (or is) a job folder of `work_dir` (any job's:
/// job folders are removed, so nothing of the user's may live there).
bool inside_a_job_folder(const std::filesystem::path& path, const std::filesystem::path& work_dir);

}  // namespace cobench::job
