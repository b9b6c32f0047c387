#include "verdict/instructions.h"
#include "verdict/verdict.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>

namespace cobench::verdict {
namespace {

// iai-callgrind's weights: an LL hit costs 5 cycles, a RAM access 35, an L1 hit 1.
constexpr double kLastLevelHitCycles = 5;
constexpr double kRamCycles = 35;

std::vector<double> each(std::span<const CacheEvents> side, double CacheEvents::*event) {
  std::vector<double> out;
  for (const auto& events : side) out.push_back(events.*event);
  return out;
}

CacheEvents medians(std::span<const CacheEvents> side) {
  CacheEvents out;
  for (const auto& [name, event] : kCacheEventNames) out.*event = stats::median(each(side, event));
  return out;
}

/// (max − min)/median of the instruction counts: 0 for identical runs.
double spread(const std::vector<double>& counts) {
  const auto [low, high] = std::minmax_element(counts.begin(), counts.end());
  return (*high - *low) / stats::median(counts);
}

}  // namespace

double estimated_cycles(const CacheEvents& e) {
  const double l1_hits = e.accesses() - e.l1_misses();
  const double ll_hits = e.l1_misses() - e.ll_misses();
  return l1_hits + kLastLevelHitCycles * ll_hits + kRamCycles * e.ll_misses();
}

std::optional<Governing> governing_from_string(const std::string& text) {
  if (text == "time") return Governing::Time;
  if (text == "instructions") return Governing::Instructions;
  if (text == "worst") return Governing::Worst;
  return std::nullopt;
}

std::string to_string(Governing governing) {
  switch (governing) {
    case Governing::Instructions: return "instructions";
    case Governing::Worst: return "worst";
    case Governing::Time: break;
  }
  return "time";
}

double InstructionJudgement::cycles_ratio() const {
  if (!compared) return std::numeric_limits<double>::quiet_NaN();
  return estimated_cycles(head) / estimated_cycles(base);
}

InstructionJudgement judge_instructions(std::span<const CacheEvents> base, std::span<const CacheEvents> head,
                                        double budget, double tolerance) {
  InstructionJudgement out;
  out.budget = budget;
  out.tolerance = tolerance;
  out.n_base = static_cast<int>(base.size());
  out.n_head = static_cast<int>(head.size());
  if (base.empty() || head.empty()) {
    out.note = base.empty() && head.empty() ? "no instruction counts on either side"
               : base.empty()               ? "no instruction counts on the base side"
                                            : "no instruction counts on the head side";
    return out;
  }
  const std::vector<double> base_ir = each(base, &CacheEvents::ir), head_ir = each(head, &CacheEvents::ir);
  const double lowest = std::min(*std::min_element(base_ir.begin(), base_ir.end()),
                                 *std::min_element(head_ir.begin(), head_ir.end()));
  if (!(lowest > 0) || !std::isfinite(lowest)) {
    out.note = fmt::format("instructions per iteration {} ≤ 0: the loop's work is below what the difference of two "
                           "iteration counts resolves",
                           lowest);
    return out;
  }
  out.compared = true;
  out.base = medians(base);
  out.head = medians(head);
  out.ratio = out.head.ir / out.base.ir;
  out.low = *std::min_element(head_ir.begin(), head_ir.end()) / *std::max_element(base_ir.begin(), base_ir.end()) *
            (1 - tolerance);
  out.high = *std::max_element(head_ir.begin(), head_ir.end()) / *std::min_element(base_ir.begin(), base_ir.end()) *
             (1 + tolerance);
  out.base_spread = spread(base_ir);
  out.head_spread = spread(head_ir);
  out.verdict = out.low > budget_line(budget)     ? Verdict::Regression
                : out.high <= budget_line(budget) ? Verdict::Pass
                                                  : Verdict::Inconclusive;
  out.faster = out.high < 1;
  return out;
}

std::string format_instruction_ratio(const InstructionJudgement& j, int decimals) {
  if (!j.compared) return "–";
  return fmt::format("{:.{}f}× [{:.{}f}, {:.{}f}]", j.ratio, decimals, j.low, decimals, j.high, decimals);
}

}  // namespace cobench::verdict
