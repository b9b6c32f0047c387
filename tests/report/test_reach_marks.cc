// Every report marks a benchmark that does not execute the change, shows the
// unrelated change it is at most, flags what is likely optimised away, and
// says why the selection dropped or narrowed away reached targets.
#include <gtest/gtest.h>
#include <pugixml.hpp>

#include "report/report.h"
#include "report/summary.h"
#include "report_fixture.h"

namespace cobench::report {
namespace {

using cobench::testing::reach_report;

const BenchmarkRow& row_named(const Report& report, const std::string& name) {
  for (const auto& row : report.benchmarks)
    if (row.name == name) return row;
  throw std::runtime_error("no row " + name);
}

TEST(ReachMarks, TheFoldMakesAnUnexecutedRegressionAnUnrelatedChange) {
  const Report r = reach_report();
  EXPECT_EQ(row_named(r, "BM_Work/4096").verdict, verdict::Verdict::Regression);
  const BenchmarkRow& unrelated = row_named(r, "BM_Work/8");
  EXPECT_EQ(unrelated.verdict, verdict::Verdict::Unrelated);
  EXPECT_EQ(unrelated.note.rfind("does not execute the change (0 of 2 changed lines ran); by time alone: regression", 0),
            0u)
      << unrelated.note;
  EXPECT_EQ(row_named(r, "BM_Work/64").verdict, verdict::Verdict::Pass);
  EXPECT_EQ(row_named(r, "BM_Empty").optimised_away, "head: 0.32 ns per iteration; base: 0.32 ns per iteration");
  const VerdictCounts counts = count_verdicts(r.benchmarks);
  EXPECT_EQ(counts_phrase(counts), "1 regression, 0 inconclusive, 2 pass, 1 unrelated change, 1 likely optimised away");
}

TEST(ReachMarks, JsonCarriesReachPerRowAndRoundTrips) {
  const nlohmann::json j = to_json(reach_report());
  for (const auto& row : j["benchmarks"]) {
    ASSERT_TRUE(row.contains("reach")) << row["name"];
    if (row["name"] == "BM_Work/8") {
      EXPECT_EQ(row["reach"], (nlohmann::json{{"status", "not_reached"}, {"changed_lines", 2}, {"executed_changed_lines", 0}}));
      EXPECT_EQ(row["verdict"], "unrelated change");
      EXPECT_EQ(row["time_verdict"], "regression");
    }
    if (row["name"] == "BM_Work/64") {
      EXPECT_EQ(row["reach"]["reason"], "non-gcc compiler (Clang 14.0.6)");
    }
    if (row["name"] == "BM_Empty") {
      EXPECT_EQ(row["likely_optimised_away"], "head: 0.32 ns per iteration; base: 0.32 ns per iteration");
    }
  }
  EXPECT_EQ(j["reach_method"], "head coverage build; the base's coverage from the reach index");
  EXPECT_EQ(to_json(from_json(j)), j);
  // A row of a job without a reach pass says so with null.
  EXPECT_TRUE(to_json(cobench::testing::sample_run_report())["benchmarks"][0]["reach"].is_null());
}

TEST(ReachMarks, MarkdownHtmlAndTheTableShowReachVerdictAndFlags) {
  const Report r = reach_report();
  for (const auto& [name, text] : std::map<std::string, std::string>{
           {"markdown", render_markdown(r)}, {"html", render_html(r)}, {"table", render_table(r, false)}}) {
    EXPECT_NE(text.find("does not execute the change"), std::string::npos) << name;
    EXPECT_NE(text.find("unrelated change"), std::string::npos) << name;
    EXPECT_NE(text.find("likely optimised away: head: 0.32 ns per iteration"), std::string::npos) << name;
    EXPECT_NE(text.find("non-gcc compiler (Clang 14.0.6)"), std::string::npos) << name;
    EXPECT_NE(text.find(name == "markdown" ? "bench\\_more" : "bench_more"), std::string::npos)
        << name << ": the reached target narrowed away";
    EXPECT_NE(text.find("cap of 1: does not execute the change"), std::string::npos) << name << ": why it was dropped";
  }
  const std::string md = render_markdown(r);
  EXPECT_NE(md.find("| Reach |"), std::string::npos) << md;
  EXPECT_NE(md.find("⚪ unrelated change"), std::string::npos) << md;
  EXPECT_NE(md.find("executes the change (2 of 2 changed lines ran)"), std::string::npos) << md;
  EXPECT_NE(md.find("Reached but narrowed away by --target 'grid\\|also' (1): bench\\_more"), std::string::npos) << md;
  EXPECT_NE(md.find("1 target dropped by the cap (max\\_targets 1, ranked by reach, then cost (base coverage))"),
            std::string::npos) << md;
  EXPECT_NE(render_html(r).find("data-verdict=\"unrelated\""), std::string::npos);
}

TEST(ReachMarks, JunitNeverFailsAnUnrelatedChangeAndCarriesReachProperties) {
  pugi::xml_document doc;
  ASSERT_TRUE(doc.load_string(render_junit(reach_report()).c_str()));
  const auto suites = doc.child("testsuites");
  EXPECT_STREQ(suites.attribute("failures").value(), "1") << "only BM_Work/4096, which executes the change";
  for (auto testcase : suites.child("testsuite").children("testcase")) {
    const std::string name = testcase.attribute("name").value();
    auto property = [&](const char* key) {
      return std::string(testcase.child("properties").find_child_by_attribute("property", "name", key)
                             .attribute("value").value());
    };
    if (name == "BM_Work/8") {
      EXPECT_FALSE(testcase.child("failure")) << name;
      EXPECT_EQ(property("reach"), "not_reached");
      EXPECT_EQ(property("verdict"), "unrelated change");
      EXPECT_NE(std::string(testcase.child_value("system-out")).find("does not execute the change"), std::string::npos);
    }
    if (name == "BM_Work/4096") {
      EXPECT_EQ(property("executed_changed_lines"), "2");
    } else if (name == "BM_Empty") {
      EXPECT_EQ(property("likely_optimised_away").rfind("head: 0.32", 0), 0u);
    }
  }
  EXPECT_NE(std::string(suites.child("testsuite").child_value("system-out")).find("narrowed away by --target"),
            std::string::npos);
}

}  // namespace
}  // namespace cobench::report
