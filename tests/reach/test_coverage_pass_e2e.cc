// The coverage pass on a real CMake project with real Google Benchmark
// binaries: gcov's executed lines per instance, and each failure kept where
// it happened (a crashing instance, a target that does not build, one that is
// not there) while the pass goes on.
#include "reach/coverage.h"
#include "run/runner_kinds.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "cmake/cmake.h"
#include "host/environment.h"
#include "support/testing.h"

namespace cobench::reach {
namespace {

using cobench::testing::TempDir;
using cobench::testing::write_file;
namespace fs = std::filesystem;

class CoveragePassE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    write_file(project / "CMakeLists.txt",
               "cmake_minimum_required(VERSION 3.16)\nproject(p CXX)\nfind_package(benchmark REQUIRED)\n"
               "add_executable(bench_ok ok.cc)\ntarget_link_libraries(bench_ok PRIVATE benchmark::benchmark)\n"
               "add_executable(bench_broken broken.cc)\ntarget_link_libraries(bench_broken PRIVATE benchmark::benchmark)\n");
    write_file(project / "ok.cc",
               "#include <benchmark/benchmark.h>\n#include <cstdlib>\n"
               "static void BM_Ok(benchmark::State& state) {\n"
               "  if (state.range(0) == 2) std::abort();\n"
               "  for (auto _ : state) benchmark::DoNotOptimize(state.range(0) * 3);\n"
               "}\n"
               "BENCHMARK(BM_Ok)->Arg(1)->Arg(2);\nBENCHMARK_MAIN();\n");
    write_file(project / "broken.cc", "#include <benchmark/benchmark.h>\nthis does not compile\n");
  }

  PassSettings settings() {
    PassSettings s;
    s.checkout = project.path();
    s.build.source_dir = project.path();
    s.build.build_dir = project / "cov";
    s.build.log_path = project / "cov.log";
    s.run_env = host::benchmark_environment();
    s.run_timeout = 60;
    s.gcov = find_gcov(cmake::Compiler{"GNU", "12", "/usr/bin/g++"}).gcov;
    s.recognises = run::runner_kind("gbench", "test").recognises;
    return s;
  }

  TempDir project;
};

TEST_F(CoveragePassE2E, EachInstanceItsOwnLinesAndEachFailureWhereItHappened) {
  PassSettings s = settings();
  ASSERT_FALSE(s.gcov.empty()) << "gcov is needed";
  std::vector<std::string> said;
  s.progress = [&](const std::string& line) { said.push_back(line); };
  auto targets = run_coverage_pass(s, {"bench_ok", "bench_broken", "bench_nowhere"});
  ASSERT_EQ(targets.size(), 3u);
  const TargetCoverage& ok = targets[0];
  EXPECT_EQ(ok.failure, "");
  ASSERT_EQ(ok.instances.size(), 2u);
  EXPECT_EQ(ok.instances[0].name, "BM_Ok/1");
  EXPECT_EQ(ok.instances[0].failure, "");
  const auto& lines = ok.instances[0].executed.at("ok.cc");
  EXPECT_TRUE(std::binary_search(lines.begin(), lines.end(), 5)) << "the loop ran";
  EXPECT_EQ(ok.instances[1].name, "BM_Ok/2");
  EXPECT_NE(ok.instances[1].failure.find("coverage run killed by SIGABRT"), std::string::npos)
      << ok.instances[1].failure;
  EXPECT_GT(ok.seconds, 0);
  EXPECT_EQ(targets[1].failure.rfind("coverage build failed", 0), 0u) << targets[1].failure;
  EXPECT_EQ(targets[2].failure, "not a benchmark target of this side");
  // The same flags as the measured builds, plus --coverage; the log says so.
  const std::string cache = cobench::testing::read_text(project / "cov/CMakeCache.txt");
  const size_t flags = cache.find("\nCMAKE_CXX_FLAGS:STRING=");
  ASSERT_NE(flags, std::string::npos);
  EXPECT_NE(cache.substr(flags, cache.find('\n', flags + 1) - flags).find("--coverage"), std::string::npos) << cache;
  EXPECT_FALSE(said.empty());
}

TEST_F(CoveragePassE2E, AStopCutsThePassShortWhereItIsAskedAndMarksWhatItCut) {
  PassSettings s = settings();
  ASSERT_FALSE(s.gcov.empty()) << "gcov is needed";
  // Asked before configuring (1), before bench_ok (2), before BM_Ok/1 (3), before BM_Ok/2 (4), ...
  int asked = 0;
  s.stop = [&] { return ++asked >= 4 ? std::string("time budget 1.0 min: stopped") : std::string(); };
  auto targets = run_coverage_pass(s, {"bench_ok", "bench_broken"});
  ASSERT_EQ(targets.size(), 2u);
  const TargetCoverage& ok = targets[0];
  EXPECT_TRUE(ok.stopped);
  EXPECT_EQ(ok.failure, "") << "what ran is kept";
  ASSERT_EQ(ok.instances.size(), 2u);
  EXPECT_EQ(ok.instances[0].failure, "");
  EXPECT_TRUE(ok.instances[0].executed.count("ok.cc"));
  EXPECT_EQ(ok.instances[1].name, "BM_Ok/2");
  EXPECT_EQ(ok.instances[1].failure, "time budget 1.0 min: stopped") << "not run, so no SIGABRT";
  EXPECT_TRUE(targets[1].stopped);
  EXPECT_EQ(targets[1].failure, "time budget 1.0 min: stopped") << "not built, so no build failure";
  EXPECT_FALSE(fs::exists(project / "cov/CMakeFiles/bench_broken.dir/broken.cc.o"));

  // Stopped before anything: not even configured.
  PassSettings none = settings();
  none.build.build_dir = project / "cov-none";
  none.stop = [] { return std::string("time budget 1.0 min: stopped"); };
  auto cut = run_coverage_pass(none, {"bench_ok"});
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_TRUE(cut[0].stopped);
  EXPECT_EQ(cut[0].failure, "time budget 1.0 min: stopped");
  EXPECT_FALSE(fs::exists(project / "cov-none"));
}

}  // namespace
}  // namespace cobench::reach
