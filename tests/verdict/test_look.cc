#include "verdict/look.h"

#include <gtest/gtest.h>

namespace cobench::verdict {
namespace {

TEST(LookRule, HaybittlePetoFromTheStatedConfidence) {
  const LookRule rule(0.95);
  EXPECT_DOUBLE_EQ(rule.confidence(Look::Interim), 0.9973);
  EXPECT_DOUBLE_EQ(rule.confidence(Look::Final), 0.955);
  EXPECT_EQ(rule.describe(), "interim looks at 99.73%, the last (at max_runs) at 95.5% (Haybittle-Peto: about 95% overall)");
  const LookRule strict(0.99);  // interim at most a tenth of the error
  EXPECT_DOUBLE_EQ(strict.confidence(Look::Interim), 0.999);
  EXPECT_DOUBLE_EQ(strict.confidence(Look::Final), 0.991);
}

TEST(LookRule, EveryLookAtTheStatedLevelForComparison) {
  const LookRule fixed(0.95, true);
  EXPECT_DOUBLE_EQ(fixed.confidence(Look::Interim), 0.95);
  EXPECT_DOUBLE_EQ(fixed.confidence(Look::Final), 0.95);
  EXPECT_EQ(fixed.describe(), "every look at 95% confidence");
}

TEST(LookRule, TheLookAtMaxRunsIsTheFinalOne) {
  EXPECT_EQ(LookRule::look_at(6, 30), Look::Interim);
  EXPECT_EQ(LookRule::look_at(30, 30), Look::Final);
  EXPECT_EQ(LookRule::look_at(31, 30), Look::Final);
}

}  // namespace
}  // namespace cobench::verdict
