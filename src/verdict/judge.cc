#include "verdict/judge.h"

#include <cmath>

#include "core/note.h"
#include "stats/normal_distribution.h"
#include "verdict/verdict.h"
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

namespace cobench::verdict {
namespace {

// Absorbs floating error from dividing counts by iterations; a real change is
// at least one allocation per memory pass (1/16 per iteration in GB 1.7).
constexpr double kSlack = 1e-9;

bool exceeds(double base, double head, const config::Threshold& threshold) {
  const double allowed = threshold.relative ? base * threshold.value : threshold.value;
  return head - base > allowed + kSlack * std::max(1.0, std::abs(base));
}

int severity(verdict::Verdict verdict) {
  switch (verdict) {
    case verdict::Verdict::Pass: return 0;
    case verdict::Verdict::Unrelated: return 1;
    case verdict::Verdict::LayoutSensitive: return 2;  // set after the fold, never folded; as undecided as inconclusive
    case verdict::Verdict::Inconclusive: return 2;
    case verdict::Verdict::Regression: return 3;
  }
  return 0;
}

void fold_one(Overall& overall, const std::optional<MedianJudgement>& metric, const char* label) {
  if (!metric || !metric->judged()) return;
  if (severity(metric->verdict) > severity(overall.verdict)) {
    overall.verdict = metric->verdict;
    overall.decided_by = label;
  }
  if (metric->verdict != verdict::Verdict::Regression) return;
  const std::string text = fmt::format("{} {} → {} (budget +{})", label, format_count(metric->base_median),
                                       format_count(metric->head_median), metric->budget->text);
  append_note(overall.note, text);
}

/// Log ratios of the pairs, or of the sides' runs, for the noise figure.
double noise_of(std::span<const double> base, std::span<const double> head, Pairing pairing) {
  if (pairing == Pairing::Paired) {
    std::vector<double> d;
    for (size_t i = 0; i < base.size(); ++i) d.push_back(std::log(head[i] / base[i]));
    return stats::robust_sigma(d);
  }
  auto logs = [](std::span<const double> side) {
    std::vector<double> out;
    for (double v : side) out.push_back(std::log(v));
    return out;
  };
  // A difference of one base run and one head run: both sides' spreads add.
  return std::hypot(stats::robust_sigma(logs(base)), stats::robust_sigma(logs(head)));
}

// Projections beyond this many runs per side say "more than a job gives".
constexpr int kMostRunsProjected = 1000;

// The power "could catch" is stated at: a slowdown this size is called a regression 9 times in 10.
constexpr double kStatedPower = 0.9;

/// The reviewer's figures from the interval: the smallest slowdown these runs
/// would call a regression 9 times in 10, and, when undecided, the runs that
/// would decide at the final look's level.
void add_reach(TimeJudgement& out, double budget, size_t runs, double final_confidence) {
  const auto& e = out.estimate;
  if (!e.ci_reachable || !(e.ci_low > 0) || !std::isfinite(e.ci_high)) return;
  const double half_width = (std::log(e.ci_high) - std::log(e.ci_low)) / 2;
  // On the log scale the estimate scatters with σ = half_width / z around the true ratio r. It is called
  // a regression when the lower end clears 1 + budget: with 90% power once log r exceeds
  // log(1 + budget) + half_width + z_0.9 σ.
  const double sigma = half_width / stats::two_sided_z(e.confidence);
  out.detectable = budget_line(budget) * std::exp(half_width + stats::normal_quantile(kStatedPower) * sigma) - 1;
  if (out.verdict != verdict::Verdict::Inconclusive) return;
  // At the last look the interval is z_final σ wide, narrowing as 1/sqrt(n): n' = n (z_final σ / distance)².
  const double final_half_width = stats::two_sided_z(final_confidence) * sigma;
  const double distance = std::abs(std::log(e.ratio) - std::log1p(budget));
  const double projected =
      distance > 0 ? runs * std::pow(final_half_width / distance, 2) : kMostRunsProjected + 1.0;
  out.runs_to_decide = static_cast<int>(std::ceil(std::min(projected, kMostRunsProjected + 1.0)));
}

/// The share of equal times: pairs whose two runs read the same (paired), or
/// base-head comparisons that tie (unpaired).
double tied_share(std::span<const double> base, std::span<const double> head, Pairing pairing) {
  if (pairing == Pairing::Paired) {
    size_t ties = 0;
    for (size_t i = 0; i < base.size(); ++i) ties += base[i] == head[i];
    return base.empty() ? 0 : static_cast<double>(ties) / static_cast<double>(base.size());
  }
  size_t ties = 0;
  for (double b : base)
    for (double h : head) ties += b == h;
  return static_cast<double>(ties) / static_cast<double>(base.size() * head.size());
}

}  // namespace

TimeJudgement judge_sides(const SidesSamples& sides, double budget, double confidence, Pairing pairing,
                          double final_confidence) {
  if (pairing == Pairing::Unpaired || sides.base.empty() || sides.head.empty())
    return judge_time(sides.base, sides.head, budget, confidence, Pairing::Unpaired, final_confidence);
  TimeJudgement out = judge_time(sides.paired_base, sides.paired_head, budget, confidence, Pairing::Paired, final_confidence);
  if (sides.without_partner > 0) {
    const std::string dropped = fmt::format("{} {} without a partner dropped", sides.without_partner,
                                            sides.without_partner == 1 ? sides.unit.substr(0, sides.unit.size() - 1)
                                                                       : sides.unit);
    append_note(out.note, dropped);
  }
  return out;
}

TimeJudgement judge_time(std::span<const double> base, std::span<const double> head, double budget,
                         double confidence, Pairing pairing, double final_confidence) {
  TimeJudgement out;
  out.estimate.confidence = confidence;
  out.estimate.ratio = out.estimate.ci_low = out.estimate.ci_high = std::nan("");
  if (base.empty() || head.empty()) {
    out.note = base.empty() && head.empty() ? "no samples on either side"
               : base.empty()               ? "no samples on the base side"
                                            : "no samples on the head side";
    return out;
  }
  try {
    out.estimate = pairing == Pairing::Paired ? stats::estimate_paired_ratio(base, head, confidence)
                                              : stats::estimate_ratio(base, head, confidence);
  } catch (const std::invalid_argument& e) {
    out.note = e.what();
    return out;
  }
  out.compared = true;
  out.verdict = verdict::judge_interval(out.estimate, budget);
  out.faster = verdict::is_faster(out.estimate);
  out.noise = noise_of(base, head, pairing);
  out.tied_share = tied_share(base, head, pairing);
  if (out.tied_share > kMostTiedShare && out.estimate.ci_reachable) {
    // The timer, not the code, ranks these runs: no verdict stands on them.
    out.verdict = verdict::Verdict::Inconclusive;
    out.faster = false;
    out.note = fmt::format("timer resolution: {:.0f}% of the {} read equal times; the interval is not to be trusted "
                           "(a longer run per iteration, e.g. a larger argument, or --benchmark_min_time, helps)",
                           out.tied_share * 100, pairing == Pairing::Paired ? "pairs" : "comparisons");
    return out;
  }
  add_reach(out, budget, std::min(base.size(), head.size()), final_confidence > 0 ? final_confidence : confidence);
  if (!out.estimate.ci_reachable)
    out.note = pairing == Pairing::Paired
                   ? fmt::format("needs ≥ {} pairs whose times differ for {:g}% confidence (has {})",
                                 out.estimate.runs_needed, confidence * 100, base.size())
                   : fmt::format("needs ≥ {} runs per side for {:g}% confidence (has {}/{})", out.estimate.runs_needed,
                                 confidence * 100, base.size(), head.size());
  return out;
}

std::optional<MedianJudgement> judge_medians(std::span<const double> base, std::span<const double> head,
                                             const std::optional<config::Threshold>& budget) {
  if (base.empty() || head.empty()) return std::nullopt;
  MedianJudgement metric;
  metric.base_median = stats::median(base);
  metric.head_median = stats::median(head);
  metric.budget = budget;
  if (budget && exceeds(metric.base_median, metric.head_median, *budget)) metric.verdict = verdict::Verdict::Regression;
  return metric;
}

std::string format_count(double value) {
  if (std::abs(value - std::round(value)) < 1e-9) return fmt::format("{:.0f}", value);
  return fmt::format("{:.3g}", value);
}

Overall fold(const Judgements& judged) {
  Overall overall{judged.time.verdict, "time", judged.time.note};
  if (const auto& instructions = judged.instructions) {
    const bool instructions_lead =
        !judged.time_measured || judged.governing == Governing::Instructions ||
        (judged.governing == Governing::Worst && severity(instructions->verdict) > severity(judged.time.verdict));
    if (instructions_lead) {
      overall.verdict = instructions->verdict;
      overall.decided_by = "instructions";
      if (!judged.time_measured) overall.note.clear();  // no time: "no samples on either side" says nothing
    }
    // Both verdicts are in every report; the note speaks up only where the one that does not lead disagrees.
    std::string said = instructions->note;
    if (!instructions_lead && instructions->compared && instructions->verdict != overall.verdict)
      said = fmt::format("instructions {} {}, time governs", verdict::to_string(instructions->verdict),
                         format_instruction_ratio(*instructions, 3));
    append_note(overall.note, said);
  }
  fold_one(overall, judged.allocs, "allocs/op");
  fold_one(overall, judged.bytes, "bytes/op");
  for (const auto& uncounted : judged.uncounted) {
    if (severity(verdict::Verdict::Inconclusive) > severity(overall.verdict)) {
      overall.verdict = verdict::Verdict::Inconclusive;
      overall.decided_by = uncounted.metric;
    }
    const std::string text =
        fmt::format("{} budget +{} not judged: {}", uncounted.metric, uncounted.budget, uncounted.why);
    append_note(overall.note, text);
  }
  const auto& reach = judged.reach;
  if (!reach || reach->status != ChangeReach::Status::NotReached) return overall;
  // What this benchmark measures did not run the changed code: a delta here is
  // layout, noise or the machine, never the change; it is reported, not gated.
  std::string mark = not_executed_mark(*reach);
  if (severity(overall.verdict) > severity(verdict::Verdict::Unrelated)) {
    mark += fmt::format("; by {} alone: {}", overall.decided_by, verdict::to_string(overall.verdict));
    overall.verdict = verdict::Verdict::Unrelated;
  }
  prepend_note(overall.note, mark);
  return overall;
}

}  // namespace cobench::verdict
