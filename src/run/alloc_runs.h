#pragma once
// Allocation runs: the Google Benchmark binaries once more per side under the
// counting allocator (LD_PRELOAD): before the timing rounds when an allocation
// budget makes their counts verdicts, after them otherwise. Their times are
// dropped, so the allocator never touches a timing sample, and they run with a
// small --benchmark_min_time: the memory pass needs at most 16 iterations.
// Counts that only inform stop at the first pair whose sides counted alike.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/gbench_runner.h"
#include "run/pair_gate.h"
#include "run/schedule.h"

namespace cobench::run {

/// When a target's allocation runs end before `runs` per side.
enum class AllocStop {
  AfterAllRuns,        ///< the counts are verdicts (an allocation budget): every run, for a median of each side
  OnceTheSidesAgree,   ///< the counts only inform: a first pair whose sides counted alike ends them
};

/// One line saying what the allocation runs did, from their records (kind
/// "alloc"): "allocation runs: 3 per side, under the counting allocator" when
/// every target had `runs`, else per target how many ran or why they stopped
/// ("bench_fft: time budget 5m exhausted after 0 allocation runs per side";
/// "bench_fft: 1 per side, both sides counted alike" for a target whose runs
/// ended with a kCountedAlikeStatus record). Empty without allocation records.
std::string describe_alloc_rounds(const std::vector<RunRecord>& records, int runs);

/// Whether a base and a head allocation run counted alike: both ok, the same
/// benchmarks, and every count (allocs, bytes, peak) equal.
bool counted_alike(const RunRecord& base, const RunRecord& head);

/// Runs up to `runs` allocation runs per side of every pair, alternating which
/// side goes first (B H, H B, ...), and reports each as a kind "alloc" record
/// whose samples hold only allocs_per_iter, bytes_per_iter and peak_bytes. With
/// AllocStop::OnceTheSidesAgree a target whose first pair counted alike runs no
/// more (one kCountedAlikeStatus record says so): counts are deterministic per
/// build, and more runs of equal builds would only repeat them. A run without
/// counts gets status "no counts" and the reason in `detail`; without the
/// preload library one "unavailable" record per
/// target says so; a pair that `gate` refuses ends that target's allocation
/// runs with one "skipped" record: "<reason> after N allocation runs per side".
/// `say` gets a line when the first pair starts and describe_alloc_rounds() at
/// the end: what ran, not what was planned. Returns false when interrupted.
bool run_alloc_rounds(const std::vector<UnitPair>& pairs, const ProcessSettings& settings, int runs, AllocStop stop,
                      const std::function<void(const RunRecord&)>& on_record, const PairGate& gate = {},
                      const std::function<void(const std::string&)>& say = {});

}  // namespace cobench::run
