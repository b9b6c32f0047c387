#include "job/console.h"
#include "job/job_folder.h"

#include <cstdio>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/files.h"
#include "git/git.h"
#include "process/journal.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;

bool is_job_folder_name(const std::string& name) { return name.rfind("job-", 0) == 0 || name.rfind("select-", 0) == 0; }

/// A job folder no running job holds: why it is there.
struct Unheld {
  fs::path path;
  bool kept = false;  ///< kept with --keep; else its job was killed
};

/// The job folders of `work_dir` (of `prefix`, or all) no running job holds.
std::vector<Unheld> unheld_folders(const fs::path& work_dir, const std::string& prefix) {
  std::vector<Unheld> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(work_dir, ec)) {
    const std::string name = entry.path().filename().string();
    const bool named = prefix.empty() ? is_job_folder_name(name) : name.rfind(prefix, 0) == 0;
    if (!named || !entry.is_directory(ec) || entry.is_symlink(ec) || !fs::exists(entry.path() / kJobMarker, ec))
      continue;
    // Held: a running job's. Taking the lock for a moment tells; it is let go before anything is removed.
    if (!FileLock::try_acquire(entry.path() / kJobMarker, describe_this_process())) continue;
    out.push_back({entry.path(), fs::exists(entry.path() / kKeptMarker, ec)});
  }
  return out;
}

/// Stops what the folder's job left running, then removes the folder; what was stopped, in words.
std::string stop_and_remove(const fs::path& folder) {
  const process::Stopped stopped = process::stop_journaled(folder / kProcessJournal);
  std::error_code ec;
  fs::remove_all(folder, ec);
  std::vector<std::string> what;
  if (!stopped.processes.empty())
    what.push_back(fmt::format("stopped {} process{} it left running: {}", stopped.processes.size(),
                               stopped.processes.size() == 1 ? "" : "es", fmt::join(stopped.processes, ", ")));
  if (!stopped.cgroups.empty()) what.push_back(fmt::format("removed its cgroup {}", fmt::join(stopped.cgroups, ", ")));
  if (ec) what.push_back("could not remove all of it: " + ec.message());
  return what.empty() ? "" : fmt::format(" ({})", fmt::join(what, "; "));
}

}  // namespace

JobFolder::JobFolder(const fs::path& repo, const fs::path& work_dir, const std::string& prefix) : repo_(repo) {
  fs::create_directories(work_dir);
  size_t removed = 0, kept = 0;
  for (const auto& folder : unheld_folders(work_dir, prefix)) {
    if (folder.kept) {
      ++kept;
      continue;
    }
    const std::string stopped = stop_and_remove(folder.path);
    console().note(fmt::format("removed {}, the folder of a killed job{}", folder.path.string(), stopped));
    ++removed;
  }
  if (removed > 0) git::prune_worktrees(repo);
  if (kept > 0)
    console().note(fmt::format("{} job folder{} kept with --keep in {}; `cobench clean --repo {}` removes {}", kept,
                               kept == 1 ? "" : "s", work_dir.string(), repo.string(), kept == 1 ? "it" : "them"));
  path_ = make_unique_dir(work_dir, prefix);
  lock_ = FileLock::try_acquire(path_ / kJobMarker, describe_this_process());
  process::set_spawn_journal(path_ / kProcessJournal);
}

JobFolder::~JobFolder() {
  process::set_spawn_journal({});
  if (keep_) return;
  std::error_code ec;  // best effort: this runs while unwinding too
  fs::remove_all(path_, ec);
  git::prune_worktrees(repo_);
}

void JobFolder::keep() {
  keep_ = true;
  try {
    write_file_atomic(path_ / kKeptMarker, "kept with --keep; `cobench clean` removes it\n");
  } catch (const std::exception&) {
    // Without the mark it is taken for a killed job's folder: removed by the next job, as before.
  }
}

bool inside_a_job_folder(const fs::path& path, const fs::path& work_dir) {
  const fs::path rel = fs::weakly_canonical(path).lexically_relative(fs::weakly_canonical(work_dir));
  if (rel.empty() || *rel.begin() == ".." || rel == ".") return false;
  return is_job_folder_name(rel.begin()->string());
}

std::vector<std::string> clean_work_dir(const fs::path& repo, const fs::path& work_dir, bool dry_run) {
  std::vector<std::string> lines;
  for (const auto& folder : unheld_folders(work_dir, "")) {
    const char* why = folder.kept ? "kept with --keep" : "left by a killed job";
    if (dry_run) {
      lines.push_back(fmt::format("would remove {} ({})", folder.path.string(), why));
      continue;
    }
    lines.push_back(fmt::format("removed {} ({}){}", folder.path.string(), why, stop_and_remove(folder.path)));
  }
  if (!dry_run && !lines.empty()) git::prune_worktrees(repo);
  return lines;
}

}  // namespace cobench::job
