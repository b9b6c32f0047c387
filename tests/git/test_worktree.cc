// Worktrees and ignore rules against real temporary repositories.
#include <csignal>
#include <cstdlib>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "git/command.h"
#include "git/git.h"
#include "process/signals.h"
#include "support/testing.h"

namespace cobench::git {
namespace {

namespace fs = std::filesystem;
using cobench::testing::GitRepo;
using cobench::testing::read_text;
using cobench::testing::TempDir;

/// Worktree paths git knows about, from `git worktree list --porcelain`.
std::string worktree_list(const GitRepo& repo) { return repo.git({"worktree", "list", "--porcelain"}); }

struct TwoCommits {
  TempDir tmp;
  GitRepo repo{tmp / "repo"};
  std::string base, head;
  TwoCommits() {
    repo.write("file.txt", "base\n");
    base = repo.commit("base");
    repo.write("file.txt", "head\n");
    head = repo.commit("head");
  }
};

TEST(GitWorktree, AddsADetachedCheckoutAndRemovesItOnDestruction) {
  TwoCommits f;
  fs::path where = f.repo.path() / ".cobench" / "base";
  {
    Worktree tree(f.repo.path(), where, f.base);
    EXPECT_EQ(tree.path(), where);
    EXPECT_EQ(read_text(where / "file.txt"), "base\n");
    EXPECT_NE(worktree_list(f.repo).find(where.string()), std::string::npos);
    EXPECT_EQ(f.repo.git({"-C", where.string(), "rev-parse", "HEAD"}), f.base);
    // Detached: no branch was created or moved.
    auto symbolic = process::run_capture({"git", "symbolic-ref", "-q", "HEAD"}, where);
    EXPECT_EQ(symbolic.exit_code, 1) << symbolic.out;
  }
  EXPECT_FALSE(fs::exists(where));
  EXPECT_EQ(worktree_list(f.repo).find(where.string()), std::string::npos);
}

TEST(GitWorktree, KeepLeavesItAndRemoveIsIdempotent) {
  TwoCommits f;
  fs::path where = f.tmp / "work" / "head";
  {
    Worktree tree(f.repo.path(), where, f.head);
    tree.keep();
  }
  EXPECT_EQ(read_text(where / "file.txt"), "head\n");
  {
    // A folder in the way is never cleared to make room: cobench did not create it for this checkout.
    fs::create_directories(where / "leftover");
    EXPECT_THROW(Worktree(f.repo.path(), where, f.base), InfraError);
    EXPECT_TRUE(fs::exists(where / "leftover"));
    EXPECT_EQ(read_text(where / "file.txt"), "head\n");
  }
  fs::path fresh = f.tmp / "work" / "again";
  {
    Worktree tree(f.repo.path(), fresh, f.base);
    EXPECT_EQ(read_text(fresh / "file.txt"), "base\n");
    tree.remove();
    EXPECT_FALSE(fs::exists(fresh));
    tree.remove();
  }
  EXPECT_EQ(worktree_list(f.repo).find(fresh.string()), std::string::npos);
}

TEST(GitWorktree, RecoversFromStaleRegistrationsAndPlainFolders) {
  TwoCommits f;
  fs::path where = f.tmp / "work" / "base";
  // A job killed after `worktree add`, whose folder was then wiped: registered but missing.
  f.repo.git({"worktree", "add", "--detach", where.string(), f.head});
  fs::remove_all(where);
  { Worktree tree(f.repo.path(), where, f.base); EXPECT_EQ(read_text(where / "file.txt"), "base\n"); }
  EXPECT_FALSE(fs::exists(where));
  // A plain folder (not a worktree) in the way is the user's: refused, and left as it was.
  testing::write_file(where / "junk.txt", "junk");
  EXPECT_THROW(Worktree(f.repo.path(), where, f.head), InfraError);
  EXPECT_EQ(read_text(where / "junk.txt"), "junk");
  EXPECT_EQ(worktree_list(f.repo).find(where.string()), std::string::npos);
}

TEST(GitWorktree, UnknownRevisionLeavesNothingBehind) {
  TwoCommits f;
  fs::path where = f.tmp / "work" / "head";
  EXPECT_THROW(Worktree(f.repo.path(), where, std::string(40, 'd')), InputError);
  EXPECT_FALSE(fs::exists(where));
}

TEST(GitWorktree, CleansUpWhileUnwindingFromACancellation) {
  TwoCommits f;
  fs::path where = f.tmp / "work" / "head";
  signals::install_cancellation_handlers();
  signals::reset_cancellation_for_testing();
  try {
    Worktree tree(f.repo.path(), where, f.head);
    std::raise(SIGTERM);  // CI cancelled the job
    resolve(f.repo.path(), "HEAD");
    ADD_FAILURE() << "git commands must stop once cancellation is requested";
  } catch (const Interrupted&) {
  }
  // Cleanup commands run to completion while a cancellation is pending; others stop.
  std::raise(SIGTERM);
  auto cleanup = detail::run_git(f.repo.path(), {"worktree", "prune"}, /*cleanup=*/true);
  EXPECT_TRUE(cleanup.ok()) << process::describe(cleanup);
  EXPECT_THROW(detail::run_git(f.repo.path(), {"worktree", "prune"}), Interrupted);
  signals::reset_cancellation_for_testing();
  // The destructor's git commands ran although cancellation was pending.
  EXPECT_FALSE(fs::exists(where));
  EXPECT_EQ(worktree_list(f.repo).find(where.string()), std::string::npos);
}

TEST(GitWorktree, ChecksOutTheSubmodulesTheMainCheckoutHas) {
  TempDir tmp;
  GitRepo vendored(tmp / "vendored");
  vendored.write("benchmark.h", "// vendored\n");
  vendored.commit("vendored library");
  GitRepo optional(tmp / "optional");
  optional.write("big.dat", "large optional data\n");
  optional.commit("optional data");
  // Local submodule URLs need protocol.file.allow, also in the clones cobench's git makes.
  ::setenv("GIT_CONFIG_COUNT", "1", 1);
  ::setenv("GIT_CONFIG_KEY_0", "protocol.file.allow", 1);
  ::setenv("GIT_CONFIG_VALUE_0", "always", 1);
  struct Unset {
    ~Unset() { ::unsetenv("GIT_CONFIG_COUNT"); }
  } unset;
  GitRepo repo(tmp / "repo");
  repo.git({"submodule", "add", "-q", (tmp / "vendored").string(), "third_party/bench mark"});
  repo.git({"submodule", "add", "-q", (tmp / "optional").string(), "data"});
  std::string sha = repo.commit("with submodules");
  repo.git({"submodule", "deinit", "-q", "data"});  // not wanted here, so not wanted in the worktree

  fs::path where = tmp / "work" / "head";
  {
    Worktree tree(repo.path(), where, sha);
    EXPECT_EQ(read_text(where / "third_party/bench mark/benchmark.h"), "// vendored\n");
    EXPECT_FALSE(fs::exists(where / "data/big.dat"));
  }
  // git refuses `worktree remove` on trees with submodules; the fallback still removes it.
  EXPECT_FALSE(fs::exists(where));
  EXPECT_EQ(worktree_list(repo).find(where.string()), std::string::npos);
  EXPECT_EQ(read_text(repo.path() / "third_party/bench mark/benchmark.h"), "// vendored\n");
}

TEST(GitEnsureIgnored, AppendsOnlyWhenMissingAndWorksFromALinkedWorktree) {
  TwoCommits f;
  fs::path exclude = f.repo.path() / ".git" / "info" / "exclude";
  testing::write_file(exclude, "# existing\n*.tmp");  // no final newline
  ensure_ignored(f.repo.path(), ".cobench/");
  ensure_ignored(f.repo.path(), ".cobench/");
  EXPECT_EQ(read_text(exclude), "# existing\n*.tmp\n.cobench/\n");
  testing::write_file(f.repo.path() / ".cobench" / "x", "x");
  EXPECT_EQ(f.repo.git({"status", "--porcelain"}), "");

  Worktree tree(f.repo.path(), f.tmp / "linked", f.head);
  ensure_ignored(tree.path(), "out/");
  EXPECT_NE(read_text(exclude).find("\nout/\n"), std::string::npos);
}

}  // namespace
}  // namespace cobench::git
