// diff_lines / parse_unified_zero: the changed lines of a diff, on literal
// `git diff -U0` text and on real temporary repositories.
#include <algorithm>

#include <gtest/gtest.h>

#include "core/errors.h"
#include "git/git.h"
#include "support/testing.h"

namespace cobench::git {
namespace {

using cobench::testing::GitRepo;
using cobench::testing::TempDir;

const ChangedLines* find(const std::vector<ChangedLines>& files, const std::string& path) {
  auto it = std::find_if(files.begin(), files.end(), [&](const ChangedLines& f) { return f.path == path; });
  return it == files.end() ? nullptr : &*it;
}

TEST(ParseUnifiedZero, ReadsAddedRemovedAndInsertionPoints) {
  const std::string text =
      "diff --git a/w.h b/w.h\nindex 1..2 100644\n--- a/w.h\n+++ b/w.h\n"
      "@@ -2 +2 @@ a\n-b\n+B\n"
      "@@ -5,2 +4,0 @@\n-gone 1\n-gone 2\n"
      "@@ -9,0 +8,2 @@ ctx\n+new 1\n+new 2\n";
  auto files = parse_unified_zero(text, "diff");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].path, "w.h");
  EXPECT_EQ(files[0].old_path, "w.h");
  EXPECT_EQ(files[0].added, (std::vector<int>{2, 8, 9}));
  EXPECT_EQ(files[0].removed, (std::vector<int>{2, 5, 6}));
  EXPECT_EQ(files[0].insertion_anchors, (std::vector<int>{9, 10}));
}

TEST(ParseUnifiedZero, RemovedLinesThatLookLikeHeadersStayLines) {
  // A removed line "-- x" is written "--- x": only the hunk's counts tell it from a file header.
  const std::string text = "diff --git a/s.sql b/s.sql\n--- a/s.sql\n+++ b/s.sql\n@@ -1,2 +1 @@\n--- x\n-++ y\n+z\n"
                           "\\ No newline at end of file\n";
  auto files = parse_unified_zero(text, "diff");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].removed, (std::vector<int>{1, 2}));
  EXPECT_EQ(files[0].added, (std::vector<int>{1}));
}

TEST(ParseUnifiedZero, QuotedPathsTrailingTabsAddedAndDeletedFiles) {
  const std::string text =
      "diff --git \"a/t\\\"q.h\" \"b/t\\\"q.h\"\n--- \"a/t\\\"q.h\"\n+++ \"b/t\\\"q.h\"\n@@ -2,2 +1,0 @@\n-2\n-3\n"
      "diff --git a/x y.h b/x y.h\n--- a/x y.h\t\n+++ b/x y.h\t\n@@ -0,0 +1 @@\n+new\n"
      "diff --git a/\\303\\274.h b/\\303\\274.h\n--- /dev/null\n+++ \"b/\\303\\274.h\"\n@@ -0,0 +1 @@\n+x\n"
      "diff --git a/old.h b/old.h\n--- a/old.h\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n";
  auto files = parse_unified_zero(text, "diff");
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[0].path, "t\"q.h");
  EXPECT_EQ(files[0].removed, (std::vector<int>{2, 3}));
  EXPECT_EQ(files[1].path, "x y.h");
  EXPECT_EQ(files[1].insertion_anchors, (std::vector<int>{1}));  // at the start: only the line after
  EXPECT_EQ(files[2].path, "\xc3\xbc.h");
  EXPECT_EQ(files[2].old_path, "");
  EXPECT_TRUE(files[3].deleted);
  EXPECT_EQ(files[3].path, "old.h");
}

TEST(ParseUnifiedZero, RefusesAnUnreadableHunkHeader) {
  EXPECT_THROW(parse_unified_zero("--- a/x\n+++ b/x\n@@ -x +1 @@\n", "git diff"), InfraError);
  EXPECT_THROW(parse_unified_zero("--- a/x\n+++ b/x\n@@ -1,3 +1 @@\n-a\n", "git diff"), InfraError);
}

TEST(DiffLines, RealRepositoryWithRenameDeletionAndAwkwardNames) {
  TempDir tmp;
  GitRepo repo(tmp / "repo");
  std::string body;
  for (int i = 1; i <= 20; ++i) body += "int line" + std::to_string(i) + " = " + std::to_string(i) + ";\n";
  repo.write("include/old name.h", body);
  repo.write("src/gone.cc", "int a;\nint b;\n");
  repo.write("src/k.cc", "int k = 1;\nint keep;\n");
  const std::string base = repo.commit("base");
  std::string renamed = body;
  renamed.replace(renamed.find("int line5 = 5;"), 14, "int line5 = 50;");
  repo.remove("include/old name.h");
  repo.write("include/new name.h", renamed);
  repo.remove("src/gone.cc");
  repo.write("src/k.cc", "int k = 2;\nint keep;\nint added;\n");
  const std::string head = repo.commit("head");

  auto files = diff_lines(repo.path(), base, head);
  const ChangedLines* moved = find(files, "include/new name.h");
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->old_path, "include/old name.h");
  EXPECT_EQ(moved->added, (std::vector<int>{5}));
  EXPECT_EQ(moved->removed, (std::vector<int>{5}));
  const ChangedLines* gone = find(files, "src/gone.cc");
  ASSERT_NE(gone, nullptr);
  EXPECT_TRUE(gone->deleted);
  EXPECT_EQ(gone->removed, (std::vector<int>{1, 2}));
  const ChangedLines* k = find(files, "src/k.cc");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->added, (std::vector<int>{1, 3}));
  EXPECT_EQ(k->removed, (std::vector<int>{1}));
  EXPECT_EQ(k->insertion_anchors, (std::vector<int>{2, 3}));
}

}  // namespace
}  // namespace cobench::git
