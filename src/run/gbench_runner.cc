#include "run/gbench_runner.h"

#include <cctype>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "core/benchmark_regex.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "core/text.h"
#include "formats/formats.h"
#include "process/process.h"
#include "run/process_run.h"
#include "results/samples.h"

namespace cobench::run {
namespace {

/// The regex of Google Benchmark's "Failed to match any benchmarks against regex: X"
/// when the run wrote no JSON for that reason (every version exits 0 without output then).
std::optional<std::string> unmatched_filter(const std::filesystem::path& json, const std::filesystem::path& log) {
  std::error_code ec;
  if (std::filesystem::exists(json, ec) && std::filesystem::file_size(json, ec) > 0) return std::nullopt;
  if (!std::filesystem::exists(log, ec)) return std::nullopt;
  const std::string text = read_file(log);
  const std::string marker = "Failed to match any benchmarks against regex: ";
  const size_t at = text.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const size_t from = at + marker.size();
  return text.substr(from, text.find('\n', from) - from);
}

}  // namespace

bool is_min_time_flag(const std::string& arg) { return arg.rfind(kMinTimeFlag, 0) == 0; }

std::string repetitions_flag(int count) { return fmt::format("{}{}", kRepetitionsFlag, count); }

bool is_repetitions_flag(const std::string& arg) { return arg.rfind(kRepetitionsFlag, 0) == 0; }

std::vector<std::string> with_min_time(std::vector<std::string> bench_args, double seconds) {
  const bool given = std::any_of(bench_args.begin(), bench_args.end(), is_min_time_flag);
  if (!given) bench_args.push_back(fmt::format("{}{:g}", kMinTimeFlag, seconds));
  return bench_args;
}

bool is_filter_flag(const std::string& arg) {
  static const std::regex filter("^--?benchmark_filter(=|$)");
  return std::regex_search(arg, filter);
}

void check_bench_args(const std::vector<std::string>& bench_args, bool filter_set, const std::string& origin) {
  static const std::regex owned("^--?benchmark_(out|out_format|format|list_tests)(=|$)");
  for (const auto& arg : bench_args) {
    if (std::regex_search(arg, owned))
      throw InputError(fmt::format("{}: {} is cobench's own: every run writes its JSON where cobench reads it; "
                                   "drop it (the per-run files are kept in OUT/runs)",
                                   origin, arg));
    if (filter_set && is_filter_flag(arg))
      throw InputError(fmt::format("{}: {} conflicts with the job's --filter / COBENCH_FILTER; give the filter once",
                                   origin, arg));
    // Checked as --filter is, before anything is built: every run would fail on it.
    if (const size_t equals = arg.find('='); is_filter_flag(arg) && equals != std::string::npos)
      if (auto problem = benchmark_regex::filter_problem(std::string_view(arg).substr(equals + 1)))
        throw InputError(fmt::format("{}: {}", origin, *problem));
  }
}

GoogleBenchmarkRunner::GoogleBenchmarkRunner(ProcessSettings settings) : settings_(std::move(settings)) {}

std::vector<Unit> GoogleBenchmarkRunner::prepare(const SideContext& side) { return executable_units(side); }

void read_gbench_samples(const std::string& json_text, const std::string& source, RunRecord& record) {
  auto output = formats::parse_google_benchmark_json(json_text, source);
  for (const auto& entry : output.entries) {
    if (!entry.error.empty() || entry.real_ns.empty()) {
      record.errors[entry.name] = entry.error.empty() ? "no measurements" : entry.error;
      continue;
    }
    record.samples[entry.name] = results::sample_from_entry(entry);
  }
}

std::string exact_filter(const std::string& name) {
  // A name from a binary never holds a NUL byte (Google Benchmark registers C strings).
  return "^" + benchmark_regex::literal(name).value_or(name) + "$";
}

namespace {

/// The runs/ and logs/ files of one process of a run: the run's own names for
/// the first, "<stem>-<side>-<run>.<part>.json" for each further part.
struct PartFiles {
  std::filesystem::path json, log;
  std::string log_rel;
};

PartFiles part_files(const std::filesystem::path& out_dir, const std::string& target, Side side, int run_index,
                     size_t part) {
  auto [log, rel] = run_log_path(out_dir, target, side, run_index);
  const std::string suffix = part == 0 ? "" : fmt::format(".{}", part);
  if (part > 0) {
    log.replace_extension(suffix.substr(1) + ".log");
    rel = std::filesystem::path(rel).replace_extension(suffix.substr(1) + ".log").string();
  }
  const auto json = out_dir / "runs" / fmt::format("{}-{}-{}{}.json", safe_stem(target), to_string(side), run_index, suffix);
  return {json, log, rel};
}

}  // namespace

RunRecord GoogleBenchmarkRunner::run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                                          const RunScope& scope) {
  RunRecord record = new_record(unit.name, side, sha, run_index);
  // Decided benchmarks stop running: the open ones by exact name, in as many
  // processes as it takes to keep each filter within the argument limits. A
  // name no filter can carry: every benchmark runs, and only the open ones count.
  std::vector<std::optional<std::string>> filters = {std::nullopt};
  bool keep_only_scope = false;
  if (!scope.benchmarks.empty()) {
    if (auto exact = benchmark_regex::exact_filters(scope.benchmarks)) filters.assign(exact->begin(), exact->end());
    else keep_only_scope = true;
  }
  for (size_t part = 0; part < filters.size(); ++part) {
    const PartFiles files = part_files(settings_.out_dir, unit.name, side, run_index, part);
    std::filesystem::create_directories(files.json.parent_path());
    note_written(files.json);  // the benchmark writes it; first, so that a file someone else put there stops the job
    std::filesystem::remove(files.json);
    std::vector<std::string> argv = unit.argv;
    argv.push_back("--benchmark_out=" + files.json.string());
    argv.push_back("--benchmark_out_format=json");
    for (const auto& arg : settings_.bench_args)
      if ((unit.narrowed_by_filter || !is_filter_flag(arg)) && !(scope.min_time > 0 && is_min_time_flag(arg)))
        argv.push_back(arg);
    // Last, so they win over the user's: decided benchmarks stop running, and the job picks the repetitions
    // and (where the user gave none) the run length.
    if (filters[part]) argv.push_back("--benchmark_filter=" + *filters[part]);
    if (scope.repetitions > 0) argv.push_back(repetitions_flag(scope.repetitions));
    if (scope.min_time > 0) argv.push_back(fmt::format("{}{:g}", kMinTimeFlag, scope.min_time));
    process::Command command = measured_command(settings_, std::move(argv), unit.cwd);
    command.stdout_path = files.log;
    const auto result = process::run(command);
    if (record.log.empty() || !result.ok()) record.log = files.log_rel;
    if (!record_outcome(command, result, record)) {
      record.samples.clear();
      return record;
    }
    if (auto regex = unmatched_filter(files.json, files.log)) {
      record.detail = fmt::format("--benchmark_filter '{}' matches no benchmark", shorten(*regex, 200));  // ok, no samples
      continue;
    }
    // Published with the report folder: credentials out once the names are read (a name may hold one).
    const secrets::ScrubFileOnExit scrub_when_read{files.json};
    try {
      read_gbench_samples(read_file(files.json), files.json.string(), record);
    } catch (const InputError& e) {
      record.samples.clear();
      record.status = "unparsable JSON";
      record.detail = secrets::scrub_and_shorten(std::string("unparsable JSON: ") + e.what(), 2000);
      record.command = process::quote_command_line(command.argv);
      record.output_tail = secrets::scrub_and_shorten(process::tail_lines(read_file(files.log), 5), 2000);
      record.log = files.log_rel;
      return record;
    }
    std::error_code ec;
    if (std::filesystem::file_size(files.log, ec) == 0 && !ec) {
      std::filesystem::remove(files.log, ec);
      if (record.log == files.log_rel) record.log.clear();
    }
  }
  if (keep_only_scope) {
    const std::set<std::string> open(scope.benchmarks.begin(), scope.benchmarks.end());
    std::erase_if(record.samples, [&](const auto& entry) { return !open.count(entry.first); });
    std::erase_if(record.errors, [&](const auto& entry) { return !open.count(entry.first); });
  }
  return record;
}

std::vector<std::string> GoogleBenchmarkRunner::list(const Unit& unit) { return listed(unit).value_or(std::vector<std::string>{}); }

std::optional<std::vector<std::string>> GoogleBenchmarkRunner::listed(const Unit& unit) {
  process::Command command;
  command.argv = unit.argv;
  command.argv.push_back("--benchmark_list_tests=true");
  if (unit.narrowed_by_filter)
    for (const auto& arg : settings_.bench_args)
      if (is_filter_flag(arg)) command.argv.push_back(arg);
  command.cwd = unit.cwd;
  command.env = settings_.env;
  command.timeout_seconds = 60;
  command.keep_output_bytes = 0;  // the list of benchmark names is data
  const auto result = process::run(command);
  if (!result.ok()) return std::nullopt;
  std::vector<std::string> names;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

}  // namespace cobench::run
