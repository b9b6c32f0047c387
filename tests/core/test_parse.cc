#include "core/parse.h"

#include <gtest/gtest.h>

namespace cobench {
namespace {

TEST(ParseFraction, AcceptsPercentAndPlainFractions) {
  EXPECT_DOUBLE_EQ(*parse_fraction("5%"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_fraction("0.05"), 0.05);
  EXPECT_DOUBLE_EQ(*parse_fraction("0"), 0.0);
  EXPECT_DOUBLE_EQ(*parse_fraction("12.5%"), 0.125);
}

TEST(ParseFraction, RejectsJunk) {
  EXPECT_FALSE(parse_fraction(""));
  EXPECT_FALSE(parse_fraction("%"));
  EXPECT_FALSE(parse_fraction("5 %"));
  EXPECT_FALSE(parse_fraction("-1%"));
  EXPECT_FALSE(parse_fraction("five"));
  EXPECT_FALSE(parse_fraction("nan"));
}

TEST(ParseDuration, AcceptsUnitsAndCombinations) {
  EXPECT_DOUBLE_EQ(*parse_duration_seconds("300"), 300);
  EXPECT_DOUBLE_EQ(*parse_duration_seconds("300s"), 300);
  EXPECT_DOUBLE_EQ(*parse_duration_seconds("20m"), 1200);
  EXPECT_DOUBLE_EQ(*parse_duration_seconds("1h30m"), 5400);
  EXPECT_DOUBLE_EQ(*parse_duration_seconds("250ms"), 0.25);
  EXPECT_DOUBLE_EQ(*parse_duration_seconds("1.5s"), 1.5);
}

TEST(ParseDuration, RejectsJunk) {
  EXPECT_FALSE(parse_duration_seconds(""));
  EXPECT_FALSE(parse_duration_seconds("m"));
  EXPECT_FALSE(parse_duration_seconds("10 m"));
  EXPECT_FALSE(parse_duration_seconds("10x"));
  EXPECT_FALSE(parse_duration_seconds("-5"));
}

TEST(FormatDuration, PicksReadableUnits) {
  EXPECT_EQ(format_duration(0.25), "250 ms");
  EXPECT_EQ(format_duration(12.34), "12.3 s");
  EXPECT_EQ(format_duration(600), "10.0 min");
}

}  // namespace
}  // namespace cobench
