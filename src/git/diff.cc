// What changed between two revisions, and file contents at a revision.
#include <fmt/format.h>

#include "core/errors.h"
#include "git/command.h"
#include "git/git.h"

namespace cobench::git {

namespace {

/// Splits NUL-terminated -z output into fields.
std::vector<std::string> split_nul(std::string_view text) {
  std::vector<std::string> fields;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\0', start);
    if (end == std::string::npos) end = text.size();
    fields.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return fields;
}

}  // namespace

std::vector<ChangedFile> diff_name_status(const std::filesystem::path& repo, const std::string& base,
                                          const std::string& head) {
  std::string base_sha = resolve(repo, base), head_sha = resolve(repo, head);
  // --no-relative: diff.relative in a user's config must not make paths cwd-relative;
  // --no-ext-diff/--no-textconv: only names are wanted, never a configured diff tool.
  std::vector<std::string> args = {"diff",         "--name-status", "-M",       "-z", "--no-relative",
                                   "--no-ext-diff", "--no-textconv", base_sha, head_sha, "--"};
  return parse_name_status_z(detail::git_output(repo, args),
                             fmt::format("`git diff --name-status -z {} {}` (in {})", base_sha, head_sha, repo.string()));
}

std::vector<ChangedFile> parse_name_status_z(std::string_view output, const std::string& command) {
  auto fields = split_nul(output);
  std::vector<ChangedFile> changes;
  for (size_t i = 0; i < fields.size();) {
    const std::string& status = fields[i++];
    if (status.empty()) continue;
    ChangedFile change;
    change.status = status[0];
    bool two_paths = change.status == 'R' || change.status == 'C';
    size_t needed = two_paths ? 2 : 1;
    if (i + needed > fields.size())
      throw InfraError(fmt::format("{}: truncated entry '{}'", command, status));
    if (two_paths) change.old_path = fields[i++];
    change.path = fields[i++];
    changes.push_back(std::move(change));
  }
  return changes;
}

std::optional<std::string> show_file(const std::filesystem::path& repo, const std::string& rev,
                                     const std::string& path) {
  std::string sha = resolve(repo, rev);
  // "SHA:path" is relative to the top folder; a failing lookup means the path is absent there.
  auto object = detail::run_git(repo, {"rev-parse", "--verify", "--quiet", sha + ":" + path});
  if (!object.ok()) return std::nullopt;
  return detail::git_output(repo, {"show", "--no-textconv", sha + ":" + path});
}

}  // namespace cobench::git
