// render_table: the terminal view of a report, regressions first, columns
// aligned by display width (names and notes may hold UTF-8).
#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "report/escape.h"
#include "report/report.h"
#include "report/selection_text.h"
#include "report/summary.h"
#include "verdict/verdict.h"

namespace cobench::report {
namespace {

size_t display_width(const std::string& text) {
  // Count code points, not bytes: UTF-8 continuation bytes are 10xxxxxx.
  return std::count_if(text.begin(), text.end(), [](char c) { return (c & 0xC0) != 0x80; });
}

/// 1234.5 ns -> "1.23 µs": three significant digits in the largest unit that keeps the value >= 1.
std::string format_time(double ns) {
  if (!std::isfinite(ns)) return "-";
  static const std::pair<double, const char*> units[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
  for (const auto& [scale, unit] : units)
    if (std::fabs(ns) >= scale || scale == 1) {
      double v = ns / scale;
      return fmt::format("{:.{}f} {}", v, v >= 100 ? 0 : v >= 10 ? 1 : 2, unit);
    }
  return "-";
}

std::string terminal_ratio(double value) { return std::isfinite(value) ? fmt::format("{:.3f}", value) : "-"; }

std::string terminal_verdict(const BenchmarkRow& row) {
  std::string text = verdict::to_string(row.verdict);
  // A layout-sensitive row's first layout may read faster: its layouts say so in the note.
  return row.verdict != verdict::Verdict::LayoutSensitive && is_faster(row) ? text + " (faster)" : text;
}

const char* verdict_colour(const BenchmarkRow& row) {
  switch (row.verdict) {
    case verdict::Verdict::Regression: return "\033[1;31m";
    case verdict::Verdict::Inconclusive:
    case verdict::Verdict::LayoutSensitive: return "\033[33m";
    case verdict::Verdict::Unrelated: return "\033[2m";  // dim: measured, but not about the change
    case verdict::Verdict::Pass: break;
  }
  return "\033[32m";
}

struct Cell {
  Cell(std::string_view content, const char* colour_prefix = nullptr)
      : text(sanitize_text(content, true)), colour(colour_prefix) {}  // names come from user code
  std::string text;
  const char* colour = nullptr;  // ANSI prefix, applied around the padded text
};

/// One column of the terminal table: its title, whether it holds numbers (right-aligned), its cell.
struct TerminalColumn {
  std::string title;
  bool numeric = false;
  std::function<Cell(const BenchmarkRow&)> cell;
};

std::vector<TerminalColumn> terminal_columns(const Report& report, const std::vector<BenchmarkRow>& rows) {
  const bool with_target = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return !r.target.empty(); });
  const bool with_time = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.time_measured; });
  const bool with_instructions = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.instructions; });
  std::vector<TerminalColumn> columns;
  if (with_target) columns.push_back({"target", false, [](const BenchmarkRow& r) { return Cell(r.target); }});
  // A merged report holds one control per shard: say whose.
  columns.push_back({"benchmark", false, [&report](const BenchmarkRow& r) {
                       return Cell(r.shard > 0 && r.is_control ? r.name + " (" + control_label(report, r) + ")" : r.name);
                     }});
  if (with_time) {
    if (report.metric == "auto")  // each row says which time it was judged on
      columns.push_back({"metric", false, [](const BenchmarkRow& r) { return Cell(r.metric.empty() ? "-" : r.metric); }});
    columns.push_back({"n base/head", true, [](const BenchmarkRow& r) {
                         return Cell(fmt::format("{}/{}", r.base_samples.size(), r.head_samples.size()));
                       }});
    columns.push_back({"base median", true, [](const BenchmarkRow& r) { return Cell(format_time(r.base_median)); }});
    columns.push_back({"head median", true, [](const BenchmarkRow& r) { return Cell(format_time(r.head_median)); }});
    columns.push_back({"ratio", true, [](const BenchmarkRow& r) {
                         return Cell(r.time.compared ? terminal_ratio(r.time.estimate.ratio) : "-");
                       }});
    auto has_ci = [](const BenchmarkRow& r) { return r.time.compared && r.time.estimate.ci_reachable; };
    columns.push_back({ci_title(report), false, [has_ci](const BenchmarkRow& r) {
                         const auto& e = r.time.estimate;
                         return Cell(has_ci(r) ? fmt::format("[{}, {}]", terminal_ratio(e.ci_low), terminal_ratio(e.ci_high))
                                               : "-");
                       }});
    // The method names how the interval was computed: none, no method.
    columns.push_back({"test", false, [has_ci](const BenchmarkRow& r) {
                         return Cell(has_ci(r) ? stats::to_string(r.time.estimate.method) : "-");
                       }});
  }
  if (with_instructions) columns.push_back({"instructions head/base", false, [](const BenchmarkRow& r) {
                                              return Cell(r.instructions ? instructions_summary(r, 3) : "-");
                                            }});
  columns.push_back({"verdict", false, [](const BenchmarkRow& r) { return Cell(terminal_verdict(r), verdict_colour(r)); }});
  columns.push_back({"note", false, [](const BenchmarkRow& r) { return Cell(row_remarks(r)); }});
  return columns;
}

