#include "run/alloc_runs.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/files.h"
#include "core/parse.h"
#include "run/gbench_runner.h"
#include "run/shipped_files.h"
#include "run/process_run.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

const char* const kCountKeys[] = {"allocs_per_iter", "bytes_per_iter", "peak_bytes"};

/// The job's environment with our library first in LD_PRELOAD, and where it tells its status.
std::vector<std::string> preload_environment(std::vector<std::string> env, const fs::path& library,
                                             const fs::path& status_file) {
  std::erase_if(env, [](const std::string& line) { return line.rfind("COBENCH_ALLOC_STATUS=", 0) == 0; });
  env = with_preload(std::move(env), library);
  env.push_back("COBENCH_ALLOC_STATUS=" + status_file.string());
  return env;
}

/// Why a run that exited fine reported no counts, from the preload's status file.
std::string missing_counts_reason(const fs::path& status_file) {
  std::error_code ec;
  if (!fs::exists(status_file, ec))
    return "the counting allocator was not loaded (a setuid or fully static executable ignores LD_PRELOAD)";
  if (read_file(status_file).rfind("no-shared-libbenchmark", 0) == 0)
    return "the executable links Google Benchmark statically; link it with cobench_alloc_counter to count";
  return "Google Benchmark reported no allocation fields";
}

/// Keeps only the allocation values: an allocation run is never a timing sample.
bool keep_counts(RunRecord& record) {
  bool any = false;
  for (auto& [name, sample] : record.samples) {
    Sample counts;
    for (const char* key : kCountKeys)
      if (auto it = sample.find(key); it != sample.end()) counts[key] = it->second;
    any = any || counts.count("allocs_per_iter") > 0;
    sample = std::move(counts);
  }
  return any;
}

// Google Benchmark's memory pass runs min(16, iterations) iterations after the
// timed ones; those only have to be enough for it, not long enough to time.
constexpr double kAllocMinSeconds = 0.05;
constexpr double kAllocMinIterations = 16;

/// A --benchmark_min_time value made small, in the syntax it came in: "1000x"
/// (GB 1.8+: iterations) -> "16x", "2s" (1.8+) -> "0.05s", "2" (seconds, any
/// version) -> "0.05"; never raised, and one that does not parse is kept.
std::string small_min_time(const std::string& value) {
  const char unit = value.empty() ? '\0' : value.back();
  const bool suffixed = unit == 'x' || unit == 's';
  const std::string number = suffixed ? value.substr(0, value.size() - 1) : value;
  char* end = nullptr;
  const double v = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !(v > 0)) return value;
  const double cap = unit == 'x' ? kAllocMinIterations : kAllocMinSeconds;
  return fmt::format("{:g}{}", std::min(v, cap), suffixed ? std::string(1, unit) : "");
}

/// The user's arguments with every --benchmark_min_time made small (or a small
/// one added: GB's default is 0.5 s), and one repetition: counts do not vary.
std::vector<std::string> alloc_bench_args(std::vector<std::string> args) {
  bool min_time = false;
  for (auto& arg : args)
    if (is_min_time_flag(arg)) {
      arg = std::string(kMinTimeFlag) + small_min_time(arg.substr(kMinTimeFlag.size()));
      min_time = true;
    }
  // A plain number of seconds is what every Google Benchmark version accepts.
  if (!min_time) args.push_back(fmt::format("{}{:g}", kMinTimeFlag, kAllocMinSeconds));
  args.push_back(repetitions_flag(1));
  return args;
}

RunRecord alloc_run(const UnitPair& pair, Side side, int index, ProcessSettings settings,
                    const fs::path& library) {
  const fs::path status_file =
      settings.out_dir / "alloc" / fmt::format("{}-{}-{}.status", pair.target, to_string(side), index);
  std::error_code ec;
  fs::create_directories(status_file.parent_path());
  note_written(status_file);  // the counting allocator writes it from inside the benchmark; noted before anything is removed
  fs::remove(status_file, ec);
  settings.env = preload_environment(settings.env, library, status_file);
  settings.out_dir /= "alloc";  // runs/ and logs/ of their own: timing files keep their names
  settings.bench_args = alloc_bench_args(std::move(settings.bench_args));
  GoogleBenchmarkRunner runner(settings);
  const Unit& unit = side == Side::Base ? pair.base : pair.head;
  RunRecord record = runner.run_once(unit, side, side == Side::Base ? pair.base_sha : pair.head_sha, index, {});
  record.kind = "alloc";
  if (!record.log.empty()) record.log = (fs::path("alloc") / record.log).string();
  if (record.ok() && !keep_counts(record)) {
    record.samples.clear();
    record.status = "no counts";
    record.detail = missing_counts_reason(status_file);
  }
  return record;
}

