#include "job/workspace.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"

namespace cobench::job {

Revisions resolve_revisions(const std::filesystem::path& repo, const std::string& head, const std::string& base,
                            const std::map<std::string, std::string>& env) {
  Revisions out;
  out.head_ref = head;
  out.head_sha = git::resolve(repo, head);
  out.base_ref = base.empty() ? git::default_base(repo, env) : base;
  out.base_sha = git::merge_base(repo, git::resolve(repo, out.base_ref), out.head_sha);
  return out;
}

std::string describe(const Revisions& revs) {
  return fmt::format("base: {} (merge base of {} and {})\nhead: {} ({})\n", revs.base_sha, revs.base_ref, revs.head_ref,
                     revs.head_sha, revs.head_ref);
}

std::optional<std::string> uncommitted_changes_warning(const std::filesystem::path& repo, const Revisions& revs) {
  std::vector<std::string> changed;
  try {
    if (git::resolve(repo, "HEAD") != revs.head_sha) return std::nullopt;
    changed = git::uncommitted_changes(repo);
  } catch (const InputError&) {
    return std::nullopt;  // a warning, never a reason for the job to fail (an Interrupted still ends it)
  } catch (const InfraError&) {
    return std::nullopt;
  }
  if (changed.empty()) return std::nullopt;
  constexpr size_t kNamed = 5;
  std::vector<std::string> named(changed.begin(), changed.begin() + static_cast<long>(std::min(changed.size(), kNamed)));
  return fmt::format("{} has uncommitted changes ({}{}); cobench measures commits, so the head is {} ({}) as committed, "
                     "without them: commit them to measure them",
                     repo.string(), fmt::join(named, ", "),
                     changed.size() > kNamed ? fmt::format(" and {} more", changed.size() - kNamed) : "",
                     revs.head_ref, revs.head_sha.substr(0, 12));
}

Revisions probe_revisions(const std::filesystem::path& repo, const std::string& head) {
  const std::string sha = git::resolve(repo, head);
  return {head, head, sha, sha};
}

Workspace::Workspace(const std::filesystem::path& repo, const std::filesystem::path& work_dir,
                     const Revisions& revisions)
    : folder_(repo, work_dir, "job-") {
  base_ = std::make_unique<git::Worktree>(repo, worktree(Side::Base), revisions.base_sha);
  head_ = std::make_unique<git::Worktree>(repo, worktree(Side::Head), revisions.head_sha);
}

Workspace::~Workspace() {
  // The worktrees go first, through git; the job folder (builds included) goes with `folder_`.
  head_.reset();
  base_.reset();
}

std::filesystem::path Workspace::worktree(Side side) const { return folder_.path() / to_string(side) / "checkout"; }

std::filesystem::path Workspace::build_dir(Side side) const { return folder_.path() / to_string(side) / "build"; }

void Workspace::keep() {
  folder_.keep();
  if (base_) base_->keep();
  if (head_) head_->keep();
}

}  // namespace cobench::job
