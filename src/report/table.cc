// render_table: the terminal view of a report, regressions first, columns
// aligned by display width (names and notes may hold UTF-8).
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/escape.h"
#include "report/report.h"
#include "report/summary.h"

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
  std::string text = stats::to_string(row.verdict);
  return row.time.faster ? text + " (faster)" : text;
}

const char* verdict_colour(const BenchmarkRow& row) {
  switch (row.verdict) {
    case stats::Verdict::Regression: return "\033[1;31m";
    case stats::Verdict::Inconclusive: return "\033[33m";
    case stats::Verdict::Pass: break;
  }
  return "\033[32m";
}

struct Cell {
  Cell(std::string_view content, const char* colour_prefix = nullptr)
      : text(sanitize_text(content, true)), colour(colour_prefix) {}  // names come from user code
  std::string text;
  const char* colour = nullptr;  // ANSI prefix, applied around the padded text
};

std::vector<Cell> row_cells(const BenchmarkRow& row, bool with_target, bool with_metric) {
  const auto& e = row.time.estimate;
  std::vector<Cell> cells;
  if (with_target) cells.push_back({row.target});
  cells.push_back({row.name});
  if (with_metric) cells.push_back({row.metric.empty() ? "-" : row.metric});
  cells.push_back({fmt::format("{}/{}", row.base_samples.size(), row.head_samples.size())});
  cells.push_back({format_time(row.base_median)});
  cells.push_back({format_time(row.head_median)});
  cells.push_back({row.time.compared ? terminal_ratio(e.ratio) : "-"});
  bool has_ci = row.time.compared && e.ci_reachable;
  cells.push_back({has_ci ? fmt::format("[{}, {}]", terminal_ratio(e.ci_low), terminal_ratio(e.ci_high)) : "-"});
  // The method names how the interval was computed: none, no method.
  cells.push_back({has_ci ? stats::to_string(e.method) : "-"});
  cells.push_back({terminal_verdict(row), verdict_colour(row)});
  cells.push_back({row_remarks(row)});
  return cells;
}

std::string render_rows(const std::vector<std::vector<Cell>>& rows, bool color) {
  std::vector<size_t> widths(rows.front().size(), 0);
  for (const auto& row : rows)
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i].text));
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      size_t first_number = row.size() - 8;  // n, medians and ratio follow the name (and target)
      bool numeric = i >= first_number && i < first_number + 4;
      std::string pad(widths[i] - display_width(row[i].text), ' ');
      std::string text = numeric ? pad + row[i].text : row[i].text + (i + 1 < row.size() ? pad : "");
      if (color && row[i].colour) text = std::string(row[i].colour) + text + "\033[0m";
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
  bool with_target = std::any_of(rows.begin(), rows.end(), [](const auto& r) { return !r.target.empty(); });
  std::string out;
  if (!rows.empty()) {
    std::vector<std::vector<Cell>> table;
    std::vector<Cell> header;
    const bool with_metric = report.metric == "auto";  // each row says which time it was judged on
    if (with_target) header.push_back({"target"});
    header.push_back({"benchmark"});
    if (with_metric) header.push_back({"metric"});
    for (const char* title : {"n base/head", "base median", "head median", "ratio"}) header.push_back({title});
    header.push_back({ci_title(report)});
    for (const char* title : {"test", "verdict", "note"}) header.push_back({title});
    table.push_back(header);
    for (const auto& row : rows) table.push_back(row_cells(row, with_target, with_metric));
    out += render_rows(table, color);
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
  out += fmt::format(
      "\nratio = head/base {} (Hodges-Lehmann estimate); CI: signed-rank interval for paired runs, Mann-Whitney for "
      "independent ones (exact, or normal with ties or 50+ runs; see test).\nregression: CI above {}; pass: CI at "
      "or below {}; inconclusive: CI straddles {} or too few runs. faster: CI below 1.\n",
      report.metric == "auto" ? "of each row's metric" : report.metric, terminal_ratio(1 + report.budget),
      terminal_ratio(1 + report.budget), terminal_ratio(1 + report.budget));
  if (!report.look_rule.empty()) out += "looks: " + report.look_rule + "\n";
  return out;
}

}  // namespace cobench::report
