#include "verdict/layouts.h"

#include <gtest/gtest.h>

#include <vector>

namespace cobench::verdict {
namespace {

using V = LayoutVerdict;
constexpr V kAll[] = {V::Regression, V::Faster, V::Pass, V::Inconclusive};
constexpr double kBudget = 0.05;

std::vector<LayoutReading> readings(std::initializer_list<V> verdicts) {
  std::vector<LayoutReading> out;
  int layout = 1;
  for (V v : verdicts) out.push_back({layout++, v, 1.0, 0.9, 1.1});
  return out;
}

LayoutOutcome decide(std::initializer_list<V> verdicts, int layouts) {
  const auto list = readings(verdicts);
  return decide_layouts(list, layouts, kBudget);
}

bool is_claim(V v) { return v == V::Regression || v == V::Faster; }

TEST(Layouts, OnlyARegressionOrFasterRowIsCheckedAndNeverAControl) {
  EXPECT_TRUE(needs_layout_check(V::Regression, false));
  EXPECT_TRUE(needs_layout_check(V::Faster, false));
  EXPECT_FALSE(needs_layout_check(V::Pass, false));
  EXPECT_FALSE(needs_layout_check(V::Inconclusive, false));
  for (V v : kAll) EXPECT_FALSE(needs_layout_check(v, true)) << to_string(v);
}

TEST(Layouts, TheRowsVerdictReadsAsOneLayoutVerdict) {
  EXPECT_EQ(layout_verdict_of(verdict::Verdict::Regression, false), V::Regression);
  EXPECT_EQ(layout_verdict_of(verdict::Verdict::Pass, true), V::Faster);
  EXPECT_EQ(layout_verdict_of(verdict::Verdict::Pass, false), V::Pass);
  EXPECT_EQ(layout_verdict_of(verdict::Verdict::Inconclusive, false), V::Inconclusive);
  EXPECT_EQ(layout_verdict_of(verdict::Verdict::Unrelated, false), V::Inconclusive);
}

TEST(Layouts, TwoLayoutsEveryCombination) {
  for (V first : kAll) {
    if (!is_claim(first)) continue;
    for (V second : kAll) {
      const LayoutOutcome expected = second == first ? LayoutOutcome::Confirmed : LayoutOutcome::LayoutSensitive;
      EXPECT_EQ(decide({first, second}, 2), expected) << to_string(first) << " then " << to_string(second);
    }
  }
}

TEST(Layouts, ThreeLayoutsEveryCombination) {
  for (V first : kAll) {
    if (!is_claim(first)) continue;
    for (V second : kAll) {
      // The second layout alone decides unless it is inconclusive: then the third is measured.
      if (second == first) {
        EXPECT_EQ(decide({first, second}, 3), LayoutOutcome::Confirmed);
        continue;
      }
      if (second != V::Inconclusive) {
        EXPECT_EQ(decide({first, second}, 3), LayoutOutcome::LayoutSensitive)
            << to_string(first) << " then " << to_string(second);
        continue;
      }
      EXPECT_EQ(decide({first, second}, 3), LayoutOutcome::NeedsLayout) << to_string(first);
      for (V third : kAll) {
        const LayoutOutcome expected = third == first ? LayoutOutcome::Confirmed : LayoutOutcome::LayoutSensitive;
        EXPECT_EQ(decide({first, second, third}, 3), expected)
            << to_string(first) << ", inconclusive, " << to_string(third);
      }
    }
  }
}

TEST(Layouts, ALayoutThatDecidesOtherwiseEndsItWhateverFollows) {
  EXPECT_EQ(decide({V::Faster, V::Regression, V::Faster}, 3), LayoutOutcome::LayoutSensitive);
  EXPECT_EQ(decide({V::Regression, V::Pass, V::Regression}, 3), LayoutOutcome::LayoutSensitive);
}

TEST(Layouts, AnUndecidedLayoutThatPointsTheSameWayPastTheBudgetAgrees) {
  // A real +10% slowdown under a loaded runner, measured 2026-12-05 (by-hand
  // comparison, BM_JoinStrings): layout 1 1.106 [1.067, 1.146] regression,
  // layout 2 1.082 [1.035, 1.132] inconclusive. Both point the same way.
  const LayoutReading slow1{1, V::Regression, 1.106, 1.067, 1.146};
  const LayoutReading slow2{2, V::Inconclusive, 1.082, 1.035, 1.132};
  EXPECT_EQ(decide_layouts(std::vector{slow1, slow2}, 2, kBudget), LayoutOutcome::Confirmed);
  EXPECT_EQ(decide_layouts(std::vector{slow1, slow2}, 3, kBudget), LayoutOutcome::Confirmed);
  // Layout alone, the demo's probe: 0.775 faster, then 1.020 [1.004, 1.090]: not the same way.
  const LayoutReading moved1{1, V::Faster, 0.775, 0.74, 0.80};
  const LayoutReading moved2{2, V::Inconclusive, 1.020, 1.004, 1.090};
  EXPECT_EQ(decide_layouts(std::vector{moved1, moved2}, 2, kBudget), LayoutOutcome::LayoutSensitive);
  // Undecided and pointing the same way but within the budget line, or with
  // no change still inside the interval: not agreement.
  EXPECT_EQ(decide_layouts(std::vector{slow1, LayoutReading{2, V::Inconclusive, 1.04, 1.01, 1.09}}, 2, kBudget),
            LayoutOutcome::LayoutSensitive);
  EXPECT_EQ(decide_layouts(std::vector{slow1, LayoutReading{2, V::Inconclusive, 1.08, 0.99, 1.20}}, 2, kBudget),
            LayoutOutcome::LayoutSensitive);
  EXPECT_EQ(decide_layouts(std::vector{slow1, LayoutReading{2, V::Inconclusive, 1.08, 0.99, 1.20}}, 3, kBudget),
            LayoutOutcome::NeedsLayout);
  // A faster claim: an undecided layout whose interval is below 1 and ratio below 1/1.05.
  EXPECT_EQ(decide_layouts(std::vector{moved1, LayoutReading{2, V::Inconclusive, 0.80, 0.70, 0.97}}, 2, kBudget),
            LayoutOutcome::Confirmed);
}

TEST(Layouts, TheVerdictWordsReadBack) {
  for (V v : kAll) {
    V read = V::Inconclusive;
    ASSERT_TRUE(layout_verdict_from_string(to_string(v), read)) << to_string(v);
    EXPECT_EQ(read, v);
  }
  V read = V::Pass;
  EXPECT_FALSE(layout_verdict_from_string("confirmed", read));
  EXPECT_EQ(read, V::Pass);
}

TEST(Layouts, EachLayoutMovesTheCodeByItsOwnAmount) {
  EXPECT_EQ(layout_shift_bytes(1), 0);
  EXPECT_GT(layout_shift_bytes(2), 0);
  EXPECT_GT(layout_shift_bytes(3), 0);
  EXPECT_NE(layout_shift_bytes(2), layout_shift_bytes(3));
  for (int layout : {2, 3}) EXPECT_EQ(layout_shift_bytes(layout) % 16, 0) << "GCC aligns hot code to 16";
}

TEST(Layouts, TheRuleSaysWhatTheSettingDoes) {
  for (bool aligned : {true, false}) {
    EXPECT_EQ(describe_layout_rule(1, aligned), "");
    EXPECT_NE(describe_layout_rule(2, aligned).find("second code layout"), std::string::npos);
    EXPECT_NE(describe_layout_rule(2, aligned).find("moved by 48 bytes"), std::string::npos);
    EXPECT_EQ(describe_layout_rule(2, aligned).find("third"), std::string::npos);
    EXPECT_NE(describe_layout_rule(3, aligned).find("third"), std::string::npos);
  }
  // Today's other layouts are layout-stable builds; a results file from before says what its were.
  EXPECT_NE(describe_layout_rule(2, true).find("both sides rebuilt layout-stable, every function on a 64-byte boundary"),
            std::string::npos)
      << describe_layout_rule(2, true);
  EXPECT_EQ(describe_layout_rule(2, false).find("layout-stable"), std::string::npos) << describe_layout_rule(2, false);
}

}  // namespace
}  // namespace cobench::verdict
