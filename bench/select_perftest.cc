// Graph build + selection for a one-header diff, on a generated tree the size
// of Eigen's (≈1,000 headers, ≈100 benchmark sources). Target: well under 0.5 s.
// With COBENCH_PERF_EIGEN=/path/to/eigen it also times a real Eigen checkout:
// every benchmarks/**/*.cpp as one target including the checkout's root.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "select/select.h"

namespace fs = std::filesystem;
using namespace cobench;

namespace {

constexpr int kModules = 10;
constexpr int kHeadersPerModule = 100;
constexpr int kSources = 100;

void write(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

/// lib/ModuleM (extension-less umbrella) includes its 100 headers; each header
/// includes three earlier ones of its module and a shared config header, with
/// comments, strings and a system include mixed in like real code.
fs::path generate_tree() {
  fs::path root = fs::temp_directory_path() / fmt::format("cobench-select-perf-{}", ::getpid());
  fs::remove_all(root);
  write(root / "lib/src/Config.h", "#pragma once\n#include <cstddef>\n");
  for (int m = 0; m < kModules; ++m) {
    std::string umbrella = "#pragma once\n// umbrella header\n";
    for (int h = 0; h < kHeadersPerModule; ++h) {
      std::string text = "#pragma once\n#include \"../Config.h\"\n#include <vector>\n/* #include \"ignored.h\" */\n";
      for (int k = 1; k <= 3 && h - k * 7 >= 0; ++k) text += fmt::format("#include \"H{}.h\"\n", h - k * 7);
      text += "inline const char* doc = \"#include <not/a/real.h>\";\n" + std::string(2000, ' ') + "\n";
      write(root / fmt::format("lib/src/M{}/H{}.h", m, h), text);
      umbrella += fmt::format("#include \"src/M{}/H{}.h\"\n", m, h);
    }
    write(root / fmt::format("lib/Module{}", m), umbrella);
  }
  for (int s = 0; s < kSources; ++s)
    write(root / fmt::format("bench/b{}.cc", s),
          fmt::format("#include <lib/Module{}>\n#include <lib/Module{}>\n#include <benchmark/benchmark.h>\n"
                      "static void BM_{}(benchmark::State& st) {{ for (auto _ : st) {{}} }}\nBENCHMARK(BM_{});\n",
                      s % kModules, (s * 3 + 1) % kModules, s, s));
  return root;
}

select::SelectionInput generated_input(const fs::path& root) {
  select::SelectionInput in;
  in.head_tree = root;
  in.changes = {{'M', "lib/src/M3/H42.h", ""}};
  for (int s = 0; s < kSources; ++s) {
    cmake::BenchmarkTarget t;
    t.name = fmt::format("bench_{}", s);
    t.sources = {root / fmt::format("bench/b{}.cc", s)};
    t.include_dirs = {root, "/usr/include"};
    in.targets.push_back(std::move(t));
  }
  return in;
}

select::SelectionInput eigen_input(const fs::path& eigen) {
  select::SelectionInput in;
  in.head_tree = eigen;
  in.source_dir = "benchmarks";
  in.changes = {{'M', "Eigen/src/Core/products/GeneralMatrixMatrix.h", ""}};
  for (const auto& entry : fs::recursive_directory_iterator(eigen / "benchmarks")) {
    if (entry.path().extension() != ".cpp") continue;
    cmake::BenchmarkTarget t;
    t.name = entry.path().stem().string();
    t.sources = {entry.path()};
    t.include_dirs = {eigen / "benchmarks/.."};
    in.targets.push_back(std::move(t));
  }
  return in;
}

void run_selection(benchmark::State& state, const select::SelectionInput& in) {
  size_t selected = 0;
  for (auto _ : state) {
    select::Selection s = select::select_targets(in);  // builds a fresh graph each time
    selected = s.selected.size() + s.dropped.size();
    benchmark::DoNotOptimize(selected);
  }
  state.counters["targets"] = static_cast<double>(in.targets.size());
  state.counters["reached"] = static_cast<double>(selected);
}

/// The generated tree, removed when the program ends.
struct GeneratedTree {
  fs::path root = generate_tree();
  ~GeneratedTree() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
};

void BM_SelectGeneratedTree(benchmark::State& state) {
  static const GeneratedTree tree;
  static const select::SelectionInput in = generated_input(tree.root);
  run_selection(state, in);
}
BENCHMARK(BM_SelectGeneratedTree)->Unit(benchmark::kMillisecond);

void BM_SelectEigen(benchmark::State& state) {
  const char* eigen = std::getenv("COBENCH_PERF_EIGEN");
  if (!eigen || !fs::is_directory(fs::path(eigen) / "benchmarks")) {
    state.SkipWithError("set COBENCH_PERF_EIGEN to an Eigen checkout");
    return;
  }
  static const select::SelectionInput in = eigen_input(eigen);
  run_selection(state, in);
}
BENCHMARK(BM_SelectEigen)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
