// The diff's changed lines against an instance's executed lines.
#include "reach/reach.h"

#include <gtest/gtest.h>

namespace cobench::reach {
namespace {

using Status = verdict::ChangeReach::Status;

git::ChangedLines modified(const std::string& path, std::vector<int> added, std::vector<int> removed,
                           std::vector<int> anchors = {}) {
  return {path, path, false, std::move(added), std::move(removed), std::move(anchors)};
}

InstanceCoverage ran(LineMap executed) { return {"BM_X", std::move(executed), "", 0.01}; }

TEST(ChangedCode, KeepsCodeFilesAndBothSidesOfRenamesAndDeletions) {
  std::vector<git::ChangedLines> diff = {modified("include/w.h", {7}, {7}), modified("README.md", {1}, {1}),
                                         {"src/new.h", "src/old.h", false, {3}, {4, 5}, {}},
                                         {"src/gone.h", "src/gone.h", true, {}, {1, 2}, {}},
                                         {"src/added.h", "", false, {1, 2}, {}, {}}};
  auto changes = changed_code(diff, [](const std::string& path) { return path.rfind("README", 0) != 0; });
  EXPECT_EQ(changes.head, (LineMap{{"include/w.h", {7}}, {"src/new.h", {3}}, {"src/added.h", {1, 2}}}));
  EXPECT_EQ(changes.base, (LineMap{{"include/w.h", {7}}, {"src/old.h", {4, 5}}, {"src/gone.h", {1, 2}}}));
  EXPECT_EQ(changes.head_lines(), 4);
  EXPECT_EQ(changes.base_lines(), 5);
  EXPECT_EQ(changes.count(), 9);
}

TEST(InstanceReach, ReachedWhenEitherSideRanAChangedLine) {
  auto changes = changed_code({modified("w.h", {7}, {7, 8})}, [](const std::string&) { return true; });
  const InstanceCoverage head = ran({{"w.h", {5, 6, 7}}}), base = ran({{"w.h", {5, 6, 7, 8}}});
  auto both = instance_reach(changes, {&head, ""}, {&base, ""});
  EXPECT_EQ(both.status, Status::Reached);
  EXPECT_EQ(both.changed_lines, 3);
  EXPECT_EQ(both.executed_changed_lines, 3);

  const InstanceCoverage small = ran({{"w.h", {5, 6}}, {"other.h", {7}}});
  auto none = instance_reach(changes, {&small, ""}, {&small, ""});
  EXPECT_EQ(none.status, Status::NotReached);
  EXPECT_EQ(none.executed_changed_lines, 0);
  EXPECT_EQ(none.changed_lines, 3);
}

TEST(InstanceReach, UnknownWhenASideWithChangedLinesHasNoCoverage) {
  auto changes = changed_code({modified("w.h", {7}, {7})}, [](const std::string&) { return true; });
  const InstanceCoverage small = ran({{"w.h", {5}}});
  auto head_missing = instance_reach(changes, {nullptr, "head: coverage build failed"}, {&small, ""});
  EXPECT_EQ(head_missing.status, Status::Unknown);
  EXPECT_EQ(head_missing.reason, "head: coverage build failed");
  auto base_missing = instance_reach(changes, {&small, ""}, {nullptr, "base: coverage run timed out"});
  EXPECT_EQ(base_missing.reason, "base: coverage run timed out");
  // What ran decides even when the other side is missing.
  const InstanceCoverage hit = ran({{"w.h", {7}}});
  EXPECT_EQ(instance_reach(changes, {&hit, ""}, {nullptr, "base: failed"}).status, Status::Reached);
  // A pure deletion needs no head coverage at all.
  auto deletion = changed_code({modified("w.h", {}, {8})}, [](const std::string&) { return true; });
  EXPECT_EQ(instance_reach(deletion, {nullptr, "no head coverage"}, {&small, ""}).status, Status::NotReached);
}

TEST(TouchesChange, RemovedLinesOrTheLinesAroundAnInsertion) {
  auto changes = changed_code({modified("w.h", {10, 11}, {}, {9, 10}), modified("v.h", {3}, {3})},
                              [](const std::string&) { return true; });
  EXPECT_TRUE(touches_change(changes, {{"w.h", {9}}}));
  EXPECT_TRUE(touches_change(changes, {{"v.h", {3}}}));
  EXPECT_FALSE(touches_change(changes, {{"w.h", {8, 11}}, {"v.h", {2, 4}}}));
}

TEST(ExecutedCount, CountsCommonLinesOfTwoAscendingLists) {
  EXPECT_EQ(executed_count({1, 3, 5, 9}, {2, 3, 4, 5, 6}), 2);
  EXPECT_EQ(executed_count({}, {1}), 0);
  EXPECT_EQ(executed_count({7}, {}), 0);
}

}  // namespace
}  // namespace cobench::reach
