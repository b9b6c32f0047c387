// `cobench run --reach` on a real git repository and real Google Benchmark
// binaries: which benchmark instances execute the change (a coverage build,
// each instance run once, gcov), how every report marks those that do not,
// the gate that never fails on them, the cap ranked by reach with a reach
// index reused by the next job, and the unknown cases (non-gcc, no gcov).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>

#include "core/files.h"
#include "reach/index.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

using namespace cobench::testing;
namespace fs = std::filesystem;

// Lines 7 and 8 run only for n > 1000: of the grid {8, 64, 512, 4096}, only 4096 executes them.
const char* kWork =
    "#pragma once\n"                                                              // 1
    "// The work the grid benchmark measures.\n"                                  // 2
    "inline unsigned work(long n) {\n"                                            // 3
    "  unsigned s = 0;\n"                                                         // 4
    "  for (long i = 0; i < n; ++i) s = s * 31u + static_cast<unsigned>(i);\n"   // 5
    "  if (n > 1000) {\n"                                                         // 6
    "    s ^= 0x5bd1e995u;\n"                                                     // 7
    "    s += 7u;\n"                                                              // 8
    "  }\n"                                                                       // 9
    "  return s;\n"                                                               // 10
    "}\n";                                                                        // 11

const char* kGrid =
    "#include <benchmark/benchmark.h>\n#include \"work.h\"\n"
    "static void BM_Work(benchmark::State& state) {\n"
    "  for (auto _ : state) benchmark::DoNotOptimize(work(state.range(0)));\n}\n"
    "BENCHMARK(BM_Work)->Arg(8)->Arg(64)->Arg(512)->Arg(4096);\nBENCHMARK_MAIN();\n";

// Includes the header, never calls the changed function.
const char* kAlso =
    "#include <benchmark/benchmark.h>\n#include \"work.h\"\n"
    "static void BM_Also(benchmark::State& state) {\n"
    "  for (auto _ : state) {\n    unsigned x = 1;\n"
    "    for (int i = 0; i < 64; ++i) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }\n  }\n}\n"
    "BENCHMARK(BM_Also);\nBENCHMARK_MAIN();\n";

// Measures nothing: an empty loop, a fraction of a nanosecond per iteration.
const char* kEmpty =
    "#include <benchmark/benchmark.h>\n"
    "static void BM_Empty(benchmark::State& state) {\n  for (auto _ : state) {\n  }\n}\n"
    "BENCHMARK(BM_Empty);\nBENCHMARK_MAIN();\n";

class ReachE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string cmake = "cmake_minimum_required(VERSION 3.16)\nproject(fixture CXX)\nset(CMAKE_CXX_STANDARD 17)\n"
                        "find_package(benchmark REQUIRED)\n";
    for (const char* name : {"also", "grid", "empty"})
      cmake += std::string("add_executable(bench_") + name + " " + name + ".cc)\ntarget_include_directories(bench_" +
               name + " PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/include)\ntarget_link_libraries(bench_" + name +
               " PRIVATE benchmark::benchmark)\n";
    repo.write("CMakeLists.txt", cmake);
    repo.write("include/work.h", kWork);
    repo.write("grid.cc", kGrid);
    repo.write("also.cc", kAlso);
    repo.write("empty.cc", kEmpty);
    base = repo.commit("base");
  }

  /// Commits include/work.h with line `line` (1-based) replaced by `text`, or removed when `text` is empty.
  void edit_work_line(int line, const std::string& text) {
    std::string content = kWork, out;
    int number = 1;
    for (size_t start = 0; start < content.size(); ++number) {
      const size_t end = content.find('\n', start);
      std::string current = content.substr(start, end - start + 1);
      if (number == line) current = text.empty() ? "" : text + "\n";
      out += current;
      start = end + 1;
    }
    repo.write("include/work.h", out);
    repo.commit("edit work.h line " + std::to_string(line));
  }

  process::Result run(std::vector<std::string> args, std::vector<std::pair<std::string, std::string>> env = {}) {
    // Two runs per side and tiny times: these tests check reach, not ratios.
    std::vector<std::string> argv = {"run", "--repo", repo.path().string(), "--base", base, "--min-runs", "2",
                                     "--max-runs", "2", "--metric", "cpu_time", "--alloc-runs", "0",
                                     "--bench-arg=--benchmark_min_time=0.001", "--no-machine-control"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_cobench(argv, repo.path(), env, 900);
  }

  fs::path out_dir() const { return repo.path() / ".cobench/report"; }
  report::Report report() const {
    return report::from_json(nlohmann::json::parse(read_file(out_dir() / "report.json")));
  }
  std::map<std::string, report::BenchmarkRow> rows() const {
    std::map<std::string, report::BenchmarkRow> out;
    for (auto& row : report().benchmarks) out[row.name] = row;
    return out;
  }
  /// Every report file's text.
  std::map<std::string, std::string> report_texts() const {
    std::map<std::string, std::string> out;
    for (const char* name : {"report.md", "report.html", "report.xml", "report.json"})
      out[name] = read_file(out_dir() / name);
    return out;
  }

  TempDir dir;
  GitRepo repo{dir.path()};
  std::string base;
};

