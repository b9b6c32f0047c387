// discover_targets() and cmake_input_files() on configured real projects.
#include <algorithm>

#include <gtest/gtest.h>

#include "cmake/cmake.h"
#include "cmake/fixtures.h"
#include "core/errors.h"
#include "run/runner_kinds.h"
#include "support/testing.h"

namespace cobench::cmake {
namespace {

namespace fs = std::filesystem;
using cobench::testing::TempDir;
using cobench::testing::write_file;

/// Google Benchmark's programs, as its runner recognises them.
const Recognises& google_benchmark() { return run::runner_kind("gbench", "test").recognises; }

std::vector<std::string> names(const std::vector<BenchmarkTarget>& targets) {
  std::vector<std::string> out;
  for (const auto& t : targets) out.push_back(t.name);
  return out;
}

bool contains(const std::vector<fs::path>& list, const fs::path& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

/// Two GB executables (one linking it through a helper library), a plain
/// executable, a library, and CMake code split over an included file.
void write_mixed_project(const fs::path& dir) {
  write_file(dir / "CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\n"
             "project(mixed CXX)\n"
             "include(cmake/helpers.cmake)\n"
             "find_package(benchmark REQUIRED)\n"
             "add_library(util OBJECT src/util.cc)\n"
             "target_include_directories(util PUBLIC include/util)\n"
             "add_library(core STATIC src/core.cc)\n"
             "target_link_libraries(core PUBLIC util)\n"
             "add_library(bench_support STATIC bench/support.cc)\n"
             "target_link_libraries(bench_support PUBLIC benchmark::benchmark)\n"
             "add_executable(bench_zeta bench/zeta.cc)\n"
             "target_link_libraries(bench_zeta PRIVATE bench_support core)\n"
             "add_executable(bench_alpha bench/alpha.cc include/gen.h)\n"
             "target_include_directories(bench_alpha PRIVATE include ${CMAKE_BINARY_DIR}/generated)\n"
             "target_compile_definitions(bench_alpha PRIVATE ALPHA_SIZE=64 WITH_ALPHA)\n"
             "target_link_libraries(bench_alpha PRIVATE benchmark::benchmark core)\n"
             "add_executable(tool src/tool.cc)\n"
             "target_link_libraries(tool PRIVATE core)\n");
  write_file(dir / "cmake/helpers.cmake", "set(HELPERS_LOADED ON)\n");
  write_file(dir / "src/core.cc", "int core() { return 1; }\n");
  write_file(dir / "src/util.cc", "int util() { return 3; }\n");
  write_file(dir / "src/tool.cc", "int main() { return 0; }\n");
  write_file(dir / "bench/support.cc", "int support() { return 2; }\n");
  write_file(dir / "include/gen.h", "#pragma once\n");
  write_file(dir / "bench/alpha.cc", fixtures::bench_source("alpha"));
  write_file(dir / "bench/zeta.cc", fixtures::bench_source("zeta"));
}

TEST(BuildDiscover, FindsExactlyTheBenchmarkExecutablesWithTheirCompileInfo) {
  TempDir tmp;
  write_mixed_project(tmp / "src");
  BuildSettings settings = fixtures::settings(tmp.path(), "src");
  configure(settings);
  const fs::path src = tmp / "src", build = tmp / "build";

  auto targets = discover_targets(build, "", google_benchmark());
  ASSERT_EQ(names(targets), (std::vector<std::string>{"bench_alpha", "bench_zeta"}));
  const BenchmarkTarget& alpha = targets[0];
  EXPECT_TRUE(alpha.recognised);
  EXPECT_EQ(alpha.artifact, build / "bench_alpha");
  // Only compiled sources: the listed header is not one.
  EXPECT_EQ(alpha.sources, std::vector<fs::path>{src / "bench/alpha.cc"});
  ASSERT_GE(alpha.include_dirs.size(), 2u);
  EXPECT_EQ(alpha.include_dirs[0], src / "include");
  EXPECT_EQ(alpha.include_dirs[1], build / "generated");
  EXPECT_NE(std::find(alpha.defines.begin(), alpha.defines.end(), "ALPHA_SIZE=64"), alpha.defines.end());
  EXPECT_NE(std::find(alpha.defines.begin(), alpha.defines.end(), "WITH_ALPHA"), alpha.defines.end());
  EXPECT_TRUE(targets[1].recognised) << "linked through a helper library";
  EXPECT_EQ(targets[1].sources, std::vector<fs::path>{src / "bench/zeta.cc"});

  // The project's libraries each links, directly or through another, with their own compile info:
  // a change to their sources reaches the benchmark. Google Benchmark's (from the system) is not one.
  auto library_names = [](const BenchmarkTarget& t) {
    std::vector<std::string> out;
    for (const auto& library : t.libraries) out.push_back(library.name);
    return out;
  };
  EXPECT_EQ(library_names(alpha), (std::vector<std::string>{"core", "util"}));
  EXPECT_EQ(library_names(targets[1]), (std::vector<std::string>{"bench_support", "core", "util"}));
  ASSERT_EQ(alpha.libraries.size(), 2u);
  EXPECT_EQ(alpha.libraries[0].sources, std::vector<fs::path>{src / "src/core.cc"});
  EXPECT_EQ(alpha.libraries[1].sources, std::vector<fs::path>{src / "src/util.cc"});
  EXPECT_TRUE(contains(alpha.libraries[1].include_dirs, src / "include/util"));

  // A name pattern adds executables that do not link Google Benchmark, never libraries.
  auto with_tool = discover_targets(build, "^(tool|core)$", google_benchmark());
  ASSERT_EQ(names(with_tool), (std::vector<std::string>{"bench_alpha", "bench_zeta", "tool"}));
  EXPECT_FALSE(with_tool[2].recognised);
  EXPECT_THROW(discover_targets(build, "(unclosed", google_benchmark()), InputError);

  auto inputs = cmake_input_files(build);
  EXPECT_TRUE(contains(inputs, src / "CMakeLists.txt"));
  EXPECT_TRUE(contains(inputs, src / "cmake/helpers.cmake"));
  for (const auto& input : inputs) EXPECT_EQ(input.string().rfind(src.string(), 0), 0u) << input;
}

TEST(BuildDiscover, MultiConfigGeneratorUsesTheConfigurationBeingBuilt) {
  TempDir tmp;
  write_mixed_project(tmp / "src");
  BuildSettings settings = fixtures::settings(tmp.path(), "src");
  settings.cmake_args = {"-G", "Ninja Multi-Config", "-DCMAKE_CONFIGURATION_TYPES=Debug;Release"};
  configure(settings);
  auto targets = discover_targets(settings.build_dir, "", google_benchmark());
  ASSERT_EQ(names(targets), (std::vector<std::string>{"bench_alpha", "bench_zeta"}));
  EXPECT_EQ(targets[0].artifact, settings.build_dir / "Release" / "bench_alpha");
}

TEST(BuildDiscover, ProjectInASubfolderUsingItsParent) {
  TempDir tmp;
  // Eigen-style: benchmarks/ is its own CMake project reaching into the repository above it.
  write_file(tmp / "repo/benchmarks/CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\n"
             "project(sub CXX)\n"
             "find_package(benchmark REQUIRED)\n"
             "include_directories(..)\n"
             "include(../cmake/common.cmake)\n"
             "add_executable(bench_sub bench_sub.cc ../lib/util.cc)\n"
             "target_link_libraries(bench_sub PRIVATE benchmark::benchmark)\n");
  write_file(tmp / "repo/benchmarks/bench_sub.cc", fixtures::bench_source("sub"));
  write_file(tmp / "repo/lib/util.cc", "int util() { return 3; }\n");
  write_file(tmp / "repo/cmake/common.cmake", "set(COMMON ON)\n");
  configure(fixtures::settings(tmp.path(), "repo/benchmarks"));
  auto targets = discover_targets(tmp / "build", "", google_benchmark());
  ASSERT_EQ(names(targets), std::vector<std::string>{"bench_sub"});
  EXPECT_EQ(targets[0].sources, (std::vector<fs::path>{tmp / "repo/benchmarks/bench_sub.cc", tmp / "repo/lib/util.cc"}));
  EXPECT_TRUE(contains(targets[0].include_dirs, tmp / "repo")) << "`..` normalised to the repository root";
  // CMake calls ../cmake/common.cmake external; within the repository it still counts.
  EXPECT_FALSE(contains(cmake_input_files(tmp / "build"), tmp / "repo/cmake/common.cmake"));
  auto inputs = cmake_input_files(tmp / "build", tmp / "repo");
  EXPECT_TRUE(contains(inputs, tmp / "repo/cmake/common.cmake"));
  EXPECT_TRUE(contains(inputs, tmp / "repo/benchmarks/CMakeLists.txt"));
  for (const auto& input : inputs) EXPECT_EQ(input.string().rfind((tmp / "repo").string(), 0), 0u) << input;
}

TEST(BuildDiscover, BenchmarkBuiltFromSourceCountsButItsOwnTestsDoNot) {
  TempDir tmp;
  // A vendored Google Benchmark (add_subdirectory), with its own test executable
  // linking its library, as the real one has when BENCHMARK_ENABLE_TESTING is on.
  write_file(tmp / "src/third_party/benchmark/CMakeLists.txt",
             "project(benchmark CXX)\n"
             "add_library(benchmark STATIC src/benchmark.cc)\n"
             "add_library(benchmark_main STATIC src/benchmark_main.cc)\n"
             "target_link_libraries(benchmark_main PUBLIC benchmark)\n"
             "add_library(benchmark::benchmark ALIAS benchmark)\n"
             "add_subdirectory(test)\n");
  write_file(tmp / "src/third_party/benchmark/src/benchmark.cc", "int bm() { return 0; }\n");
  write_file(tmp / "src/third_party/benchmark/src/benchmark_main.cc", "int main() { return 0; }\n");
  write_file(tmp / "src/third_party/benchmark/test/CMakeLists.txt",
             "add_executable(basic_test basic_test.cc)\ntarget_link_libraries(basic_test benchmark_main)\n");
  write_file(tmp / "src/third_party/benchmark/test/basic_test.cc", "int t() { return 0; }\n");
  write_file(tmp / "src/CMakeLists.txt",
             "cmake_minimum_required(VERSION 3.16)\n"
             "project(vendored CXX)\n"
             "add_subdirectory(third_party/benchmark)\n"
             "add_executable(bench_mine mine.cc)\n"
             "target_link_libraries(bench_mine PRIVATE benchmark::benchmark)\n"
             "add_executable(bench_main_only mine2.cc)\n"
             "target_link_libraries(bench_main_only PRIVATE benchmark_main)\n");
  write_file(tmp / "src/mine.cc", "int main() { return 0; }\n");
  write_file(tmp / "src/mine2.cc", "int mine2() { return 0; }\n");
  configure(fixtures::settings(tmp.path(), "src"));
  auto targets = discover_targets(tmp / "build", "", google_benchmark());
  EXPECT_EQ(names(targets), (std::vector<std::string>{"bench_main_only", "bench_mine"}));
  auto inputs = cmake_input_files(tmp / "build");
  EXPECT_TRUE(contains(inputs, tmp / "src/third_party/benchmark/test/CMakeLists.txt"));
}

TEST(BuildDiscover, UnconfiguredFolderIsAnInfraErrorNamingIt) {
  TempDir tmp;
  try {
    discover_targets(tmp / "build", "", google_benchmark());
    FAIL() << "expected InfraError";
  } catch (const InfraError& e) {
    EXPECT_NE(std::string(e.what()).find((tmp / "build").string()), std::string::npos) << e.what();
  }
  EXPECT_THROW(cmake_input_files(tmp / "build"), InfraError);
}

}  // namespace
}  // namespace cobench::cmake
