#pragma once
// Tiny CMake projects shared by the build tests.
#include <filesystem>
#include <string>

#include "cmake/cmake.h"

namespace cobench::cmake::fixtures {

/// A Google Benchmark program with one trivial benchmark.
inline std::string bench_source(const std::string& name) {
  return "#include <benchmark/benchmark.h>\n"
         "static void BM_" + name + "(benchmark::State& s) { for (auto _ : s) benchmark::DoNotOptimize(s.iterations()); }\n"
         "BENCHMARK(BM_" + name + ");\n"
         "BENCHMARK_MAIN();\n";
}

/// Settings for the project in root/source, built in root/build, logged to root/log.
inline BuildSettings settings(const std::filesystem::path& root, const std::string& source,
                              const std::string& log = "build.log") {
  BuildSettings s;
  s.source_dir = root / source;
  s.build_dir = root / "build";
  s.log_path = root / log;
  return s;
}

}  // namespace cobench::cmake::fixtures
