// The compile cache both sides share: ccache's stats log counted, the
// launcher and environment a side gets, and two real sides of one project
// built through a fresh cache, the second taking every object from the first
// with no path of its own in the debug info.
#include <fstream>
#include <iterator>

#include <gtest/gtest.h>

#include "cmake/cmake.h"
#include "cmake/compile_cache.h"
#include "cmake/fixtures.h"
#include "process/process.h"
#include "support/testing.h"

namespace cobench::cmake {
namespace {

namespace fs = std::filesystem;
using cobench::testing::read_text;
using cobench::testing::TempDir;
using cobench::testing::write_file;

bool has_arg(const std::vector<std::string>& args, const std::string& prefix) {
  for (const auto& arg : args)
    if (arg.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string env_value(const BuildSettings& settings, const std::string& name) {
  for (const auto& [key, value] : settings.env)
    if (key == name) return value;
  return "<unset>";
}

TEST(CompileCache, CountsHitsMissesAndUncacheableCallsFromTheStatsLog) {
  TempDir tmp;
  write_file(tmp / "stats.log",
             "# ../checkout/a.cc\ncache_miss\ndirect_cache_miss\nlocal_storage_write\n"
             "# ../checkout/b.cc\ndirect_cache_hit\nlocal_storage_hit\n"
             "# ../checkout/c.cc\npreprocessed_cache_hit\n"
             "# ../checkout/d.cc\nunsupported_compiler_option\n"
             "# ../checkout/e.cc\ncache_miss\n");
  const CacheStats stats = read_cache_stats(tmp / "stats.log");
  EXPECT_EQ(stats.hits, 2);
  EXPECT_EQ(stats.misses, 2);
  EXPECT_EQ(stats.uncacheable, 1);
  EXPECT_EQ(describe(stats), "2 of 4 compilations from the cache (50%), 1 it could not cache");
  EXPECT_EQ(describe(read_cache_stats(tmp / "missing.log")), "no compilation went through ccache");
}

TEST(CompileCache, OffOrMissingLeavesTheBuildAlone) {
  const CompileCache off = find_compile_cache(false, "--ccache is false", "/job", {});
  EXPECT_TRUE(off.program.empty());
  EXPECT_EQ(off.why_not, "--ccache is false");
  TempDir tmp;
  BuildSettings settings = fixtures::settings(tmp.path(), "src");
  settings.cmake_args = {"-DX=1"};
  use_compile_cache(off, settings);
  EXPECT_EQ(settings.cmake_args, std::vector<std::string>{"-DX=1"});
  EXPECT_TRUE(settings.env.empty());
  EXPECT_TRUE(settings.cache_stats_log.empty());
}

TEST(CompileCache, ASideGetsTheLauncherTheSharedSettingsAndItsOwnStatsLog) {
  TempDir tmp;
  CompileCache cache;  // as find_compile_cache makes it, without needing ccache installed
  cache.program = "/usr/bin/ccache";
  cache.env = {{"CCACHE_BASEDIR", (tmp / "job").string()}, {"CCACHE_NOHASHDIR", "1"}};
  BuildSettings settings = fixtures::settings(tmp / "job/base", "checkout");
  use_compile_cache(cache, settings);
  EXPECT_TRUE(has_arg(settings.cmake_args, "-DCMAKE_C_COMPILER_LAUNCHER=/usr/bin/ccache"));
  EXPECT_TRUE(has_arg(settings.cmake_args, "-DCMAKE_CXX_COMPILER_LAUNCHER=/usr/bin/ccache"));
  EXPECT_EQ(env_value(settings, "CCACHE_BASEDIR"), (tmp / "job").string());
  EXPECT_EQ(env_value(settings, "CCACHE_NOHASHDIR"), "1");
  EXPECT_EQ(settings.cache_stats_log, tmp / "job/base/build/cobench-ccache-stats.log");
  EXPECT_EQ(env_value(settings, "CCACHE_STATSLOG"), settings.cache_stats_log.string());
  const fs::path include = tmp / "job/base/build/cobench-compile-cache.cmake";
  EXPECT_TRUE(has_arg(settings.cmake_args, "-DCMAKE_PROJECT_INCLUDE=" + include.string()));
  EXPECT_NE(read_text(include).find("-fdebug-prefix-map=" + (tmp / "job/base/build").string() + "=."),
            std::string::npos);

  // The user's own launcher (in either spelling) and project include stay theirs.
  BuildSettings own = fixtures::settings(tmp / "job/head", "checkout");
  own.cmake_args = {"-DCMAKE_CXX_COMPILER_LAUNCHER:STRING=sccache", "-D", "CMAKE_C_COMPILER_LAUNCHER=distcc",
                    "-DCMAKE_PROJECT_INCLUDE=/mine.cmake"};
  use_compile_cache(cache, own);
  EXPECT_EQ(own.cmake_args.size(), 4u) << ::testing::PrintToString(own.cmake_args);
  EXPECT_EQ(env_value(own, "CCACHE_NOHASHDIR"), "1");
}

/// The bytes of every object file under `dir`.
std::string object_bytes(const fs::path& dir) {
  std::string all;
  for (const auto& entry : fs::recursive_directory_iterator(dir))
    if (entry.path().extension() == ".o") {
      std::ifstream in(entry.path(), std::ios::binary);
      all.append(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
  return all;
}

TEST(CompileCache, TheSecondSideTakesEveryObjectFromTheFirstWithoutItsPathInTheDebugInfo) {
  if (!process::find_on_path("ccache")) GTEST_SKIP() << "ccache is not on PATH (apt-get install ccache)";
  TempDir tmp;
  const fs::path job = tmp / "job";
  // A fresh cache of the test's own: the user's cache and its statistics are never touched.
  const CompileCache cache = find_compile_cache(true, "", job, tmp / "ccache");
  ASSERT_FALSE(cache.program.empty());
  EXPECT_EQ(cache.cache_dir, tmp / "ccache");
  std::map<std::string, CacheStats> stats;
  for (const std::string side : {"base", "head"}) {
    write_file(job / side / "checkout/CMakeLists.txt",
               cobench::testing::gbench_cmakelists({{"bench_a", "a.cc"}, {"bench_b", "b.cc"}}));
    write_file(job / side / "checkout/a.cc", fixtures::bench_source("A"));
    write_file(job / side / "checkout/b.cc", fixtures::bench_source("B"));
    BuildSettings settings = fixtures::settings(job / side, "checkout");
    settings.build_type = "RelWithDebInfo";  // debug info: the build folder's path would be in it
    use_compile_cache(cache, settings);
    configure(settings);
    build_targets(settings, {"bench_a", "bench_b"});
    stats[side] = read_cache_stats(settings.cache_stats_log);
  }
  EXPECT_EQ(stats["base"].misses, 2) << describe(stats["base"]);
  EXPECT_EQ(stats["base"].hits, 0);
  EXPECT_EQ(stats["head"].hits, 2) << describe(stats["head"]);
  EXPECT_EQ(stats["head"].misses, 0);
  const std::string head_objects = object_bytes(job / "head/build");
  ASSERT_FALSE(head_objects.empty());
  EXPECT_EQ(head_objects.find((job / "base").string()), std::string::npos) << "the base's path in the head's objects";
  EXPECT_EQ(head_objects.find((job / "head").string()), std::string::npos) << "an absolute path in the debug info";
  EXPECT_NE(head_objects.find("../checkout/a.cc"), std::string::npos) << "sources are named relative to the build";
}

}  // namespace
}  // namespace cobench::cmake
