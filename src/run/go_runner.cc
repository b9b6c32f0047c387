#include "run/go_runner.h"

#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "formats/formats.h"
#include "run/process_run.h"
#include "stats/stats.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

void add_median(Sample& sample, const std::string& key, const std::vector<double>& values) {
  if (!values.empty()) sample[key] = stats::median(values);
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, sep))
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

std::vector<std::string> go_test_argv(const std::string& package, const std::vector<std::string>& bench_args) {
  std::vector<std::string> argv = {"go", "test", "-run", "^$"};
  bool has_bench = false;
  for (const auto& arg : bench_args) {
    has_bench = has_bench || arg == "-bench" || arg.rfind("-bench=", 0) == 0 || arg == "--bench" ||
                arg.rfind("--bench=", 0) == 0;
    argv.push_back(arg);
  }
  if (!has_bench) argv.push_back("-bench=.");
  // Last, so they win over a user -count: one sample per process is the ABBA unit.
  argv.insert(argv.end(), {"-benchmem", "-count=1", package});
  return argv;
}

bool declares_go_benchmark(const std::string& source) {
  static const std::regex benchmark(R"((^|\n)func\s+Benchmark[^a-z(]?\w*\s*\(\s*\w+\s+\*testing\.B\s*\))");
  return std::regex_search(source, benchmark);
}

namespace {

/// Packages from `go list ./...` whose test files declare benchmarks.
std::vector<Unit> go_packages(const ProcessSettings& settings, const SideContext& side) {
  process::Command command;
  command.argv = {"go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{join .TestGoFiles \",\"}},{{join .XTestGoFiles \",\"}}",
                  "./..."};
  command.cwd = side.worktree;
  command.env = settings.env;
  command.keep_output_bytes = 0;  // the package list is data
  const auto result = process::run(command);
  if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
  if (!result.ok()) {
    throw InfraError(fmt::format("{}: `go list ./...` in {}: {}: {}", to_string(side.side), side.worktree.string(),
                                 process::describe(result), process::tail_lines(result.err, 1)));
  }
  std::vector<Unit> units;
  for (const auto& line : split(result.out, '\n')) {
    auto fields = split(line, '\t');
    if (fields.size() < 3) continue;  // no test files at all
    bool has_benchmark = false;
    for (const auto& file : split(fields[2], ','))
      has_benchmark = has_benchmark || declares_go_benchmark(read_file(fs::path(fields[1]) / file));
    if (has_benchmark) units.push_back(Unit{fields[0], go_test_argv(fields[0], settings.bench_args), side.worktree});
  }
  return units;
}

/// One `go test` of one package; its text output is parsed with formats::parse_go_bench.
RunRecord run_go_test(const ProcessSettings& settings, const Unit& unit, Side side, const std::string& sha, int run_index) {
  RunRecord record = new_record(unit.name, side, sha, run_index);
  const auto [log, rel] = run_log_path(settings.out_dir, unit.name, side, run_index);
  process::Command command = measured_command(settings, unit.argv, unit.cwd);
  command.stdout_path = log;
  command.keep_output_bytes = 0;  // `go test` prints its results: the log is what gets parsed
  const auto result = process::run(command);
  record.log = rel;
  const bool ok = record_outcome(command, result, record);
  if (record.interrupted) return record;
  formats::Output output;
  try {
    output = formats::parse_go_bench(read_file(log), log.string());
  } catch (const InputError& e) {
    if (ok) {
      record.status = "unparsable output";
      record.detail = e.what();
    }
    return record;
  }
  // `go test` exits 1 when one benchmark fails; the others still measured.
  bool benchmark_failed = false;
  for (const auto& entry : output.entries) {
    if (!entry.error.empty()) {
      record.errors[entry.name] = entry.error;
      benchmark_failed = true;
      continue;
    }
    Sample sample;
    add_median(sample, "real_ns", entry.real_ns);
    add_median(sample, "cpu_ns", entry.cpu_ns);
    add_median(sample, "allocs_per_iter", entry.allocs_per_iter);
    add_median(sample, "bytes_per_iter", entry.bytes_per_iter);
    record.samples[entry.name] = std::move(sample);
  }
  if (!ok && !(result.exit_code == 1 && benchmark_failed && !record.samples.empty())) {
    record.samples.clear();
    return record;
  }
  record.status = "ok";
  record.detail.clear();
  return record;
}

/// The Runner for Go packages; `settings.bench_args` go to `go test`.
class GoRunner final : public Runner {
 public:
  explicit GoRunner(ProcessSettings settings) : settings_(std::move(settings)) {}
  std::vector<Unit> prepare(const SideContext& side) override { return go_packages(settings_, side); }
  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index, const RunScope&) override {
    return run_go_test(settings_, unit, side, sha, run_index);
  }

 private:
  ProcessSettings settings_;
};

}  // namespace

std::unique_ptr<Runner> make_go(const RunnerSetup& setup) { return std::make_unique<GoRunner>(setup.process); }

}  // namespace cobench::run
