#include "run/instruction_runs.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/note.h"
#include "formats/formats.h"
#include "run/callgrind.h"
#include "run/gbench_runner.h"
#include "run/shipped_files.h"
#include "run/process_run.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

// The probe only lists names; it must not hang a job on a broken binary.
constexpr double kProbeTimeoutSeconds = 60;

/// Everything that names a process of one benchmark: its target, side, run, index and iterations.
struct ProcessName {
  const UnitPair& pair;
  Side side;
  int run;
  size_t benchmark;  ///< index in the target's list: names stay short and file-safe
  int iterations;
  bool under_callgrind;

  std::string stem() const {
    return fmt::format("{}.{}.{}{}-{}-{}", safe_stem(pair.target), benchmark, under_callgrind ? "x" : "native", iterations,
                       to_string(side), run);
  }
  const Unit& unit() const { return side == Side::Base ? pair.base : pair.head; }
};

/// What one process gave.
struct ProcessOutcome {
  bool ok = false;
  ProcessCounts counts;        ///< under callgrind
  double iterations = 0;       ///< loop iterations over its repetitions
  double cpu_seconds = 0;      ///< the process's user + system time
  std::string error;           ///< why not ok, for the record's errors
  RunRecord failure;           ///< how the process ended when it failed: status, command, output tail, log
  bool interrupted = false;
};

/// Whether a benchmark's binary takes --benchmark_min_time=Nx (Google Benchmark 1.8+): 1.7 refuses it at once.
bool takes_iterations(const Unit& unit, const ProcessSettings& settings) {
  process::Command command;
  command.argv = unit.argv;
  command.argv.push_back("--benchmark_list_tests=true");
  command.argv.push_back("--benchmark_min_time=1x");
  command.cwd = unit.cwd;
  command.env = settings.env;
  command.timeout_seconds = kProbeTimeoutSeconds;
  return process::run(command).ok();
}

/// The benchmarks both sides list, in the base's order.
std::vector<std::string> common_benchmarks(Runner& lister, const UnitPair& pair) {
  const std::vector<std::string> head = lister.list(pair.head);
  std::vector<std::string> out;
  for (const auto& name : lister.list(pair.base))
    if (std::find(head.begin(), head.end(), name) != head.end()) out.push_back(name);
  return out;
}

ProcessOutcome run_process(const ProcessName& name, const std::string& benchmark, IterationControl control,
                           const ProcessSettings& settings, const InstructionPlan& plan,
                           const std::optional<fs::path>& preload) {
  ProcessOutcome outcome;
  const std::string stem = name.stem();
  const fs::path json = plan.scratch / (stem + ".json");
  const fs::path callgrind_out = plan.scratch / (stem + ".callgrind");
  const fs::path log_rel = fs::path("instructions") / "logs" / (stem + ".log");
  fs::create_directories(plan.scratch);
  fs::create_directories((settings.out_dir / log_rel).parent_path());

  std::vector<std::string> argv;
  if (name.under_callgrind) argv = callgrind_command(callgrind_out, preload.has_value());
  argv.insert(argv.end(), name.unit().argv.begin(), name.unit().argv.end());
  argv.push_back("--benchmark_out=" + json.string());
  argv.push_back("--benchmark_out_format=json");
  for (auto& arg : instruction_bench_args(settings.bench_args, benchmark, control, name.iterations))
    argv.push_back(std::move(arg));
  process::Command command = measured_command(settings, std::move(argv), name.unit().cwd);
  if (name.under_callgrind && preload) command.env = with_preload(settings.env, *preload);
  command.stdout_path = settings.out_dir / log_rel;
  const process::Result result = process::run(command);
  outcome.cpu_seconds = result.user_seconds + result.sys_seconds;

  outcome.failure = new_record(name.pair.target, name.side, "", name.run);
  const bool exited_fine = record_outcome(command, result, outcome.failure);
  outcome.failure.log = log_rel.string();
  outcome.interrupted = outcome.failure.interrupted;
  const std::string where = fmt::format("{} ({} iteration{})", name.under_callgrind ? "under callgrind" : "natively",
                                        name.iterations, name.iterations == 1 ? "" : "s");
  if (!exited_fine) {
    outcome.error = fmt::format("{} {}", outcome.failure.detail, where);
    return outcome;
  }
  try {
    const formats::Output output = formats::parse_google_benchmark_json(read_file(json), json.string());
    auto entry = std::find_if(output.entries.begin(), output.entries.end(),
                              [&](const formats::Entry& e) { return e.name == benchmark; });
    if (entry == output.entries.end()) throw InputError(json.string() + ": the benchmark is not in the output");
    if (!entry->error.empty()) throw InputError(entry->error);
    for (double iterations : entry->iterations) outcome.iterations += iterations;
    if (name.under_callgrind) outcome.counts = read_process_counts(callgrind_out);
  } catch (const InputError& e) {
    outcome.error = fmt::format("{} {}", e.what(), where);
    outcome.failure.status = "no counts";
    outcome.failure.detail = outcome.error;
    return outcome;
  }
  outcome.ok = true;
  std::error_code ec;
  fs::remove(settings.out_dir / log_rel, ec);  // kept for failures only: valgrind always prints its banner
  fs::remove(callgrind_out, ec);
  for (int part = 1; fs::remove(callgrind_out.string() + "." + std::to_string(part), ec); ++part) {
  }
  return outcome;
}

