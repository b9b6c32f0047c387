// The state of a work tree, and the few writes cobench makes to a repository
// of its own (the demo's throw-away repository).
#include <fmt/format.h>

#include "core/errors.h"
#include "git/command.h"
#include "git/git.h"

namespace cobench::git {

using detail::git_output;

bool is_clean_checkout_of(const std::filesystem::path& repo, const std::string& sha) {
  if (resolve(repo, "HEAD") != sha) return false;
  return git_output(repo, {"status", "--porcelain", "--untracked-files=no"}).empty();
}

void init_scratch_repository(const std::filesystem::path& dir) {
  git_output(dir, {"init", "-q", "-b", "main"});
  git_output(dir, {"config", "user.name", "cobench"});
  git_output(dir, {"config", "user.email", "cobench@cobench.invalid"});
  git_output(dir, {"config", "commit.gpgsign", "false"});
}

std::string commit_all(const std::filesystem::path& repo, const std::string& message) {
  git_output(repo, {"add", "-A"});
  git_output(repo, {"commit", "-q", "--no-verify", "-m", message});
  return resolve(repo, "HEAD");
}

void apply_patch(const std::filesystem::path& repo, const std::filesystem::path& patch) {
  git_output(repo, {"apply", patch.string()});
}

}  // namespace cobench::git