using Status = verdict::ChangeReach::Status;

TEST_F(ReachE2E, OnlyTheInstanceTakingTheChangedBranchReachesItAndEveryReportSaysWhichDoNot) {
  edit_work_line(7, "    s ^= 0x6c078965u;");  // a modified line: removed from the base, added on the head
  auto r = run({"--reach"});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  auto by_name = rows();
  ASSERT_TRUE(by_name.count("BM_Work/4096")) << r.out;
  for (const char* name : {"BM_Work/8", "BM_Work/64", "BM_Work/512", "BM_Work/4096", "BM_Also"}) {
    ASSERT_TRUE(by_name[name].reach) << name;
    EXPECT_EQ(by_name[name].reach->changed_lines, 2) << name << ": line 7 on each side";
  }
  EXPECT_EQ(by_name["BM_Work/4096"].reach->status, Status::Reached);
  EXPECT_EQ(by_name["BM_Work/4096"].reach->executed_changed_lines, 2);
  for (const char* name : {"BM_Work/8", "BM_Work/64", "BM_Work/512", "BM_Also"}) {
    const auto& row = by_name[name];
    EXPECT_EQ(row.reach->status, Status::NotReached) << name;
    EXPECT_EQ(row.reach->executed_changed_lines, 0) << name;
    EXPECT_NE(row.note.find("does not execute the change (0 of 2 changed lines ran)"), std::string::npos) << row.note;
    EXPECT_TRUE(row.verdict == verdict::Verdict::Pass || row.verdict == verdict::Verdict::Unrelated)
        << name << ": " << verdict::to_string(row.verdict);
  }
  // The layout control is untouched by definition: no coverage, no reach; and it measures nothing.
  ASSERT_TRUE(by_name.count("BM_Empty"));
  EXPECT_TRUE(by_name["BM_Empty"].is_control);
  EXPECT_FALSE(by_name["BM_Empty"].reach);
  // An empty loop times a fraction of a nanosecond; the flag's threshold is 1 ns (a margin of 3x and more).
  EXPECT_NE(by_name["BM_Empty"].optimised_away.find("ns per iteration"), std::string::npos)
      << by_name["BM_Empty"].optimised_away;

  const auto texts = report_texts();
  for (const auto& [file, text] : texts) {
    EXPECT_NE(text.find("does not execute the change"), std::string::npos) << file;
    // Flagged on one side or both: with 2 runs of 1 ms beside a CPU hog, one side's empty loop has
    // read 1 ns or more (the JSON said "base: ..." where this asked for "head: ").
    EXPECT_NE(text.find(file == "report.json" ? "\"likely_optimised_away\": \"" : "likely optimised away"),
              std::string::npos)
        << file;
  }
  EXPECT_NE(r.out.find("does not execute the change"), std::string::npos) << r.out;
  EXPECT_NE(texts.at("report.xml").find("name=\"reach\" value=\"not_reached\""), std::string::npos);
  const auto json = nlohmann::json::parse(texts.at("report.json"));
  for (const auto& row : json["benchmarks"]) {
    if (row["name"] == "BM_Work/4096") {
      EXPECT_EQ(row["reach"], (nlohmann::json{{"status", "reached"}, {"changed_lines", 2}, {"executed_changed_lines", 2}}));
    }
  }
  EXPECT_NE(json["reach_method"].get<std::string>().find("head coverage build"), std::string::npos);
  // The base side's coverage went into the reach index of the base commit.
  EXPECT_TRUE(fs::exists(repo.path() / ".cobench/reach" / (base + ".json")));

  // Measured rows that do not execute the change never fail the gate, not even an inconclusive one.
  auto gated = run({"--reach", "--fail-on-inconclusive", "--control", "none", "--target", "^bench_grid$", "--filter",
                    "^BM_Work/(8|64|512)$"});
  EXPECT_EQ(gated.exit_code, 0) << explain(gated);
  for (const auto& [name, row] : rows()) {
    EXPECT_EQ(row.verdict, verdict::Verdict::Unrelated) << name << " (two runs per side: inconclusive by time)";
    EXPECT_EQ(row.time.verdict, verdict::Verdict::Inconclusive) << name;
  }
  EXPECT_NE(read_file(out_dir() / "report.md").find("unrelated change"), std::string::npos);
}

