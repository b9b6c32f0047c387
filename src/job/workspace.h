#pragma once
// The two sides of a job on disk: revisions resolved to full SHAs, and one
// detached worktree plus one build folder per side, at paths of equal length.
// Everything is removed on destruction (success, failure, Ctrl-C, SIGTERM)
// unless kept.
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "git/git.h"
#include "job/job_folder.h"
#include "run/runner.h"

namespace cobench::job {

using results::Side;  // the two sides of a job are the two sides of its records

/// Both sides' revisions.
struct Revisions {
  std::string base_ref;   ///< as given, or the default base that resolved
  std::string head_ref;
  std::string base_sha;   ///< merge base of base_ref and head
  std::string head_sha;
};

/// Resolves head, the base (default from `env` when `base` is empty) and their merge base.
Revisions resolve_revisions(const std::filesystem::path& repo, const std::string& head, const std::string& base,
                            const std::map<std::string, std::string>& env);

/// "base: SHA (merge base of REF and HEADREF)\nhead: SHA (HEADREF)\n": what both sides
/// resolved to, as `run` and `select` say before they start.
std::string describe(const Revisions& revs);

/// When `revs`'s head is the commit checked out in `repo` and tracked files
/// there are changed but not committed: a warning naming them (cobench
/// measures commits; those changes are in neither side). nullopt otherwise.
std::optional<std::string> uncommitted_changes_warning(const std::filesystem::path& repo, const Revisions& revs);

/// The layout probe's sides: `head` against itself.
Revisions probe_revisions(const std::filesystem::path& repo, const std::string& head);

/// Checkouts and build folders in the job's own folder, one folder per side:
/// <job>/base/checkout and <job>/base/build, <job>/head/checkout and
/// <job>/head/build. Paths of equal length on both sides, and the same path
/// from each build folder to its checkout (../checkout), so that a compile
/// cache based at the job folder sees identical commands on both sides.
class Workspace {
 public:
  Workspace(const std::filesystem::path& repo, const std::filesystem::path& work_dir, const Revisions& revisions);
  ~Workspace();
  Workspace(const Workspace&) = delete;
  Workspace& operator=(const Workspace&) = delete;

  std::filesystem::path worktree(Side side) const;   ///< the side's checkout
  std::filesystem::path build_dir(Side side) const;  ///< the side's build folder
  const std::filesystem::path& job_dir() const { return folder_.path(); }  ///< everything of this job
  void keep();                                       ///< leave everything in place for inspection

 private:
  JobFolder folder_;
  std::unique_ptr<git::Worktree> base_;
  std::unique_ptr<git::Worktree> head_;
};

}  // namespace cobench::job
