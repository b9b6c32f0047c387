// report.md: the note a reviewer reads on the merge request or in the job
// summary. Every piece of user text goes through escape_markdown.
#include <functional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/escape.h"
#include "report/selection_text.h"
#include "report/report.h"
#include "report/spread_bar.h"
#include "report/summary.h"

namespace cobench::report {
namespace {

// Tables longer than this fold their passing rows into <details>.
constexpr size_t kFoldAbove = 10;

struct Column {
  std::string header;
  std::function<std::string(const BenchmarkRow&)> cell;
};

std::string verdict_cell(const BenchmarkRow& row) {
  std::string cls = verdict_class(row);
  const char* mark = cls == "regression" ? "🔴" : cls == "inconclusive" || cls == "layout" ? "🟡" : cls == "unrelated" ? "⚪" : "🟢";
  return fmt::format("{} {}", mark, verdict_text(row));
}

std::vector<Column> columns_for(const Report& report) {
  bool targets = false, allocs = false, bytes = false, instructions = false, time = false, reach = false;
  for (const auto& row : report.benchmarks) {
    targets |= !row.target.empty();
    instructions |= row.instructions.has_value();
    time |= row.time_measured;
    allocs |= row.allocs.has_value();
    bytes |= row.bytes.has_value();
    reach |= row.reach.has_value();
  }
  int decimals = ratio_decimals(report);
  std::vector<Column> columns;
  if (targets) columns.push_back({"Target", [](const BenchmarkRow& r) { return escape_markdown(r.target); }});
  columns.push_back({"Benchmark", [&report](const BenchmarkRow& r) {
                       const std::string control = control_label(report, r);
                       return escape_markdown(r.name) + (control.empty() ? "" : " *(" + control + ")*");
                     }});
  if (time || !instructions) {
    columns.push_back({fmt::format("Head/base [{}]", ci_title(report)),
                       [decimals](const BenchmarkRow& r) { return format_ratio_ci(r, decimals); }});
    columns.push_back({"Spread", [](const BenchmarkRow& r) {
                         std::string bar = spread_bar(r);
                         return bar.empty() ? std::string() : "`" + bar + "`";
                       }});
  }
  if (instructions) {
    columns.push_back({"Instructions head/base", [decimals](const BenchmarkRow& r) {
                         return escape_markdown(instructions_summary(r, decimals));
                       }});
    columns.push_back({"Caches", [](const BenchmarkRow& r) { return escape_markdown(cache_phrase(r)); }});
  }
  columns.push_back({"Verdict", verdict_cell});
  if (time || !instructions) columns.push_back({"n base/head", samples_per_side});
  if (reach) columns.push_back({"Reach", [](const BenchmarkRow& r) { return escape_markdown(change_reach_cell(r)); }});
  if (allocs) columns.push_back({"Allocs/op", [](const BenchmarkRow& r) { return metric_change(r.allocs); }});
  if (bytes) columns.push_back({"Bytes/op", [](const BenchmarkRow& r) { return metric_change(r.bytes); }});
  columns.push_back({"Notes", [](const BenchmarkRow& r) { return escape_markdown(row_remarks(r)); }});
  return columns;
}

std::string table(const std::vector<Column>& columns, const std::vector<BenchmarkRow>& rows) {
  std::string header = "|", rule = "|";
  for (const auto& column : columns) {
    header += " " + column.header + " |";
    rule += "---|";
  }
  std::string out = header + "\n" + rule + "\n";
  for (const auto& row : rows) {
    out += "|";
    for (const auto& column : columns) out += " " + column.cell(row) + " |";
    out += "\n";
  }
  return out;
}

std::string summary_line(const Report& report) {
  std::vector<std::string> parts;
  parts.push_back(escape_markdown(budget_phrase(report)));
  parts.push_back("metric " + escape_markdown(report.metric));
  if (std::string runs = runs_per_side(report); !runs.empty()) parts.push_back(runs + " runs per side");
  if (auto controls = control_intervals(report)) parts.push_back("controls " + escape_markdown(*controls));
  if (std::string sides = sides_phrase(report); !sides.empty()) parts.push_back(escape_markdown(sides));
  std::string line;
  for (const auto& part : parts) line += (line.empty() ? "" : " · ") + part;
  return line;
}

std::string warnings(const Report& report) {
  std::string out;
  for (const auto& note : report.notes) out += "> ⚠️ " + escape_markdown(note) + "\n>\n";
  if (std::string dropped = dropped_phrase(report); !dropped.empty()) out += "> ⚠️ " + escape_markdown(dropped) + "\n>\n";
  for (const auto& target : report.targets)
    for (const auto& warning : target.warnings)
      out += fmt::format("> ⚠️ {}: {}\n>\n", escape_markdown(target.name), escape_markdown(warning));
  if (!out.empty()) out.resize(out.size() - 2);  // drop the trailing ">\n" spacer
  return out.empty() ? out : out + "\n";
}

std::string one_sided(const char* label, const std::vector<OneSided>& benchmarks) {
  if (benchmarks.empty()) return "";
  std::string names;
  for (const auto& b : benchmarks)
    names += (names.empty() ? "" : ", ") + escape_markdown(b.target.empty() ? b.name : b.target + ": " + b.name);
  return fmt::format("**{}** ({}): {}\n\n", label, benchmarks.size(), names);
}

std::string details(const std::string& summary, const std::string& body) {
  return "<details><summary>" + summary + "</summary>\n\n" + body + "\n</details>\n\n";
}

std::string failed_runs(const std::vector<BenchmarkRow>& rows) {
  std::string list;
  for (const auto& row : rows)
    for (const auto& failed : row.failed_runs) {
      std::string who = escape_markdown(row.target.empty() ? row.name : row.target + ": " + row.name);
      list += fmt::format("- {} — {} run {}: {}", who, escape_markdown(failed.side), failed.run,
                          escape_markdown(failed.cause));
      if (!failed.log.empty()) list += " (log " + escape_markdown(failed.log) + ")";
      list += "\n";
    }
  return list.empty() ? "" : details("Failed runs", list);
}

// report.md is read on a merge request: a value longer than this is cut
// (report.json keeps it whole), and a list names this many items, then its size.
constexpr size_t kLongestValue = 160;
constexpr size_t kListedItems = 8;

// Keys of `report.settings` shown elsewhere in the note: the selection has its own section.
bool shown_elsewhere(const std::string& key) { return key == "selection" || key == "schema"; }

/// One value as short plain text: strings as they are, lists as "a, b, … (12 in all)",
/// objects as "key value; key value", nothing as "—".
std::string setting_text(const nlohmann::json& value) {
  if (value.is_null() || (value.is_string() && value.get<std::string>().empty())) return "—";
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array()) {
    if (value.empty()) return "none";
    std::string out;
    for (size_t i = 0; i < value.size() && i < kListedItems; ++i) out += (i ? ", " : "") + setting_text(value[i]);
    return value.size() > kListedItems ? fmt::format("{}, … ({} in all)", out, value.size()) : out;
  }
  if (value.is_object()) {
    std::string out;
    for (const auto& [key, item] : value.items()) out += (out.empty() ? "" : "; ") + key + " " + setting_text(item);
    return out.empty() ? "none" : out;
  }
  return value.dump();
}

/// `text` cut to about kLongestValue bytes at a character boundary, "…" marking the cut.
std::string shortened(std::string text) {
  if (text.size() <= kLongestValue) return text;
  size_t end = kLongestValue;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;  // not inside a UTF-8 sequence
  return text.substr(0, end) + "…";
}

/// A JSON object as a two-column table, one row per key; an object value gives
/// one row per member ("budget.time"), so no cell holds a JSON document.
std::string key_value_table(const nlohmann::json& object, const char* what) {
  if (!object.is_object()) return "";
  std::string rows;
  auto row = [&rows](const std::string& key, const nlohmann::json& value) {
    rows += "| " + escape_markdown(key) + " | " + escape_markdown(shortened(setting_text(value))) + " |\n";
  };
  for (const auto& [key, value] : object.items()) {
    if (shown_elsewhere(key)) continue;
    if (value.is_object() && !value.empty())
      for (const auto& [member, item] : value.items()) row(key + "." + member, item);
    else
      row(key, value);
  }
  return rows.empty() ? "" : fmt::format("| {} | value |\n|---|---|\n{}", what, rows);
}

std::string method(const Report& report) {
  std::string out;
  for (const auto& sentence : method_sentences(report)) out += "- " + escape_markdown(sentence) + "\n";
  out += "- Spread bar: " + spread_bar_legend() + ", each row on its own scale.\n";
  if (std::string host = key_value_table(report.host, "fact"); !host.empty()) out += "\n**Host**\n\n" + host;
  if (std::string settings = key_value_table(report.settings, "setting"); !settings.empty())
    out += "\n**Settings**\n\n" + settings;
  return out;
}

}  // namespace

