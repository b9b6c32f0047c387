// The coverage pass of one side: configure with --coverage, build each
// target, run each benchmark instance once, read its executed lines with gcov.
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

#include <fmt/format.h>

#include "core/errors.h"
#include "cmake/compile_flags.h"
#include "formats/gcov_json.h"
#include "process/process.h"
#include "reach/coverage.h"
#include "run/gbench_runner.h"

namespace cobench::reach {
namespace {

namespace fs = std::filesystem;

// Long enough to execute every line an iteration reaches, short enough that a
// grid of hundreds of instances costs seconds. GB 1.7.1 reads seconds; 1.8+ also takes the bare number.
constexpr const char* kMinTime = "--benchmark_min_time=0.01";

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

bool executable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

std::vector<fs::path> search_path() {
  std::vector<fs::path> dirs;
  const char* path = std::getenv("PATH");
  const std::string text = path ? path : "";
  for (size_t start = 0; start <= text.size();) {
    const size_t end = std::min(text.find(':', start), text.size());
    if (end > start) dirs.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return dirs;
}

/// Coverage data files (*.gcda) under `dir`.
std::vector<fs::path> coverage_data(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().extension() == ".gcda") out.push_back(it->path());
  std::sort(out.begin(), out.end());
  return out;
}

/// The environment of a coverage run: the benchmarks' own, without what would send the data elsewhere.
std::vector<std::string> coverage_environment(const std::vector<std::string>& env) {
  std::vector<std::string> out;
  for (const auto& entry : env)
    if (entry.rfind("GCOV_PREFIX=", 0) != 0 && entry.rfind("GCOV_PREFIX_STRIP=", 0) != 0) out.push_back(entry);
  return out;
}

/// `path` relative to the checkout, or "" when it lies outside (system headers, the build folder).
std::string inside(const fs::path& path, const std::vector<fs::path>& roots) {
  for (const auto& root : roots) {
    const fs::path rel = path.lexically_relative(root);
    if (!rel.empty() && *rel.begin() != ".." && rel.is_relative()) return rel.generic_string();
  }
  return "";
}

class Pass {
 public:
  Pass(const PassSettings& settings) : s_(settings) {
    roots_.push_back(s_.checkout.lexically_normal());
    std::error_code ec;
    if (auto real = fs::weakly_canonical(s_.checkout, ec); !ec && real != roots_.front()) roots_.push_back(real);
  }

  void target(TargetCoverage& out, const fs::path& executable) {
    say(fmt::format("building {}", out.target));
    try {
      cmake::build_targets(build_, {out.target});
    } catch (const cmake::BuildFailure& e) {
      out.failure = fmt::format("coverage build failed: {} (log: {})", first_line(e.what()), build_.log_path.string());
      return;
    }
    auto names = list(executable, out.failure);
    if (!names.empty())
      say(fmt::format("running {} instance{} of {} once each", names.size(), names.size() == 1 ? "" : "s", out.target));
    for (const auto& name : names) {
      if (std::string why = stop_reason(); !why.empty()) {
        out.instances.push_back({name, {}, std::move(why), 0});
        out.stopped = true;
        continue;
      }
      out.instances.push_back(instance(executable, name));
      out.seconds += out.instances.back().seconds;
    }
  }

  std::vector<TargetCoverage> run(const std::vector<std::string>& targets) {
    std::vector<TargetCoverage> out;
    for (const auto& name : targets) out.push_back({name, {}, {}, 0});
    if (targets.empty()) return out;
    if (std::string why = stop_reason(); !why.empty()) {
      for (auto& target : out) {
        target.failure = why;
        target.stopped = true;
      }
      return out;
    }
    build_ = s_.build;
    build_.cmake_args = cmake::with_flags(build_.cmake_args, {{"--coverage"}, {"--coverage"}});
    std::vector<cmake::BenchmarkTarget> found;
    try {
      say("configuring " + build_.build_dir.string());
      cmake::configure(build_);
      found = cmake::discover_targets(build_.build_dir, s_.target_pattern, s_.recognises);
    } catch (const InfraError& e) {
      for (auto& target : out) target.failure = "coverage configure failed: " + first_line(e.what());
      return out;
    }
    for (auto& target : out) {
      auto it = std::find_if(found.begin(), found.end(), [&](const auto& t) { return t.name == target.target; });
      if (std::string why = stop_reason(); !why.empty()) {
        target.failure = std::move(why);
        target.stopped = true;
      } else if (it == found.end())
        target.failure = "not a benchmark target of this side";
      else
        this->target(target, it->artifact);
    }
    return out;
  }

 private:
  std::string stop_reason() const { return s_.stop ? s_.stop() : std::string(); }

  void say(const std::string& what) const {
    if (s_.progress) s_.progress(fmt::format("coverage{}: {}", s_.side.empty() ? "" : " (" + s_.side + ")", what));
  }

