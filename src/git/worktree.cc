// Detached worktrees for the two sides, and keeping cobench's folder ignored.
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/file_lock.h"
#include "core/files.h"
#include "git/command.h"
#include "git/git.h"

namespace cobench::git {

namespace fs = std::filesystem;
using detail::run_git;

namespace {

/// Serialises worktree changes between cobench jobs on one repository: git's
/// `worktree add`, `remove` and `prune` are not safe against each other.
FileLock worktree_lock(const fs::path& repo, bool cleanup = false) {
  const std::vector<std::string> args = {"rev-parse", "--git-common-dir"};
  const process::Result result = run_git(repo, args, cleanup);
  if (!result.ok()) throw InfraError(detail::failure_message(repo, args, result));
  fs::path common = detail::trim_right(result.out);
  if (common.is_relative()) common = repo / common;
  return FileLock::acquire(common / "cobench-worktrees.lock");
}

/// Best-effort removal of whatever a killed earlier job (or this one) left at
/// path: the registration, the folder, and stale administrative entries.
void discard_worktree(const fs::path& repo, const fs::path& path) {
  const FileLock lock = worktree_lock(repo, /*cleanup=*/true);
  // Twice --force also removes a locked worktree; failure just means it was not registered.
  run_git(repo, {"worktree", "remove", "--force", "--force", path.string()}, /*cleanup=*/true);
  std::error_code ec;
  fs::remove_all(path, ec);
  run_git(repo, {"worktree", "prune"}, /*cleanup=*/true);
}

/// Paths of the submodules the main checkout has initialised (`git submodule
/// status` marks the others with '-'): those the build may need, and the ones
/// whose URL is already configured.
std::vector<std::string> initialised_submodules(const fs::path& repo) {
  // From the top folder: status prints paths relative to where it runs.
  std::istringstream lines(detail::git_output(toplevel(repo), {"submodule", "status"}));
  std::vector<std::string> paths;
  for (std::string line; std::getline(lines, line);) {
    size_t sha_end = line.find(' ', 1);  // status char, SHA (40 or 64 hex), space, path
    if (line.empty() || line[0] == '-' || sha_end == std::string::npos) continue;
    std::string path = line.substr(sha_end + 1);
    if (auto describe = path.rfind(" ("); describe != std::string::npos && path.back() == ')') path.resize(describe);
    paths.push_back(path);
  }
  return paths;
}

/// A fresh worktree has empty submodule folders; a vendored Google Benchmark
/// or library would then fail to configure.
void check_out_submodules(const fs::path& repo, const fs::path& worktree) {
  std::error_code ec;
  if (!fs::exists(worktree / ".gitmodules", ec)) return;
  std::vector<std::string> paths = initialised_submodules(repo);
  if (paths.empty()) return;
  std::vector<std::string> args = {"submodule", "update", "--init", "--recursive", "--"};
  args.insert(args.end(), paths.begin(), paths.end());
  detail::git_output(worktree, args);
}

}  // namespace

Worktree::Worktree(const fs::path& repo, const fs::path& path, const std::string& sha)
    : repo_(repo), path_(fs::absolute(path).lexically_normal()) {
  if (!path_.has_filename()) path_ = path_.parent_path();  // "dir/" names dir
  std::error_code ec;
  // Never removed to make room: cobench only checks out into folders it just created.
  if (fs::exists(path_, ec))
    throw InfraError(fmt::format("{}: exists already; cobench does not remove what it did not create", path_.string()));
  fs::create_directories(path_.parent_path(), ec);
  std::vector<std::string> args = {"worktree", "add", "--detach", "--quiet", path_.string(), sha};
  process::Result result;
  {
    const FileLock lock = worktree_lock(repo_);
    run_git(repo_, {"worktree", "prune"});  // a deleted folder may still be registered
    result = run_git(repo_, args);
  }
  if (!result.ok()) {
    discard_worktree(repo_, path_);  // a half-made checkout must not be left behind
    if (result.err.find("invalid reference") != std::string::npos)
      throw InputError(fmt::format("git: unknown revision '{}' (in {})", sha, repo_.string()));
    throw InfraError(detail::failure_message(repo_, args, result));
  }
  try {
    check_out_submodules(repo_, path_);
  } catch (...) {
    discard_worktree(repo_, path_);
    throw;
  }
}

Worktree::~Worktree() {
  if (keep_) return;
  try {
    remove();
  } catch (...) {
    // Destructors run while unwinding from other errors; the folder is reported stale next time.
  }
}

void Worktree::remove() {
  if (removed_) return;
  removed_ = true;
  discard_worktree(repo_, path_);
  std::error_code ec;
  if (fs::exists(path_, ec)) throw InfraError(fmt::format("cannot remove worktree {}", path_.string()));
}

void prune_worktrees(const fs::path& repo) {
  try {
    const FileLock lock = worktree_lock(repo, /*cleanup=*/true);
    run_git(repo, {"worktree", "prune"}, /*cleanup=*/true);
  } catch (const std::exception&) {
    // best effort: stale registrations are pruned by the next job
  }
}

void ensure_ignored(const fs::path& repo, const std::string& pattern) {
  // --git-path resolves info/exclude in linked worktrees and submodules too; it is relative to repo.
  fs::path exclude = detail::trim_right(detail::git_output(repo, {"rev-parse", "--git-path", "info/exclude"}));
  if (exclude.is_relative()) exclude = repo / exclude;
  std::string existing;
  std::error_code ec;
  if (fs::exists(exclude, ec)) existing = read_file(exclude);
  std::istringstream lines(existing);
  for (std::string line; std::getline(lines, line);)
    if (detail::trim_right(line) == pattern) return;
  fs::create_directories(exclude.parent_path(), ec);
  if (!existing.empty() && existing.back() != '\n') append_line_durable(exclude, "");
  append_line_durable(exclude, pattern);
}

}  // namespace cobench::git
