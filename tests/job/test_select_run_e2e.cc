// `cobench run` with diff-based selection on a real git repository and a real
// CMake + Google Benchmark project: what the diff reaches is built and
// measured, nothing else; narrowing, --all, strict layout and the empty case.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>

#include "core/files.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

using namespace cobench::testing;
namespace fs = std::filesystem;

std::string benchmark_source(const std::string& include, const std::vector<std::string>& families) {
  std::string text = include.empty() ? "" : "#include <" + include + ">\n";
  text += "#include <benchmark/benchmark.h>\n";
  for (const auto& f : families)
    text += "static void " + f + "(benchmark::State& s) {\n  for (auto _ : s) { unsigned x = 7; "
            "for (int i = 0; i < 200; ++i) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); } }\n}\n"
            "BENCHMARK(" + f + ");\n";
  return text + "BENCHMARK_MAIN();\n";
}

/// bench_a includes leaf_a.h (which includes common.h), bench_b includes common.h
/// and registers two families in one source, bench_c includes nothing of the repo.
class SelectRunE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write("include/lib/common.h", "#pragma once\ninline int common() { return 1; }\n");
    repo.write("include/lib/leaf_a.h", "#pragma once\n#include \"common.h\"\n");
    std::string cmake = "cmake_minimum_required(VERSION 3.16)\nproject(fixture CXX)\nfind_package(benchmark REQUIRED)\n";
    for (const char* name : {"a", "b", "c"}) {
      const std::string target = std::string("bench_") + name;
      cmake += "add_executable(" + target + " " + name + ".cc)\ntarget_include_directories(" + target +
               " PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)\ntarget_link_libraries(" + target +
               " PRIVATE benchmark::benchmark)\n";
    }
    repo.write("CMakeLists.txt", cmake);
    repo.write("a.cc", benchmark_source("lib/leaf_a.h", {"BM_A"}));
    repo.write("b.cc", benchmark_source("lib/common.h", {"BM_B", "BM_B2"}));
    repo.write("c.cc", benchmark_source("", {"BM_C"}));
    repo.write("docs/guide.md", "# guide\n");
    base = repo.commit("base");
  }

  /// Commits `path` with `content` appended, as the head.
  void change(const std::string& path, const std::string& content) {
    repo.write(path, read_file(repo.path() / path) + content);
    repo.commit("change " + path);
  }

  process::Result run(std::vector<std::string> args, std::vector<std::pair<std::string, std::string>> env = {}) {
    // Two runs per side and tiny benchmarks: these tests check what the diff selects, so no
    // control is added beside it (tests/job/test_controls_e2e.cc covers those).
    std::vector<std::string> argv = {"run", "--repo", repo.path().string(), "--base", base, "--min-runs", "2",
                                     "--max-runs", "2", "--metric", "cpu_time",
                                     "--bench-arg=--benchmark_min_time=0.001", "--no-machine-control",
                                     "--control", "none"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_cobench(argv, repo.path(), env, 600);
  }

  fs::path out_dir() const { return repo.path() / ".cobench/report"; }
  report::Report report() const {
    return report::from_json(nlohmann::json::parse(read_file(out_dir() / "report.json")));
  }
  std::set<std::string> measured_targets() const {
    std::set<std::string> out;
    for (const auto& row : report().benchmarks) out.insert(row.target);
    return out;
  }
  std::set<std::string> measured_names() const {
    std::set<std::string> out;
    for (const auto& row : report().benchmarks) out.insert(row.name);
    return out;
  }

  TempDir dir;
  GitRepo repo{dir.path()};
  std::string base;
};

TEST_F(SelectRunE2E, DocsOnlyChangeExitsZeroSaysSoAndBuildsNothing) {
  change("docs/guide.md", "more words\n");
  auto r = run({"--gate"});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  EXPECT_NE(r.out.find("no benchmark reaches this change: only ignored paths changed (docs/guide.md)"),
            std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(out_dir() / "logs/build-base.log")) << "the base side is not even configured";
  EXPECT_EQ(read_file(out_dir() / "logs/build-head.log").find("--target"), std::string::npos)
      << "the head is configured for selection, but nothing is built";
  auto rep = report();
  EXPECT_TRUE(rep.benchmarks.empty());
  ASSERT_EQ(rep.notes.size(), 1u);
  EXPECT_NE(rep.notes[0].find("no benchmark reaches this change"), std::string::npos);
  EXPECT_EQ(rep.selection["ignored"], nlohmann::json{"docs/guide.md"});
  EXPECT_NE(read_file(out_dir() / "report.md").find("no benchmark reaches this change"), std::string::npos);
}

TEST_F(SelectRunE2E, LeafHeaderChangeMeasuresOnlyTheTargetItReaches) {
  change("include/lib/leaf_a.h", "// tweak\n");
  auto r = run({});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  EXPECT_NE(r.out.find("bench_a: a.cc → include/lib/leaf_a.h (modified)"), std::string::npos) << r.out;
  EXPECT_EQ(measured_targets(), std::set<std::string>{"bench_a"});
  auto rep = report();
  ASSERT_EQ(rep.selection["selected"].size(), 1u) << rep.selection.dump(2);
  EXPECT_EQ(rep.selection["selected"][0]["target"], "bench_a");
  EXPECT_EQ(rep.selection["unreached"], (nlohmann::json{"bench_b", "bench_c"}));
  EXPECT_EQ(rep.selection["mode"], "diff");
  EXPECT_EQ(rep.settings["targets"], nlohmann::json{"bench_a"});
  const std::string base_log = read_file(out_dir() / "logs/build-base.log");
  EXPECT_NE(base_log.find("--target bench_a"), std::string::npos) << base_log;
  EXPECT_EQ(base_log.find("--target bench_b"), std::string::npos) << "an unreached target is not built";
}

