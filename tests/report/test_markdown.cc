// report.md: summary first, sorted and escaped table, folding, spread bar.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "report/escape.h"
#include "report/report.h"
#include "report/report_fixture.h"
#include "report/spread_bar.h"

namespace cobench::report {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Pipes a markdown table parser would split on: not preceded by a backslash.
int unescaped(const std::string& line, char c) {
  int count = 0;
  for (size_t i = 0; i < line.size(); ++i) count += line[i] == c && (i == 0 || line[i - 1] != '\\');
  return count;
}

// The benchmark table: the first run of lines that start with '|' (the host
// and settings tables come later, inside <details>).
std::vector<std::string> table_lines(const std::string& markdown) {
  std::vector<std::string> rows;
  for (const auto& line : lines_of(markdown)) {
    if (line.starts_with("|")) rows.push_back(line);
    else if (!rows.empty()) break;
  }
  return rows;
}

TEST(Markdown, SummaryLineComesFirstWithCountsBudgetRunsControlAndShas) {
  auto lines = lines_of(render_markdown(testing::sample_run_report()));
  ASSERT_GE(lines.size(), 3u);
  EXPECT_EQ(lines[0], "### cobench: 2 regressions, 2 inconclusive, 1 pass (1 faster)");  // the control is not counted
  const std::string& facts = lines[2];
  EXPECT_NE(facts.find("budget +5% (head/base ≤ 1.05, 95% confidence)"), std::string::npos) << facts;
  EXPECT_NE(facts.find("6 runs per side"), std::string::npos) << facts;
  EXPECT_NE(facts.find("controls layout 1.000 \\[0.990, 1.010\\] (bench\\_copy/BM\\_Control)"), std::string::npos) << facts;
  EXPECT_NE(facts.find("0123456789…abcdef0123"), std::string::npos) << facts;
}

TEST(Markdown, BudgetOverridesAreCountedInTheSummary) {
  auto report = testing::sample_run_report();
  report.benchmarks[0].budget = 0.10;
  std::string md = render_markdown(report);
  EXPECT_NE(md.find("budget +5% (head/base ≤ 1.05, 95% confidence; 1 benchmark with its own budget)"), std::string::npos)
      << md.substr(0, 400);
}

TEST(Markdown, RowsAreSortedRegressionsInconclusiveFasterPass) {
  auto rows = table_lines(render_markdown(testing::sample_run_report()));
  ASSERT_EQ(rows.size(), 2u + 6u);  // header, rule, six benchmarks
  std::vector<std::string> expected_order = {"regression", "regression", "inconclusive", "inconclusive",
                                             "pass, faster", "pass"};
  for (size_t i = 0; i < expected_order.size(); ++i) {
    std::string verdict = " " + expected_order[i] + " |";
    EXPECT_NE(rows[i + 2].find(verdict), std::string::npos) << "row " << i << ": " << rows[i + 2];
  }
  EXPECT_NE((rows[2] + rows[3]).find("1.23× [1.19, 1.27]"), std::string::npos);
}

TEST(Markdown, HostileNamesCannotBreakTheTableOrInjectMarkup) {
  std::string md = render_markdown(testing::sample_run_report());
  auto rows = table_lines(md);
  int columns = unescaped(rows[0], '|');
  for (const auto& row : rows) EXPECT_EQ(unescaped(row, '|'), columns) << row;
  EXPECT_EQ(md.find("<script"), std::string::npos);
  EXPECT_EQ(md.find("@here"), std::string::npos);
  EXPECT_EQ(md.find("@all"), std::string::npos);
  bool found = false;
  for (const auto& row : rows) {
    if (row.find("BM\\_pipe\\|col") == std::string::npos) continue;
    found = true;
    // The newline became a space (one row), backticks cannot open a code span.
    EXPECT_NE(row.find("&lt;script&gt;"), std::string::npos) << row;
    EXPECT_NE(row.find("next\\*line\\_"), std::string::npos) << row;
    EXPECT_EQ(unescaped(row, '`'), 0) << row;
    EXPECT_NE(row.find("needs ≥ 8 runs per side"), std::string::npos) << row;
  }
  EXPECT_TRUE(found) << md;
}

TEST(Markdown, AllocationColumnsFailedRunsOneSidedAndHostDetails) {
  std::string md = render_markdown(testing::sample_run_report());
  EXPECT_NE(md.find("| Allocs/op | Bytes/op |"), std::string::npos);
  EXPECT_NE(md.find("0 → 1 (+1) ✗"), std::string::npos);
  EXPECT_NE(md.find("0 → 64 (+64) |"), std::string::npos);  // reported, not judged
  EXPECT_NE(md.find("<details><summary>Failed runs</summary>"), std::string::npos);
  EXPECT_NE(md.find("head run 2: SIGSEGV (log logs/bench\\_gemm-head-2.txt)"), std::string::npos) << md;
  EXPECT_NE(md.find("| head crashed (SIGSEGV) in 3/3 runs |"), std::string::npos);
  EXPECT_NE(md.find("- Time: configure 1.2 s, build 8.0 s, runs 20.5 s, machine control 4.0 s, analysis 50 ms (33.8 s "
                    "in all)."),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("**New on head, not compared** (1): bench\\_gemm: BM\\_New"), std::string::npos);
  EXPECT_NE(md.find("**Gone from head, not compared** (1): bench\\_gemm: BM\\_Old"), std::string::npos);
  EXPECT_NE(md.find("> ⚠️ bench\\_gemm: 2 benchmark families in one TU: gemm.cpp"), std::string::npos);
  EXPECT_NE(md.find("> ⚠️ time budget exhausted"), std::string::npos);
  size_t host = md.find("<details><summary>Host and method</summary>");
  ASSERT_NE(host, std::string::npos);
  EXPECT_NE(md.find("| cpu | Intel &lt;Xeon&gt; @&#8203; 2.4GHz |", host), std::string::npos) << md.substr(host);
  EXPECT_NE(md.find("measured (3 runs per side)", host), std::string::npos);
}

// Issue 25: the settings were one "- key: JSON" line each, the selection alone
// 1,500 characters of JSON. Now a two-column table of short plain values.
TEST(Markdown, SettingsAreAShortTableNotJson) {
  auto report = testing::sample_run_report();
  nlohmann::json targets = nlohmann::json::array();
  for (int i = 0; i < 20; ++i) targets.push_back("bench_" + std::to_string(i));
  nlohmann::json overrides = nlohmann::json::array();
  overrides.push_back({{"match", "BM_Gemm"}, {"time", 0.1}});
  report.settings = {{"schema", 1},
                     {"min_runs", 6},
                     {"metric", "cpu_time"},
                     {"allocs_budget", nullptr},
                     {"source_dir", ""},
                     {"bench_args", {"--benchmark_min_time=0.05"}},
                     {"cmake_args", nlohmann::json::array()},
                     {"budget", {{"time", 0.05}, {"overrides", overrides}}},
                     {"targets", targets},
                     {"compile_cache", std::string(400, 'x')},
                     {"selection", {{"all_reason", nullptr}, {"selected", targets}, {"unreached", targets}}}};
  const std::string md = render_markdown(report);
  const size_t settings = md.find("**Settings**");
  ASSERT_NE(settings, std::string::npos) << md;
  const std::string section = md.substr(settings, md.find("</details>", settings) - settings);
  for (const char* row : {"| setting | value |", "| min\\_runs | 6 |", "| metric | cpu\\_time |", "| allocs\\_budget | — |",
                          "| source\\_dir | — |", "| bench\\_args | --benchmark\\_min\\_time=0.05 |",
                          "| cmake\\_args | none |", "| budget.time | 0.05 |",
                          "| budget.overrides | match BM\\_Gemm; time 0.1 |",
                          "| targets | bench\\_0, bench\\_1, bench\\_2, bench\\_3, bench\\_4, bench\\_5, bench\\_6, bench\\_7, … (20 in all) |"})
    EXPECT_NE(section.find(row), std::string::npos) << row << "\n" << section;
  // No JSON left, no cell past the cut, and the selection is not repeated: it has its own section.
  EXPECT_EQ(section.find("{\""), std::string::npos) << section;
  EXPECT_EQ(section.find("[\""), std::string::npos) << section;
  EXPECT_EQ(section.find("selection"), std::string::npos) << section;
  EXPECT_EQ(section.find("schema"), std::string::npos) << section;
  EXPECT_NE(section.find("| compile\\_cache | " + std::string(160, 'x') + "… |"), std::string::npos) << section;
  for (const auto& line : lines_of(section)) EXPECT_LE(line.size(), 220u) << line;
  // Every row of the table has its two cells.
  for (const auto& line : lines_of(section)) {
    if (line.starts_with("|")) {
      EXPECT_EQ(unescaped(line, '|'), 3) << line;
    }
  }
}

TEST(Markdown, SelectionReasonsChainsAndTargetsDroppedByTheCap) {
  auto report = testing::sample_run_report();
  report.selection = nlohmann::json::parse(R"({
    "selected": [{"target": "bench_gemm", "reason_chain": ["bench/gemm.cpp", "Eigen/Core", "Eigen/src/Core/GEMM.h"],
                  "change": "modified"}],
    "dropped": [{"target": "bench_far"}, {"target": "bench_farther"}], "max_targets": 1,
    "unresolved": [{"file": "bench/gemm.cpp", "line": 3, "include": "MACRO_INCLUDE"}], "all_reason": null})");
  std::string md = render_markdown(report);
  EXPECT_NE(md.find("> ⚠️ 2 targets dropped by the cap (max\\_targets 1): bench\\_far, bench\\_farther"), std::string::npos) << md;
  size_t details = md.find("<details><summary>Selection</summary>");
  ASSERT_NE(details, std::string::npos);
  EXPECT_NE(md.find("- bench\\_gemm: bench/gemm.cpp → Eigen/Core → Eigen/src/Core/GEMM.h (modified)", details), std::string::npos);
  EXPECT_NE(md.find("1 unresolved include: bench/gemm.cpp:3 MACRO\\_INCLUDE", details), std::string::npos);

