// report.html: one self-contained page (inline CSS and SVG, no network) that
// shows each benchmark's spread, not just its ratio. It is also well-formed
// XML (polyglot markup), so tools and tests can parse it with an XML parser.
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/escape.h"
#include "report/selection_text.h"
#include "report/report.h"
#include "report/summary.h"
#include "report/svg_plot.h"

namespace cobench::report {
namespace {

constexpr const char* kStyle = R"css(
:root { --regression: #c62828; --inconclusive: #b7791f; --pass: #2e7d32; --faster: #1565c0; --muted: #5f6b7a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #1f2328;
       margin: 0 auto; padding: 16px 24px; max-width: 1400px; background: #fff; }
h1 { font-size: 20px; margin: 0 0 6px; }
.meta { color: var(--muted); margin: 4px 0 12px; }
.chip { display: inline-block; padding: 2px 10px; border-radius: 12px; color: #fff; font-weight: 600; margin-right: 6px; }
.chip.regression { background: var(--regression); } .chip.inconclusive { background: var(--inconclusive); }
.chip.pass { background: var(--pass); } .chip.faster { background: var(--faster); }
.chip.unrelated { background: var(--muted); } .chip.layout { background: var(--inconclusive); }
.warnings { background: #fff8e1; border-left: 4px solid var(--inconclusive); padding: 6px 12px 6px 28px; }
table.benchmarks { border-collapse: collapse; width: 100%; margin: 12px 0; }
table.benchmarks th, table.benchmarks td { border-bottom: 1px solid #d8dee4; padding: 4px 8px; text-align: left; vertical-align: middle; }
table.benchmarks th { background: #f6f8fa; position: sticky; top: 0; font-size: 12px; }
td.name { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; overflow-wrap: break-word; max-width: 28em; }
td.target { color: var(--muted); font-size: 12px; }
td.n { white-space: nowrap; } td.ratio { min-width: 10em; font-variant-numeric: tabular-nums; }
tr.regression td.verdict { color: var(--regression); font-weight: 700; }
tr.inconclusive td.verdict { color: var(--inconclusive); font-weight: 700; }
tr.pass td.verdict { color: var(--pass); } tr.faster td.verdict { color: var(--faster); font-weight: 700; }
tr.unrelated td.verdict { color: var(--muted); font-weight: 700; }
tr.layout td.verdict { color: var(--inconclusive); font-weight: 700; }
tr.regression { background: #fdecea; }
td.notes { font-size: 12px; color: var(--muted); max-width: 24em; }
.failed { color: var(--regression); }
svg.plot { display: block; }
svg .label, svg .tick { font: 10px system-ui, sans-serif; fill: var(--muted); }
svg line.one { stroke: #1f2328; stroke-width: 1; }
svg line.budget { stroke: var(--regression); stroke-width: 1; stroke-dasharray: 3 2; }
svg circle.base { fill: #8c959f; fill-opacity: .75; }
svg circle.head { fill-opacity: .8; }
svg circle.off { stroke: #1f2328; stroke-width: 1; }
svg .regression { fill: var(--regression); } svg .inconclusive { fill: var(--inconclusive); }
svg .pass { fill: var(--pass); } svg .faster { fill: var(--faster); } svg .unrelated { fill: var(--muted); }
svg .layout { fill: var(--inconclusive); }
svg rect.ci { fill-opacity: .55; }
svg circle.estimate { fill: #1f2328; }
details { margin: 10px 0; } summary { cursor: pointer; font-weight: 600; }
dl { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; font-size: 12px; }
dt { color: var(--muted); } dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
@media print {
  body { font-size: 10pt; padding: 0; max-width: none; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  table.benchmarks th { position: static; }
  tr { break-inside: avoid; }
  details > summary { list-style: none; }
}
)css";

std::string tag(const std::string& name, const std::string& cls, const std::string& content) {
  return fmt::format("<{} class=\"{}\">{}</{}>", name, cls, content, name);
}

std::string summary(const Report& report, const std::vector<BenchmarkRow>& rows) {
  VerdictCounts counts = count_verdicts(rows);
  std::string out = "<header><h1>cobench: " + escape_xml(counts_phrase(counts)) + "</h1><p>";
  out += tag("span", "chip regression", fmt::format("{} regression{}", counts.regression, counts.regression == 1 ? "" : "s"));
  out += tag("span", "chip inconclusive", fmt::format("{} inconclusive", counts.inconclusive));
  out += tag("span", "chip pass", fmt::format("{} pass", counts.pass));
  if (counts.faster > 0) out += tag("span", "chip faster", fmt::format("{} faster", counts.faster));
  if (counts.unrelated > 0)
    out += tag("span", "chip unrelated",
               fmt::format("{} unrelated change{}", counts.unrelated, counts.unrelated == 1 ? "" : "s"));
  if (counts.layout_sensitive > 0)
    out += tag("span", "chip layout", fmt::format("{} layout-sensitive", counts.layout_sensitive));
  std::vector<std::string> facts = {budget_phrase(report), "metric " + report.metric};
  if (std::string runs = runs_per_side(report); !runs.empty()) facts.push_back(runs + " runs per side");
  if (auto controls = control_intervals(report)) facts.push_back("controls " + *controls);
  if (std::string sides = sides_phrase(report); !sides.empty()) facts.push_back(sides);
  std::string meta;
  for (const auto& fact : facts) meta += (meta.empty() ? "" : " · ") + escape_xml(fact);
  out += "</p>" + tag("p", "meta", meta);
  std::string warnings;
  for (const auto& note : report.notes) warnings += "<li>" + escape_xml(note) + "</li>";
  if (std::string dropped = dropped_phrase(report); !dropped.empty()) warnings += "<li>" + escape_xml(dropped) + "</li>";
  for (const auto& target : report.targets)
    for (const auto& warning : target.warnings) warnings += "<li>" + escape_xml(target.name + ": " + warning) + "</li>";
  if (!warnings.empty()) out += tag("ul", "warnings", warnings);
  return out + "</header>\n";
}

std::string metric_cell(const std::optional<verdict::MedianJudgement>& metric) {
  return tag("td", "metric", escape_xml(metric_change(metric)));
}

/// A benchmark name that wraps after '/' and ',' ("BM_Log_float/" "1024"), never inside an argument.
std::string breakable_name(const std::string& name) {
  std::string out;
  for (char c : escape_xml(name)) {
    out += c;
    if (c == '/' || c == ',') out += "<wbr/>";
  }
  return out;
}

/// Which optional columns the table has.
struct Columns {
  bool targets = false;
  bool time = false;
  bool instructions = false;
  bool allocs = false;
  bool reach = false;
};

std::string row_html(const BenchmarkRow& row, const std::string& control, const PlotScale& scale, int decimals,
                     const Columns& columns) {
  std::string cls = verdict_class(row);
  std::string out = "<tr class=\"" + cls + "\" data-benchmark=\"" + escape_xml(row.name) + "\" data-target=\"" +
                    escape_xml(row.target) + "\" data-verdict=\"" + cls + "\">";
  if (columns.targets) out += tag("td", "target", escape_xml(row.target));
  out += tag("td", "name", breakable_name(row.name) + (control.empty() ? "" : " <em>(" + escape_xml(control) + ")</em>"));
  if (columns.time) {
    out += tag("td", "ratio", escape_xml(format_ratio_ci(row, decimals)));
    out += tag("td", "plot", svg_strip_plot(row, scale, decimals));
  }
  if (columns.instructions)
    out += tag("td", "instructions",
               escape_xml(instructions_summary(row, decimals)) + "<br/><small>" + escape_xml(cache_phrase(row)) +
                   "</small>");
  out += tag("td", "verdict", escape_xml(verdict_text(row)));
  if (columns.time) out += tag("td", "n", escape_xml(samples_per_side(row)));
  if (columns.allocs) out += metric_cell(row.allocs) + metric_cell(row.bytes);
  if (columns.reach) out += tag("td", "reach", escape_xml(change_reach_cell(row)));
  std::string notes = escape_xml(row_remarks(row));
  if (!row.failed_runs.empty()) notes = tag("span", "failed", notes);
  return out + tag("td", "notes", notes) + "</tr>\n";
}

std::string table_html(const Report& report, const std::vector<BenchmarkRow>& rows) {
  Columns columns;
  for (const auto& row : rows) {
    columns.targets |= !row.target.empty();
    columns.time |= row.time_measured;
    columns.instructions |= row.instructions.has_value();
    columns.allocs |= row.allocs.has_value() || row.bytes.has_value();
    columns.reach |= row.reach.has_value();
  }
  columns.time |= !columns.instructions;
  int decimals = ratio_decimals(report);
  std::string out = "<table class=\"benchmarks\"><thead><tr>";
  if (columns.targets) out += "<th>Target</th>";
  out += "<th>Benchmark</th>";
  if (columns.time)
    out += fmt::format("<th>Head/base [{}]</th>"
                       "<th>Samples ÷ base median (grey: base) · CI vs 1.0 and budget (per-row scale)</th>",
                       escape_xml(ci_title(report)));
  if (columns.instructions) out += "<th>Instructions head/base · caches</th>";
  out += "<th>Verdict</th>";
  if (columns.time) out += "<th>n base/head</th>";
  if (columns.allocs) out += "<th>Allocs/op</th><th>Bytes/op</th>";
  if (columns.reach) out += "<th>Reach</th>";
  out += "<th>Notes</th></tr></thead>\n<tbody>\n";
  for (const auto& row : rows)
    out += row_html(row, control_label(report, row), plot_scale({row}), decimals, columns);
  return out + "</tbody></table>\n";
}

std::string one_sided_html(const char* label, const std::vector<OneSided>& benchmarks) {
  if (benchmarks.empty()) return "";
  std::string items;
  for (const auto& b : benchmarks) items += "<li>" + escape_xml(b.target.empty() ? b.name : b.target + ": " + b.name) + "</li>";
  return fmt::format("<h2>{} ({})</h2><ul>{}</ul>\n", label, benchmarks.size(), items);
}

std::string failed_runs_html(const std::vector<BenchmarkRow>& rows) {
  std::string items;
  for (const auto& row : rows)
    for (const auto& failed : row.failed_runs) {
      // Only relative paths become links: a scheme ("javascript:", "http:") never does.
      std::string log;
      if (!failed.log.empty() && failed.log.find(':') == std::string::npos)
        log = " — <a href=\"" + escape_xml(failed.log) + "\">" + escape_xml(failed.log) + "</a>";
      else if (!failed.log.empty())
        log = " — " + escape_xml(failed.log);
      items += "<li>" + escape_xml(fmt::format("{} — {} run {}: {}", row.target.empty() ? row.name : row.target + ": " + row.name,
                                               failed.side, failed.run, failed.cause)) +
               log + "</li>";
    }
  return items.empty() ? "" : "<details open=\"open\"><summary>Failed runs</summary><ul>" + items + "</ul></details>\n";
}

std::string definitions(const nlohmann::json& object) {
  std::string out;
  if (!object.is_object()) return out;
  for (const auto& [key, value] : object.items())
    out += "<dt>" + escape_xml(key) + "</dt><dd>" + escape_xml(value_text(value)) + "</dd>";
  return out.empty() ? out : "<dl>" + out + "</dl>";
}

std::string method_html(const Report& report) {
  std::string out;
  for (const auto& sentence : method_sentences(report)) out += "<p>" + escape_xml(sentence) + "</p>";
  out += "<p>Each plot has its own logarithmic axis: the gap between the 1.00 and the budget line is the budget.</p>";
  if (std::string host = definitions(report.host); !host.empty()) out += "<h3>Host</h3>" + host;
  if (std::string settings = definitions(report.settings); !settings.empty()) out += "<h3>Settings</h3>" + settings;
  return "<details><summary>" + details_title(report) + "</summary>" + out +
         "</details>\n";
}

}  // namespace

std::string render_html(const Report& report) {
  std::vector<BenchmarkRow> rows = sorted_rows(report);
  std::string title = "cobench: " + counts_phrase(count_verdicts(rows));
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/>"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/><title>" +
                    escape_xml(title) + "</title><style>" + kStyle + "</style></head>\n<body>\n";
  out += summary(report, rows);
  out += rows.empty() ? "<p>No benchmarks were compared.</p>\n" : table_html(report, rows);
  out += one_sided_html("New on head, not compared", report.added);
  out += one_sided_html("Gone from head, not compared", report.removed);
  out += failed_runs_html(rows);
  std::string selection;
  for (const auto& line : selection_lines(report)) selection += "<li>" + escape_xml(line) + "</li>";
  if (!selection.empty()) out += "<details><summary>Selection</summary><ul>" + selection + "</ul></details>\n";
  out += method_html(report);
  return out + "</body></html>\n";
}

}  // namespace cobench::report