TEST_F(SelectRunE2E, StrictLayoutRefusesNamingTheFileBeforeAnyBuildAndTheCapKeepsTheClosest) {
  change("include/lib/common.h", "// reaches a and b\n");
  auto r = run({"--strict-layout"});
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err.find("b.cc"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out_dir() / "logs/build-base.log"));
  EXPECT_EQ(repo.git({"worktree", "list"}).find(".cobench"), std::string::npos) << "worktrees removed";

  // b.cc includes common.h directly, a.cc through leaf_a.h: a cap of 1 keeps bench_b.
  auto capped = run({"--max-targets", "1"});
  ASSERT_EQ(capped.exit_code, 0) << explain(capped);
  EXPECT_EQ(measured_targets(), std::set<std::string>{"bench_b"});
  auto rep = report();
  ASSERT_EQ(rep.selection["dropped"].size(), 1u) << rep.selection.dump(2);
  EXPECT_EQ(rep.selection["dropped"][0]["target"], "bench_a");
  EXPECT_NE(read_file(out_dir() / "report.md").find("1 target dropped by the cap (max\\_targets 1, ranked by include hops): bench\\_a"),
            std::string::npos) << read_file(out_dir() / "report.md");
}

TEST_F(SelectRunE2E, EnvironmentNarrowsTargetsAndBenchmarksAndLayoutWarningsReachTheReport) {
  change("include/lib/common.h", "// reaches a and b\n");
  auto r = run({}, {{"COBENCH_TARGETS", "^bench_b$"}, {"COBENCH_FILTER", "BM_B2"}});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  EXPECT_EQ(measured_targets(), std::set<std::string>{"bench_b"});
  EXPECT_EQ(measured_names(), std::set<std::string>{"BM_B2"}) << "COBENCH_FILTER became --benchmark_filter";
  auto rep = report();
  EXPECT_EQ(rep.selection["narrowed_out"], (nlohmann::json{"bench_a", "bench_c"}));
  EXPECT_EQ(rep.settings["bench_args"].back(), "--benchmark_filter=BM_B2");
  // Each source's details stay in the selection; every report says it once for the job, with the way to measure it.
  const auto& selected = rep.selection["selected"];
  ASSERT_EQ(selected.size(), 1u);
  ASSERT_EQ(selected[0]["layout_warnings"].size(), 1u);
  EXPECT_NE(selected[0]["layout_warnings"][0].get<std::string>().find("b.cc"), std::string::npos);
  auto layout = std::find_if(rep.notes.begin(), rep.notes.end(), [](auto& n) { return n.rfind("layout: ", 0) == 0; });
  ASSERT_NE(layout, rep.notes.end());
  EXPECT_NE(layout->find("1 selected source registers several benchmark families in one translation unit (2 per file: "),
            std::string::npos) << *layout;
  EXPECT_NE(layout->find("b.cc"), std::string::npos) << *layout;
  EXPECT_NE(layout->find("--layout-probe"), std::string::npos) << *layout;
  EXPECT_NE(read_file(out_dir() / "report.md").find("several benchmark families"), std::string::npos);
  // Once where selection speaks, once among the table's notes: not once per target.
  size_t said = 0;
  for (size_t at = r.out.find("several benchmark families"); at != std::string::npos;
       at = r.out.find("several benchmark families", at + 1))
    ++said;
  EXPECT_EQ(said, 2u) << r.out;

  // The same narrowing that matches nothing is an input error naming the variable.
  auto none = run({}, {{"COBENCH_TARGETS", "^nope$"}});
  EXPECT_EQ(none.exit_code, 2) << explain(none);
  EXPECT_NE(none.err.find("COBENCH_TARGETS '^nope$' matches none"), std::string::npos) << none.err;
}

TEST_F(SelectRunE2E, AllMeasuresEveryTargetAndACMakeChangeSelectsAllWithTheReason) {
  change("docs/guide.md", "more words\n");
  auto all = run({"--all"});
  ASSERT_EQ(all.exit_code, 0) << explain(all);
  EXPECT_EQ(measured_targets(), (std::set<std::string>{"bench_a", "bench_b", "bench_c"}));
  EXPECT_EQ(report().selection["all_reason"], "--all");

  change("CMakeLists.txt", "# edited\n");
  auto cmake = run({"--target", "bench_c"});
  ASSERT_EQ(cmake.exit_code, 0) << explain(cmake);
  EXPECT_NE(cmake.out.find("CMakeLists.txt changed"), std::string::npos) << cmake.out;
  EXPECT_EQ(measured_targets(), std::set<std::string>{"bench_c"}) << "unreached by includes, selected by the CMake change";
}

}  // namespace
}  // namespace cobench::job
