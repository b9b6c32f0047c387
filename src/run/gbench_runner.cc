#include "run/gbench_runner.h"

#include <cctype>
#include <filesystem>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "formats/formats.h"
#include "process/process.h"
#include "results/samples.h"

namespace cobench::run {
namespace {

/// A file-name-safe form of a target name.
std::string file_stem(const std::string& target, Side side, int run_index) {
  std::string safe;
  for (char c : target) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return fmt::format("{}-{}-{}", safe, to_string(side), run_index);
}

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

RunRecord GoogleBenchmarkRunner::run_once(const Unit& unit, Side side, const std::string& sha, int run_index) {
  RunRecord record;
  record.target = unit.name;
  record.side = side;
  record.sha = sha;
  record.run = run_index;
  const std::string stem = file_stem(unit.name, side, run_index);
  const auto json_path = settings_.out_dir / "runs" / (stem + ".json");
  const auto log_rel = std::filesystem::path("logs") / (stem + ".log");
  std::filesystem::create_directories(json_path.parent_path());
  std::filesystem::create_directories((settings_.out_dir / log_rel).parent_path());
  std::filesystem::remove(json_path);

  process::Command command;
  command.argv = unit.argv;
  command.argv.push_back("--benchmark_out=" + json_path.string());
  command.argv.push_back("--benchmark_out_format=json");
  command.argv.insert(command.argv.end(), settings_.bench_args.begin(), settings_.bench_args.end());
  command.cwd = unit.cwd;
  command.env = settings_.env;
  command.cpu = settings_.cpu;
  command.timeout_seconds = settings_.run_timeout;
  command.stdout_path = settings_.out_dir / log_rel;
  command.merge_stderr_into_stdout = true;
  const auto result = process::run(command);

  record.wall_seconds = result.wall_seconds;
  record.exit_code = result.exit_code;
  record.signal = result.outcome == process::Result::Outcome::Signaled ? result.signal : 0;
  record.log = log_rel.string();
  if (result.outcome == process::Result::Outcome::Interrupted) {
    record.interrupted = true;
    record.status = "interrupted";
    return record;
  }
  if (!result.ok()) {
    record.status = process::short_cause(result);
    record.detail = process::describe(result);
    return record;
  }
  if (auto regex = unmatched_filter(json_path, settings_.out_dir / log_rel)) {
    record.detail = fmt::format("--benchmark_filter '{}' matches no benchmark", *regex);  // ok, no samples
    return record;
  }
  try {
    read_gbench_samples(read_file(json_path), json_path.string(), record);
  } catch (const InputError& e) {
    record.samples.clear();
    record.status = "unparsable JSON";
    record.detail = std::string("unparsable JSON: ") + e.what();
  }
  std::error_code ec;
  if (record.ok() && std::filesystem::file_size(settings_.out_dir / log_rel, ec) == 0 && !ec) {
    std::filesystem::remove(settings_.out_dir / log_rel, ec);
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
  const auto result = process::run(command);
  std::vector<std::string> names;
  if (!result.ok()) return names;
  std::istringstream lines(result.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  return names;
}

}  // namespace cobench::run
