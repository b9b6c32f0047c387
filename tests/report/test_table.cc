// render_table: aligned columns by display width, regressions first, units,
// colour only when asked, legend and one-sided lists.
#include <sstream>

#include <gtest/gtest.h>

#include "report/report.h"
#include "report_fixture.h"

using namespace cobench;

static std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

static size_t display_column(const std::string& line, const std::string& needle) {
  size_t byte = line.find(needle);
  if (byte == std::string::npos) return std::string::npos;
  size_t column = 0;
  for (size_t i = 0; i < byte; ++i) column += (line[i] & 0xC0) != 0x80;
  return column;
}

static report::Report small_report() {
  report::Report r;
  r.benchmarks.push_back(report::judged_row("", "BM_ok", {1000, 1010, 1020, 1030}, {1001, 1011, 1021, 1031}, 0.05, 0.95));
  r.benchmarks.push_back(
      report::judged_row("", "BM_µslow", {1.5e6, 1.51e6, 1.52e6, 1.53e6}, {2e6, 2.01e6, 2.02e6, 2.03e6}, 0.05, 0.95));
  r.benchmarks.push_back(report::judged_row("", "BM_two", {5, 6}, {5, 6}, 0.05, 0.95));
  r.benchmarks.push_back(report::judged_row("", "BM_tied", {7}, {7}, 0.05, 0.95));
  r.added.push_back({"", "BM_new"});
  r.removed.push_back({"", "BM_gone"});
  return r;
}

TEST(RenderTable, RegressionsFirstAndColumnsAligned) {
  auto lines = lines_of(report::render_table(small_report(), false));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines[0].find("benchmark"), 0u);
  EXPECT_EQ(lines[1].find("BM_µslow"), 0u);  // the regression leads
  EXPECT_NE(lines[1].find("regression"), std::string::npos);
  size_t verdict_column = display_column(lines[0], "verdict");
  for (int i = 1; i <= 3; ++i) {
    size_t c = std::min({display_column(lines[i], "pass"), display_column(lines[i], "regression"),
                         display_column(lines[i], "inconclusive")});
    EXPECT_EQ(c, verdict_column) << lines[i];
  }
  // Right-aligned medians end where the header ends.
  size_t median_end = display_column(lines[0], "base median") + std::string("base median").size();
  EXPECT_EQ(display_column(lines[1], "1.51 ms") + 7, median_end) << lines[1];
}

TEST(RenderTable, UnitsCIAndNotes) {
  std::string text = report::render_table(small_report(), false);
  EXPECT_NE(text.find("1.51 ms"), std::string::npos);
  EXPECT_NE(text.find("2.02 ms"), std::string::npos);
  EXPECT_NE(text.find("1.02 µs"), std::string::npos);
  EXPECT_NE(text.find("needs ≥ 4 runs per side"), std::string::npos);
  EXPECT_NE(text.find("95% CI"), std::string::npos);
  EXPECT_NE(text.find("added, head only (1): BM_new"), std::string::npos);
  EXPECT_NE(text.find("removed, base only (1): BM_gone"), std::string::npos);
  EXPECT_NE(text.find("regression: CI above 1.050"), std::string::npos);
  EXPECT_NE(text.find("exact"), std::string::npos);
}

// The "test" column names how the CI was computed; a 1/1 tied row has none.
TEST(RenderTable, TestColumnIsADashWithoutAnInterval) {
  auto lines = lines_of(report::render_table(small_report(), false));
  size_t test_column = display_column(lines[0], "test");
  auto cell = [&](const std::string& name) {
    for (const auto& line : lines)
      if (line.find(name + " ") == 0) {
        size_t byte = 0;
        for (size_t column = 0; column < test_column && byte < line.size(); ++byte) column += (line[byte] & 0xC0) != 0x80;
        while (byte < line.size() && (line[byte] & 0xC0) == 0x80) ++byte;
        return line.substr(byte, line.find(' ', byte) - byte);
      }
    return std::string("(no row)");
  };
  EXPECT_EQ(cell("BM_ok"), "exact");
  EXPECT_EQ(cell("BM_tied"), "-");
  EXPECT_EQ(cell("BM_two"), "-");
}

TEST(RenderTable, ColourOnlyWhenAsked) {
  EXPECT_EQ(report::render_table(small_report(), false).find('\033'), std::string::npos);
  std::string coloured = report::render_table(small_report(), true);
  EXPECT_NE(coloured.find("\033[1;31mregression"), std::string::npos);
}

TEST(RenderTable, TargetColumnWhenRowsHaveTargets) {
  auto lines = lines_of(report::render_table(cobench::testing::sample_run_report(), false));
  EXPECT_EQ(lines[0].find("target"), 0u);
}

TEST(RenderTable, LayoutWarningsOfTargetsFollowTheTable) {
  std::string text = report::render_table(cobench::testing::sample_run_report(), false);
  EXPECT_NE(text.find("warning: bench_gemm: 2 benchmark families in one TU: gemm.cpp\n"), std::string::npos) << text;
}

TEST(RenderTable, WhereTheJobsTimeWentIsOneLine) {
  std::string text = report::render_table(cobench::testing::sample_run_report(), false);
  EXPECT_NE(text.find("time: configure 1.2 s, build 8.0 s, runs 20.5 s, machine control 4.0 s, analysis 50 ms "
                      "(33.8 s in all)\n"),
            std::string::npos)
      << text;
  report::Report untimed = cobench::testing::sample_run_report();
  untimed.phases.clear();  // a merged report: its shards' times are theirs
  EXPECT_EQ(report::render_table(untimed, false).find("time: "), std::string::npos);
}

TEST(RenderTable, EmptyReportSaysSo) {
  report::Report r;
  r.added.push_back({"", "BM_only_head"});
  std::string text = report::render_table(r, false);
  EXPECT_NE(text.find("no benchmark present on both sides"), std::string::npos);
}

TEST(RenderTable, ControlCharactersInNamesCannotDriveTheTerminal) {
  report::Report r;
  // ESC [2J clears a screen; U+009B is the one-byte CSI; a newline would break the row.
  const std::string nasty = "BM_\x1b[2J\x1b]0;pwned\x07name\xc2\x9b" "31m\nnext";
  r.benchmarks.push_back(cobench::testing::make_row("t\x1b[1m", nasty, verdict::Verdict::Pass, 1.0, 0.99, 1.01));
  r.added.push_back({"", "BM_\x1b[31madded"});
  r.notes.push_back("note with \x1b[5m blink");
  const std::string text = report::render_table(r, true);  // even with colour on: only cobench's own codes
  for (const std::string& line : lines_of(text)) {
    std::string without_own = line;
    for (const char* own : {"\033[1;31m", "\033[33m", "\033[32m", "\033[0m"})
      for (size_t at = without_own.find(own); at != std::string::npos; at = without_own.find(own))
        without_own.erase(at, std::string(own).size());
    EXPECT_EQ(without_own.find('\x1b'), std::string::npos) << line;
    EXPECT_EQ(without_own.find("\xc2\x9b"), std::string::npos) << line;
    EXPECT_EQ(without_own.find('\x07'), std::string::npos) << line;
  }
  EXPECT_NE(text.find("BM_\xEF\xBF\xBD[2J"), std::string::npos) << text;  // shown, as U+FFFD
  EXPECT_EQ(text.find("\nnext"), std::string::npos);  // one row stays one line
}
