#pragma once
// The report folder (--out) of one job. It is locked for the job, so a second
// job writing the same folder stops at once naming the first; the previous
// job's files are replaced, found by the manifest cobench keeps there; files
// cobench did not write are never deleted, and never overwritten either.
#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "core/file_lock.h"

namespace cobench::job {

class OutputDir {
 public:
  /// Takes `dir` for this job. `origin` names it in errors ("--out"). With
  /// `cobench_owned` (the default folder inside cobench's work dir) files of
  /// cobench versions that kept no manifest are taken as cobench's. Throws
  /// InputError when another job holds the folder, or when it holds files
  /// cobench did not write where this job writes (reports, runs/, logs/, alloc/, instructions/).
  OutputDir(const std::filesystem::path& dir, const std::string& origin, bool cobench_owned);
  /// Records what this job wrote (the manifest), whatever way the job ends.
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::filesystem::path& path() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::optional<FileLock> lock_;
  std::set<std::string> foreign_;  ///< what was there and is not cobench's (relative paths): never touched
};

/// The manifest's and the lock's names inside a report folder.
inline constexpr const char* kOutputManifest = ".cobench-manifest";
inline constexpr const char* kOutputLock = ".cobench-lock";

}  // namespace cobench::job
