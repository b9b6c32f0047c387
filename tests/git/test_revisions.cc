// Revisions against real temporary repositories.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "git/git.h"
#include "support/testing.h"

namespace cobench::git {
namespace {

using cobench::testing::GitRepo;
using cobench::testing::TempDir;

TEST(GitRevisions, ResolvesNamesToFullShasAndFindsTheTopLevel) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("src/a.txt", "a\n");
  std::string first = repo.commit("first");
  EXPECT_EQ(resolve(repo.path(), "HEAD"), first);
  EXPECT_EQ(resolve(repo.path(), "main"), first);
  EXPECT_EQ(resolve(repo.path(), first.substr(0, 8)), first);
  EXPECT_EQ(first.size(), 40u);
  EXPECT_EQ(toplevel(repo.path() / "src"), repo.path());
}

TEST(GitRevisions, UnknownRevisionIsAnInputErrorNamingRevisionAndRepo) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.commit("first");
  try {
    resolve(repo.path(), "no-such-branch");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "git: unknown revision 'no-such-branch' (in " + repo.path().string() + ")");
  }
  // A revision that looks like an option must not be taken for one.
  EXPECT_THROW(resolve(repo.path(), "--all"), InputError);
  EXPECT_THROW(resolve(repo.path(), ""), InputError);
}

TEST(GitRevisions, ARevisionGitCannotReadIsAnInputErrorNotAFailureOfGit) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.commit("first");
  for (const char* rev : {"HEAD@{5}", "main@{99}", "HEAD@{upstream}"}) {
    try {
      resolve(repo.path(), rev);
      FAIL() << "expected InputError for " << rev;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("git: unknown revision '" + std::string(rev) + "' (in ", 0), 0u) << e.what();
    }
  }
}

TEST(GitRepository, UncommittedChangesNameTheTrackedFilesThatDiffer) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("a.cc", "a\n");
  repo.write("b c.cc", "b\n");
  repo.commit("first");
  EXPECT_TRUE(uncommitted_changes(repo.path()).empty());
  repo.write("a.cc", "edited\n");
  repo.write("b c.cc", "edited\n");
  repo.git({"add", "b c.cc"});
  repo.write("untracked.cc", "new\n");  // not part of any commit: not a change of the measured one either
  EXPECT_EQ(uncommitted_changes(repo.path()), (std::vector<std::string>{"a.cc", "b c.cc"}));
}

TEST(GitRevisions, OutsideARepositoryIsAnInputError) {
  TempDir tmp;
  std::filesystem::create_directories(tmp / "plain");
  EXPECT_THROW(toplevel(tmp / "plain"), InputError);
  EXPECT_THROW(resolve(tmp / "plain", "HEAD"), InputError);
  EXPECT_THROW(toplevel(tmp / "missing"), InputError);
}

TEST(GitRevisions, MergeBaseOfDivergedBranches) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("a.txt", "a\n");
  std::string fork_point = repo.commit("fork point");
  repo.git({"checkout", "-q", "-b", "feature"});
  repo.write("b.txt", "feature\n");
  std::string feature = repo.commit("feature work");
  repo.git({"checkout", "-q", "main"});
  repo.write("c.txt", "main moved on\n");
  std::string main_tip = repo.commit("main work");
  EXPECT_EQ(merge_base(repo.path(), "main", "feature"), fork_point);
  EXPECT_EQ(merge_base(repo.path(), feature, main_tip), fork_point);
  EXPECT_EQ(merge_base(repo.path(), fork_point, feature), fork_point);
}

TEST(GitRevisions, UnrelatedHistoriesHaveNoMergeBase) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("a.txt", "a\n");
  repo.commit("first");
  repo.git({"checkout", "-q", "--orphan", "other"});
  repo.write("b.txt", "b\n");
  repo.commit("unrelated");
  try {
    merge_base(repo.path(), "main", "other");
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no merge base between 'main' and 'other'"), std::string::npos) << e.what();
  }
}

