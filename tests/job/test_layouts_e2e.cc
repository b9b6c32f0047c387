// Layout confirmation on a real CMake + Google Benchmark project in a real git
// repository: a head that only moves code is never a claim by default, and a
// real 2x slowdown is a regression both layouts confirm, the claimed target
// alone rebuilt in build folders of its own, and `cobench report` reading the
// same from results.jsonl.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <sstream>
#include <string>

#include "core/files.h"
#include "job/run_fixture.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

using namespace cobench::testing;
using testing::detail::loop_benchmark;
using testing::find_row;
namespace fs = std::filesystem;

/// The address of the function whose name holds `name`, from `nm` output; 1 (never aligned) when it has none.
uint64_t function_address(const std::string& nm_output, const std::string& name) {
  std::istringstream lines(nm_output);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream fields(line);  // "0000000000001240 T _Z7BM_SlowRN9benchmark5StateE"; undefined ones have no address
    std::string address, type, symbol;
    if (fields >> address >> type >> symbol && (type == "T" || type == "t") && symbol.find(name) != std::string::npos)
      return std::stoull(address, nullptr, 16);
  }
  return 1;
}

/// bench_hot: head puts an unused function before the unchanged hot loop, which
/// moves the loop and nothing else. bench_slow: head does twice the work.
/// bench_same: untouched.
class LayoutsE2E : public ::testing::Test {
 protected:
  void SetUp() override {
    repo.write("CMakeLists.txt",
               gbench_cmakelists({{"bench_hot", "hot.cc"}, {"bench_slow", "slow.cc"}, {"bench_same", "same.cc"}}));
    repo.write("hot.cc", loop_benchmark("BM_Hot", 2000));
    repo.write("slow.cc", loop_benchmark("BM_Slow", 2000));
    repo.write("same.cc", loop_benchmark("BM_Same", 2000));
    base = repo.commit("base");
  }