  report.selection = {{"mode", "all"}, {"reason", "all benchmark targets (2)"}, {"targets", {"bench_copy", "bench_gemm"}}};
  md = render_markdown(report);
  EXPECT_NE(md.find("- Selection: all benchmark targets (2)\n- Targets: bench\\_copy, bench\\_gemm"), std::string::npos) << md;
  EXPECT_EQ(render_markdown(testing::sample_compare_report()).find("Selection"), std::string::npos);
}

TEST(Markdown, LongTablesFoldPassingRowsShortOnesDoNot) {
  std::string folded = render_markdown(testing::long_report(12));
  size_t details = folded.find("<details><summary>12 passing benchmarks</summary>");
  ASSERT_NE(details, std::string::npos) << folded;
  size_t slow = folded.find("BM\\_Slow");
  EXPECT_LT(slow, details);
  EXPECT_GT(folded.find("BM\\_Fine/0"), details);

  std::string short_table = render_markdown(testing::long_report(9));
  EXPECT_EQ(short_table.find("passing benchmark"), std::string::npos);
  EXPECT_EQ(table_lines(short_table).size(), 2u + 10u);
}

TEST(Markdown, CompareReportHasNoTargetsShasOrHost) {
  std::string md = render_markdown(testing::sample_compare_report());
  EXPECT_EQ(md.find("| Target |"), std::string::npos);
  EXPECT_EQ(md.find("Host"), std::string::npos);
  EXPECT_EQ(md.find("runs per side"), std::string::npos);
  EXPECT_NE(md.find("base.json vs head.json"), std::string::npos);
  EXPECT_NE(md.find("<details><summary>Method</summary>"), std::string::npos);
  EXPECT_NE(md.find("1 regression, 1 inconclusive, 1 pass"), std::string::npos);
}

