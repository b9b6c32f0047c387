#include "run/gbench_runner.h"

#include <cctype>
#include <filesystem>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
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

void check_bench_args(const std::vector<std::string>& bench_args, bool filter_set, const std::string& origin) {
  static const std::regex owned("^--?benchmark_(out|out_format|format|list_tests)(=|$)");
  static const std::regex filter("^--?benchmark_filter(=|$)");
  for (const auto& arg : bench_args) {
    if (std::regex_search(arg, owned))
      throw InputError(fmt::format("{}: {} is cobench's own: every run writes its JSON where cobench reads it; "
                                   "drop it (the per-run files are kept in OUT/runs)",
                                   origin, arg));
    if (filter_set && std::regex_search(arg, filter))
      throw InputError(fmt::format("{}: {} conflicts with the job's --filter / COBENCH_FILTER; give the filter once",
                                   origin, arg));
  }
}

GoogleBenchmarkRunner::GoogleBenchmarkRunner(ProcessSettings settings) : settings_(std::move(settings)) {}

std::vector<Unit> GoogleBenchmarkRunner::prepare(const SideContext& side) {
  std::vector<Unit> units;
  for (const auto& [name, executable] : side.executables)
    units.push_back(Unit{name, {executable.string()}, side.build_dir.empty() ? executable.parent_path() : side.build_dir});
  return units;
}

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

std::string exact_filter(const std::vector<std::string>& names) {
  std::string alternatives;
  for (const auto& name : names) {
    if (!alternatives.empty()) alternatives += '|';
    for (char c : name) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) alternatives += '\\';
      alternatives += c;
    }
  }
  return "^(" + alternatives + ")$";
}

RunRecord GoogleBenchmarkRunner::run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                                          const RunScope& scope) {
  RunRecord record = new_record(unit.name, side, sha, run_index);
  const auto [log_path, log_rel] = run_log_path(settings_.out_dir, unit.name, side, run_index);
  const auto json_path =
      settings_.out_dir / "runs" / fmt::format("{}-{}-{}.json", safe_stem(unit.name), to_string(side), run_index);
  std::filesystem::create_directories(json_path.parent_path());
  std::filesystem::remove(json_path);

  std::vector<std::string> argv = unit.argv;
  argv.push_back("--benchmark_out=" + json_path.string());
  argv.push_back("--benchmark_out_format=json");
  argv.insert(argv.end(), settings_.bench_args.begin(), settings_.bench_args.end());
  // Last, so they win over the user's: decided benchmarks stop running, and the job picks the repetitions.
  if (!scope.benchmarks.empty()) argv.push_back("--benchmark_filter=" + exact_filter(scope.benchmarks));
  if (scope.repetitions > 0) argv.push_back(fmt::format("--benchmark_repetitions={}", scope.repetitions));
  process::Command command = measured_command(settings_, std::move(argv), unit.cwd);
  command.stdout_path = log_path;
  const auto result = process::run(command);
  record.log = log_rel;
  if (!record_outcome(command, result, record)) return record;
  if (auto regex = unmatched_filter(json_path, log_path)) {
    record.detail = fmt::format("--benchmark_filter '{}' matches no benchmark", *regex);  // ok, no samples
    return record;
  }
  try {
    read_gbench_samples(read_file(json_path), json_path.string(), record);
  } catch (const InputError& e) {
    record.samples.clear();
    record.status = "unparsable JSON";
    record.detail = std::string("unparsable JSON: ") + e.what();
    record.command = process::quote_command_line(command.argv);
    record.output_tail = process::tail_lines(read_file(log_path), 5);
  }
  std::error_code ec;
  if (record.ok() && std::filesystem::file_size(log_path, ec) == 0 && !ec) {
    std::filesystem::remove(log_path, ec);
    record.log.clear();
  }
  return record;
}

std::vector<std::string> GoogleBenchmarkRunner::list(const Unit& unit) {
  process::Command command;
  command.argv = unit.argv;
  command.argv.push_back("--benchmark_list_tests=true");
  for (const auto& arg : settings_.bench_args)
    if (arg.rfind("--benchmark_filter", 0) == 0) command.argv.push_back(arg);
  command.cwd = unit.cwd;
  command.env = settings_.env;
  command.timeout_seconds = 60;
  command.keep_output_bytes = 0;  // the list of benchmark names is data
  const auto result = process::run(command);
  std::vector<std::string> names;
  if (!result.ok()) return names;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

}  // namespace cobench::run
