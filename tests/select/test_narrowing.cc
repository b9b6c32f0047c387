#include "select/narrowing.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace cobench::select {
namespace {

TEST(Narrowing, EnvironmentWhenNoFlags) {
  Narrowing n = resolve_narrowing("", "", {{"COBENCH_TARGETS", "gemm"}, {"COBENCH_FILTER", "BM_.*/64"}});
  EXPECT_EQ(n.targets, "gemm");
  EXPECT_EQ(n.targets_origin, "COBENCH_TARGETS");
  EXPECT_EQ(n.filter, "BM_.*/64");
  EXPECT_EQ(n.filter_origin, "COBENCH_FILTER");
}

TEST(Narrowing, FlagsWinOverEnvironment) {
  Narrowing n = resolve_narrowing("trsm", "", {{"COBENCH_TARGETS", "gemm"}, {"COBENCH_FILTER", ""}});
  EXPECT_EQ(n.targets, "trsm");
  EXPECT_EQ(n.targets_origin, "--target");
  EXPECT_EQ(n.filter, "");
}

TEST(Narrowing, BadRegexNamesItsOrigin) {
  try {
    resolve_narrowing("", "", {{"COBENCH_TARGETS", "bench_("}});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("COBENCH_TARGETS 'bench_('"), std::string::npos) << e.what();
  }
  EXPECT_THROW(resolve_narrowing("", "[", {}), InputError);
}

}  // namespace
}  // namespace cobench::select