/// A repo with main, master, a fake origin/HEAD and origin/release refs, each on its own commit.
struct BaseFixture {
  TempDir tmp;
  GitRepo repo{tmp / "repo"};
  std::string main_sha, master_sha, origin_head_sha, release_sha, mr_sha;
  BaseFixture() {
    repo.write("f", "0");
    mr_sha = repo.commit("mr base");
    repo.write("f", "1");
    main_sha = repo.commit("main");
    repo.git({"branch", "master", mr_sha});
    repo.write("f", "2");
    release_sha = repo.commit("release");
    repo.git({"update-ref", "refs/remotes/origin/release", release_sha});
    repo.git({"update-ref", "refs/remotes/origin/trunk", mr_sha});
    repo.git({"symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk"});
    repo.git({"reset", "-q", "--hard", main_sha});
  }
};

TEST(GitDefaultBase, FollowsTheEnvironmentOrder) {
  BaseFixture f;
  const auto& dir = f.repo.path();
  // Each earlier source wins over every later one.
  EXPECT_EQ(default_base(dir, {{"CI_MERGE_REQUEST_DIFF_BASE_SHA", f.mr_sha}, {"GITHUB_BASE_REF", "release"}}),
            f.mr_sha);
  EXPECT_EQ(default_base(dir, {{"GITHUB_BASE_REF", "release"}}), "origin/release");
  EXPECT_EQ(default_base(dir, {}), "origin/HEAD");
  EXPECT_EQ(resolve(dir, default_base(dir, {})), f.mr_sha);
  // An empty variable is no variable.
  EXPECT_EQ(default_base(dir, {{"CI_MERGE_REQUEST_DIFF_BASE_SHA", ""}}), "origin/HEAD");

  f.repo.git({"symbolic-ref", "--delete", "refs/remotes/origin/HEAD"});
  EXPECT_EQ(default_base(dir, {}), "main");
  f.repo.git({"checkout", "-q", "--detach"});
  f.repo.git({"branch", "-D", "main"});
  EXPECT_EQ(default_base(dir, {}), "master");
  f.repo.git({"branch", "-D", "master"});
  EXPECT_THROW(default_base(dir, {}), InputError);
}

TEST(GitDefaultBase, ACiBaseThisCloneLacksIsAnErrorNeverAFallback) {
  BaseFixture f;
  const auto& dir = f.repo.path();
  const std::string missing(40, 'e');
  std::string what;
  try {
    default_base(dir, {{"CI_MERGE_REQUEST_DIFF_BASE_SHA", missing}});
  } catch (const InputError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("CI_MERGE_REQUEST_DIFF_BASE_SHA " + missing + " is not in"), std::string::npos) << what;
  EXPECT_NE(what.find("fetch more history"), std::string::npos) << what;
  what.clear();
  try {
    default_base(dir, {{"GITHUB_BASE_REF", "gone"}});
  } catch (const InputError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("GITHUB_BASE_REF names origin/gone, which is not in"), std::string::npos) << what;
  EXPECT_NE(what.find("fetch-depth: 0"), std::string::npos) << what;
}

TEST(GitDefaultBase, AShallowCloneWithoutTheBaseSaysToFetchMoreHistory) {
  BaseFixture f;
  cobench::testing::TempDir tmp;
  const auto clone = tmp / "shallow";
  cobench::testing::run_checked({"git", "clone", "-q", "--depth", "1", "file://" + f.repo.path().string(), clone.string()});
  std::string what;
  try {
    default_base(clone, {{"CI_MERGE_REQUEST_DIFF_BASE_SHA", f.mr_sha}});
  } catch (const InputError& e) {
    what = e.what();
  }
  EXPECT_NE(what.find("(a shallow clone); fetch more history"), std::string::npos) << what;
}

}  // namespace
}  // namespace cobench::git
