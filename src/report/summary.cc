#include "report/summary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cobench::report {

VerdictCounts count_verdicts(const std::vector<BenchmarkRow>& rows) {
  VerdictCounts counts;
  for (const auto& row : rows) {
    if (row.is_control) continue;  // a control bounds the others; its own verdict is not an answer
    switch (row.verdict) {
      case stats::Verdict::Regression: ++counts.regression; break;
      case stats::Verdict::Inconclusive: ++counts.inconclusive; break;
      case stats::Verdict::Pass: ++counts.pass; break;
    }
    if (row.verdict == stats::Verdict::Pass && row.time.faster) ++counts.faster;
  }
  return counts;
}

std::string counts_phrase(const VerdictCounts& counts) {
  std::string text = fmt::format("{} regression{}, {} inconclusive, {} pass", counts.regression,
                                 counts.regression == 1 ? "" : "s", counts.inconclusive, counts.pass);
  if (counts.faster > 0) text += fmt::format(" ({} faster)", counts.faster);
  return text;
}

std::vector<BenchmarkRow> sorted_rows(const Report& report) {
  std::vector<BenchmarkRow> rows = report.benchmarks;
  sort_rows(rows);
  return rows;
}

std::string short_sha(const std::string& sha) {
  bool hex = sha.size() >= 12 && std::all_of(sha.begin(), sha.end(), [](unsigned char c) { return std::isxdigit(c); });
  return hex ? sha.substr(0, 10) : sha;
}

int ratio_decimals(const Report& report) { return report.budget < 0.02 ? 3 : 2; }

std::string format_ratio(double ratio, int decimals) {
  if (!std::isfinite(ratio)) return "?";
  return fmt::format("{:.{}f}", ratio, decimals);
}

std::string format_ratio_ci(const BenchmarkRow& row, int decimals) {
  if (!row.time.compared) return "–";
  const auto& e = row.time.estimate;
  std::string ratio = format_ratio(e.ratio, decimals) + "×";
  if (!e.ci_reachable || !std::isfinite(e.ci_low) || !std::isfinite(e.ci_high)) {
    if (e.runs_needed > 0) return fmt::format("{} (CI needs ≥ {} runs per side)", ratio, e.runs_needed);
    return ratio + " (no CI)";
  }
  return fmt::format("{} [{}, {}]", ratio, format_ratio(e.ci_low, decimals), format_ratio(e.ci_high, decimals));
}

std::string format_budget(double budget) { return fmt::format("+{:g}%", budget * 100); }

std::string budget_phrase(const Report& report) {
  long own = std::count_if(report.benchmarks.begin(), report.benchmarks.end(),
                           [&](const BenchmarkRow& row) { return std::abs(row.budget - report.budget) > 1e-12; });
  std::string text = fmt::format("budget {} (head/base ≤ {:g}, {:g}% confidence", format_budget(report.budget),
                                 1 + report.budget, report.confidence * 100);
  if (own > 0) text += fmt::format("; {} benchmark{} with {} own budget", own, own == 1 ? "" : "s", own == 1 ? "its" : "their");
  return text + ")";
}

std::string runs_per_side(const Report& report) {
  int low = 0, high = 0;
  for (const auto& row : report.benchmarks) {
    for (int runs : {row.runs_base, row.runs_head}) {
      if (runs <= 0) continue;
      low = low == 0 ? runs : std::min(low, runs);
      high = std::max(high, runs);
    }
  }
  if (high == 0) return "";
  return low == high ? std::to_string(low) : fmt::format("{}–{}", low, high);
}

std::string samples_per_side(const BenchmarkRow& row) {
  return fmt::format("{}/{}", row.base_samples.size(), row.head_samples.size());
}

std::optional<std::string> control_spread(const Report& report) {
  if (report.controls.empty()) return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& c : report.controls) parts.push_back(fmt::format("±{:.1f}% ({}: {})", c.spread * 100, c.kind, c.name));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string control_label(const Report& report, const BenchmarkRow& row) {
  if (!row.is_control) return "";
  if (row.shard == 0) return "control";
  return fmt::format("control, shard {}/{}", row.shard, report.shards.size());
}

std::string verdict_text(const BenchmarkRow& row) {
  std::string text = stats::to_string(row.verdict);
  if (row.verdict == stats::Verdict::Pass && row.time.faster) text += ", faster";
  return text;
}

std::string verdict_class(const BenchmarkRow& row) {
  if (row.verdict == stats::Verdict::Pass && row.time.faster) return "faster";
  return stats::to_string(row.verdict);
}