TEST(SpreadBar, PlacesTheIntervalAgainstTheBudgetMarker) {
  using verdict::Verdict;
  auto position = [](const std::string& bar, const char* glyph) { return bar.find(glyph); };
  std::string regression = spread_bar(testing::make_row("", "r", Verdict::Regression, 1.23, 1.19, 1.27));
  EXPECT_LT(position(regression, "┊"), position(regression, "["));
  EXPECT_LT(position(regression, "│"), position(regression, "┊"));
  std::string pass = spread_bar(testing::make_row("", "p", Verdict::Pass, 1.0, 0.98, 1.02));
  EXPECT_LT(position(pass, "]"), position(pass, "┊"));
  std::string straddle = spread_bar(testing::make_row("", "i", Verdict::Inconclusive, 1.04, 1.01, 1.09));
  EXPECT_LT(position(straddle, "["), position(straddle, "┊"));
  EXPECT_LT(position(straddle, "┊"), position(straddle, "]"));
  EXPECT_NE(straddle.find("●"), std::string::npos);
  EXPECT_EQ(straddle.find('|'), std::string::npos);
  // Marks that fall in one cell are all kept, in order: an interval starting at the budget, a tiny one at 1.0.
  for (const auto& row : {testing::make_row("", "b", Verdict::Inconclusive, 1.2, 1.05, 1.9),
                          testing::make_row("", "t", Verdict::Pass, 1.0, 0.9999, 1.0001),
                          testing::make_row("", "w", Verdict::Regression, 40, 30, 50)}) {
    std::string bar = spread_bar(row);
    for (const char* glyph : {"[", "●", "]", "│", "┊"}) EXPECT_NE(bar.find(glyph), std::string::npos) << bar << glyph;
    EXPECT_LT(position(bar, "["), position(bar, "●")) << bar;
    EXPECT_LT(position(bar, "●"), position(bar, "]")) << bar;
    EXPECT_LT(position(bar, "│"), position(bar, "┊")) << bar;
  }
  auto no_ci = testing::make_row("", "n", Verdict::Inconclusive, 1.0, 0, 0);
  no_ci.time.estimate.ci_reachable = false;
  EXPECT_EQ(spread_bar(no_ci), "");
}

