// report.json: the issue's contract fields, null for non-finite numbers, an
// exact round trip, and path-named errors on wrong shapes.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "report/report.h"
#include "report_fixture.h"

using namespace cobench;
using nlohmann::json;

static report::Report edge_report() {
  report::Report r = cobench::testing::sample_compare_report();
  r.benchmarks.push_back(report::judged_row("", "BM_Two", {100, 101}, {150, 151}, 0.05, 0.95));
  r.benchmarks.push_back(report::judged_row("", "BM_None", {}, {3, 4}, 0.05, 0.95));
  auto row = report::judged_row("tgt", "BM_Allocs", {10, 11, 12, 13, 14}, {10, 11, 12, 13, 14}, 0.1, 0.9);
  row.allocs = verdict::MedianJudgement{1, 2, config::parse_threshold("0"), verdict::Verdict::Regression};
  row.bytes = verdict::MedianJudgement{64, 64, std::nullopt, verdict::Verdict::Pass};
  row.failed_runs.push_back({"head", 3, "SIGSEGV", "logs/head-3.txt"});
  r.benchmarks.push_back(row);
  // Instructions beside time, and a row of a job that counted instructions only and could not compare.
  auto counted = report::judged_row("tgt", "BM_Counted", {10, 11, 12, 13}, {10, 11, 12, 14}, 0.05, 0.95);
  std::vector<verdict::CacheEvents> base(2), head(2);
  base[0].ir = base[1].ir = 8000;
  head[0].ir = 16000;
  head[1].ir = 16010;
  base[0].d1mr = head[1].dlmw = 3.5;
  counted.instructions = verdict::judge_instructions(base, head, 0.05, 0.005);
  counted.instructions->slowdown = 120;
  report::settle_verdict(counted);
  r.benchmarks.push_back(counted);
  auto alone = report::judged_row("tgt", "BM_Alone", {}, {}, 0.05, verdict::TimeJudgement{});
  alone.time_measured = false;
  alone.instructions = verdict::judge_instructions({}, head, 0.05, 0.005);
  report::settle_verdict(alone);
  r.benchmarks.push_back(alone);
  report::TargetInfo target;
  target.name = "tgt";
  target.instructions_status = "measured (2 runs per side under callgrind)";
  target.instruction_runs = 2;
  r.targets.push_back(target);
  r.notes.push_back("interrupted");
  return r;
}

TEST(ReportJson, RoundTripsExactly) {
  for (const report::Report& r : {cobench::testing::sample_run_report(), cobench::testing::sample_compare_report(), edge_report()}) {
    json first = report::to_json(r);
    json again = report::to_json(report::from_json(first));
    EXPECT_EQ(first, again) << first.dump(1);
    EXPECT_EQ(report::to_json(report::from_json(json::parse(first.dump()))), first);  // through text too
  }
}

TEST(ReportJson, BenchmarksCarryTheIssueFields) {
  json j = report::to_json(edge_report());
  EXPECT_EQ(j["schema"], 1);
  for (const char* key : {"tool", "base", "head", "metric", "budget", "confidence", "host", "settings", "selection",
                          "benchmarks", "added", "removed", "targets", "notes"})
    EXPECT_TRUE(j.contains(key)) << key;
  for (const auto& b : j["benchmarks"])
    for (const char* key : {"name", "n_base", "n_head", "base_median", "head_median", "ratio", "ci_low", "ci_high",
                            "confidence", "p_value", "method", "budget", "verdict", "faster", "note", "samples",
                            "runs_base", "runs_head", "failed_runs", "is_control"})
      EXPECT_TRUE(b.contains(key)) << key << " in " << b["name"];
}

