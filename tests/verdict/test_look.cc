#include "verdict/look.h"

#include <gtest/gtest.h>

namespace cobench::verdict {
namespace {

TEST(LookRule, HaybittlePetoFromTheStatedConfidence) {
  const LookRule rule(0.95);
  EXPECT_DOUBLE_EQ(rule.confidence(Look::Early), 0.99);
  EXPECT_DOUBLE_EQ(rule.confidence(Look::Interim), 0.9973);
  EXPECT_DOUBLE_EQ(rule.confidence(Look::Final), 0.955);
  EXPECT_EQ(rule.describe(), "looks at up to 8 pairs at 99%, later interim looks at 99.73%, the last (at max_runs) at "
                             "95.5% (Haybittle-Peto with early looks: about 95% overall)");
  const LookRule strict(0.99);  // interim at most a tenth of the error
  EXPECT_DOUBLE_EQ(strict.confidence(Look::Interim), 0.999);
  EXPECT_DOUBLE_EQ(strict.confidence(Look::Final), 0.991);
  EXPECT_DOUBLE_EQ(strict.confidence(Look::Early), 0.998);
}

TEST(LookRule, ManyLaterLooksShareTheThreeSigmaError) {
  // 6-30 has 11 later interim looks (a block of 2 pairs each past 8): each at 3 sigma.
  EXPECT_DOUBLE_EQ(LookRule(0.95, false, 30).confidence(Look::Interim), 0.9973);
  // 6-100 has 46: each spends 11/46 of it, so all of them together spend about as much.
  EXPECT_DOUBLE_EQ(LookRule(0.95, false, 100).confidence(Look::Interim), 1 - 0.0027 * 11 / 46);
  EXPECT_DOUBLE_EQ(LookRule(0.95, false, 100).confidence(Look::Early), 0.99);
}

TEST(LookRule, EveryLookAtTheStatedLevelForComparison) {
  const LookRule fixed(0.95, true);
  EXPECT_DOUBLE_EQ(fixed.confidence(Look::Early), 0.95);
  EXPECT_DOUBLE_EQ(fixed.confidence(Look::Interim), 0.95);
  EXPECT_DOUBLE_EQ(fixed.confidence(Look::Final), 0.95);
  EXPECT_EQ(fixed.describe(), "every look at 95% confidence");
}

TEST(LookRule, TheLookAtMaxRunsIsTheFinalOne) {
  EXPECT_EQ(LookRule::look_at(6, 30), Look::Early);
  EXPECT_EQ(LookRule::look_at(8, 30), Look::Early);
  EXPECT_EQ(LookRule::look_at(9, 30), Look::Interim);
  EXPECT_EQ(LookRule::look_at(30, 30), Look::Final);
  EXPECT_EQ(LookRule::look_at(31, 30), Look::Final);
}

}  // namespace
}  // namespace cobench::verdict
