// Issue 15, item 3: `cobench run` builds both sides through one ccache, so
// the side built second takes the objects of every unchanged translation
// unit from the first, and says how many it took; --no-ccache builds
// without. The cache is a fresh one of the test's own (--ccache-dir).
#include <regex>

#include <gtest/gtest.h>

#include "job/run_fixture.h"
#include "process/process.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using cobench::testing::explain;
using cobench::testing::read_text;
using testing::RunFixture;

/// Two quick runs of the unchanged target and the one the head slows down.
std::vector<std::string> quick(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--target", "^bench_(same|slow)$", "--min-runs", "2", "--max-runs", "2",
                                   "--alloc-runs", "0", "--no-machine-control", "--control", "none"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(CompileCacheE2E, TheHeadTakesEveryUnchangedObjectFromTheBaseAndTheReportSaysSo) {
  if (!process::find_on_path("ccache")) GTEST_SKIP() << "ccache is not on PATH (apt-get install ccache)";
  RunFixture fx;
  const fs::path cache = fx.dir / "ccache";
  auto result = fx.run(quick({"--ccache-dir", cache.string()}));
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const std::string summary = fx.report().settings.value("compile_cache", "");
  // Fresh cache: the base compiles both sources; the head recompiles only the changed slow.cc.
  EXPECT_EQ(summary, fmt::format("ccache (cache {}, from the settings): base 0 of 2 compilations from the cache (0%); "
                                 "head 1 of 2 compilations from the cache (50%)",
                                 cache.string()));
  EXPECT_NE(result.err.find("compile cache: ccache"), std::string::npos) << explain(result);
  const std::string base_log = read_text(fx.out_dir() / "logs/build-base.log");
  EXPECT_TRUE(std::regex_search(base_log, std::regex("-DCMAKE_CXX_COMPILER_LAUNCHER=\\S*ccache"))) << base_log;
  EXPECT_TRUE(fs::is_directory(cache)) << "the configured cache folder was used";

  // A second job: both sides come from the cache now.
  auto again = fx.run(quick({"--ccache-dir", cache.string()}));
  ASSERT_EQ(again.exit_code, 0) << explain(again);
  EXPECT_NE(fx.report().settings.value("compile_cache", "").find("base 2 of 2 compilations from the cache (100%); "
                                                                  "head 2 of 2"),
            std::string::npos)
      << fx.report().settings.dump();
}

TEST(CompileCacheE2E, NoCcacheBuildsWithoutItAndSaysWhy) {
  RunFixture fx;
  auto result = fx.run(quick({"--no-ccache"}));
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  EXPECT_EQ(fx.report().settings.value("compile_cache", ""), "off (--ccache is false)");
  EXPECT_EQ(read_text(fx.out_dir() / "logs/build-base.log").find("COMPILER_LAUNCHER"), std::string::npos);
}

}  // namespace
}  // namespace cobench::job
