// The state of a work tree, and the few writes cobench makes to a repository
// of its own (the demo's throw-away repository).
#include <algorithm>

#include <fmt/format.h>

#include "core/errors.h"
#include "git/command.h"
#include "git/git.h"

namespace cobench::git {

using detail::git_output;

bool is_clean_checkout_of(const std::filesystem::path& repo, const std::string& sha) {
  if (resolve(repo, "HEAD") != sha) return false;
  return uncommitted_changes(repo).empty();
}

std::vector<std::string> uncommitted_changes(const std::filesystem::path& repo) {
  // -z: "XY PATH\0", a rename or copy followed by its source "FROM\0"; paths as they are, never quoted.
  const std::string out = git_output(repo, {"status", "--porcelain=v1", "-z", "--untracked-files=no"});
  std::vector<std::string> paths;
  for (size_t from = 0; from < out.size();) {
    const size_t end = std::min(out.find('\0', from), out.size());
    const std::string entry = out.substr(from, end - from);
    from = end + 1;
    if (entry.size() < 4) continue;
    paths.push_back(entry.substr(3));
    if (entry[0] == 'R' || entry[0] == 'C') from = std::min(out.find('\0', from), out.size()) + 1;  // its source
  }
  return paths;
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