TEST_F(ReachE2E, ADeletedLineIsJudgedByTheBaseThatRanIt) {
  edit_work_line(8, "");  // a pure deletion: nothing on the head to look at
  auto r = run({"--reach", "--control", "none", "--target", "^bench_grid$"});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  auto by_name = rows();
  ASSERT_EQ(by_name.size(), 4u) << r.out;
  EXPECT_EQ(by_name["BM_Work/4096"].reach->status, Status::Reached);
  EXPECT_EQ(by_name["BM_Work/4096"].reach->changed_lines, 1);
  EXPECT_EQ(by_name["BM_Work/4096"].reach->executed_changed_lines, 1);
  for (const char* name : {"BM_Work/8", "BM_Work/64", "BM_Work/512"})
    EXPECT_EQ(by_name[name].reach->status, Status::NotReached) << name;
  const std::string method = report().reach_method;
  EXPECT_NE(method.find("the 1 removed from the base: the base's coverage"), std::string::npos) << method;
  EXPECT_EQ(method.find("head coverage build"), std::string::npos) << "no head line changed: no head pass";
  EXPECT_FALSE(fs::exists(out_dir() / "logs/build-head-coverage.log"));
}

TEST_F(ReachE2E, WhenTheCapBindsReachRanksTheTargetsAndTheIndexServesTheNextJob) {
  // Both targets include work.h at one hop; by name the cap of 1 would keep bench_also, which never calls work().
  edit_work_line(7, "    s ^= 0x6c078965u;");
  auto first = run({"--reach", "--control", "none", "--max-targets", "1"});
  ASSERT_EQ(first.exit_code, 0) << explain(first);
  auto rep = report();
  ASSERT_EQ(rep.selection["selected"].size(), 1u) << rep.selection.dump(2);
  EXPECT_EQ(rep.selection["selected"][0]["target"], "bench_grid");
  EXPECT_EQ(rep.selection["selected"][0]["execution"]["status"], "executes");
  ASSERT_EQ(rep.selection["dropped"].size(), 1u);
  EXPECT_EQ(rep.selection["dropped"][0]["target"], "bench_also");
  const std::string why = rep.selection["dropped"][0]["drop_reason"];
  EXPECT_NE(why.find("does not execute the change"), std::string::npos) << why;
  EXPECT_NE(rep.selection["ranking"].get<std::string>().find("reach, then cost"), std::string::npos);
  EXPECT_NE(read_file(out_dir() / "report.md").find("Dropped bench\\_also: cap of 1: does not execute the change"),
            std::string::npos) << read_file(out_dir() / "report.md");
  EXPECT_NE(first.out.find("dropped: cap of 1: does not execute the change"), std::string::npos) << first.out;

  // The index of this base commit: the format other jobs restore.
  const auto index = nlohmann::json::parse(read_file(repo.path() / ".cobench/reach" / (base + ".json")));
  EXPECT_EQ(index["format"], "cobench-reach-index");
  EXPECT_EQ(index["base"], base);
  const auto executed = reach::from_ranges(
      index["targets"]["bench_grid"]["instances"]["BM_Work/4096"]["executed"]["include/work.h"].get<std::string>());
  EXPECT_TRUE(std::binary_search(executed.begin(), executed.end(), 7)) << "4096 ran the branch";
  const auto small = reach::from_ranges(
      index["targets"]["bench_grid"]["instances"]["BM_Work/8"]["executed"]["include/work.h"].get<std::string>());
  EXPECT_FALSE(std::binary_search(small.begin(), small.end(), 7)) << "8 did not";
  EXPECT_TRUE(index["targets"]["bench_also"]["instances"]["BM_Also"]["executed"].is_object());

  // The next job on the same base builds no base coverage: both targets come from the index.
  auto second = run({"--reach", "--control", "none", "--max-targets", "1"});
  ASSERT_EQ(second.exit_code, 0) << explain(second);
  EXPECT_EQ(report().selection["selected"][0]["target"], "bench_grid");
  EXPECT_NE(report().reach_method.find("2 targets from the index, 0 built by this job"), std::string::npos)
      << report().reach_method;
  EXPECT_FALSE(fs::exists(out_dir() / "logs/build-base-coverage.log"));
}

