// Budgets: the one override matcher over the configured budgets.
#include "verdict/budget.h"

#include <gtest/gtest.h>

#include "support/input_error.h"

#include "core/errors.h"

namespace cobench::verdict {
namespace {

using testing::input_error_of;

using config::parse_threshold;

Budgets with(std::vector<config::BudgetOverride> overrides) {
  return Budgets({0.05, parse_threshold("0"), std::nullopt}, std::move(overrides));
}

TEST(Budgets, DefaultsWithoutOverrides) {
  const Budget b = with({}).for_benchmark("bench_a", "BM_x");
  EXPECT_DOUBLE_EQ(b.time, 0.05);
  ASSERT_TRUE(b.allocs);
  EXPECT_EQ(b.allocs->text, "0");
  EXPECT_FALSE(b.bytes);
}

TEST(Budgets, MatchesTargetSlashNameOrTheNameAlone) {
  const Budgets budgets = with({{"^bench_fft/", 0.2, std::nullopt, std::nullopt},
                                {"^BM_Gemm/", 0.3, std::nullopt, std::nullopt}});
  EXPECT_DOUBLE_EQ(budgets.for_benchmark("bench_fft", "BM_Fwd/64").time, 0.2);
  EXPECT_DOUBLE_EQ(budgets.for_benchmark("bench_gemm", "BM_Gemm/64").time, 0.3);
  EXPECT_DOUBLE_EQ(budgets.for_benchmark("", "BM_Gemm/8").time, 0.3);  // compare has no targets
  EXPECT_DOUBLE_EQ(budgets.for_benchmark("bench_other", "BM_Fwd/64").time, 0.05);
}

TEST(Budgets, FirstRuleThatSetsAMetricWinsForThatMetric) {
  const Budgets budgets = with({{"BM_a", 0.1, std::nullopt, std::nullopt},
                                {"BM_", 0.5, parse_threshold("2"), parse_threshold("5%")},
                                {"BM_a", std::nullopt, parse_threshold("9"), std::nullopt}});
  const Budget a = budgets.for_benchmark("t", "BM_a");
  EXPECT_DOUBLE_EQ(a.time, 0.1);       // rule 1
  EXPECT_EQ(a.allocs->text, "2");      // rule 2: rule 1 sets no allocs, rule 3 comes later
  EXPECT_EQ(a.bytes->text, "5%");
  const Budget b = budgets.for_benchmark("t", "BM_b");
  EXPECT_DOUBLE_EQ(b.time, 0.5);
}

TEST(Budgets, AnInvalidRegexNamesItsRule) {
  const std::string e = input_error_of([] { with({{"ok", 0.1, {}, {}}, {"BM_(", 0.1, {}, {}}}); });
  EXPECT_EQ(e.rfind("budget.override[2]: match 'BM_(' is not a valid regex", 0), 0u) << e;
}

TEST(Budgets, EachBenchmarkFindsItsRuleAmongMany) {
  std::vector<config::BudgetOverride> rules;
  for (int i = 0; i < 200; ++i) rules.push_back({"^BM_rule" + std::to_string(i) + "$", 0.2, {}, {}});
  const Budgets budgets = with(rules);
  int matched = 0;
  for (int i = 0; i < 2000; ++i) matched += budgets.for_benchmark("t", "BM_rule" + std::to_string(i % 400)).time > 0.1;
  EXPECT_EQ(matched, 1000);
}

}  // namespace
}  // namespace cobench::verdict