  std::vector<std::string> list(const fs::path& executable, std::string& failure) const {
    process::Command command;
    command.argv = {executable.string(), "--benchmark_list_tests=true"};
    for (const auto& arg : s_.bench_args)
      if (run::is_filter_flag(arg)) command.argv.push_back(arg);
    command.cwd = build_.build_dir;
    command.env = coverage_environment(s_.run_env);
    command.timeout_seconds = 60;
    command.keep_output_bytes = 0;  // the names are data
    const auto result = process::run(command);
    if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
    std::vector<std::string> names;
    if (!result.ok()) {
      failure = fmt::format("listing its benchmarks failed ({}): {}", process::describe(result),
                            process::quote_command_line(command.argv));
      return names;
    }
    for (size_t start = 0; start < result.out.size();) {
      size_t end = result.out.find('\n', start);
      if (end == std::string::npos) end = result.out.size();
      if (end > start) names.push_back(result.out.substr(start, end - start));
      start = end + 1;
    }
    return names;
  }

  InstanceCoverage instance(const fs::path& executable, const std::string& name) const {
    InstanceCoverage out;
    out.name = name;
    std::error_code ec;
    for (const auto& stale : coverage_data(build_.build_dir)) fs::remove(stale, ec);  // this run's data only
    process::Command command;
    command.argv = {executable.string()};
    for (auto& arg : coverage_run_args(s_.bench_args, name)) command.argv.push_back(std::move(arg));
    command.cwd = build_.build_dir;
    command.env = coverage_environment(s_.run_env);
    command.timeout_seconds = s_.run_timeout;
    command.own_cgroup = true;
    command.merge_stderr_into_stdout = true;
    const auto result = process::run(command);
    out.seconds = result.wall_seconds;
    if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
    if (!result.ok()) {
      out.failure = fmt::format("coverage run {}: {}", process::describe(result),
                                process::tail_lines(result.out + result.err, 1));
      return out;
    }
    const auto data = coverage_data(build_.build_dir);
    if (data.empty()) {
      out.failure = "the coverage run wrote no coverage data (.gcda)";
      return out;
    }
    read_executed(data, out);
    return out;
  }

  void read_executed(const std::vector<fs::path>& data, InstanceCoverage& out) const {
    process::Command gcov;
    gcov.argv = {s_.gcov.string(), "--json-format", "--stdout"};
    for (const auto& file : data) gcov.argv.push_back(file.string());
    gcov.cwd = build_.build_dir;
    gcov.keep_output_bytes = 0;  // JSON to parse
    gcov.timeout_seconds = std::max(60.0, s_.run_timeout);
    const auto result = process::run(gcov);
    if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
    if (!result.ok() && result.out.empty()) {
      out.failure = fmt::format("gcov {}: {}", process::describe(result), process::tail_lines(result.err, 1));
      return;
    }
    try {
      for (const auto& file : formats::parse_gcov_json(result.out, "gcov output for " + out.name)) {
        const std::string rel = inside(file.path, roots_);
        if (rel.empty() || (file.executed.empty() && file.in_functions_that_ran.empty()) ||
            (s_.keep_file && !s_.keep_file(rel)))
          continue;
        auto& lines = out.executed[rel];
        lines.insert(lines.end(), file.executed.begin(), file.executed.end());
        // A line the optimiser left no code for ran when its enclosing function did.
        lines.insert(lines.end(), file.in_functions_that_ran.begin(), file.in_functions_that_ran.end());
        std::sort(lines.begin(), lines.end());
        lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
      }
    } catch (const InputError& e) {
      out.failure = e.what();
    }
  }

  const PassSettings& s_;
  cmake::BuildSettings build_;
  std::vector<fs::path> roots_;
};

}  // namespace

CoverageTool find_gcov(const cmake::Compiler& compiler) {
  CoverageTool tool;
  if (compiler.id != "GNU") {
    tool.unavailable = compiler.id.empty()
                           ? "compiler not known (CMake named no C++ compiler): gcov reads gcc's coverage only"
                           : fmt::format("non-gcc compiler ({} {}): gcov reads gcc's coverage only", compiler.id,
                                         compiler.version);
    return tool;
  }
  const std::string major = compiler.version.substr(0, compiler.version.find('.'));
  std::vector<std::string> names;
  if (!major.empty()) names.push_back("gcov-" + major);
  names.push_back("gcov");
  std::vector<fs::path> dirs;
  if (compiler.path.is_absolute()) dirs.push_back(compiler.path.parent_path());
  for (auto& dir : search_path()) dirs.push_back(std::move(dir));
  for (const auto& name : names)
    for (const auto& dir : dirs)
      if (executable(dir / name)) {
        tool.gcov = dir / name;
        return tool;
      }
  tool.unavailable = fmt::format("no gcov: {} not found next to the compiler or on PATH",
                                 names.size() > 1 ? names[0] + " or gcov" : names[0]);
  return tool;
}

std::vector<std::string> coverage_run_args(const std::vector<std::string>& bench_args, const std::string& instance) {
  std::vector<std::string> args = bench_args;
  args.push_back(kMinTime);
  args.push_back(run::repetitions_flag(1));
  args.push_back("--benchmark_filter=" + run::exact_filter(instance));
  return args;
}

std::vector<TargetCoverage> run_coverage_pass(const PassSettings& settings, const std::vector<std::string>& targets) {
  return Pass(settings).run(targets);
}

}  // namespace cobench::reach