TEST_F(ReachE2E, TheTimeBudgetCutsTheRankingShortAndNothingCutShortEntersTheIndex) {
  // A 10 ms budget: configuring the head alone uses the half the ranking may have, so the base
  // coverage is never run, the cap keeps its include-hop order, and no index is written.
  edit_work_line(7, "    s ^= 0x6c078965u;");
  auto cut = run({"--reach", "--control", "none", "--max-targets", "1", "--time-budget", "10ms"});
  EXPECT_NE(cut.exit_code, 2) << explain(cut);
  EXPECT_NE(cut.out.find("reach unknown (time budget 10 ms: the reach pass stopped after"), std::string::npos)
      << explain(cut);
  EXPECT_FALSE(fs::exists(out_dir() / "logs/build-base-coverage.log")) << "nothing of the base was built";
  EXPECT_FALSE(fs::exists(repo.path() / ".cobench/reach" / (base + ".json"))) << "no index of nothing";

  // The next job without a budget runs the base coverage itself and ranks by it.
  auto full = run({"--reach", "--control", "none", "--max-targets", "1"});
  ASSERT_EQ(full.exit_code, 0) << explain(full);
  EXPECT_EQ(report().selection["selected"][0]["target"], "bench_grid");
  EXPECT_NE(report().reach_method.find("0 targets from the index, 2 built by this job"), std::string::npos)
      << report().reach_method;
}

TEST_F(ReachE2E, ANonGccCompilerGivesUnknownWithTheReasonAndNarrowingStaysHonest) {
  if (!fs::exists("/usr/bin/clang++")) GTEST_SKIP() << "clang++ is not installed";
  edit_work_line(7, "    s ^= 0x6c078965u;");
  auto r = run({"--reach", "--control", "none", "--target", "^bench_grid$", "--cmake-arg=-DCMAKE_CXX_COMPILER=clang++"});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  for (const auto& [name, row] : rows()) {
    ASSERT_TRUE(row.reach) << name;
    EXPECT_EQ(row.reach->status, Status::Unknown) << name;
    EXPECT_NE(row.reach->reason.find("non-gcc compiler (Clang"), std::string::npos) << row.reach->reason;
  }
  EXPECT_NE(read_file(out_dir() / "report.json").find("\"reason\": \"non-gcc compiler (Clang"), std::string::npos);
  // --target narrowed to one of the two targets the change reaches: every report still says so, and names the other.
  const std::string reason = report().selection["reason"];
  EXPECT_EQ(reason.rfind("2 of 3 benchmark targets reach the change, narrowed to 1 by --target '^bench_grid$'", 0), 0u)
      << reason;
  for (const auto& [file, text] : report_texts()) {
    if (file == "report.json") continue;  // the JSON says it as selection.narrowed_out_reached
    EXPECT_NE(text.find("narrowed away by --target"), std::string::npos) << file;
  }
  EXPECT_EQ(report().selection["narrowed_out_reached"], nlohmann::json{"bench_also"});
  EXPECT_NE(r.out.find("reached but narrowed away by --target '^bench_grid$' (1): bench_also"), std::string::npos)
      << r.out;
}

TEST_F(ReachE2E, MissingGcovGivesUnknownWithTheReason) {
  // A PATH with everything /usr/bin has except gcov.
  const fs::path bin = dir.path() / "bin-without-gcov";
  fs::create_directories(bin);
  for (const auto& entry : fs::directory_iterator("/usr/bin"))
    if (entry.path().filename().string().find("gcov") == std::string::npos)
      fs::create_symlink(entry.path(), bin / entry.path().filename());
  edit_work_line(7, "    s ^= 0x6c078965u;");
  auto r = run({"--reach", "--control", "none", "--target", "^bench_grid$"}, {{"PATH", bin.string()}});
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  ASSERT_FALSE(rows().empty());
  for (const auto& [name, row] : rows()) {
    ASSERT_TRUE(row.reach) << name;
    EXPECT_EQ(row.reach->status, Status::Unknown) << name;
    EXPECT_NE(row.reach->reason.find("no gcov"), std::string::npos) << row.reach->reason;
  }
}

TEST_F(ReachE2E, ANonGbenchRunnerGivesUnknownWithTheReason) {
  edit_work_line(7, "    s ^= 0x6c078965u;");
  auto r = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--reach", "--command", "true",
                        "--min-runs", "2", "--max-runs", "2", "--no-machine-control"},
                       repo.path(), {}, 120);
  ASSERT_EQ(r.exit_code, 0) << explain(r);
  const auto by_name = rows();
  ASSERT_EQ(by_name.size(), 1u);
  const auto& row = by_name.begin()->second;
  ASSERT_TRUE(row.reach);
  EXPECT_EQ(row.reach->status, Status::Unknown);
  EXPECT_EQ(row.reach->reason, "runner command: the coverage pass needs Google Benchmark targets built with CMake");
  EXPECT_NE(read_file(out_dir() / "report.md").find("reach unknown: runner command"), std::string::npos);
}

TEST_F(ReachE2E, ALayoutProbeHasNoChangeToReach) {
  auto r = run_cobench({"run", "--repo", repo.path().string(), "--reach", "--layout-probe"}, repo.path(), {}, 60);
  EXPECT_EQ(r.exit_code, 2) << explain(r);
  EXPECT_NE(r.err.find("--reach: a layout probe builds one commit against itself, there is no change to reach; drop "
                       "--layout-probe"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace cobench::job
