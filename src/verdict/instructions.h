#pragma once
// Instructions per iteration, judged. Under callgrind a benchmark's count is
// deterministic on one machine up to a small residue (ASLR, the environment),
// so no rank statistics are needed: the ratio of the sides' medians, a range
// from the observed extremes widened by a stated tolerance, and a verdict
// against the same budget as time. Also the estimated cycles from the
// simulated caches, so a change that trades instructions for misses shows.
#include <limits>
#include <optional>
#include <span>
#include <string>

#include "stats/stats.h"
#include "verdict/verdict.h"

namespace cobench::verdict {

/// Callgrind's events of one benchmark per iteration of its loop (cache simulation on).
struct CacheEvents {
  double ir = 0;    ///< instructions executed (Ir)
  double dr = 0;    ///< data reads (Dr)
  double dw = 0;    ///< data writes (Dw)
  double i1mr = 0;  ///< L1 instruction-fetch misses
  double d1mr = 0;  ///< L1 data-read misses
  double d1mw = 0;  ///< L1 data-write misses
  double ilmr = 0;  ///< last-level instruction-fetch misses
  double dlmr = 0;  ///< last-level data-read misses
  double dlmw = 0;  ///< last-level data-write misses

  double accesses() const { return ir + dr + dw; }        ///< every instruction fetch and data access
  double l1_misses() const { return i1mr + d1mr + d1mw; }
  double ll_misses() const { return ilmr + dlmr + dlmw; }
};

/// Callgrind's name of each event ("Ir", "D1mr", ...) and the member that holds it, in callgrind's order.
struct CacheEventName {
  const char* name;
  double CacheEvents::*member;
};
inline constexpr CacheEventName kCacheEventNames[] = {
    {"Ir", &CacheEvents::ir},     {"Dr", &CacheEvents::dr},     {"Dw", &CacheEvents::dw},
    {"I1mr", &CacheEvents::i1mr}, {"D1mr", &CacheEvents::d1mr}, {"D1mw", &CacheEvents::d1mw},
    {"ILmr", &CacheEvents::ilmr}, {"DLmr", &CacheEvents::dlmr}, {"DLmw", &CacheEvents::dlmw}};

/// Cycles estimated from the simulated caches, iai-callgrind's EstimatedCycles
/// after Itamar Turner-Trauring (pythonspeed.com/articles/consistent-benchmarking-in-ci):
/// L1 hits + 5·LL hits + 35·RAM hits, where L1 hits = accesses − L1 misses,
/// LL hits = L1 misses − LL misses and RAM hits = LL misses.
double estimated_cycles(const CacheEvents& events);

/// Whose verdict is a row's when time and instructions are both measured.
enum class Governing {
  Time,          ///< the time verdict (default); instructions are shown beside it
  Instructions,  ///< the instruction verdict; time is shown beside it
  Worst,         ///< the worse of the two
};

/// "time" | "instructions" | "worst" -> Governing; nullopt for anything else.
std::optional<Governing> governing_from_string(const std::string& text);
std::string to_string(Governing governing);

/// Instructions per iteration of one benchmark on both sides, judged.
struct InstructionJudgement {
  bool compared = false;            ///< false: a side had no counts (note says why)
  CacheEvents base;                 ///< per event, the median over the side's runs
  CacheEvents head;
  double ratio = 0;                 ///< head/base of the instruction medians
  double low = 0;                   ///< min(head)/max(base), less the tolerance
  double high = 0;                  ///< max(head)/min(base), plus the tolerance
  double tolerance = 0;             ///< a fraction, as configured
  double budget = 0.05;             ///< the time budget of the benchmark, a fraction
  double base_spread = 0;           ///< observed (max − min)/median of the instructions on each side
  double head_spread = 0;
  int n_base = 0;                   ///< runs with counts per side
  int n_head = 0;
  verdict::Verdict verdict = verdict::Verdict::Inconclusive;
  bool faster = false;              ///< the whole range lies below 1
  std::string note;                 ///< why not compared; failed or timed-out runs under valgrind
  /// How much more CPU time a process of this benchmark took under callgrind
  /// than natively, start-up included (medians); NaN when not known.
  double slowdown = std::numeric_limits<double>::quiet_NaN();

  double cycles_ratio() const;      ///< head/base of the estimated cycles; NaN when not compared
};

/// Ratio, range and verdict against `budget` (a fraction): regression when
/// the range lies above 1 + budget, pass when it lies at or below it,
/// inconclusive when it straddles it. A side without counts, or with a
/// non-positive count, is not compared and the note says why.
InstructionJudgement judge_instructions(std::span<const CacheEvents> base, std::span<const CacheEvents> head,
                                        double budget, double tolerance);

/// "1.98× [1.97, 1.99]" with `decimals` digits, or "–" when not compared.
std::string format_instruction_ratio(const InstructionJudgement& judgement, int decimals);

}  // namespace cobench::verdict
