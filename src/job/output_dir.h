#pragma once
// The report folder (--out) of one job. It is locked for the job, so a second
// job writing the same folder stops at once naming the first. Its manifest
// lists every file cobench writes there, as it writes it (core/files.h
// note_written), so the next job replaces exactly those and nothing else: not
// a file someone else put there while the job ran, and not a file a benchmark
// wrote. A killed job's manifest holds what it wrote until it was killed, so
// its folder is still recognised as cobench's. Files cobench did not write are
// never deleted, and never overwritten either: a file that appears during the
// job where cobench is about to write stops the job (InputError) naming it.
#include <filesystem>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "core/file_lock.h"

namespace cobench::job {

/// What a command writes into its report folder.
enum class Writes {
  Job,      ///< `run` and `merge`: results.jsonl, the reports, runs/ and logs/; the previous job's files go first
  Reports,  ///< `cobench report`: the four reports; the files of the job that wrote the folder stay
};

class OutputDir {
 public:
  /// Takes `dir` for this command. `origin` names it in errors ("--out").
  /// With `cobench_owned` (the default folder inside cobench's work dir) files
  /// of cobench versions that kept no manifest are taken as cobench's. Throws
  /// InputError for the root folder, when another job holds the folder, when
  /// it holds files cobench did not write where this command writes (reports,
  /// results.jsonl, runs/, logs/, alloc/, instructions/, layout-2/, layout-3/),
  /// and when one of those folders is a symbolic link (which would reach
  /// files outside the folder).
  OutputDir(const std::filesystem::path& dir, const std::string& origin, bool cobench_owned,
            Writes writes = Writes::Job);
  /// Stops recording: the manifest is complete.
  ~OutputDir();
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  const std::filesystem::path& path() const { return dir_; }

 private:
  /// Adds a file cobench writes to the manifest, when it is inside this folder.
  void record(const std::filesystem::path& written);
  /// Removes the previous job's `files` (relative paths) and the folders they
  /// leave empty; a file reached through a symbolic link is left, saying so
  /// on stderr with `named` (the folder as the user named it).
  void remove_previous_job(const std::set<std::string>& files, const std::string& named) const;

  std::filesystem::path dir_;       ///< canonical
  std::optional<FileLock> lock_;
  std::mutex mutex_;
  std::set<std::string> recorded_;  ///< relative paths already in the manifest
};

/// The manifest's and the lock's names inside a report folder.
inline constexpr const char* kOutputManifest = ".cobench-manifest";
inline constexpr const char* kOutputLock = ".cobench-lock";

}  // namespace cobench::job
