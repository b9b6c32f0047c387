#pragma once
// The decisions about one benchmark: the time verdict from samples, the
// allocation and byte verdicts from medians, and the overall verdict folded
// from them. Reports carry these; renderers never work a verdict out again.
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "stats/stats.h"
#include "verdict/verdict.h"
#include "verdict/budget.h"
#include "verdict/change_reach.h"
#include "verdict/instructions.h"

namespace cobench::verdict {

/// How the two sides' samples relate.
enum class Pairing {
  Unpaired,  ///< independent samples: rank-sum (Mann-Whitney)
  Paired,    ///< base[i] and head[i] ran back to back: signed-rank on their log ratios
};

/// The time metric of one benchmark, judged on its samples.
struct TimeJudgement {
  stats::RatioEstimate estimate;     ///< meaningful only when `compared`
  bool compared = false;             ///< false: a side had no (valid) samples
  verdict::Verdict verdict = verdict::Verdict::Inconclusive;
  bool faster = false;               ///< the whole interval lies below 1 (shown beside the verdict)
  std::string note;                  ///< why not compared, or how many runs the interval needs
  /// What a reviewer needs to judge an inconclusive row:
  double noise = std::numeric_limits<double>::quiet_NaN();       ///< noise of a pair: robust σ of its log ratio (paired), or of a difference of one base and one head run
  double detectable = std::numeric_limits<double>::quiet_NaN();  ///< smallest slowdown this many runs would call a regression 9 times in 10 (0.08: 8%)
  int runs_to_decide = 0;            ///< inconclusive: runs per side projected to decide at the final look's level (0: not projected)
  double tied_share = 0;             ///< share of pairs (paired) or of cross-side comparisons (unpaired) whose times are equal
};

/// Above this share of equal times (the timer's resolution, not the code, decides
/// the ranks) an interval is not to be trusted: the verdict is inconclusive.
inline constexpr double kMostTiedShare = 0.2;

/// Head/base ratio, interval and verdict against `budget` (a fraction) at
/// `confidence`. Paired: base[i] and head[i] are one pair (equal lengths).
/// A side without samples, or with non-positive ones, is not compared and says
/// why. `final_confidence` is the level of the last look, which the runs
/// projected to decide an inconclusive row are counted at (0: `confidence`).
TimeJudgement judge_time(std::span<const double> base, std::span<const double> head, double budget,
                         double confidence, Pairing pairing = Pairing::Unpaired, double final_confidence = 0);

/// Both sides' samples as the pairing setting asks for them: the pairs (base[i]
/// and head[i] ran as one pair) and how many samples had no partner.
struct SidesSamples {
  std::span<const double> base;           ///< every sample of each side
  std::span<const double> head;
  std::span<const double> paired_base;    ///< the samples that have a partner, pair by pair
  std::span<const double> paired_head;
  size_t without_partner = 0;             ///< samples dropped from the pairs
  std::string_view unit = "runs";         ///< what a sample is, for the note ("runs", "repetitions")
};

/// judge_time over `sides` with the pairing the user chose: paired over the
/// pairs, saying how many samples without a partner were dropped; unpaired
/// over every sample; a side without samples is judged unpaired (the row says
/// which side). The one place `run` (pairs by run index) and `compare` (pairs
/// by repetition order in the files) choose how a row is judged.
TimeJudgement judge_sides(const SidesSamples& sides, double budget, double confidence, Pairing pairing,
                          double final_confidence = 0);

/// A median-compared metric (allocs/op, bytes/op): deterministic per build,
/// so judged on medians against a plain threshold, never inconclusive.
struct MedianJudgement {
  double base_median = 0;
  double head_median = 0;
  std::optional<config::Threshold> budget;   ///< nullopt: reported, not judged
  verdict::Verdict verdict = verdict::Verdict::Pass;

  bool judged() const { return budget.has_value(); }
};

/// nullopt when either side has no values.
std::optional<MedianJudgement> judge_medians(std::span<const double> base, std::span<const double> head,
                                             const std::optional<config::Threshold>& budget);

/// "0 → 1" style count for notes: integers plainly, fractions with 3 significant digits.
std::string format_count(double value);

/// The overall answer for one benchmark.
struct Overall {
  verdict::Verdict verdict = verdict::Verdict::Inconclusive;  ///< the worst of the judged metrics
  /// "time", "instructions", "allocs/op" or "bytes/op": the metric that set the verdict
  std::string decided_by = "time";
  /// the reach mark, the time note, an instruction verdict that differs from the row's,
  /// then each metric that broke its budget ("allocs/op 0 → 1 (budget +0)")
  std::string note;
};

/// A configured allocs/op or bytes/op budget that no counts could be judged
/// against (the time budget ran out before the allocation runs, a run failed,
/// the counting library is missing): the row cannot pass on it.
struct UncountedBudget {
  std::string metric;  ///< "allocs/op" or "bytes/op"
  std::string budget;  ///< as written ("0", "5%")
  std::string why;     ///< the target's allocation status ("not collected: ...")
};

/// What one benchmark measured, for the fold.
struct Judgements {
  const TimeJudgement& time;
  bool time_measured = true;                                   ///< false: instructions only
  const std::optional<InstructionJudgement>& instructions;
  Governing governing = Governing::Time;                       ///< with both: whose verdict leads
  const std::optional<MedianJudgement>& allocs;
  const std::optional<MedianJudgement>& bytes;
  std::optional<ChangeReach> reach = std::nullopt;             ///< from a reach pass; nullopt without one
  std::vector<UncountedBudget> uncounted = {};                 ///< budgets left unjudged: at best inconclusive
};

/// Folds the metrics into one verdict. Time or instructions lead (the one
/// measured, or as `governing` says when both are: the worse for Worst), then
/// allocs/op and bytes/op can only make it worse: regression > inconclusive > pass;
/// a budget of theirs with no counts makes a pass inconclusive.
/// The reach rule: a benchmark shown not to execute the change (`reach`
/// not_reached) is at most an unrelated change, never a regression nor
/// inconclusive, and its note starts with not_executed_mark(); reached,
/// unknown or no reach pass leave the verdict as the metrics give it.
Overall fold(const Judgements& judged);

}  // namespace cobench::verdict