/// The sample-less allocation record that says why a target's allocation runs
/// end before run `index` ("unavailable", "skipped", kCountedAlikeStatus).
RunRecord ending_record(const UnitPair& pair, int index, const std::string& status, const std::string& detail) {
  RunRecord record = new_record(pair.target, Side::Base, pair.base_sha, index);
  record.kind = "alloc";
  record.status = status;
  record.detail = detail;
  return record;
}

}  // namespace

std::string describe_alloc_rounds(const std::vector<RunRecord>& records, int runs) {
  struct Done {
    std::string target;
    int runs = 0;          // per side
    std::string stopped;   // why not all of them ran
    bool alike = false;    // ended after a first pair whose sides counted alike
  };
  std::vector<Done> targets;
  for (const auto& r : records) {
    if (r.kind != "alloc") continue;
    auto it = std::find_if(targets.begin(), targets.end(), [&](const Done& d) { return d.target == r.target; });
    if (it == targets.end()) it = targets.insert(targets.end(), Done{r.target, 0, {}});
    if (r.status == "unavailable") return "allocation runs: none, " + r.detail;  // the same for every target
    if (r.status == "skipped")
      it->stopped = r.detail;
    else if (r.status == results::kCountedAlikeStatus)
      it->alike = true;
    else if (r.side == Side::Base)
      ++it->runs;
  }
  if (targets.empty()) return "";
  constexpr const char* kAlike = "both sides counted alike";
  auto all = [&](auto&& predicate) { return std::all_of(targets.begin(), targets.end(), predicate); };
  if (all([&](const Done& d) { return d.stopped.empty() && d.runs == runs; }))
    return fmt::format("allocation runs: {} per side, under the counting allocator", runs);
  if (all([&](const Done& d) { return d.stopped.empty() && d.runs == 1 && d.alike; }))
    return fmt::format("allocation runs: 1 per side, {}, under the counting allocator", kAlike);
  std::string out = "allocation runs:";
  for (size_t i = 0; i < targets.size(); ++i) {
    const Done& d = targets[i];
    std::string what = d.stopped.empty() ? fmt::format("{} per side", d.runs) : d.stopped;
    if (d.stopped.empty() && d.alike) what += fmt::format(", {}", kAlike);
    out += fmt::format("{} {}: {}", i ? ";" : "", d.target, what);
  }
  return out;
}

bool counted_alike(const RunRecord& base, const RunRecord& head) {
  if (!base.ok() || !head.ok() || base.samples.empty() || base.samples.size() != head.samples.size()) return false;
  for (const auto& [name, counts] : base.samples) {
    const auto other = head.samples.find(name);
    if (other == head.samples.end() || other->second != counts) return false;
  }
  return true;
}

bool run_alloc_rounds(const std::vector<UnitPair>& pairs, const ProcessSettings& settings, int runs, AllocStop stop,
                      const std::function<void(const RunRecord&)>& on_record, const PairGate& gate,
                      const std::function<void(const std::string&)>& say) {
  if (runs <= 0 || pairs.empty()) return true;
  std::vector<RunRecord> done;
  auto record_one = [&](const RunRecord& record) {
    done.push_back(record);
    on_record(record);
  };
  auto tell = [&](const std::string& line) {
    if (say && !line.empty()) say(line);
  };
  const auto library = find_shipped(alloc_preload());
  if (!library) {
    for (const auto& pair : pairs) {
      record_one(ending_record(pair, 0, "unavailable", describe_missing(alloc_preload())));
    }
    tell(describe_alloc_rounds(done, runs));
    return true;
  }
  std::set<std::string> stopped;
  bool started = false;
  for (int index = 0; index < runs; ++index) {
    for (const auto& pair : pairs) {
      if (stopped.count(pair.target)) continue;
      if (const std::string why = gate ? gate(pair.target) : ""; !why.empty()) {
        record_one(ending_record(pair, index, "skipped", fmt::format("{} after {} allocation runs per side", why, index)));
        stopped.insert(pair.target);
        continue;
      }
      if (!std::exchange(started, true))
        tell(fmt::format("allocation runs: up to {} per side, under the counting allocator", runs));
      const Side first = index % 2 == 0 ? Side::Base : Side::Head;
      std::map<Side, RunRecord> pair_records;
      for (Side side : {first, first == Side::Base ? Side::Head : Side::Base}) {
        RunRecord record = alloc_run(pair, side, index, settings, *library);
        if (record.interrupted) return false;
        record_one(record);
        pair_records.emplace(side, std::move(record));
      }
      if (stop == AllocStop::OnceTheSidesAgree && index == 0 &&
          counted_alike(pair_records.at(Side::Base), pair_records.at(Side::Head))) {
        record_one(ending_record(pair, 1, results::kCountedAlikeStatus,
                                 "both sides counted alike after 1 allocation run per side"));
        stopped.insert(pair.target);
      }
    }
  }
  tell(describe_alloc_rounds(done, runs));
  return true;
}

}  // namespace cobench::run
