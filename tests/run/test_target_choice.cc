#include "run/target_choice.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace cobench::run {
namespace {

std::vector<build::BenchmarkTarget> targets(std::vector<std::string> names) {
  std::vector<build::BenchmarkTarget> out;
  for (auto& name : names) out.push_back({name, "/x/" + name, {}, {}, {}, true});
  return out;
}

TEST(TargetChoice, SplitsIntoBothSidesAddedAndRemoved) {
  auto choice = choose_targets(targets({"bench_a", "bench_old"}), targets({"bench_a", "bench_new"}), "");
  EXPECT_EQ(choice.both, std::vector<std::string>{"bench_a"});
  EXPECT_EQ(choice.head_only, std::vector<std::string>{"bench_new"});
  EXPECT_EQ(choice.base_only, std::vector<std::string>{"bench_old"});
  EXPECT_EQ(choice.selection["mode"], "all");
}

TEST(TargetChoice, TargetRegexNarrowsBySearch) {
  auto choice = choose_targets(targets({"bench_sort", "bench_hash", "sort_micro"}),
                               targets({"bench_sort", "bench_hash", "sort_micro"}), "sort");
  EXPECT_EQ(choice.both, (std::vector<std::string>{"bench_sort", "sort_micro"}));
  EXPECT_NE(choice.reason.find("--target 'sort'"), std::string::npos);
}

TEST(TargetChoice, NothingToMeasureOrABadRegexIsAnInputError) {
  EXPECT_THROW(choose_targets(targets({"a"}), targets({"a"}), "zzz"), InputError);
  EXPECT_THROW(choose_targets({}, {}, ""), InputError);
  EXPECT_THROW(validate_target_regex("("), InputError);
  EXPECT_NO_THROW(validate_target_regex(""));
}

}  // namespace
}  // namespace cobench::run