TEST(ReportJson, InstructionsCarryTheirRangeCyclesAndMissRatios) {
  json j = report::to_json(edge_report());
  json counted, alone;
  for (const auto& b : j["benchmarks"]) {
    if (b["name"] == "BM_Counted") counted = b["instructions"];
    if (b["name"] == "BM_Alone") alone = b;
  }
  ASSERT_TRUE(counted.is_object()) << j.dump(1);
  EXPECT_EQ(counted["verdict"], "regression");
  EXPECT_DOUBLE_EQ(counted["base_median"].get<double>(), 8000);
  EXPECT_DOUBLE_EQ(counted["head_median"].get<double>(), 16005);
  EXPECT_DOUBLE_EQ(counted["tolerance"].get<double>(), 0.005);
  for (const char* key : {"ratio", "low", "high", "base_spread", "head_spread", "n_base", "n_head", "slowdown", "note",
                          "estimated_cycles", "l1_misses", "ll_misses", "l1_miss_rate", "ll_miss_rate", "events"})
    EXPECT_TRUE(counted.contains(key)) << key;
  EXPECT_DOUBLE_EQ(counted["l1_misses"]["base_median"].get<double>(), 1.75);  // median of 3.5 and 0
  EXPECT_DOUBLE_EQ(counted["events"]["head"]["DLmw"].get<double>(), 1.75);
  EXPECT_FALSE(alone["time_measured"].get<bool>());
  EXPECT_EQ(alone["decided_by"], "instructions");
  EXPECT_FALSE(alone["instructions"]["compared"].get<bool>());
  EXPECT_TRUE(alone["instructions"]["ratio"].is_null());
  EXPECT_EQ(j["targets"].back()["instructions_status"], "measured (2 runs per side under callgrind)");
}

TEST(ReportJson, NonFiniteBecomesNullAndBudgetIsAFraction) {
  json j = report::to_json(edge_report());
  const json* two = nullptr;
  const json* none = nullptr;
  const json* allocs = nullptr;
  for (const auto& b : j["benchmarks"]) {
    if (b["name"] == "BM_Two") two = &b;
    if (b["name"] == "BM_None") none = &b;
    if (b["name"] == "BM_Allocs") allocs = &b;
  }
  ASSERT_TRUE(two && none && allocs);
  EXPECT_TRUE((*two)["ci_low"].is_null());
  EXPECT_TRUE((*two)["ci_high"].is_null());
  EXPECT_TRUE((*two)["ratio"].is_number());
  EXPECT_EQ((*two)["runs_needed"], 4);
  EXPECT_EQ((*two)["method"], "exact");
  EXPECT_EQ((*two)["budget"], 0.05);
  EXPECT_TRUE((*none)["ratio"].is_null());
  EXPECT_TRUE((*none)["base_median"].is_null());
  EXPECT_TRUE((*none)["method"].is_null());
  EXPECT_EQ((*none)["n_base"], 0);
  EXPECT_EQ((*allocs)["target"], "tgt");
  EXPECT_EQ((*allocs)["allocs"]["verdict"], "regression");
  EXPECT_TRUE((*allocs)["bytes"]["verdict"].is_null());
  EXPECT_EQ((*allocs)["failed_runs"][0]["cause"], "SIGSEGV");
  EXPECT_FALSE(two->contains("target"));
}

static std::string error_of(const json& j) {
  try {
    report::from_json(j);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReportJson, ANewerSchemaIsReadWithANoteOfWhatIsNotShown) {
  json newer = report::to_json(edge_report());
  newer["schema"] = 3;
  newer["a_field_from_the_future"] = true;
  const report::Report read = report::from_json(newer);
  ASSERT_FALSE(read.notes.empty());
  EXPECT_EQ(read.notes.back(), "report JSON of schema 3, newer than this cobench's 1: fields it added are not shown");
  EXPECT_EQ(read.schema, 1);
  EXPECT_EQ(read.benchmarks.size(), edge_report().benchmarks.size());
}

TEST(ReportJson, WrongShapesNameThePath) {
  json good = report::to_json(edge_report());
  EXPECT_EQ(error_of(json::array()), "report JSON: $: expected an object");
  json j = good;
  j.erase("schema");
  EXPECT_EQ(error_of(j), "report JSON: $.schema: missing");
  j = good;
  j["schema"] = 0;
  EXPECT_EQ(error_of(j), "report JSON: $.schema: unsupported schema 0 (this cobench reads 1)");
  j = good;
  j["benchmarks"] = json::object();
  EXPECT_EQ(error_of(j), "report JSON: $.benchmarks: expected an array");
  j = good;
  j["benchmarks"][0]["ratio"] = "fast";
  EXPECT_EQ(error_of(j), "report JSON: $.benchmarks[0].ratio: expected a number or null");
  j = good;
  j["benchmarks"][1]["verdict"] = "meh";
  EXPECT_EQ(error_of(j), "report JSON: $.benchmarks[1].verdict: expected pass, regression or inconclusive");
  j = good;
  j["benchmarks"][0]["n_base"] = 999;
  EXPECT_EQ(error_of(j), "report JSON: $.benchmarks[0]: n_base/n_head disagree with the samples");
  j = good;
  j["notes"] = json::array({1});
  EXPECT_EQ(error_of(j), "report JSON: $.notes[0]: expected a string");
}
