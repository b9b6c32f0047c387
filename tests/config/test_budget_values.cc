// Budgets as written: the spellings every source accepts (config file, environment, flags).
#include "config/budget_values.h"

#include <gtest/gtest.h>

#include "support/input_error.h"

#include "core/errors.h"

namespace cobench::config {
namespace {

using testing::input_error_of;

TEST(TimeBudget, PercentagesAndFractions) {
  EXPECT_DOUBLE_EQ(parse_time_budget("5%"), 0.05);
  EXPECT_DOUBLE_EQ(parse_time_budget("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(parse_time_budget("1"), 1.0);
  EXPECT_DOUBLE_EQ(parse_time_budget("150%"), 1.5);  // written as a percentage, it means what it says
  EXPECT_DOUBLE_EQ(parse_time_budget("1000%"), 10.0);
  for (const char* beyond : {"1001%", "1e308%", "1e306%"})
    EXPECT_NE(input_error_of([&] { parse_time_budget(beyond); }).find("at most 1000%"), std::string::npos) << beyond;
  EXPECT_DOUBLE_EQ(time_budget_from_number(0.1), 0.1);
}

TEST(TimeBudget, ABareNumberAboveOneIsRefusedNamingTheSpellings) {
  const std::string expected = "5 would mean 500%; write a fraction (0.05) or a percentage (\"5%\")";
  EXPECT_EQ(input_error_of([] { parse_time_budget("5"); }), expected);
  EXPECT_EQ(input_error_of([] { time_budget_from_number(5); }), expected);
}

TEST(TimeBudget, MalformedOrNegativeIsABadPercentage) {
  for (const char* bad : {"five", "-5%", "5%%", "-0.1", "", "%"})
    EXPECT_EQ(input_error_of([&] { parse_time_budget(bad); }).rfind("bad percentage '", 0), 0u) << bad;
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
    EXPECT_EQ(input_error_of([&] { parse_threshold(bad); }).rfind("bad allowed increase", 0), 0u) << bad;
}

}  // namespace
}  // namespace cobench::config
