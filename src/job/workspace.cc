#include "job/workspace.h"

#include <fmt/format.h>

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