std::string render_rows(const std::vector<TerminalColumn>& columns, const std::vector<BenchmarkRow>& rows, bool color) {
  std::vector<std::vector<Cell>> table;
  table.emplace_back();
  for (const auto& column : columns) table.back().push_back(Cell(column.title));
  for (const auto& row : rows) {
    table.emplace_back();
    for (const auto& column : columns) table.back().push_back(column.cell(row));
  }
  std::vector<size_t> widths(columns.size(), 0);
  for (const auto& cells : table)
    for (size_t i = 0; i < cells.size(); ++i) widths[i] = std::max(widths[i], display_width(cells[i].text));
  std::string out;
  for (const auto& cells : table) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      std::string pad(widths[i] - display_width(cells[i].text), ' ');
      std::string text = columns[i].numeric ? pad + cells[i].text : cells[i].text + (i + 1 < cells.size() ? pad : "");
      if (color && cells[i].colour) text = std::string(cells[i].colour) + text + "\033[0m";
      line += (i ? "  " : "") + text;
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string list_line(const char* label, const std::vector<OneSided>& items) {
  std::string out = fmt::format("{} ({}):", label, items.size());
  for (const auto& item : items) out += " " + (item.target.empty() ? item.name : item.target + ":" + item.name);
  return sanitize_text(out, true) + "\n";
}

}  // namespace

std::string render_table(const Report& report, bool color) {
  std::vector<BenchmarkRow> rows = report.benchmarks;
  sort_rows(rows);
  std::string out;
  if (!rows.empty()) {
    out += render_rows(terminal_columns(report, rows), rows, color);
  } else {
    out += infrastructure_failures(report).empty() ? "no benchmark present on both sides\n" : "nothing was measured\n";
  }
  if (!report.added.empty()) out += list_line("added, head only", report.added);
  if (!report.removed.empty()) out += list_line("removed, base only", report.removed);
  for (const auto& note : report.notes) out += "note: " + sanitize_text(note, true) + "\n";
  // The selection printed these long before the table; a layout warning belongs next to the ratios it may explain.
  for (const auto& target : report.targets)
    for (const auto& warning : target.warnings)
      out += "warning: " + sanitize_text(target.name + ": " + warning, true) + "\n";
  out += "\n";
  if (std::any_of(rows.begin(), rows.end(), [](const auto& r) { return r.time_measured; }) || rows.empty()) {
    out += fmt::format(
        "ratio = head/base {} (Hodges-Lehmann estimate); CI: signed-rank interval for paired runs, Mann-Whitney for "
        "independent ones (exact, or normal with ties or 50+ runs; see test).\nregression: CI above {}; pass: CI at "
        "or below {}; inconclusive: CI straddles {} or too few runs. faster: CI below 1.\n",
        report.metric == "auto" ? "of each row's metric" : report.metric, terminal_ratio(verdict::budget_line(report.budget)),
        terminal_ratio(verdict::budget_line(report.budget)), terminal_ratio(verdict::budget_line(report.budget)));
    if (!report.look_rule.empty()) out += "looks: " + report.look_rule + "\n";
    if (!report.control_rule.empty()) out += "controls: " + report.control_rule + "\n";
    if (!report.layout_rule.empty()) out += "layouts: " + report.layout_rule + "\n";
    if (!report.run_length_rule.empty()) out += "run length: " + report.run_length_rule + "\n";
  }
  if (auto instructions = instructions_sentence(report)) out += *instructions + "\n";
  if (auto phases = phases_phrase(report)) out += "time: " + *phases + "\n";
  if (!report.reach_method.empty())
    out += "reach: " + report.reach_method + "\nunrelated change: does not execute the change; never gated.\n";
  // Why these targets: "13 of 49 targets reach the change, narrowed to 1 by --target ...", what was dropped.
  for (const auto& line : selection_lines(report))
    if (line.rfind("Selection: ", 0) == 0 || line.rfind("Dropped ", 0) == 0 || line.rfind("Reached but", 0) == 0 ||
        line.rfind("Narrowed away", 0) == 0)
      out += sanitize_text(line, true) + "\n";
  return out;
}

}  // namespace cobench::report
