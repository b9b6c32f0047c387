// Budgets: the spellings every source accepts, and the one override matcher.
#include "verdict/budget.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace cobench::verdict {
namespace {

std::string error_of(auto parse) {
  try {
    parse();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(TimeBudget, PercentagesAndFractions) {
  EXPECT_DOUBLE_EQ(parse_time_budget("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parse_time_budget("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(parse_time_budget("1"), 1.0);
  EXPECT_DOUBLE_EQ(parse_time_budget("150%"), 1.5);  // written as a percentage, it means what it says
  EXPECT_DOUBLE_EQ(parse_time_budget("1000%"), 10.0);
  for (const char* beyond : {"1001%", "1e308%", "1e306%"})
    EXPECT_NE(error_of([&] { parse_time_budget(beyond); }).find("at most 1000%"), std::string::npos) << beyond;
  EXPECT_DOUBLE_EQ(time_budget_from_number(0.1), 0.1);
}

TEST(TimeBudget, ABareNumberAboveOneIsRefusedNamingTheSpellings) {
  const std::string expected = "5 would mean 500%; write a fraction (0.05) or a percentage (\"5%\")";
  EXPECT_EQ(error_of([] { parse_time_budget("5"); }), expected);
  EXPECT_EQ(error_of([] { time_budget_from_number(5); }), expected);
}

TEST(TimeBudget, MalformedOrNegativeIsABadPercentage) {
  for (const char* bad : {"five", "-5%", "5%%", "-0.1", "", "%"})
    EXPECT_EQ(error_of([&] { parse_time_budget(bad); }).rfind("bad percentage '", 0), 0u) << bad;
}

TEST(Threshold, AbsoluteAndRelative) {
  const Threshold zero = parse_threshold("0");
  EXPECT_FALSE(zero.relative);
  EXPECT_EQ(zero.value, 0);
  EXPECT_EQ(zero.text, "0");
  const Threshold five = parse_threshold("5%");
  EXPECT_TRUE(five.relative);
  EXPECT_DOUBLE_EQ(five.value, 0.05);
  for (const char* bad : {"lots", "-1", "x%", ""})
    EXPECT_EQ(error_of([&] { parse_threshold(bad); }).rfind("bad allowed increase", 0), 0u) << bad;
}

Budgets with(std::vector<Override> overrides) {
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
  const std::string e = error_of([] { with({{"ok", 0.1, {}, {}}, {"BM_(", 0.1, {}, {}}}); });
  EXPECT_EQ(e.rfind("budget.override[2]: match 'BM_(' is not a valid regex", 0), 0u) << e;
}

TEST(Budgets, EachBenchmarkFindsItsRuleAmongMany) {
  std::vector<Override> rules;
  for (int i = 0; i < 200; ++i) rules.push_back({"^BM_rule" + std::to_string(i) + "$", 0.2, {}, {}});
  const Budgets budgets = with(rules);
  int matched = 0;
  for (int i = 0; i < 2000; ++i) matched += budgets.for_benchmark("t", "BM_rule" + std::to_string(i % 400)).time > 0.1;
  EXPECT_EQ(matched, 1000);
}

}  // namespace
}  // namespace cobench::verdict
