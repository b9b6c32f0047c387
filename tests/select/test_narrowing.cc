#include "select/narrowing.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace cobench::select {
namespace {

config::Config layered(const std::map<std::string, std::string>& env, const std::string& target_flag = "") {
  config::Config settings;
  config::apply_environment(settings, env);
  if (!target_flag.empty())
    config::set(settings, "select.targets", {target_flag}, {config::Origin::Kind::Flag, "--target"});
  return settings;
}

TEST(Narrowing, EnvironmentWhenNoFlags) {
  Narrowing n = narrowing_of(layered({{"COBENCH_TARGETS", "gemm"}, {"COBENCH_FILTER", "BM_.*/64"}}));
  EXPECT_EQ(n.targets, "gemm");
  EXPECT_EQ(n.targets_origin, "COBENCH_TARGETS");
  EXPECT_EQ(n.filter, "BM_.*/64");
  EXPECT_EQ(n.filter_origin, "COBENCH_FILTER");
}

TEST(Narrowing, FlagsWinOverEnvironment) {
  Narrowing n = narrowing_of(layered({{"COBENCH_TARGETS", "gemm"}, {"COBENCH_FILTER", ""}}, "trsm"));
  EXPECT_EQ(n.targets, "trsm");
  EXPECT_EQ(n.targets_origin, "--target");
  EXPECT_EQ(n.filter, "");
}

TEST(Narrowing, BadRegexNamesItsOrigin) {
  try {
    layered({{"COBENCH_TARGETS", "bench_("}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("COBENCH_TARGETS: bad regex 'bench_('", 0), 0u) << e.what();
  }
  EXPECT_THROW(layered({}, "["), InputError);
}

}  // namespace
}  // namespace cobench::select
