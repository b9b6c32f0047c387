#include "job/job_folder.h"

#include <fmt/format.h>

#include "core/files.h"
#include "git/git.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

/// Removes the folders of jobs that were killed: cobench's marker is there and nobody holds its lock.
void remove_stale(const fs::path& repo, const fs::path& work_dir, const std::string& prefix) {
  std::error_code ec;
  bool removed = false;
  for (const auto& entry : fs::directory_iterator(work_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0 || !entry.is_directory(ec) || !fs::exists(entry.path() / kJobMarker, ec)) continue;
    if (auto lock = FileLock::try_acquire(entry.path() / kJobMarker, describe_this_process())) {
      fs::remove_all(entry.path(), ec);
      removed = true;
    }
  }
  if (removed) git::prune_worktrees(repo);
}

}  // namespace

JobFolder::JobFolder(const fs::path& repo, const fs::path& work_dir, const std::string& prefix) : repo_(repo) {
  fs::create_directories(work_dir);
  remove_stale(repo, work_dir, prefix);
  path_ = make_unique_dir(work_dir, prefix);
  lock_ = FileLock::try_acquire(path_ / kJobMarker, describe_this_process());
}

JobFolder::~JobFolder() {
  if (keep_) return;
  std::error_code ec;  // best effort: this runs while unwinding too
  fs::remove_all(path_, ec);
  git::prune_worktrees(repo_);
}

bool inside_a_job_folder(const fs::path& path, const fs::path& work_dir) {
  const fs::path rel = fs::weakly_canonical(path).lexically_relative(fs::weakly_canonical(work_dir));
  if (rel.empty() || *rel.begin() == ".." || rel == ".") return false;
  const std::string first = rel.begin()->string();
  return first.rfind("job-", 0) == 0 || first.rfind("select-", 0) == 0;
}

}  // namespace cobench::job
