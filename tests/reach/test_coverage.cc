// What the coverage pass adds to each run, and which gcov it uses (its build flags: cmake::with_flags).
#include "reach/coverage.h"

#include <gtest/gtest.h>

#include "support/testing.h"

namespace cobench::reach {
namespace {

using cobench::testing::TempDir;
using cobench::testing::write_file;
namespace fs = std::filesystem;

TEST(CoverageArgs, TheRunsOwnArgumentsComeLastAndTheFilterIsExact) {
  EXPECT_EQ(coverage_run_args({"--benchmark_min_time=2", "--size=9", "--benchmark_filter=BM_"}, "BM_Work<float>/8"),
            (std::vector<std::string>{"--benchmark_min_time=2", "--size=9", "--benchmark_filter=BM_",
                                      "--benchmark_min_time=0.01", "--benchmark_repetitions=1",
                                      "--benchmark_filter=^BM_Work<float>/8$"}));
}

TEST(FindGcov, GccOnlyAndTheMatchingVersionFirst) {
  auto clang = find_gcov({"Clang", "14.0.6", "/usr/bin/clang++"});
  EXPECT_TRUE(clang.gcov.empty());
  EXPECT_EQ(clang.unavailable, "non-gcc compiler (Clang 14.0.6): gcov reads gcc's coverage only");
  EXPECT_NE(find_gcov({}).unavailable.find("compiler not known"), std::string::npos);
  TempDir tmp;  // a compiler folder of its own with a gcov-99 beside it
  write_file(tmp / "bin/gcov-99", "#!/bin/sh\n");
  fs::permissions(tmp / "bin/gcov-99", fs::perms::owner_all);
  auto found = find_gcov({"GNU", "99.1.0", tmp / "bin/g++"});
  EXPECT_EQ(found.gcov, tmp / "bin/gcov-99");
  if (fs::exists("/usr/bin/gcov-12")) {
    EXPECT_EQ(find_gcov({"GNU", "12.2.0", "/usr/bin/c++"}).gcov, "/usr/bin/gcov-12");
  }
}

}  // namespace
}  // namespace cobench::reach
