#include "core/benchmark_regex.h"

#include <set>

#include <gtest/gtest.h>

namespace cobench::benchmark_regex {
namespace {

TEST(BenchmarkRegex, LiteralsLeaveBracketsAndBracesClosingAsTheyAre) {
  EXPECT_EQ(literal("BM_a]b}c[1]{2}"), "BM_a]b}c\\[1]\\{2}");
  EXPECT_EQ(literal("a.b*c+d?e|f(g)h^i$j\\k"), "a\\.b\\*c\\+d\\?e\\|f\\(g\\)h\\^i\\$j\\\\k");
  EXPECT_FALSE(literal(std::string("a\0b", 3)).has_value());
  for (const std::string name : {"BM_a]b}c[1]{2}", "a.b*c+d?e|f(g)h^i$j\\k", "\xE9\n\t x"}) {
    const std::string anchored = "^" + *literal(name) + "$";
    EXPECT_FALSE(filter_problem(anchored).has_value()) << anchored;
    EXPECT_TRUE(filter_runs(anchored, name)) << anchored;
  }
}

TEST(BenchmarkRegex, TheChecksAreGoogleBenchmarksGrammarNotEcmaScript) {
  EXPECT_TRUE(filter_problem("BM_a\\]").has_value());
  EXPECT_TRUE(filter_problem("\\d+").has_value());
  EXPECT_FALSE(filter_problem("BM_a]").has_value());
  EXPECT_FALSE(filter_problem("BM_(a|b)/[0-9]+$").has_value());
  EXPECT_TRUE(filter_problem(std::string(1001, 'a')).has_value());
  EXPECT_TRUE(filter_problem("a{1234567890}").has_value());
  EXPECT_FALSE(filter_problem("^BM_Sort/1073741824$").has_value());  // a long number as a literal is fine (fuzz_benchmark_names)
  EXPECT_TRUE(filter_runs("", "anything"));
  EXPECT_TRUE(filter_runs("all", "anything"));
}

TEST(BenchmarkRegex, ExactFiltersAreAPrefixTreeSplitToFitAndRunNothingElse) {
  std::vector<std::string> names;
  for (int i = 0; i < 8000; ++i) names.push_back("BM_Family_With_A_Long_Name/" + std::to_string(i));
  const auto one = exact_filters(names);
  ASSERT_TRUE(one.has_value());
  ASSERT_EQ(one->size(), 1u);
  EXPECT_LT(one->front().size(), 32u * 1024);
  const auto several = exact_filters(names, 2000);
  ASSERT_TRUE(several.has_value());
  EXPECT_GT(several->size(), 1u);
  for (const auto& filter : *several) EXPECT_LE(filter.size(), 2000u);
  std::set<std::string> run;
  for (const auto& name : std::vector<std::string>{"BM_Family_With_A_Long_Name/7999", "BM_Family_With_A_Long_Name/8000",
                                                   "BM_Family_With_A_Long_Name/", "BM_Family_With_A_Long_Name/01"}) {
    bool any = false;
    for (const auto& filter : *several) any = any || filter_runs(filter, name);
    if (any) run.insert(name);
  }
  EXPECT_EQ(run, std::set<std::string>{"BM_Family_With_A_Long_Name/7999"});
  EXPECT_FALSE(exact_filters({std::string(5000, 'a')}).has_value());
  EXPECT_FALSE(exact_filters({std::string("a\0", 2)}).has_value());
  EXPECT_TRUE(exact_filters({})->empty());
}

}  // namespace
}  // namespace cobench::benchmark_regex
