#pragma once
// An exclusive advisory lock (flock) on a file, held for as long as the object
// lives: how two cobench jobs on one repository keep out of each other's way.
// The lock file says who holds it, so the one turned away can name the holder.
#include <filesystem>
#include <optional>
#include <string>

namespace cobench {

/// A held lock. Not inherited by child processes (the descriptor is close-on-exec).
class FileLock {
 public:
  /// Takes the lock on `path` (created when absent) and writes `holder` into
  /// it; nullopt when another process holds it. Throws InfraError when the
  /// file cannot be opened.
  static std::optional<FileLock> try_acquire(const std::filesystem::path& path, const std::string& holder);

  /// Takes the lock on `path`, waiting for another holder to let go. Throws InfraError.
  static FileLock acquire(const std::filesystem::path& path);

  /// What the lock file says about its holder ("" when it cannot be read).
  static std::string holder_of(const std::filesystem::path& path);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

/// A new random id for a job ("3f9a0c17b2e4"): stamped on its results so two jobs' lines never mix.
std::string make_job_id();

/// "pid 4242 on HOST since 2026-12-02T22:00:00Z": who a lock taken now belongs to.
std::string describe_this_process();

}  // namespace cobench