TEST(Escape, MarkdownAndXmlAndInvalidUtf8) {
  EXPECT_EQ(escape_markdown("a|b"), "a\\|b");
  EXPECT_EQ(escape_markdown("@here"), "@&#8203;here");
  EXPECT_EQ(escape_markdown("<b>&"), "&lt;b&gt;&amp;");
  EXPECT_EQ(escape_markdown("x\ny"), "x y");
  EXPECT_EQ(escape_xml("a<\"'>&\n"), "a&lt;&quot;&#39;&gt;&amp;&#10;");
  EXPECT_EQ(sanitize_text("ok\xff\x01", false), "ok\\xFF\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_text("\xC0\xAF", false), "\\xC0\\xAF");  // overlong '/'
  // Bidirectional overrides, isolates and marks never reach a terminal or a review page.
  EXPECT_EQ(sanitize_text("a\xE2\x80\xAE" "b\xE2\x81\xA6" "c\xE2\x80\x8F" "d\xD8\x9C", false),
            "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c\xEF\xBF\xBD" "d\xEF\xBF\xBD");
  EXPECT_EQ(sanitize_text("×→€😀", false), "×→€😀");
  // A tab in a name (hostile retest) broke the terminal table's columns: one line, one space.
  EXPECT_EQ(sanitize_text("BM_a\tb", true), "BM_a b");
  EXPECT_EQ(escape_markdown("BM_a\tb"), "BM\\_a b");
  EXPECT_EQ(sanitize_text("a log\tline", false), "a log\tline");
}

}  // namespace
}  // namespace cobench::report