std::string metric_change(const std::optional<verdict::MedianJudgement>& measured) {
  if (!measured) return "";
  const verdict::MedianJudgement& metric = *measured;
  double delta = metric.head_median - metric.base_median;
  std::string text = fmt::format("{:g} → {:g}", metric.base_median, metric.head_median);
  if (delta != 0) text += fmt::format(" ({:+g})", delta);
  if (metric.judged() && metric.verdict == stats::Verdict::Regression) text += " ✗";
  return text;
}

std::string failed_runs_phrase(const BenchmarkRow& row) {
  std::string text;
  for (const char* side : {"base", "head"}) {
    std::map<std::string, int> causes;
    for (const auto& failed : row.failed_runs)
      if (failed.side == side) ++causes[failed.cause.empty() ? "failed" : failed.cause];
    if (causes.empty()) continue;
    if (!text.empty()) text += "; ";
    text += fmt::format("{} failed:", side);
    bool first = true;
    for (const auto& [cause, count] : causes) {
      text += fmt::format("{} {} ×{}", first ? "" : ",", cause, count);
      first = false;
    }
    int runs = std::string(side) == "base" ? row.runs_base : row.runs_head;
    if (runs > 0) text += fmt::format(" of {} runs", runs);
  }
  return text;
}

std::string reach_phrase(const BenchmarkRow& row) {
  const auto& t = row.time;
  if (!t.compared) return "";
  std::vector<std::string> parts;
  if (std::isfinite(t.noise)) parts.push_back(fmt::format("noise ±{:.1f}% per run", t.noise * 100));
  if (std::isfinite(row.within_sd) && std::isfinite(row.between_sd))
    parts.push_back(fmt::format("{:.1f}% within a process, {:.1f}% between processes, {:g} repetitions",
                                row.within_sd * 100, row.between_sd * 100, row.repetitions));
  if (std::isfinite(t.detectable)) parts.push_back(fmt::format("could catch ≥ {:.1f}%", t.detectable * 100));
  if (t.runs_to_decide > 1000) parts.push_back("more than 1000 runs per side to decide");
  else if (t.runs_to_decide > 0) parts.push_back(fmt::format("~{} runs per side to decide", t.runs_to_decide));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string row_remarks(const BenchmarkRow& row) {
  // `run` already words its failures into the note ("head crashed (SIGSEGV) in 2/6 runs").
  std::string text = row.note.empty() ? failed_runs_phrase(row) : row.note;
  if (row.verdict == stats::Verdict::Inconclusive)
    if (std::string reach = reach_phrase(row); !reach.empty()) text += (text.empty() ? "" : "; ") + reach;
  return text;
}

std::string ci_title(const Report& report) {
  std::set<double> levels;
  for (const auto& row : report.benchmarks)
    if (row.time.compared) levels.insert(row.time.estimate.confidence);
  if (levels.size() > 1) return "CI (level by look)";
  return fmt::format("{:g}% CI", (levels.empty() ? report.confidence : *levels.begin()) * 100);
}

std::vector<std::string> method_sentences(const Report& report) {
  const std::string metric = report.metric == "auto"
                                 ? "of each row's metric (auto: cpu_time for single-threaded benchmarks, real_time "
                                   "otherwise)"
                                 : report.metric;
  std::vector<std::string> out = {fmt::format(
      "Ratio: Hodges-Lehmann estimate of head/base {}: for paired runs (base and head of one run index, back to back) "
      "the median of the Walsh averages of their log ratios with the Wilcoxon signed-rank interval, for independent "
      "runs the median of all pairwise ratios with the Mann-Whitney interval (exact, or the normal approximation "
      "for ties or 50+; each row names its test). Regression: the whole interval lies above {:g}; pass: at or below "
      "it; inconclusive: it straddles it; faster: it lies below 1.",
      metric, 1 + report.budget)};
  out.push_back(report.look_rule.empty() ? fmt::format("Looks: one, at {:g}% confidence.", report.confidence * 100)
                                         : "Looks: " + report.look_rule + ".");
  if (report.tool == "run")
    out.push_back("Runs: base and head were built in two worktrees and run interleaved on one machine "
                  "(base, head, head, base, …), one pinned process per run.");
  for (const auto& target : report.targets)
    if (!target.alloc_status.empty()) out.push_back(fmt::format("Allocations, {}: {}", target.name, target.alloc_status));
  return out;
}

std::string details_title(const Report& report) {
  return report.host.is_object() && !report.host.empty() ? "Host and method" : "Method";
}

std::string sides_phrase(const Report& report) {
  if (report.base.empty() && report.head.empty()) return "";
  if (report.tool == "compare") return fmt::format("{} vs {}", report.base, report.head);
  return fmt::format("{}…{}", short_sha(report.base), short_sha(report.head));
}

}  // namespace cobench::report
