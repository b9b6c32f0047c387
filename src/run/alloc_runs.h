#pragma once
// Allocation runs: the Google Benchmark binaries once more per side under the
// counting allocator (LD_PRELOAD), after the timing rounds. Their times are
// dropped, so the allocator never touches a timing sample.
#include <functional>
#include <vector>

#include "run/gbench_runner.h"
#include "run/schedule.h"

namespace cobench::run {

/// Runs `runs` allocation runs per side of every pair, alternating which side
/// goes first (B H, H B, ...), and reports each as a kind "alloc" record whose
/// samples hold only allocs_per_iter, bytes_per_iter and peak_bytes. A run
/// without counts gets status "no counts" and the reason in `detail`; without
/// the preload library one "unavailable" record per target says so.
/// Returns false when interrupted.
bool run_alloc_rounds(const std::vector<UnitPair>& pairs, const GoogleBenchmarkSettings& settings, int runs,
                      const std::function<void(const RunRecord&)>& on_record);

}  // namespace cobench::run