/// The iterations of a third process for a benchmark whose whole process was
/// counted (libbenchmark linked statically): its start-up and output vary by
/// a few hundred instructions from run to run, which two processes 4
/// iterations apart leave at ±0.5% of a small loop. From the two processes'
/// CPU times, as many iterations as take about kWholeProcessSeconds under
/// callgrind, at most kMostIterations; 0 when that is no more than kMoreIterations.
int whole_process_iterations(double fewer_cpu_seconds, double more_cpu_seconds) {
  const double per_iteration = std::max((more_cpu_seconds - fewer_cpu_seconds) / (kMoreIterations - kFewerIterations),
                                        kWholeProcessSeconds / kMostIterations);
  const int iterations = static_cast<int>(std::min<double>(kFewerIterations + kWholeProcessSeconds / per_iteration,
                                                           kMostIterations));
  return iterations > kMoreIterations ? iterations : 0;
}

/// One benchmark's per-iteration sample from its callgrind processes (and in run 0 a native one).
std::optional<Sample> measure_benchmark(const UnitPair& pair, Side side, int run, size_t index,
                                        const std::string& benchmark, IterationControl control,
                                        const ProcessSettings& settings, const InstructionPlan& plan,
                                        const std::optional<fs::path>& preload, RunRecord& record) {
  // One process under callgrind; a failure is the benchmark's error (and, first, the record's explanation).
  auto counted = [&](int iterations) -> std::optional<ProcessOutcome> {
    ProcessOutcome outcome =
        run_process({pair, side, run, index, iterations, true}, benchmark, control, settings, plan, preload);
    record.wall_seconds += outcome.failure.wall_seconds;
    record.interrupted = outcome.interrupted;
    if (outcome.interrupted) return std::nullopt;
    if (!outcome.ok) {
      record.errors[benchmark] = outcome.error;
      if (record.status == "ok") {  // the first failure explains a record whose every benchmark failed
        record.status = outcome.failure.status;
        record.detail = outcome.failure.detail;
        record.command = outcome.failure.command;
        record.output_tail = outcome.failure.output_tail;
        record.log = outcome.failure.log;
      }
      return std::nullopt;
    }
    return outcome;
  };
  const auto fewer = counted(kFewerIterations);
  if (!fewer) return std::nullopt;
  int more_iterations = kMoreIterations;
  auto more = counted(more_iterations);
  if (!more) return std::nullopt;
  if (!more->counts.loop_only && control == IterationControl::MinTimeIterations)
    if (const int iterations = whole_process_iterations(fewer->cpu_seconds, more->cpu_seconds)) {
      more = counted(more_iterations = iterations);
      if (!more) return std::nullopt;
    }
  // A benchmark that fixes its own iterations (Iterations(), Repetitions()) ran as many in both: no
  // difference to take, so the larger process's count per iteration stands (its setup not removed
  // where the loop could not be fenced).
  const double difference = more->iterations - fewer->iterations;
  const verdict::CacheEvents events = difference > 0
                                          ? per_iteration(fewer->counts.events, fewer->iterations, more->counts.events,
                                                          more->iterations)
                                          : per_iteration({}, 0, more->counts.events, std::max(more->iterations, 1.0));
  Sample sample;
  for (const auto& [event, member] : verdict::kCacheEventNames) sample[event] = events.*member;
  sample["loop_only"] = more->counts.loop_only ? 1 : 0;
  sample["iterations"] = std::max(difference, 0.0);
  sample["callgrind_cpu_seconds"] = more->cpu_seconds;
  if (run == 0) {  // the same process natively once, for the slowdown
    const ProcessOutcome native =
        run_process({pair, side, run, index, more_iterations, false}, benchmark, control, settings, plan, preload);
    record.wall_seconds += native.failure.wall_seconds;
    if (native.interrupted) {
      record.interrupted = true;
      return std::nullopt;
    }
    if (native.ok) sample["native_cpu_seconds"] = native.cpu_seconds;
  }
  return sample;
}

