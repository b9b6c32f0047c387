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

Workspace::Workspace(const std::filesystem::path& repo, const std::filesystem::path& work_dir,
                     const Revisions& revisions)
    : work_dir_(work_dir) {
  std::filesystem::create_directories(work_dir_);
  base_ = std::make_unique<git::Worktree>(repo, worktree(Side::Base), revisions.base_sha);
  head_ = std::make_unique<git::Worktree>(repo, worktree(Side::Head), revisions.head_sha);
}

Workspace::~Workspace() {
  head_.reset();
  base_.reset();
  if (keep_) return;
  std::error_code ec;  // best effort: a destructor may run while unwinding
  for (Side side : {Side::Base, Side::Head}) std::filesystem::remove_all(build_dir(side), ec);
}

std::filesystem::path Workspace::worktree(Side side) const { return work_dir_ / to_string(side); }

std::filesystem::path Workspace::build_dir(Side side) const { return work_dir_ / ("build-" + to_string(side)); }

void Workspace::keep() {
  keep_ = true;
  if (base_) base_->keep();
  if (head_) head_->keep();
}

}  // namespace cobench::job