  process::Result run(std::vector<std::string> args) const {
    // CPU time: tests run beside others, and preemption swings real time.
    std::vector<std::string> argv = {"run", "--repo", repo.path().string(), "--base", base, "--min-runs", "6",
                                     "--max-runs", "8", "--metric", "cpu_time", "--no-machine-control", "--keep"};
    argv.insert(argv.end(), length.begin(), length.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return run_cobench(argv, repo.path());
  }
  fs::path out_dir() const { return repo.path() / ".cobench/report"; }
  nlohmann::json report_json() const { return nlohmann::json::parse(read_file(out_dir() / "report.json")); }
  /// The kept job folder.
  fs::path job_dir() const {
    for (const auto& entry : fs::directory_iterator(repo.path() / ".cobench"))
      if (entry.path().filename().string().starts_with("job-")) return entry.path();
    return {};
  }

  TempDir dir;
  GitRepo repo{dir / "repo"};
  std::string base;
  std::vector<std::string> length = {"--bench-arg=--benchmark_min_time=0.01"};  // every run alike
};

TEST_F(LayoutsE2E, AHeadThatOnlyMovesCodeIsNeverAClaimByDefault) {
  repo.write("hot.cc", "__attribute__((used, noinline)) static void moved_by(void) { __asm__ volatile(\".skip 40\"); }\n" +
                           loop_benchmark("BM_Hot", 2000));
  repo.commit("head: an unused function before the hot loop");
  const auto result = run({"--target", "bench_hot"});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto json = report_json();
  EXPECT_FALSE(json.at("layout_rule").is_null());
  int hot_rows = 0;
  for (const auto& row : json.at("benchmarks")) {
    if (row.at("is_control").get<bool>()) continue;
    hot_rows += row.at("name") == "BM_Hot";
    const std::string verdict = row.at("verdict");
    EXPECT_NE(verdict, "regression") << row.dump();
    EXPECT_FALSE(verdict == "pass" && row.at("faster").get<bool>()) << row.dump();
    // A first layout that read a claim was measured again: never left standing unchecked.
    if (!row.at("layouts").empty()) {
      EXPECT_GE(row.at("layouts").size(), 2u) << row.dump();
    }
  }
  EXPECT_EQ(hot_rows, 1) << json.at("benchmarks").dump();
}

TEST_F(LayoutsE2E, ARealSlowdownIsARegressionBothLayoutsConfirm) {
  repo.write("slow.cc", loop_benchmark("BM_Slow", 4000));
  repo.commit("head: twice the work");
  length = {"--min-time", "0.01"};  // run length auto: the first layout's first pairs run two halves
  const auto result = run({"--all", "--target", "bench_slow|bench_same"});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto json = report_json();
  const nlohmann::json* slow = nullptr;
  for (const auto& row : json.at("benchmarks"))
    if (row.at("name") == "BM_Slow") slow = &row;
  ASSERT_NE(slow, nullptr) << json.at("benchmarks").dump();
  EXPECT_EQ(slow->at("verdict"), "regression") << slow->dump();
  EXPECT_EQ(slow->at("layout_outcome"), "confirmed") << slow->dump();
  ASSERT_EQ(slow->at("layouts").size(), 2u) << slow->dump();
  for (int i = 0; i < 2; ++i) {
    const auto& layout = slow->at("layouts")[i];
    EXPECT_EQ(layout.at("layout"), i + 1);
    EXPECT_EQ(layout.at("verdict"), "regression");
    EXPECT_GT(layout.at("ratio").get<double>(), 1.5) << layout.dump();
  }
  bool timed = false;
  for (const auto& phase : json.at("phases")) timed |= phase.at("name") == "layouts";
  EXPECT_TRUE(timed) << json.at("phases").dump();
  EXPECT_NE(result.out.find("layout 2 "), std::string::npos) << "the table shows each layout's ratio:\n" << result.out;

  // Only the claimed target was rebuilt, in build folders of its own; the first layout's binaries are as they were.
  const fs::path job = job_dir();
  ASSERT_FALSE(job.empty());
  for (const char* side : {"base", "head"}) {
    EXPECT_TRUE(fs::exists(job / side / "build-layout-2/bench_slow")) << side;
    EXPECT_FALSE(fs::exists(job / side / "build-layout-2/bench_same")) << side;
    const std::string first = run_checked({"nm", (job / side / "build/bench_slow").string()}).out;
    const std::string moved = run_checked({"nm", (job / side / "build-layout-2/bench_slow").string()}).out;
    EXPECT_EQ(first.find("cobench_layout_shift"), std::string::npos) << side;
    EXPECT_NE(moved.find("cobench_layout_shift"), std::string::npos) << side;
    // Layout 2 is built layout-stable as well: the benchmark's function starts on a 64-byte boundary.
    EXPECT_EQ(function_address(moved, "BM_Slow") % 64, 0u) << side << "\n" << moved;
  }
  EXPECT_NE(json.at("layout_rule").get<std::string>().find("rebuilt layout-stable"), std::string::npos)
      << json.at("layout_rule");
  // Only the claimed benchmark ran in layout 2, with its layout index in the log.
  const std::string log = read_file(out_dir() / "results.jsonl");
  size_t layout_runs = 0;
  for (size_t at = log.find("\"layout\":2"); at != std::string::npos; at = log.find("\"layout\":2", at + 1)) {
    const size_t start = log.rfind('\n', at) + 1;
    const std::string line = log.substr(start, log.find('\n', at) - start);
    EXPECT_NE(line.find("\"target\":\"bench_slow\""), std::string::npos) << line;
    // At the length the first layout chose, or the whole --min-time where it chose none (decided at its first
    // look): one repetition, no second choice.
    EXPECT_EQ(line.find("\"reps\""), std::string::npos) << line;
    ++layout_runs;
  }
  EXPECT_GE(layout_runs, 12u);
  EXPECT_NE(log.find("\"reps\""), std::string::npos) << "the first layout's first pairs ran two halves:\n" << log;

  // The log alone gives the same answer.
  const auto again = run_cobench({"report", (out_dir() / "results.jsonl").string(), "--out", (dir / "again").string()});
  ASSERT_EQ(again.exit_code, 0) << explain(again);
  const auto reread = nlohmann::json::parse(read_file(dir / "again/report.json"));
  for (const auto& row : reread.at("benchmarks"))
    if (row.at("name") == "BM_Slow") {
      EXPECT_EQ(row.at("layout_outcome"), "confirmed");
      EXPECT_EQ(row.at("layouts"), slow->at("layouts"));
    }
}

}  // namespace
}  // namespace cobench::job
