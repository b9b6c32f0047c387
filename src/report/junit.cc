// report.xml: one testsuite per target, one testcase per benchmark, in the
// common JUnit shape GitLab, Jenkins and GitHub test reporters read.
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "report/escape.h"
#include "report/report.h"
#include "report/selection_text.h"
#include "report/summary.h"
#include "verdict/verdict.h"

namespace cobench::report {
namespace {

struct Suite {
  std::string name;
  std::vector<BenchmarkRow> rows;
  std::vector<std::pair<const OneSided*, bool>> one_sided;  // (benchmark, added); skipped: nothing to compare
  std::string failure;  // every run of the target failed: one error case, nothing was measured
  int failures = 0, errors = 0, skipped = 0;
};

std::string attribute(const std::string& name, const std::string& value) {
  return fmt::format(" {}=\"{}\"", name, escape_xml(value));
}

std::string property(const std::string& name, const std::string& value) {
  return fmt::format("        <property{}{}/>\n", attribute("name", name), attribute("value", value));
}

// A row whose runs all failed on a side could not be measured: an error, not a skip.
bool is_error(const BenchmarkRow& row) { return !row.time.compared && !row.failed_runs.empty(); }

std::string suite_name(const Report& report, const std::string& target) {
  if (report.tool == "compare") return "compare";
  return target.empty() ? "cobench" : target;
}

std::string testcase(const Suite& suite, const BenchmarkRow& row, int decimals) {
  std::string out = "    <testcase" + attribute("name", row.name) + attribute("classname", "cobench." + suite.name) +
                    " time=\"0\">\n      <properties>\n";
  const auto& e = row.time.estimate;
  if (row.time.compared) {
    out += property("ratio", format_ratio(e.ratio, 4));
    if (e.ci_reachable) {
      out += property("ci_low", format_ratio(e.ci_low, 4));
      out += property("ci_high", format_ratio(e.ci_high, 4));
      out += property("method", stats::to_string(e.method));  // how the interval was computed
    }
    out += property("p_value", fmt::format("{:.4g}", e.p_value));
  }
  out += property("confidence", fmt::format("{:g}", e.confidence));
  out += property("budget", format_ratio(verdict::budget_line(row.budget), 4));
  out += property("n_base", std::to_string(row.base_samples.size()));
  out += property("n_head", std::to_string(row.head_samples.size()));
  out += property("verdict", verdict_text(row));
  if (row.instructions && row.instructions->compared) {
    const auto& j = *row.instructions;
    out += property("instructions_ratio", format_ratio(j.ratio, 4));
    out += property("instructions_low", format_ratio(j.low, 4));
    out += property("instructions_high", format_ratio(j.high, 4));
    out += property("instructions_per_iter", instruction_counts(row));
    out += property("estimated_cycles_ratio", format_ratio(j.cycles_ratio(), 4));
  }
  if (row.instructions) out += property("instructions_verdict", verdict::to_string(row.instructions->verdict));
  if (row.allocs) out += property("allocs_per_op", metric_change(row.allocs));
  if (row.bytes) out += property("bytes_per_op", metric_change(row.bytes));
  if (row.is_control) out += property("control", "true");
  if (row.reach) {
    out += property("reach", verdict::to_string(row.reach->status));
    out += property("changed_lines", std::to_string(row.reach->changed_lines));
    out += property("executed_changed_lines", std::to_string(row.reach->executed_changed_lines));
    if (!row.reach->reason.empty()) out += property("reach_reason", row.reach->reason);
  }
  if (!row.optimised_away.empty()) out += property("likely_optimised_away", row.optimised_away);
  out += "      </properties>\n";

  // The ratio of the metric that leads: time, or instructions (a job that counted only them, or --governing).
  std::string ratio = row.decided_by == "instructions" && row.instructions
                          ? "instructions " + verdict::format_instruction_ratio(*row.instructions, decimals)
                          : format_ratio_ci(row, decimals);
  std::string remarks = row_remarks(row);
  if (is_error(row)) {
    out += "      <error" + attribute("message", remarks) + attribute("type", "failed runs") + "/>\n";
  } else if (row.verdict == verdict::Verdict::Regression) {
    // "ratio 1.23× [1.19, 1.27] > budget 1.05", or the metric that broke its budget.
    std::string message = fmt::format("ratio {} > budget {}", ratio, format_ratio(verdict::budget_line(row.budget), decimals));
    if (row.decided_by != "time" && row.decided_by != "instructions" && !row.note.empty()) message = row.note;
    out += "      <failure" + attribute("message", message) + attribute("type", "regression") + ">" +
           escape_xml(remarks) + "</failure>\n";
  } else if (row.verdict == verdict::Verdict::Inconclusive) {
    std::string reason = remarks.empty() ? fmt::format("ratio {} straddles budget {}", ratio,
                                                       format_ratio(verdict::budget_line(row.budget), decimals))
                                         : remarks;
    out += "      <skipped" + attribute("message", "inconclusive: " + reason) + "/>\n";
  } else if (row.verdict == verdict::Verdict::LayoutSensitive) {
    out += "      <skipped" + attribute("message", "layout-sensitive: " + remarks) + "/>\n";
  }
  out += "      <system-out>" + escape_xml(fmt::format("{}: {} {}", row.name, ratio, verdict_text(row))) +
         (remarks.empty() ? "" : escape_xml("; " + remarks)) + "</system-out>\n";
  return out + "    </testcase>\n";
}

std::string one_sided_case(const Suite& suite, const OneSided& benchmark, bool added) {
  return "    <testcase" + attribute("name", benchmark.name) + attribute("classname", "cobench." + suite.name) +
         " time=\"0\">\n      <skipped" +
         attribute("message", added ? "only on head: new benchmark, not compared" : "only on base: removed, not compared") +
         "/>\n    </testcase>\n";
}

std::vector<Suite> group(const Report& report) {
  std::map<std::string, Suite> suites;
  for (auto& row : sorted_rows(report)) {
    Suite& suite = suites[suite_name(report, row.target)];
    suite.errors += is_error(row);
    suite.failures += !is_error(row) && row.verdict == verdict::Verdict::Regression;
    suite.skipped += !is_error(row) && (row.verdict == verdict::Verdict::Inconclusive ||
                                        row.verdict == verdict::Verdict::LayoutSensitive);
    suite.rows.push_back(std::move(row));
  }
  for (const auto& target : report.targets) {
    if (target.failure.empty()) continue;
    Suite& suite = suites[suite_name(report, target.name)];
    suite.failure = target.failure;
    ++suite.errors;
  }
  for (const auto* list : {&report.added, &report.removed})
    for (const auto& benchmark : *list) {
      Suite& suite = suites[suite_name(report, benchmark.target)];
      suite.one_sided.emplace_back(&benchmark, list == &report.added);
      ++suite.skipped;
    }
  std::vector<Suite> out;
  for (auto& [name, suite] : suites) {
    suite.name = name;
    out.push_back(std::move(suite));
  }
  return out;
}

std::string suite_output(const Report& report, const std::string& suite) {
  std::string text;
  for (const auto& note : report.notes) text += note + "\n";
  for (const auto& line : selection_lines(report)) text += line + "\n";
  for (const auto& target : report.targets) {
    if (suite_name(report, target.name) != suite) continue;
    for (const auto& warning : target.warnings) text += "warning: " + warning + "\n";
    if (!target.instructions_status.empty()) text += "instructions: " + target.instructions_status + "\n";
    if (!target.alloc_status.empty()) text += "allocations: " + target.alloc_status + "\n";
  }
  return text.empty() ? "" : "    <system-out>" + escape_xml(text) + "</system-out>\n";
}

}  // namespace

std::string render_junit(const Report& report) {
  std::vector<Suite> suites = group(report);
  int decimals = ratio_decimals(report);
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  std::string body;
  for (const auto& suite : suites) {
    int count = static_cast<int>(suite.rows.size() + suite.one_sided.size() + !suite.failure.empty());
    tests += count;
    failures += suite.failures;
    errors += suite.errors;
    skipped += suite.skipped;
    body += "  <testsuite" + attribute("name", suite.name) +
            fmt::format(" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"0\">\n", count,
                        suite.failures, suite.errors, suite.skipped);
    body += "    <properties>\n" + property("budget", format_budget(report.budget)) +
            property("metric", report.metric) + property("confidence", fmt::format("{:g}", report.confidence));
    if (!report.base.empty()) body += property("base", report.base);
    if (!report.head.empty()) body += property("head", report.head);
    body += "    </properties>\n";
    for (const auto& row : suite.rows) body += testcase(suite, row, decimals);
    for (const auto& [benchmark, added] : suite.one_sided) body += one_sided_case(suite, *benchmark, added);
    if (!suite.failure.empty())
      body += "    <testcase" + attribute("name", "every run") + attribute("classname", "cobench." + suite.name) +
              " time=\"0\">\n      <error" + attribute("message", suite.failure) +
              attribute("type", "nothing measured") + "/>\n    </testcase>\n";
    body += suite_output(report, suite.name) + "  </testsuite>\n";
  }
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"cobench\"" +
         fmt::format(" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"0\">\n", tests, failures,
                     errors, skipped) +
         body + "</testsuites>\n";
}

}  // namespace cobench::report
