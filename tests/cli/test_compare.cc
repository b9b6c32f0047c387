// `cobench compare` through the real binary: verdicts, pooling, one-sided
// benchmarks, gate exit codes, and every bad input the issue lists.
#include <map>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/testing.h"

namespace t = cobench::testing;
using nlohmann::json;

namespace {

/// A Google Benchmark 1.7-shaped output: per benchmark, one iteration entry
/// per value (real_time; cpu_time is 90% of it), plus a mean aggregate.
std::string gbench_json(const std::map<std::string, std::vector<double>>& benchmarks, const std::string& unit = "ns") {
  json list = json::array();
  for (const auto& [name, values] : benchmarks) {
    for (size_t i = 0; i < values.size(); ++i)
      list.push_back({{"name", name}, {"run_name", name}, {"run_type", "iteration"}, {"repetitions", values.size()},
                      {"repetition_index", i}, {"threads", 1}, {"iterations", 1000}, {"real_time", values[i]},
                      {"cpu_time", values[i] * 0.9}, {"time_unit", unit}});
    list.push_back({{"name", name + "_mean"}, {"run_name", name}, {"run_type", "aggregate"}, {"aggregate_name", "mean"},
                    {"real_time", 1e9}, {"cpu_time", 1e9}, {"time_unit", unit}});
  }
  return json{{"context", {{"host_name", "runner"}, {"num_cpus", 2}}}, {"benchmarks", list}}.dump(2);
}

std::vector<double> around(double center, int n, double spread = 0.01) {
  std::vector<double> out;
  for (int i = 0; i < n; ++i) out.push_back(center * (1 + spread * ((i * 7) % n - n / 2) / n));
  return out;
}

struct CompareFixture : ::testing::Test {
  t::TempDir dir;
  std::string file(const std::string& name, const std::string& content) {
    t::write_file(dir / name, content);
    return (dir / name).string();
  }
  std::string base1, base2, head;
  void SetUp() override {
    base1 = file("base1.json", gbench_json({{"BM_Slower", around(100, 5)}, {"BM_Same", around(1000, 5)},
                                            {"BM_Gone", around(10, 5)}}));
    base2 = file("base2.json", gbench_json({{"BM_Slower", around(101, 5)}, {"BM_Same", around(1001, 5)}}));
    head = file("head.json", gbench_json({{"BM_Slower", around(130, 10)}, {"BM_Same", around(1000.5, 10)},
                                          {"BM_New", around(5, 10)}}));
  }
};

json benchmark(const json& report, const std::string& name) {
  for (const auto& b : report["benchmarks"])
    if (b["name"] == name) return b;
  return json();
}

/// Every input error: exit 2 and a single stderr line that names `path`.
void expect_input_error(const cobench::process::Result& r, const std::string& path, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << t::explain(r);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

}  // namespace

TEST_F(CompareFixture, JsonReportPoolsFilesAndJudges) {
  auto r = t::run_cobench({"compare", base1, base2, "--vs", head, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << t::explain(r);
  json report = json::parse(r.out);
  EXPECT_EQ(report["schema"], 1);
  EXPECT_EQ(report["tool"], "compare");
  EXPECT_EQ(report["budget"], 0.05);
  json slower = benchmark(report, "BM_Slower"), same = benchmark(report, "BM_Same");
  EXPECT_EQ(slower["n_base"], 10);  // five repetitions from each base file
  EXPECT_EQ(slower["n_head"], 10);
  EXPECT_EQ(slower["verdict"], "regression");
  EXPECT_EQ(slower["method"], "exact");
  EXPECT_GT(slower["ci_low"].get<double>(), 1.05);
  EXPECT_EQ(same["verdict"], "pass");
  EXPECT_EQ(report["benchmarks"][0]["name"], "BM_Slower");  // regressions first
  EXPECT_EQ(report["added"], json::parse(R"([{"name": "BM_New"}])"));
  EXPECT_EQ(report["removed"], json::parse(R"([{"name": "BM_Gone"}])"));
}

TEST_F(CompareFixture, GateAndBudget) {
  EXPECT_EQ(t::run_cobench({"compare", base1, "--vs", head}).exit_code, 0);
  auto gated = t::run_cobench({"compare", base1, "--vs", head, "--gate"});
  EXPECT_EQ(gated.exit_code, 1) << t::explain(gated);
  EXPECT_NE(gated.out.find("regression"), std::string::npos);
  EXPECT_EQ(t::run_cobench({"compare", base1, "--vs", head, "--gate", "--budget", "50%"}).exit_code, 0);
  EXPECT_EQ(t::run_cobench({"compare", base1, "--vs", head, "--gate", "--budget", "0.5"}).exit_code, 0);
}

TEST_F(CompareFixture, FailOnInconclusive) {
  std::string few_base = file("few_base.json", gbench_json({{"BM_X", {100, 101}}}));
  std::string few_head = file("few_head.json", gbench_json({{"BM_X", {150, 151}}}));
  auto r = t::run_cobench({"compare", few_base, "--vs", few_head, "--gate"});
  EXPECT_EQ(r.exit_code, 0) << t::explain(r);
  EXPECT_NE(r.out.find("needs ≥ 4 runs per side"), std::string::npos) << r.out;
  EXPECT_EQ(t::run_cobench({"compare", few_base, "--vs", few_head, "--gate", "--fail-on-inconclusive"}).exit_code, 1);
}

TEST_F(CompareFixture, TextTableMetricAndConfidence) {
  auto r = t::run_cobench({"compare", base1, "--vs", head, "--metric", "cpu_time", "--confidence", "90%"});
  ASSERT_EQ(r.exit_code, 0) << t::explain(r);
  EXPECT_EQ(r.out.find("benchmark"), 0u);
  EXPECT_NE(r.out.find("90% CI"), std::string::npos);
  EXPECT_NE(r.out.find("90.0 ns"), std::string::npos) << r.out;  // cpu_time median of BM_Slower base
  EXPECT_NE(r.out.find("added, head only (1): BM_New"), std::string::npos);
  EXPECT_EQ(r.out.find('\033'), std::string::npos);
  auto md = t::run_cobench({"compare", base1, "--vs", head, "--format", "markdown"});
  EXPECT_EQ(md.exit_code, 0) << t::explain(md);
}

TEST_F(CompareFixture, InstructionsAreForRunAndATimeBesideThemIsCompared) {
  auto alone = t::run_cobench({"compare", base1, "--vs", head, "--metric", "instructions"});
  EXPECT_EQ(alone.exit_code, 2) << t::explain(alone);
  EXPECT_NE(alone.err.find("--metric: cobench compare compares times from finished outputs"), std::string::npos)
      << alone.err;
  // A cobench.toml that counts instructions for `run` still lets compare compare its time.
  auto beside = t::run_cobench({"compare", base1, "--vs", head, "--metric", "cpu_time,instructions"});
  EXPECT_EQ(beside.exit_code, 0) << t::explain(beside);
  EXPECT_NE(beside.out.find("90.0 ns"), std::string::npos) << beside.out;
}

TEST_F(CompareFixture, TimeUnitsAreHonoured) {
  std::string us_head = file("us.json", gbench_json({{"BM_Slower", around(0.1, 5)}}, "us"));
  auto r = t::run_cobench({"compare", base1, "--vs", us_head, "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << t::explain(r);
  json row = benchmark(json::parse(r.out), "BM_Slower");
  EXPECT_NEAR(row["ratio"].get<double>(), 1.0, 0.02);
}

TEST_F(CompareFixture, BadInputsExitTwoWithOneLineNamingTheFile) {
  std::string missing = (dir / "missing.json").string();
  expect_input_error(t::run_cobench({"compare", missing, "--vs", head}), missing, "cannot read");
  std::string empty = file("empty.json", "");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", empty}), empty, "empty file");
  std::string prose = file("prose.json", "benchmarks were fast\n");
  expect_input_error(t::run_cobench({"compare", prose, "--vs", head}), prose, "line 1, column");
  std::string no_list = file("nolist.json", R"({"context": {}})");
  expect_input_error(t::run_cobench({"compare", no_list, "--vs", head}), no_list, "no \"benchmarks\" array");
  auto entry = [&](const std::string& name, const std::string& fields) {
    return file(name, R"({"benchmarks": [{"name": "BM_Slower", "run_type": "iteration", )" + fields + "}]}");
  };
  std::string no_times = entry("notimes.json", R"("iterations": 5)");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", no_times}), no_times, "BM_Slower\": no real_time");
  std::string zero = entry("zero.json", R"("real_time": 0, "cpu_time": 1)");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", zero}), zero, "real_time is 0");
  std::string negative = entry("negative.json", R"("real_time": 5, "cpu_time": -1)");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", negative}), negative, "cpu_time is -1");
  std::string nan = entry("nan.json", R"("real_time": NaN, "cpu_time": 1)");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", nan}), nan, "real_time is NaN");
  std::string unit = entry("unit.json", R"("real_time": 5, "cpu_time": 5, "time_unit": "ks")");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", unit}), unit, "unknown time_unit \"ks\"");
  std::string none = file("none.json", R"({"benchmarks": []})");
  expect_input_error(t::run_cobench({"compare", none, "--vs", head}), none, "no benchmark results on the base side");
  expect_input_error(t::run_cobench({"compare", base1, "--vs", none}), none, "no benchmark results on the head side");
}

TEST_F(CompareFixture, BadFlagsExitTwo) {
  auto budget = t::run_cobench({"compare", base1, "--vs", head, "--budget", "lots"});
  EXPECT_EQ(budget.exit_code, 2);
  EXPECT_NE(budget.err.find("--budget: bad percentage 'lots'"), std::string::npos) << budget.err;
  EXPECT_EQ(t::run_cobench({"compare", base1, "--vs", head, "--confidence", "1.5"}).exit_code, 2);
  EXPECT_EQ(t::run_cobench({"compare", base1, "--vs", head, "--metric", "wall"}).exit_code, 2);
  EXPECT_EQ(t::run_cobench({"compare", base1}).exit_code, 2);  // no --vs
  EXPECT_EQ(t::run_cobench({"compare", base1, "--vs", head, "--format", "xml"}).exit_code, 2);
}

TEST_F(CompareFixture, AllocationBudgetFoldsIntoTheVerdict) {
  // Same times; the memory manager saw 2 allocations per iteration on base, 3 on head.
  auto with_allocs = [&](const std::string& name, double allocs) {
    json list = json::array();
    for (double v : around(100, 6))
      list.push_back({{"name", "BM_A"}, {"run_type", "iteration"}, {"iterations", 100}, {"real_time", v},
                      {"cpu_time", v}, {"time_unit", "ns"}, {"allocs_per_iter", allocs}, {"max_bytes_used", 64},
                      {"total_allocated_bytes", 16 * 32}});
    return file(name, json{{"benchmarks", list}}.dump());
  };
  std::string base = with_allocs("allocs_base.json", 2), head = with_allocs("allocs_head.json", 3);
  auto r = t::run_cobench({"compare", base, "--vs", head, "--format", "json", "--allocs-budget", "0", "--gate"});
  EXPECT_EQ(r.exit_code, 1) << t::explain(r);
  json row = benchmark(json::parse(r.out), "BM_A");
  EXPECT_EQ(row["allocs"]["base_median"], 2);
  EXPECT_EQ(row["allocs"]["head_median"], 3);
  EXPECT_EQ(row["allocs"]["verdict"], "regression");
  EXPECT_EQ(row["bytes"]["base_median"], 32);  // 512 bytes over min(16, 100) iterations
  EXPECT_EQ(row["verdict"], "regression");
  auto unjudged = t::run_cobench({"compare", base, "--vs", head, "--gate"});
  EXPECT_EQ(unjudged.exit_code, 0) << t::explain(unjudged);  // allocations reported, not judged
}
