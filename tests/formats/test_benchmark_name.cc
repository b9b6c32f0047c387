#include <gtest/gtest.h>

#include "formats/benchmark_name.h"

namespace cobench::formats {
namespace {

TEST(BenchmarkName, ComponentsAreTheSlashSeparatedPartsFamilyFirst) {
  EXPECT_EQ(name_components("BM_Sum/4096/threads:2"), (std::vector<std::string>{"BM_Sum", "4096", "threads:2"}));
  EXPECT_EQ(name_components("BM_x"), std::vector<std::string>{"BM_x"});
  EXPECT_EQ(name_components("a//b/"), (std::vector<std::string>{"a", "", "b", ""}));
}

TEST(BenchmarkName, RunOptionsAreGoogleBenchmarksOwnComponentsNotArguments) {
  for (const char* option : {"threads:2", "repeats:3", "iterations:100", "min_time:0.500", "min_warmup_time:0.100"})
    EXPECT_TRUE(is_run_option(option)) << option;
  for (const char* argument : {"4096", "n:64", "real_time", "iterations", "x_threads:2"})
    EXPECT_FALSE(is_run_option(argument)) << argument;
}

TEST(BenchmarkName, AnInstanceFixesItsOwnLengthWithIterationsOrMinTimeInItsName) {
  EXPECT_TRUE(fixes_its_own_length("BM_Format/iterations:2500000"));
  EXPECT_TRUE(fixes_its_own_length("BM_Pad/64/min_time:0.500/threads:2"));
  EXPECT_FALSE(fixes_its_own_length("BM_Pad/64/threads:2"));
  EXPECT_FALSE(fixes_its_own_length("BM_Pad/64/repeats:3"));  // repetitions, each as long as the flag says
  EXPECT_FALSE(fixes_its_own_length("BM_Pad/min_warmup_time:0.100"));
  // The family part of a name registered at run time is never an option.
  EXPECT_FALSE(fixes_its_own_length("iterations:many"));
  EXPECT_FALSE(fixes_its_own_length("min_time:0.5 [case a]/x"));
}

}  // namespace
}  // namespace cobench::formats
