#include "report/summary.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/note.h"
#include "core/parse.h"
#include "verdict/measures_nothing.h"
#include "verdict/verdict.h"

namespace cobench::report {

VerdictCounts count_verdicts(const std::vector<BenchmarkRow>& rows) {
  VerdictCounts counts;
  for (const auto& row : rows) {
    if (row.is_control) continue;  // a control bounds the others; its own verdict is not an answer
    switch (row.verdict) {
      case verdict::Verdict::Regression: ++counts.regression; break;
      case verdict::Verdict::Inconclusive: ++counts.inconclusive; break;
      case verdict::Verdict::Pass: ++counts.pass; break;
      case verdict::Verdict::Unrelated: ++counts.unrelated; break;
      case verdict::Verdict::LayoutSensitive: ++counts.layout_sensitive; break;
    }
    if (row.verdict == verdict::Verdict::Pass && is_faster(row)) ++counts.faster;
    if (!row.optimised_away.empty()) ++counts.optimised_away;
  }
  return counts;
}

std::string counts_phrase(const VerdictCounts& counts) {
  std::string text = fmt::format("{} regression{}, {} inconclusive, {} pass", counts.regression,
                                 counts.regression == 1 ? "" : "s", counts.inconclusive, counts.pass);
  if (counts.faster > 0) text += fmt::format(" ({} faster)", counts.faster);
  if (counts.unrelated > 0) text += fmt::format(", {} unrelated change{}", counts.unrelated, counts.unrelated == 1 ? "" : "s");
  if (counts.layout_sensitive > 0) text += fmt::format(", {} layout-sensitive", counts.layout_sensitive);
  if (counts.optimised_away > 0) text += fmt::format(", {} likely optimised away", counts.optimised_away);
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
                                 verdict::budget_line(report.budget), report.confidence * 100);
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

std::optional<std::string> control_intervals(const Report& report) {
  if (report.controls.empty()) return std::nullopt;
  std::vector<std::string> parts;
  for (const auto& c : report.controls)
    parts.push_back(fmt::format("{} {:.3f} [{:.3f}, {:.3f}] ({})", c.kind, c.ratio, c.ci_low, c.ci_high, c.name));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string control_label(const Report& report, const BenchmarkRow& row) {
  if (!row.is_control) return "";
  if (row.shard == 0) return "control";
  return fmt::format("control, shard {}/{}", row.shard, report.shards.size());
}

std::string verdict_text(const BenchmarkRow& row) {
  std::string text = verdict::to_string(row.verdict);
  if (row.verdict == verdict::Verdict::Pass && is_faster(row)) text += ", faster";
  return text;
}

std::string verdict_class(const BenchmarkRow& row) {
  if (row.verdict == verdict::Verdict::Pass && is_faster(row)) return "faster";
  if (row.verdict == verdict::Verdict::Unrelated) return "unrelated";
  if (row.verdict == verdict::Verdict::LayoutSensitive) return "layout";
  return verdict::to_string(row.verdict);
}

std::string metric_change(const std::optional<verdict::MedianJudgement>& measured) {
  if (!measured) return "";
  const verdict::MedianJudgement& metric = *measured;
  double delta = metric.head_median - metric.base_median;
  std::string text = fmt::format("{:g} → {:g}", metric.base_median, metric.head_median);
  if (delta != 0) text += fmt::format(" ({:+g})", delta);
  if (metric.judged() && metric.verdict == verdict::Verdict::Regression) text += " ✗";
  return text;
}

std::string failed_runs_phrase(const BenchmarkRow& row) {
  std::string text;
  for (const char* side : {"base", "head"}) {
    std::map<std::string, int> causes;
    for (const auto& failed : row.failed_runs)
      if (failed.side == side) ++causes[failed.cause.empty() ? "failed" : failed.cause];
    if (causes.empty()) continue;
    std::string clause = fmt::format("{} failed:", side);
    bool first = true;
    for (const auto& [cause, count] : causes) {
      clause += fmt::format("{} {} ×{}", first ? "" : ",", cause, count);
      first = false;
    }
    int runs = std::string(side) == "base" ? row.runs_base : row.runs_head;
    if (runs > 0) clause += fmt::format(" of {} runs", runs);
    append_note(text, clause);
  }
  return text;
}

std::string reach_phrase(const BenchmarkRow& row) {
  const auto& t = row.time;
  if (!t.compared) return "";
  std::vector<std::string> parts;
  if (std::isfinite(t.noise)) parts.push_back(fmt::format("noise ±{:.1f}% per pair", t.noise * 100));
  if (std::isfinite(row.within_sd) && std::isfinite(row.between_sd))
    parts.push_back(fmt::format("{:.1f}% within a process, {:.1f}% between processes, {:g} repetition{}",
                                row.within_sd * 100, row.between_sd * 100, row.repetitions,
                                row.repetitions == 1 ? "" : "s"));
  if (std::isfinite(t.detectable))
    parts.push_back(fmt::format("could catch ≥ {:.1f}% 9 times in 10", t.detectable * 100));
  // The projection is at the last look's level: on a row that has that many runs already (mostly one an
  // earlier look's stricter level held), "~6 runs per side to decide" beside 6/6 reads as a contradiction unless it
  // says so.
  if (t.runs_to_decide > 1000) parts.push_back("more than 1000 runs per side to decide");
  else if (t.runs_to_decide > 0 && t.runs_to_decide <= std::min(row.runs_base, row.runs_head))
    parts.push_back(fmt::format("~{} runs per side to decide at the last look's level", t.runs_to_decide));
  else if (t.runs_to_decide > 0) parts.push_back(fmt::format("~{} runs per side to decide", t.runs_to_decide));
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::string layouts_phrase(const BenchmarkRow& row) {
  if (row.layouts.size() < 2) return "";
  std::vector<std::string> parts;
  auto interval = [](const verdict::LayoutReading& r) {
    return std::isfinite(r.ci_low) && std::isfinite(r.ci_high) ? fmt::format(" [{:.3f}, {:.3f}]", r.ci_low, r.ci_high)
                                                               : std::string(" (no CI)");
  };
  for (const auto& r : row.layouts)
    parts.push_back(fmt::format("layout {} {}{} {}", r.layout, format_ratio(r.ratio, 3), interval(r), verdict::to_string(r.verdict)));
  std::string text = fmt::format("{}", fmt::join(parts, ", "));
  if (row.layout_outcome && *row.layout_outcome != verdict::LayoutOutcome::NeedsLayout)
    text += fmt::format(": {}", verdict::to_string(*row.layout_outcome));
  return text;
}

std::string row_remarks(const BenchmarkRow& row) {
  // `run` already words its failures into the note ("head crashed (SIGSEGV) in 2/6 runs").
  std::string text = row.note.empty() ? failed_runs_phrase(row) : row.note;
  // What each layout read is why a claim stands or not: first.
  prepend_note(text, layouts_phrase(row));
  if (row.reach && row.reach->status == verdict::ChangeReach::Status::Unknown && !row.reach->reason.empty())
    append_note(text, "reach unknown: " + row.reach->reason);
  if (!row.optimised_away.empty()) append_note(text, "likely optimised away: " + row.optimised_away);
  if (row.verdict == verdict::Verdict::Inconclusive) append_note(text, reach_phrase(row));
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
  std::vector<std::string> out;
  if (report.metric != "instructions") {  // a job that counted instructions only has no time to explain
    out.push_back(fmt::format(
      "Ratio: Hodges-Lehmann estimate of head/base {}: for paired runs (base and head of one run index, back to back) "
      "the median of the Walsh averages of their log ratios with the Wilcoxon signed-rank interval, for independent "
      "runs the median of all pairwise ratios with the Mann-Whitney interval (exact, or the normal approximation "
      "for ties or 50+; each row names its test). Regression: the whole interval lies above {:g}; pass: at or below "
      "it; inconclusive: it straddles it; faster: it lies below 1.",
      metric, verdict::budget_line(report.budget)));
    out.push_back(report.look_rule.empty() ? fmt::format("Looks: one, at {:g}% confidence.", report.confidence * 100)
                                           : "Looks: " + report.look_rule + ".");
  }
  if (report.tool == "run")
    out.push_back("Runs: base and head were built in two worktrees and run interleaved on one machine "
                  "(base, head, head, base, …), one pinned process per run.");
  if (auto instructions = instructions_sentence(report)) out.push_back("Instructions: " + *instructions);
  for (const auto& target : report.targets)
    if (!target.instructions_status.empty())
      out.push_back(fmt::format("Instructions, {}: {}", target.name, target.instructions_status));
  for (const auto& target : report.targets)
    if (!target.alloc_status.empty()) out.push_back(fmt::format("Allocations, {}: {}", target.name, target.alloc_status));
  if (!report.reach_method.empty()) out.push_back("Reach: " + report.reach_method);
  if (!report.control_rule.empty()) out.push_back("Controls: " + report.control_rule + ".");
  if (!report.layout_rule.empty()) out.push_back("Layouts: " + report.layout_rule + ".");
  if (!report.run_length_rule.empty()) out.push_back("Run length: " + report.run_length_rule + ".");
  for (const auto& target : report.targets)
    if (!target.run_length.empty()) out.push_back(fmt::format("Run length, {}: {}", target.name, target.run_length));
  if (auto phases = phases_phrase(report)) out.push_back("Time: " + *phases + ".");
  out.push_back(fmt::format("Likely optimised away: below {:g} ns per iteration, or time growing by less than ×{:g} "
                            "while an argument grows ×{:g} or more; flagged, not judged.",
                            verdict::kLeastWorkNs, verdict::kFlatTimeRatio, verdict::kFlatArgumentSpan));
  return out;
}

std::optional<std::string> phases_phrase(const Report& report) {
  if (report.phases.empty()) return std::nullopt;
  std::vector<std::string> parts;
  double total = 0;
  for (const auto& phase : report.phases) {
    parts.push_back(phase.name + " " + format_duration(phase.seconds));
    total += phase.seconds;
  }
  return fmt::format("{} ({} in all)", fmt::join(parts, ", "), format_duration(total));
}

std::string change_reach_cell(const BenchmarkRow& row) {
  if (!row.reach) return "";
  const auto& reach = *row.reach;
  if (reach.status == verdict::ChangeReach::Status::Unknown) return "unknown";  // why: in the row's remarks
  return fmt::format("{} ({} of {} changed lines ran)", reach.status == verdict::ChangeReach::Status::Reached
                                                            ? "executes the change"
                                                            : "does not execute the change",
                     reach.executed_changed_lines, reach.changed_lines);
}

std::optional<std::string> instructions_sentence(const Report& report) {
  const auto counted = std::find_if(report.benchmarks.begin(), report.benchmarks.end(),
                                    [](const BenchmarkRow& row) { return row.instructions.has_value(); });
  if (counted == report.benchmarks.end()) return std::nullopt;
  const bool with_time = std::any_of(report.benchmarks.begin(), report.benchmarks.end(),
                                     [](const BenchmarkRow& row) { return row.time_measured; });
  const std::string governs =
      !with_time ? "they are each row's verdict"
      : counted->governing == verdict::Governing::Time ? "the time verdict governs each row (--governing)"
      : counted->governing == verdict::Governing::Instructions
          ? "the instruction verdict governs each row (--governing)"
          : "each row takes the worse of the time and instruction verdicts (--governing worst)";
  return fmt::format(
      "instructions = head/base of instructions per iteration of the benchmark loop under callgrind (median over "
      "the runs; setup removed, see each target's status); range = [min head / max base, max head / min base] "
      "widened by the tolerance ±{:g}%; regression: range above {:g}; pass: at or below it; inconclusive: it straddles "
      "it. Estimated cycles = L1 hits + 5·LL hits + 35·RAM hits (iai-callgrind's formula) on a simulated 32 KiB "
      "8-way L1 and 8 MiB 16-way LL; {}.",
      counted->instructions->tolerance * 100, verdict::budget_line(report.budget), governs);
}

std::string instructions_summary(const BenchmarkRow& row, int decimals) {
  if (!row.instructions) return "";
  const auto& j = *row.instructions;
  if (!j.compared) return "not compared";
  std::string verdict = verdict::to_string(j.verdict);
  if (j.faster && j.verdict == verdict::Verdict::Pass) verdict += ", faster";
  return fmt::format("{} {} ({} per iteration)", verdict::format_instruction_ratio(j, decimals), verdict,
                     instruction_counts(row));
}

std::string instruction_counts(const BenchmarkRow& row) {
  if (!row.instructions || !row.instructions->compared) return "";
  // Per iteration a count may be fractional (a loop whose work varies): whole numbers from 100 on.
  auto count = [](double value) { return value >= 100 ? fmt::format("{:.0f}", value) : fmt::format("{:.3g}", value); };
  return fmt::format("{} → {}", count(row.instructions->base.ir), count(row.instructions->head.ir));
}

std::string cache_phrase(const BenchmarkRow& row) {
  if (!row.instructions || !row.instructions->compared) return "";
  const auto& j = *row.instructions;
  auto rate = [](double misses, double accesses) { return accesses > 0 ? misses / accesses * 100 : 0.0; };
  std::string text = fmt::format("est. cycles {:.3f}×; L1 misses {:.2f}% → {:.2f}%, LL {:.2f}% → {:.2f}% of accesses",
                                 j.cycles_ratio(), rate(j.base.l1_misses(), j.base.accesses()),
                                 rate(j.head.l1_misses(), j.head.accesses()), rate(j.base.ll_misses(), j.base.accesses()),
                                 rate(j.head.ll_misses(), j.head.accesses()));
  text += fmt::format("; spread {:.2f}%/{:.2f}% over {}/{} runs", j.base_spread * 100, j.head_spread * 100, j.n_base,
                      j.n_head);
  if (std::isfinite(j.slowdown)) text += fmt::format("; callgrind {:.0f}× the CPU time", j.slowdown);
  return text;
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
