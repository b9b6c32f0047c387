#pragma once
// Instruction runs: each benchmark of a target on its own under callgrind,
// after the timing rounds (or instead of them with --metric instructions).
// The count per iteration has the benchmark's setup removed: two processes
// run it with different numbers of iterations, and the difference of their
// counts divided by the difference of their iterations cancels whatever both
// ran once (start-up, the setup before the loop, the first iteration's lazy
// binding). Where libbenchmark is shared, a preloaded library also fences
// the counting to the loop itself, thread by thread (src/loop), so the
// setup's own variation never enters, and paused stretches (PauseTiming) and
// the benchmark's threads waiting for each other are left out as in timing.
//
// Fixing the iterations: Google Benchmark 1.8+ takes --benchmark_min_time=Nx
// (N iterations in one trial). 1.7 reads a number of seconds there, so its
// processes run --benchmark_min_time=0 (it stops after its first trial, of one
// iteration) and N repetitions: N loops of one iteration each. Which
// one a target gets is probed on both sides' binaries before the first run.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "run/pair_gate.h"
#include "run/runner.h"
#include "run/schedule.h"

namespace cobench::run {

/// How a target's processes are made to run a fixed number of iterations.
enum class IterationControl {
  MinTimeIterations,  ///< Google Benchmark 1.8+: --benchmark_min_time=Nx --benchmark_repetitions=1
  Repetitions,        ///< before 1.8: --benchmark_min_time=0 (one iteration) --benchmark_repetitions=N
};

/// The iterations of the two processes. The difference cancels what both ran
/// once; the larger count averages the residue a single iteration would show.
inline constexpr int kFewerIterations = 1;
inline constexpr int kMoreIterations = 5;
/// Where the whole process is counted (libbenchmark linked statically, 1.8+),
/// a third process runs as many iterations as take about this many CPU
/// seconds under callgrind, at most kMostIterations, to dilute the process's
/// own variation (its start-up, its output).
inline constexpr double kWholeProcessSeconds = 2;
inline constexpr int kMostIterations = 1000;

/// The benchmark arguments of one instruction process: the user's, without
/// those that would change its iterations or its output (min_time,
/// repetitions, warm-up, aggregates only, a filter), then `benchmark` alone
/// and `iterations` as `control` says.
std::vector<std::string> instruction_bench_args(const std::vector<std::string>& user_args, const std::string& benchmark,
                                                IterationControl control, int iterations);

/// "--benchmark_min_time=1x --benchmark_min_time=5x" style description of `control`, for reports.
std::string describe(IterationControl control);

/// What instruction runs need beyond the processes' settings.
struct InstructionPlan {
  int runs = 3;                     ///< per side and benchmark
  std::filesystem::path scratch;    ///< callgrind outputs and the runs' JSON (the job folder: removed with it)
};

/// Runs `plan.runs` instruction runs per side of every pair, alternating
/// which side goes first (B H, H B, ...), each a kind "instructions" record
/// whose samples hold per benchmark the events per iteration (Ir, Dr, Dw,
/// I1mr, D1mr, D1mw, ILmr, DLmr, DLmw), "loop_only" (1: fenced to the loop;
/// 0: the whole process was counted), "iterations" (the difference of the two processes),
/// "callgrind_cpu_seconds" (user + system time of the larger process) and, in
/// run 0, "native_cpu_seconds" (the same process without valgrind): the
/// slowdown is their ratio, start-up included, as a job pays it. The
/// record's detail says how the iterations were fixed. A benchmark whose
/// process failed or timed out has its reason in the record's errors; when
/// every one failed the record has that status. `lister` names each side's
/// benchmarks (those on both are counted). A pair that `gate` refuses ends
/// that target's runs with one "skipped" record ("<reason> after N
/// instruction runs per side"). `say` gets a line when they start and one at
/// the end. Returns false when interrupted.
bool run_instruction_rounds(const std::vector<UnitPair>& pairs, Runner& lister, const ProcessSettings& settings,
                            const InstructionPlan& plan, const std::function<void(const RunRecord&)>& on_record,
                            const PairGate& gate = {}, const std::function<void(const std::string&)>& say = {});

}  // namespace cobench::run
