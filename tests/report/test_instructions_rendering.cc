// Instruction counts in every view: one row per benchmark with both
// verdicts, the time columns dropped when only instructions were counted,
// the caches and the method said once.
#include <gtest/gtest.h>

#include "report/report.h"

using namespace cobench;

namespace {

std::vector<verdict::CacheEvents> counts(double ir, int runs = 2) {
  std::vector<verdict::CacheEvents> out(runs);
  for (auto& e : out) {
    e.ir = ir;
    e.dr = ir / 4;
    e.d1mr = ir / 100;
  }
  return out;
}

report::Report counted_report(bool with_time) {
  report::Report r;
  r.tool = "run";
  r.metric = with_time ? "cpu_time" : "instructions";
  auto add = [&](const std::string& name, double base, double head) {
    auto row = with_time ? report::judged_row("bench_t", name, {100, 101, 102, 103, 104}, {100, 101, 102, 103, 104},
                                              0.05, 0.95)
                         : report::judged_row("bench_t", name, {}, {}, 0.05, verdict::TimeJudgement{});
    row.time_measured = with_time;
    row.instructions = verdict::judge_instructions(counts(base), counts(head), 0.05, 0.005);
    report::settle_verdict(row);
    r.benchmarks.push_back(row);
  };
  add("BM_Work", 8000, 16000);
  add("BM_Same", 8000, 8000);
  report::TargetInfo target;
  target.name = "bench_t";
  target.instructions_status = "measured (2 runs per side under callgrind); counted inside the benchmark loop only";
  r.targets.push_back(target);
  return r;
}

}  // namespace

TEST(InstructionsRendering, TheTableDropsTimeColumnsWhenNothingWasTimed) {
  const std::string table = report::render_table(counted_report(false), false);
  EXPECT_NE(table.find("instructions head/base"), std::string::npos) << table;
  EXPECT_NE(table.find("2.000× [1.990, 2.010] regression (8000 → 16000 per iteration)"), std::string::npos) << table;
  EXPECT_EQ(table.find("base median"), std::string::npos) << table;
  EXPECT_EQ(table.find("Hodges-Lehmann"), std::string::npos) << table;  // no time legend without time
  EXPECT_NE(table.find("35·RAM hits"), std::string::npos) << table;
  EXPECT_LT(table.find("BM_Work"), table.find("BM_Same"));  // regression first
}

TEST(InstructionsRendering, BesideTimeEachRowShowsBothVerdicts) {
  const report::Report r = counted_report(true);
  const std::string table = report::render_table(r, false);
  EXPECT_NE(table.find("base median"), std::string::npos) << table;
  EXPECT_NE(table.find("instructions head/base"), std::string::npos) << table;
  EXPECT_NE(table.find("time governs"), std::string::npos) << table;
  EXPECT_NE(table.find("the time verdict governs each row"), std::string::npos) << table;

  const std::string md = report::render_markdown(r);
  EXPECT_NE(md.find("| Instructions head/base | Caches |"), std::string::npos) << md;
  EXPECT_NE(md.find("est. cycles 2.000×"), std::string::npos) << md;
  EXPECT_NE(md.find("Instructions, bench\\_t: measured"), std::string::npos) << md;
  EXPECT_NE(md.find("Head/base"), std::string::npos) << md;  // the time column stays

  const std::string xml = report::render_junit(r);
  EXPECT_NE(xml.find("name=\"instructions_ratio\" value=\"2.0000\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"instructions_verdict\" value=\"regression\""), std::string::npos) << xml;
  EXPECT_NE(xml.find("instructions: measured"), std::string::npos) << xml;

  const std::string html = report::render_html(r);
  EXPECT_NE(html.find("<th>Instructions head/base · caches</th>"), std::string::npos);
  EXPECT_NE(html.find("8000 → 16000 per iteration"), std::string::npos);
}

TEST(InstructionsRendering, ARegressionOfInstructionsAloneFailsItsTestCase) {
  const std::string xml = report::render_junit(counted_report(false));
  EXPECT_NE(xml.find("<failure message=\"ratio instructions 2.00× [1.99, 2.01] &gt; budget 1.05\""), std::string::npos)
      << xml;
  const std::string md = report::render_markdown(counted_report(false));
  EXPECT_EQ(md.find("Head/base ["), std::string::npos) << md;  // no time column without time
  EXPECT_EQ(md.find("n base/head"), std::string::npos) << md;
  EXPECT_NE(md.find("### cobench: 1 regression, 0 inconclusive, 1 pass"), std::string::npos) << md;
}
