// diff_name_status and show_file against real temporary repositories.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "git/git.h"
#include "support/testing.h"

namespace cobench::git {
namespace {

using cobench::testing::GitRepo;
using cobench::testing::TempDir;

const ChangedFile* find(const std::vector<ChangedFile>& changes, const std::string& path) {
  auto it = std::find_if(changes.begin(), changes.end(), [&](const ChangedFile& c) { return c.path == path; });
  return it == changes.end() ? nullptr : &*it;
}

TEST(GitDiff, ReportsAddModifyDeleteRenameWithAwkwardPaths) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  const std::string body = "a header long enough for rename detection to be certain\nline 2\nline 3\n";
  repo.write("include/old name.h", body);
  repo.write("src/modified.cc", "int x = 1;\n");
  repo.write("src/deleted.cc", "int y = 1;\n");
  repo.write("keep.txt", "unchanged\n");
  std::string base = repo.commit("base");
  repo.remove("include/old name.h");
  repo.write("include/new name.h", body);
  repo.write("src/modified.cc", "int x = 2;\n");
  repo.remove("src/deleted.cc");
  repo.write("docs/with space.md", "added\n");
  repo.write("src/line\nbreak.h", "newline in the name\n");
  repo.write("src/ünïcode.h", "unicode\n");
  std::string head = repo.commit("head");

  auto changes = diff_name_status(repo.path(), base, head);
  ASSERT_EQ(changes.size(), 6u);
  const ChangedFile* renamed = find(changes, "include/new name.h");
  ASSERT_NE(renamed, nullptr);
  EXPECT_EQ(renamed->status, 'R');
  EXPECT_EQ(renamed->old_path, "include/old name.h");
  ASSERT_NE(find(changes, "src/modified.cc"), nullptr);
  EXPECT_EQ(find(changes, "src/modified.cc")->status, 'M');
  ASSERT_NE(find(changes, "src/deleted.cc"), nullptr);
  EXPECT_EQ(find(changes, "src/deleted.cc")->status, 'D');
  ASSERT_NE(find(changes, "docs/with space.md"), nullptr);
  EXPECT_EQ(find(changes, "docs/with space.md")->status, 'A');
  ASSERT_NE(find(changes, "src/line\nbreak.h"), nullptr);
  ASSERT_NE(find(changes, "src/ünïcode.h"), nullptr);
  EXPECT_EQ(find(changes, "keep.txt"), nullptr);
  for (const auto& c : changes) {
    if (c.status != 'R') {
      EXPECT_TRUE(c.old_path.empty()) << c.path;
    }
  }
}

TEST(GitDiff, PathsStayRepoRelativeWhenCalledOnASubfolder) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("sub/a.h", "1\n");
  repo.write("top.h", "1\n");
  std::string base = repo.commit("base");
  repo.write("sub/a.h", "2\n");
  repo.write("top.h", "2\n");
  std::string head = repo.commit("head");
  repo.git({"config", "diff.relative", "true"});
  auto changes = diff_name_status(repo.path() / "sub", base, head);
  ASSERT_EQ(changes.size(), 2u);
  EXPECT_NE(find(changes, "sub/a.h"), nullptr);
  EXPECT_NE(find(changes, "top.h"), nullptr);
}

TEST(GitDiff, SameRevisionGivesNoChangesAndBadRevisionIsInputError) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("a", "1");
  std::string sha = repo.commit("one");
  EXPECT_TRUE(diff_name_status(repo.path(), sha, "HEAD").empty());
  EXPECT_THROW(diff_name_status(repo.path(), "nope", "HEAD"), InputError);
}

TEST(GitShowFile, ReturnsContentsAtARevisionOrNothing) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  repo.write("dir/cobench.toml", "[run]\nmin_runs = 4\n");
  std::string first = repo.commit("first");
  repo.write("dir/cobench.toml", "changed\n");
  repo.commit("second");
  EXPECT_EQ(show_file(repo.path(), first, "dir/cobench.toml"), std::optional<std::string>("[run]\nmin_runs = 4\n"));
  EXPECT_EQ(show_file(repo.path(), "HEAD", "dir/cobench.toml"), std::optional<std::string>("changed\n"));
  EXPECT_EQ(show_file(repo.path(), "HEAD", "missing.toml"), std::nullopt);
  EXPECT_THROW(show_file(repo.path(), "no-such-rev", "dir/cobench.toml"), InputError);
}

}  // namespace
}  // namespace cobench::git
