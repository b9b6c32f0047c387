#pragma once
// The git edge: revisions, merge bases, diffs and worktrees, all through
// `git` subprocesses with argv arrays. Failures throw with the command and
// its exit status (InputError for bad refs, InfraError for git itself).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cobench::git {

/// The repository's top-level folder for any path inside it; throws InputError.
std::filesystem::path toplevel(const std::filesystem::path& dir);

/// Full SHA of a revision; throws InputError("git: unknown revision 'X'").
std::string resolve(const std::filesystem::path& repo, const std::string& rev);

/// `git merge-base A B`; throws InputError when there is none.
std::string merge_base(const std::filesystem::path& repo, const std::string& a, const std::string& b);

/// The base revision to use when --base is not given, from the environment in
/// order: $CI_MERGE_REQUEST_DIFF_BASE_SHA, origin/$GITHUB_BASE_REF, origin/HEAD,
/// main, master (the first that resolves), returned as spelled there (e.g.
/// "origin/main", for messages; resolve() gives its SHA). Throws InputError if none does.
std::string default_base(const std::filesystem::path& repo, const std::map<std::string, std::string>& env);

/// One line of `git diff --name-status -M`.
struct ChangedFile {
  char status = 'M';      ///< A, M, D, R (renamed), C, T
  std::string path;       ///< repo-relative, new path for renames
  std::string old_path;   ///< for R/C: the path on the base side
};

/// Changes from base to head, renames detected. Paths repo-relative.
std::vector<ChangedFile> diff_name_status(const std::filesystem::path& repo, const std::string& base,
                                          const std::string& head);

/// Parses `git diff --name-status -M -z` output. Throws InfraError naming
/// `command` on a truncated entry: git's own output, so git is at fault.
std::vector<ChangedFile> parse_name_status_z(std::string_view output, const std::string& command);

/// The lines one file's change touches, from `git diff -U0`: what the head
/// added (head line numbers) and what the base lost (base line numbers). A
/// modified line is both: removed from the base and added on the head.
struct ChangedLines {
  std::string path;                 ///< head-side path (for a deletion: the base path)
  std::string old_path;             ///< base-side path (differs for a rename; empty for an added file)
  bool deleted = false;             ///< the file is gone on the head side
  std::vector<int> added;           ///< head lines added or rewritten, ascending
  std::vector<int> removed;         ///< base lines removed or rewritten, ascending
  /// Base lines between which each pure insertion went (the line before and
  /// the line after; 0 for the start): where the base's execution can stand in
  /// for lines the base does not have.
  std::vector<int> insertion_anchors;
};

/// The changed lines of every text file from base to head (renames
/// detected, as diff_name_status sees them). Binary files have no lines.
std::vector<ChangedLines> diff_lines(const std::filesystem::path& repo, const std::string& base,
                                     const std::string& head);

/// Parses `git diff -U0 --src-prefix=a/ --dst-prefix=b/` output. Throws
/// InfraError naming `command` on a hunk header it cannot read.
std::vector<ChangedLines> parse_unified_zero(std::string_view output, const std::string& command);

/// A detached worktree that removes itself (git worktree remove --force, then
/// prune) on destruction unless keep() was called. Its folder must not exist
/// yet: cobench never clears a folder to make room for a checkout.
class Worktree {
 public:
  Worktree(const std::filesystem::path& repo, const std::filesystem::path& path, const std::string& sha);
  ~Worktree();
  Worktree(const Worktree&) = delete;
  Worktree& operator=(const Worktree&) = delete;

  const std::filesystem::path& path() const { return path_; }
  void keep() { keep_ = true; }
  void remove();

 private:
  std::filesystem::path repo_;
  std::filesystem::path path_;
  bool keep_ = false;
  bool removed_ = false;
};

/// Forgets worktrees whose folders are gone (`git worktree prune`); best effort.
void prune_worktrees(const std::filesystem::path& repo);

/// Makes sure `pattern` (e.g. ".cobench/") is ignored via .git/info/exclude.
void ensure_ignored(const std::filesystem::path& repo, const std::string& pattern);

/// Whether the checked-out HEAD of `repo` is `sha` with no tracked file
/// changed: then the work tree is that commit's tree, and needs no worktree.
bool is_clean_checkout_of(const std::filesystem::path& repo, const std::string& sha);

/// The tracked files of `repo`'s work tree that differ from its HEAD (staged
/// or not), as `git status` names them; empty when the work tree is clean.
std::vector<std::string> uncommitted_changes(const std::filesystem::path& repo);

/// `git init` of a new repository in `dir` whose commits need no user
/// configuration (a fixed author, no signing, no hooks); for throw-away repositories.
void init_scratch_repository(const std::filesystem::path& dir);

/// Stages every change in the work tree and commits it; returns the new commit's full SHA.
std::string commit_all(const std::filesystem::path& repo, const std::string& message);

/// `git apply PATCH` in the work tree; throws InfraError when it does not apply.
void apply_patch(const std::filesystem::path& repo, const std::filesystem::path& patch);

/// Contents of a file at a revision (`git show REV:PATH`); nullopt if absent.
std::optional<std::string> show_file(const std::filesystem::path& repo, const std::string& rev,
                                     const std::string& path);

}  // namespace cobench::git