RunRecord instruction_run(const UnitPair& pair, Side side, int run, const std::vector<std::string>& benchmarks,
                          IterationControl control, const ProcessSettings& settings, const InstructionPlan& plan,
                          const std::optional<fs::path>& preload) {
  RunRecord record = new_record(pair.target, side, side == Side::Base ? pair.base_sha : pair.head_sha, run);
  record.kind = "instructions";
  for (size_t i = 0; i < benchmarks.size(); ++i) {
    auto sample = measure_benchmark(pair, side, run, i, benchmarks[i], control, settings, plan, preload, record);
    if (record.interrupted) return record;
    if (sample) record.samples[benchmarks[i]] = std::move(*sample);
  }
  if (!record.samples.empty() || benchmarks.empty()) {  // some were counted: the others' errors say why not
    record.status = "ok";
    record.command.clear();
    record.output_tail.clear();
    record.log.clear();
    record.detail = describe(control);
    if (!preload) append_note(record.detail, describe_missing(callgrind_preload()) + ": whole processes counted");
  }
  return record;
}

RunRecord skipped_record(const UnitPair& pair, int run, const std::string& why) {
  RunRecord record = new_record(pair.target, Side::Base, pair.base_sha, run);
  record.kind = "instructions";
  record.status = "skipped";
  record.detail = fmt::format("{} after {} instruction runs per side", why, run);
  return record;
}

}  // namespace

std::vector<std::string> instruction_bench_args(const std::vector<std::string>& user_args, const std::string& benchmark,
                                                IterationControl control, int iterations) {
  static const std::regex replaced(
      "^--?benchmark_(min_time|repetitions|min_warmup_time|report_aggregates_only|display_aggregates_only|filter)(=|$)");
  std::vector<std::string> out;
  for (const auto& arg : user_args)
    if (!std::regex_search(arg, replaced)) out.push_back(arg);
  out.push_back("--benchmark_filter=" + exact_filter(benchmark));
  if (control == IterationControl::MinTimeIterations) {
    out.push_back(fmt::format("--benchmark_min_time={}x", iterations));
    out.push_back(repetitions_flag(1));
  } else {
    out.push_back("--benchmark_min_time=0");
    out.push_back(repetitions_flag(iterations));
  }
  return out;
}

std::string describe(IterationControl control) {
  if (control == IterationControl::MinTimeIterations)
    return fmt::format("iterations fixed by --benchmark_min_time={}x and {}x", kFewerIterations, kMoreIterations);
  return fmt::format("iterations fixed by --benchmark_min_time=0 and --benchmark_repetitions={} and {} (Google "
                     "Benchmark before 1.8: one iteration per repetition)",
                     kFewerIterations, kMoreIterations);
}

bool run_instruction_rounds(const std::vector<UnitPair>& pairs, Runner& lister, const ProcessSettings& settings,
                            const InstructionPlan& plan, const std::function<void(const RunRecord&)>& on_record,
                            const PairGate& gate, const std::function<void(const std::string&)>& say) {
  if (plan.runs <= 0 || pairs.empty()) return true;
  auto tell = [&](const std::string& line) {
    if (say) say(line);
  };
  const std::optional<fs::path> preload = find_shipped(callgrind_preload());
  struct Target {
    std::vector<std::string> benchmarks;
    IterationControl control;
  };
  std::vector<Target> targets;
  size_t benchmark_count = 0;
  for (const auto& pair : pairs) {
    // Both sides must take Nx, or both count per repetition: the same iterations on each side.
    const bool iterations = takes_iterations(pair.base, settings) && takes_iterations(pair.head, settings);
    targets.push_back({common_benchmarks(lister, pair),
                       iterations ? IterationControl::MinTimeIterations : IterationControl::Repetitions});
    benchmark_count += targets.back().benchmarks.size();
  }
  tell(fmt::format("instruction runs: up to {} per side of {} benchmark{} under callgrind, 2 processes each", plan.runs,
                   benchmark_count, benchmark_count == 1 ? "" : "s"));
  std::set<std::string> stopped;
  for (int run = 0; run < plan.runs; ++run) {
    for (size_t t = 0; t < pairs.size(); ++t) {
      const UnitPair& pair = pairs[t];
      if (stopped.count(pair.target)) continue;
      if (const std::string why = gate ? gate(pair.target) : ""; !why.empty()) {
        on_record(skipped_record(pair, run, why));
        stopped.insert(pair.target);
        continue;
      }
      const Side first = run % 2 == 0 ? Side::Base : Side::Head;
      for (Side side : {first, first == Side::Base ? Side::Head : Side::Base}) {
        RunRecord record = instruction_run(pair, side, run, targets[t].benchmarks, targets[t].control, settings, plan,
                                           preload);
        if (record.interrupted) return false;
        on_record(record);
      }
    }
  }
  tell("instruction runs: done");
  return true;
}

}  // namespace cobench::run