std::string render_markdown(const Report& report) {
  std::vector<BenchmarkRow> rows = sorted_rows(report);
  std::string out = "### cobench: " + counts_phrase(count_verdicts(rows)) + "\n\n";
  out += summary_line(report) + "\n\n";
  out += warnings(report);
  if (!out.ends_with("\n\n")) out += "\n";

  std::vector<Column> columns = columns_for(report);
  std::vector<BenchmarkRow> shown, folded;
  for (const auto& row : rows)
    (rows.size() > kFoldAbove && row.verdict == verdict::Verdict::Pass && !is_faster(row) ? folded : shown).push_back(row);
  if (rows.empty()) out += "No benchmarks were compared.\n\n";
  if (!shown.empty()) out += table(columns, shown) + "\n";
  if (!folded.empty())
    out += details(fmt::format("{} passing benchmark{}", folded.size(), folded.size() == 1 ? "" : "s"),
                   table(columns, folded));

  out += one_sided("New on head, not compared", report.added);
  out += one_sided("Gone from head, not compared", report.removed);
  out += failed_runs(rows);
  std::string selection;
  for (const auto& line : selection_lines(report)) selection += "- " + escape_markdown(line) + "\n";
  if (!selection.empty()) out += details("Selection", selection);
  out += details(details_title(report), method(report));
  return out;
}

}  // namespace cobench::report
