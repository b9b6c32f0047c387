// build_targets(): only the named targets, and failures that name theirs.
#include <gtest/gtest.h>

#include "cmake/cmake.h"
#include "run/runner_kinds.h"
#include "cmake/fixtures.h"
#include "support/testing.h"

namespace cobench::cmake {
namespace {

namespace fs = std::filesystem;
using cobench::testing::read_text;
using cobench::testing::TempDir;
using cobench::testing::write_file;

TEST(BuildTargets, BuildsOnlyTheNamedTargetsAndNamesTheOneThatFails) {
  TempDir tmp;
  write_file(tmp / "src/CMakeLists.txt",
             cobench::testing::gbench_cmakelists({{"bench_ok", "ok.cc"}, {"bench_other", "other.cc"},
                                                  {"bench_broken", "broken.cc"}}));
  write_file(tmp / "src/ok.cc", fixtures::bench_source("ok"));
  write_file(tmp / "src/other.cc", fixtures::bench_source("other"));
  write_file(tmp / "src/broken.cc", "#include <benchmark/benchmark.h>\nint f() { return this_is_not_declared; }\n");
  BuildSettings settings = fixtures::settings(tmp.path(), "src");
  settings.jobs = 2;
  configure(settings);
  auto targets = discover_targets(settings.build_dir, "", run::runner_kind("gbench", "test").recognises);
  ASSERT_EQ(targets.size(), 3u);

  build_targets(settings, {"bench_ok"});
  const fs::path ok = settings.build_dir / "bench_ok";
  ASSERT_TRUE(fs::exists(ok));
  EXPECT_FALSE(fs::exists(settings.build_dir / "bench_other")) << "only the named target is built";
  auto listed = cobench::testing::run_checked({ok.string(), "--benchmark_list_tests=true"});
  EXPECT_EQ(listed.out, "BM_ok\n");

  try {
    build_targets(settings, {"bench_broken", "bench_other"});
    FAIL() << "expected BuildFailure";
  } catch (const BuildFailure& e) {
    EXPECT_EQ(e.target, "bench_broken");
    std::string expected_command = "cmake --build " + settings.build_dir.string() + " --config Release -j 2 --target bench_broken";
    EXPECT_EQ(e.command, expected_command);
    EXPECT_EQ(std::string(e.what()), "build of target 'bench_broken' failed (exit status 1): " + expected_command);
    EXPECT_NE(e.log_tail.find("this_is_not_declared"), std::string::npos) << e.log_tail;
    EXPECT_NE(e.log_tail.find("broken.cc"), std::string::npos) << e.log_tail;
  }
  EXPECT_FALSE(fs::exists(settings.build_dir / "bench_other")) << "stops at the first failure";
  std::string log = read_text(settings.log_path);
  EXPECT_NE(log.find("--target bench_ok"), std::string::npos);
  EXPECT_NE(log.find("this_is_not_declared"), std::string::npos);
}

}  // namespace
}  // namespace cobench::cmake
