#include "config/keys.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <regex>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/benchmark_regex.h"
#include "core/errors.h"
#include "core/glob.h"
#include "core/parse.h"
#include "core/regex_limits.h"
#include "core/text.h"

namespace cobench::config {
namespace {

/// What a key holds, which decides how it is read and checked.
enum class Kind {
  Count,        ///< an integer >= min
  OptionalCount,
  Duration,     ///< seconds: a number or "90s", "20m", "1h30m"; > 0
  OptionalDuration,
  TimeBudget,   ///< "5%" or a fraction up to 1
  Probability,  ///< a fraction strictly between 0 and 1
  Threshold,    ///< "0", "64" or "5%"
  Choice,       ///< one of `choices`
  Text,
  NonEmptyText,
  Regex,
  TextList,
  RegexList,
  GlobList,     ///< path globs (select.ignore, select.always_all)
  Switch,       ///< true / false
  CountOrAuto,  ///< "auto" or an integer >= min
  MetricList,   ///< metric names from `choices`: "a,b" as text, a string or an array in TOML
  ShardPart,    ///< "I/N": part I of N, 1 <= I <= N
  TargetName,   ///< a CMake target of the project, or "" for none
  VariableList, ///< environment variable names: "A,B" as text (a flag given once per name works too), an array in TOML
  BenchmarkFilter,  ///< a --benchmark_filter regex, in Google Benchmark's own dialect (POSIX extended)
};

/// A value after reading, before it is stored.
using Value = std::variant<bool, int, double, std::string, std::vector<std::string>, config::Threshold, Shard>;

struct Key {
  KeyInfo info;
  Kind kind;
  void (*store)(Config&, const Value&);
  int min = 0;
  std::vector<std::string_view> choices = {};
  /// For keys whose repeated flag adds to the file's list: that list.
  const std::vector<std::string>& (*list)(const Config&) = nullptr;
  int max = std::numeric_limits<int>::max();  ///< Count: the largest value accepted
};

template <typename T>
const T& as(const Value& value) {
  return std::get<T>(value);
}

// The table. Flags and variables are the contract CI templates rely on.
const std::vector<Key>& table() {
  static const std::vector<Key> keys = {
      {{"build.cmake_args", "", "--cmake-arg", "extra CMake argument (repeatable; adds to [build] cmake_args)", false,
        true, true},
       Kind::TextList, [](Config& c, const Value& v) { c.build.cmake_args = as<std::vector<std::string>>(v); }, 0, {},
       [](const Config& c) -> const std::vector<std::string>& { return c.build.cmake_args; }},
      {{"build.targets", "", "", "name regexes of targets that count as benchmarks besides those linking benchmark"},
       Kind::RegexList, [](Config& c, const Value& v) { c.build.targets = as<std::vector<std::string>>(v); }},
      {{"build.source_dir", "", "--source-dir", "CMake project folder inside the repository (default: root)"},
       Kind::Text, [](Config& c, const Value& v) { c.build.source_dir = as<std::string>(v); }},
      {{"build.build_type", "", "", "CMAKE_BUILD_TYPE of both sides (default Release)"}, Kind::NonEmptyText,
       [](Config& c, const Value& v) { c.build.build_type = as<std::string>(v); }},
      {{"build.layout_stable", "", "--layout-stable",
        "build both sides so an unchanged function keeps its alignment (-ffunction-sections -falign-functions=64 "
        "-falign-loops=32)",
        true},
       Kind::Switch, [](Config& c, const Value& v) { c.build.layout_stable = as<bool>(v); }},
      {{"build.shared_parent", "", "--shared-parent",
        "library target linked once from the base as a shared parent of both sides' benchmarks (\"\" = off)"},
       Kind::TargetName, [](Config& c, const Value& v) { c.build.shared_parent = as<std::string>(v); }},
      {{"build.ccache", "COBENCH_CCACHE", "--ccache",
        "compile through ccache when it is on PATH, so the side built second reuses the first's objects "
        "(default on; --no-ccache)",
        true, false, false, true},
       Kind::Switch, [](Config& c, const Value& v) { c.build.ccache = as<bool>(v); }},
      {{"build.ccache_dir", "", "--ccache-dir", "ccache's cache folder for both sides' builds (default: ccache's own, "
        "$CCACHE_DIR or its configuration)"},
       Kind::NonEmptyText, [](Config& c, const Value& v) { c.build.ccache_dir = as<std::string>(v); }},

      {{"run.cpu", "COBENCH_CPU", "--cpu", "pin benchmark runs to this CPU (default: the last online CPU)"},
       Kind::OptionalCount, [](Config& c, const Value& v) { c.run.cpu = as<int>(v); }, 0},
      {{"run.min_runs", "COBENCH_MIN_RUNS", "--min-runs", "runs per side before judging (default 6)"}, Kind::Count,
       [](Config& c, const Value& v) { c.run.min_runs = as<int>(v); }, 2},
      {{"run.max_runs", "COBENCH_MAX_RUNS", "--max-runs", "most runs per side (default 30)"}, Kind::Count,
       [](Config& c, const Value& v) { c.run.max_runs = as<int>(v); }, 2},
      {{"run.min_time", "COBENCH_MIN_TIME", "--min-time",
        "how long each Google Benchmark benchmark measures per run, passed as --benchmark_min_time unless a "
        "--bench-arg sets it (default 0.1s: more, shorter runs; 0.5s is Google Benchmark's own); run length auto "
        "measures half of it in a target's first pairs, then chooses up to it"},
       Kind::Duration, [](Config& c, const Value& v) { c.run.min_time = as<double>(v); }},
      {{"run.run_timeout", "COBENCH_RUN_TIMEOUT", "--run-timeout", "per-run timeout, e.g. 300s (default 300s)"},
       Kind::Duration, [](Config& c, const Value& v) { c.run.run_timeout = as<double>(v); }},
      {{"run.time_budget", "COBENCH_TIME_BUDGET", "--time-budget",
        "bound on the whole job (configure, build, measure), e.g. 20m; targets whose build will not fit are dropped, "
        "lowest-ranked first"},
       Kind::OptionalDuration, [](Config& c, const Value& v) { c.run.time_budget = as<double>(v); }},
      {{"run.measure_budget", "COBENCH_MEASURE_BUDGET", "--measure-budget", "bound on the measuring phase alone, e.g. 10m"},
       Kind::OptionalDuration, [](Config& c, const Value& v) { c.run.measure_budget = as<double>(v); }},
      {{"run.bench_args", "", "--bench-arg", "argument for every benchmark run (repeatable; adds to [run] bench_args)",
        false, true, true},
       Kind::TextList, [](Config& c, const Value& v) { c.run.bench_args = as<std::vector<std::string>>(v); }, 0, {},
       [](const Config& c) -> const std::vector<std::string>& { return c.run.bench_args; }},
      {{"run.metric", "COBENCH_METRIC", "--metric",
        "what to measure: auto (default: cpu_time for single-threaded benchmarks, real_time otherwise), real_time, "
        "cpu_time, instructions (per iteration, under callgrind), or a time metric and instructions: "
        "real_time,instructions"},
       Kind::MetricList, [](Config& c, const Value& v) { c.run.metrics = as<std::vector<std::string>>(v); }, 0,
       {"auto", "real_time", "cpu_time", "instructions"}},
      // The same setting as a TOML list (metrics = ["real_time", "instructions"]); validate() refuses both in one file.
      {{"run.metrics", "", "", "what to measure, as a list: [\"real_time\", \"instructions\"]"}, Kind::MetricList,
       [](Config& c, const Value& v) { c.run.metrics = as<std::vector<std::string>>(v); }, 0,
       {"auto", "real_time", "cpu_time", "instructions"}},
      {{"run.instruction_runs", "", "--instruction-runs",
        "callgrind runs per side and benchmark with --metric instructions (default 3)"},
       Kind::Count, [](Config& c, const Value& v) { c.run.instruction_runs = as<int>(v); }, 1},
      {{"run.pairing", "", "--pairing", "paired (default: base and head runs of one index form a pair) or unpaired"},
       Kind::Choice, [](Config& c, const Value& v) { c.run.pairing = as<std::string>(v); }, 0, {"paired", "unpaired"}},
      {{"run.looks", "", "--looks",
        "haybittle-peto (default: strict interim looks, the stated level at the last) or every-look"},
       Kind::Choice, [](Config& c, const Value& v) { c.run.looks = as<std::string>(v); }, 0,
       {"haybittle-peto", "every-look"}},
      {{"run.control_rule", "", "--control-rule",
        "shift (default: a claim stands unless a shift a control shows can explain it) or spread (before: a "
        "claim must clear the widest control's half-width; for comparison)"},
       Kind::Choice, [](Config& c, const Value& v) { c.run.control_rule = as<std::string>(v); }, 0, {"shift", "spread"}},
      {{"run.stopping", "", "--stopping", "benchmark (default: a decided benchmark stops running) or target"},
       Kind::Choice, [](Config& c, const Value& v) { c.run.stopping = as<std::string>(v); }, 0, {"benchmark", "target"}},
      {{"run.repetitions", "COBENCH_REPETITIONS", "--repetitions",
        "repetitions per process: a count (default 1) or auto (from the measured noise split)"},
       Kind::CountOrAuto, [](Config& c, const Value& v) { c.run.repetitions = as<std::string>(v); }, 1},
      {{"run.run_length", "", "--run-length",
        "auto (default: a target's first pairs measure half of min_time; from its first look on, its runs measure "
        "min_time where its noise is inside the process and less where it is between processes, to no less than "
        "0.01 s and an eighth of min_time) or fixed (every run measures min_time)"},
       Kind::Choice, [](Config& c, const Value& v) { c.run.run_length = as<std::string>(v); }, 0, {"auto", "fixed"}},
      {{"run.alloc_runs", "", "--alloc-runs", "allocation-counting runs per side (default 3; 0: none; without an allocation budget they end once both sides counted alike)"}, Kind::Count,
       [](Config& c, const Value& v) { c.run.alloc_runs = as<int>(v); }, 0},
      {{"run.runner", "", "--runner",
        "the benchmarks' framework: gbench (Google Benchmark, the default), catch2, go (go test -bench per package) or "
        "command"},
       Kind::NonEmptyText, [](Config& c, const Value& v) { c.run.runner = as<std::string>(v); }},
      {{"run.commands", "", "--command",
        "a command to time as one benchmark, e.g. './bench.sh --fast' or a JSON array (repeatable; implies --runner "
        "command)",
        false, true},
       Kind::TextList, [](Config& c, const Value& v) { c.run.commands = as<std::vector<std::string>>(v); }},
      {{"run.prepare", "", "--prepare", "a command run once in each worktree before measuring (repeatable)", false,
        true},
       Kind::TextList, [](Config& c, const Value& v) { c.run.prepare = as<std::vector<std::string>>(v); }},
      {{"run.filter", "COBENCH_FILTER", "--filter",
        "benchmark-name regex passed as --benchmark_filter (POSIX extended, as Google Benchmark reads it)"},
       Kind::BenchmarkFilter, [](Config& c, const Value& v) { c.run.filter = as<std::string>(v); }},
      {{"run.pass_env", "COBENCH_PASS_ENV", "--pass-env",
        "an environment variable builds and benchmark runs get although it looks like a credential or is one of "
        "Google Benchmark's flag variables such as BENCHMARK_FILTER (repeatable, or A,B; adds to [run] pass_env); a "
        "credential's value is still redacted from everything cobench publishes",
        false, true, true},
       Kind::VariableList, [](Config& c, const Value& v) { c.run.pass_env = as<std::vector<std::string>>(v); }, 0, {},
       [](const Config& c) -> const std::vector<std::string>& { return c.run.pass_env; }},
      {{"run.control", "", "--control",
        "an untouched benchmark target rebuilt on both sides as the layout control (repeatable; default: the "
        "cheapest target the diff does not reach; none: no layout control)",
        false, true},
       Kind::TextList, [](Config& c, const Value& v) { c.run.control = as<std::vector<std::string>>(v); }},
      {{"run.machine_control", "COBENCH_MACHINE_CONTROL", "--machine-control",
        "run one binary as both sides in every block: the job's own A/A (default on; --no-machine-control)", true,
        false, false, true},
       Kind::Switch, [](Config& c, const Value& v) { c.run.machine_control = as<bool>(v); }},
      {{"run.layout_probe", "", "--layout-probe",
        "measure the layout noise floor: the head commit against itself, one side built with an unused "
        "function in every translation unit",
        true},
       Kind::Switch, [](Config& c, const Value& v) { c.run.layout_probe = as<bool>(v); }},
      {{"run.layouts", "COBENCH_LAYOUTS", "--layouts",
        "code layouts a regression or faster claim must hold in: each claimed row is re-measured with both sides "
        "rebuilt layout-stable with their code moved, and reads layout-sensitive unless every layout agrees (default 2; 3: a third "
        "layout when the second is inconclusive; 1: off)"},
       Kind::Count, [](Config& c, const Value& v) { c.run.layouts = as<int>(v); }, 1, {}, nullptr, 3},
      {{"run.reach", "COBENCH_REACH", "--reach",
        "prove which benchmark instances execute the change: a --coverage build, each instance run once, gcov's "
        "executed lines against the diff's; a benchmark that does not is never a regression",
        true},
       Kind::Switch, [](Config& c, const Value& v) { c.run.reach = as<bool>(v); }},
      {{"run.reach_index", "COBENCH_REACH_INDEX", "--reach-index",
        "folder of the reach index, one <base-sha>.json per base commit for a CI cache to restore (default "
        "<work-dir>/reach)"},
       Kind::Text, [](Config& c, const Value& v) { c.run.reach_index = as<std::string>(v); }},

      {{"budget.time", "COBENCH_BUDGET", "--budget", "allowed slowdown: 5% or 0.05 (default 5%)"}, Kind::TimeBudget,
       [](Config& c, const Value& v) { c.budget.time = as<double>(v); }},
      {{"budget.allocs", "", "--allocs-budget", "allowed increase of allocs/op: 0, 2 (absolute) or 5% (relative)"},
       Kind::Threshold, [](Config& c, const Value& v) { c.budget.allocs = as<config::Threshold>(v); }},
      {{"budget.bytes", "", "--bytes-budget", "allowed increase of bytes/op: 64 (absolute) or 5% (relative)"},
       Kind::Threshold, [](Config& c, const Value& v) { c.budget.bytes = as<config::Threshold>(v); }},
      {{"budget.confidence", "", "--confidence", "confidence of the interval: 0.95 or 95% (default 0.95)"},
       Kind::Probability, [](Config& c, const Value& v) { c.budget.confidence = as<double>(v); }},
      {{"budget.gate", "", "--gate", "exit 1 when any benchmark regressed", true}, Kind::Switch,
       [](Config& c, const Value& v) { c.budget.gate = as<bool>(v); }},
      {{"budget.fail_on_inconclusive", "", "--fail-on-inconclusive", "inconclusive fails too (implies --gate)", true},
       Kind::Switch, [](Config& c, const Value& v) { c.budget.fail_on_inconclusive = as<bool>(v); }},
      {{"budget.instructions_tolerance", "", "--instructions-tolerance",
        "instruction counts: widen the observed head/base range by this much on each side for nondeterminism the "
        "runs may not show (default 0.5%)"},
       Kind::TimeBudget, [](Config& c, const Value& v) { c.budget.instructions_tolerance = as<double>(v); }},
      {{"budget.governing", "", "--governing",
        "with time and instructions measured, whose verdict is the row's: time (default), instructions or worst"},
       Kind::Choice, [](Config& c, const Value& v) { c.budget.governing = as<std::string>(v); }, 0,
       {"time", "instructions", "worst"}},

      {{"select.max_targets", "", "--max-targets", "most targets the diff selects, closest first (default 20; 0: no cap)"},
       Kind::Count, [](Config& c, const Value& v) { c.select.max_targets = as<int>(v); }, 0},
      {{"select.always_all", "", "", "globs: a change there selects every target"}, Kind::GlobList,
       [](Config& c, const Value& v) { c.select.always_all = as<std::vector<std::string>>(v); }},
      {{"select.ignore", "", "", "globs: changes there reach no benchmark"}, Kind::GlobList,
       [](Config& c, const Value& v) { c.select.ignore = as<std::vector<std::string>>(v); }},
      {{"select.strict_layout", "", "--strict-layout", "exit 2 when a selected source registers several families",
        true},
       Kind::Switch, [](Config& c, const Value& v) { c.select.strict_layout = as<bool>(v); }},
      {{"select.targets", "COBENCH_TARGETS", "--target", "only benchmark targets whose name matches this regex"},
       Kind::Regex, [](Config& c, const Value& v) { c.select.targets = as<std::string>(v); }},
      {{"select.shard", "COBENCH_SHARD", "--shard",
        "measure part I of N of the selected targets, e.g. 2/4 (a split balanced by estimated cost, the same in every "
        "shard; each part a whole job with its own control)"},
       Kind::ShardPart, [](Config& c, const Value& v) { c.select.shard = as<Shard>(v); }},
      {{"select.cost_from", "COBENCH_COST_FROM", "--cost-from",
        "results.jsonl of an earlier job: each target's build and run time, for --shard and --time-budget "
        "(repeatable; default: estimated from source size and the builds so far)",
        false, true},
       Kind::TextList, [](Config& c, const Value& v) { c.select.cost_from = as<std::vector<std::string>>(v); }},
  };
  return keys;
}

const Key& find(std::string_view name) {
  for (const Key& key : table())
    if (key.info.key == name) return key;
  throw std::logic_error(fmt::format("cobench: no setting named {}", name));
}

[[noreturn]] void reject(const std::string& what, const toml::node* node = nullptr) { throw ValueError{node, what}; }

std::string expected(std::string_view what, const toml::node& node) {
  return fmt::format("expected {}, got {}", what, type_name(node));
}

constexpr const char* kBadDuration =
    "bad duration: write a positive number of seconds or e.g. \"90s\", \"20m\", \"1h30m\" (at most 366 days)";

std::string regex_problem(const std::string& pattern) {
  if (pattern.size() > kMaxRegexLength)
    return fmt::format("a regex of {} characters; at most {} are accepted", pattern.size(), kMaxRegexLength);
  if (has_oversized_number(pattern))
    return fmt::format("bad regex '{}': a back-reference or repeat count of more than {} digits", pattern,
                       kMaxRegexNumberDigits);
  try {
    std::regex compiled(pattern, std::regex::ECMAScript);
    return {};
  } catch (const std::regex_error& e) {
    return fmt::format("bad regex '{}': {}", pattern, e.what());
  }
}

constexpr std::string_view kInstructions = "instructions";

/// A list of metrics: known names, none twice, at most one time metric, not empty.
void check_metrics(const Key& key, const std::vector<std::string>& metrics) {
  if (metrics.empty()) reject(fmt::format("name at least one of {}", fmt::join(key.choices, ", ")));
  int time_metrics = 0;
  for (size_t i = 0; i < metrics.size(); ++i) {
    const std::string& metric = metrics[i];
    if (std::find(key.choices.begin(), key.choices.end(), metric) == key.choices.end())
      reject(fmt::format("'{}' is not one of {}", metric, fmt::join(key.choices, ", ")));
    if (std::find(metrics.begin(), metrics.begin() + i, metric) != metrics.begin() + i)
      reject(fmt::format("'{}' is named twice", metric));
    if (metric != kInstructions && ++time_metrics > 1)
      reject(fmt::format("one time metric at most, got {}: a row is judged on one time", fmt::join(metrics, ", ")));
  }
}

/// "real_time, instructions" -> {"real_time", "instructions"}: the comma list a flag or variable gives.
std::vector<std::string> split_metric_list(std::string_view text) {
  std::vector<std::string> out;
  for (size_t from = 0; from <= text.size();) {
    size_t comma = text.find(',', from);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(from, comma - from);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front()))) item.remove_prefix(1);
    while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back()))) item.remove_suffix(1);
    out.emplace_back(item);
    from = comma + 1;
  }
  return out;
}

/// Why `name` cannot be a target the project defines itself ("" when it can).
std::string target_name_problem(const std::string& name) {
  if (name.find("::") != std::string::npos)
    return fmt::format("'{}' is an ALIAS or IMPORTED name; name the project's own library target", name);
  static const std::regex valid("[A-Za-z0-9_.+-]*");
  if (!std::regex_match(name, valid))
    return fmt::format("'{}' is not a CMake target name (letters, digits and _ . + -)", name);
  return {};
}

// The checks every value passes, whichever source it came from.
Value checked(const Key& key, Value value) {
  switch (key.kind) {
    case Kind::Count:
    case Kind::OptionalCount:
      if (as<int>(value) < key.min) reject(fmt::format("must be at least {}, got {}", key.min, as<int>(value)));
      if (as<int>(value) > key.max) reject(fmt::format("must be at most {}, got {}", key.max, as<int>(value)));
      break;
    case Kind::Duration:
    case Kind::OptionalDuration:
      if (!(as<double>(value) > 0) || !(as<double>(value) <= kMaxDurationSeconds)) reject(kBadDuration);
      break;
    case Kind::Probability:
      if (as<double>(value) <= 0 || as<double>(value) >= 1) reject("must be strictly between 0 and 1, e.g. 0.95");
      break;
    case Kind::Choice:
      if (std::find(key.choices.begin(), key.choices.end(), as<std::string>(value)) == key.choices.end())
        reject(fmt::format("'{}' is not one of {}", as<std::string>(value), fmt::join(key.choices, ", ")));
      break;
    case Kind::NonEmptyText:
      if (as<std::string>(value).empty()) reject("must not be empty");
      break;
    case Kind::CountOrAuto: {
      const std::string& text = as<std::string>(value);
      auto number = parse_number(text);
      if (text != "auto" && !(number && *number == std::floor(*number) && *number >= key.min && *number <= 100))
        reject(fmt::format("'{}': write auto or a count from {} to 100", text, key.min));
      break;
    }
    case Kind::MetricList: check_metrics(key, as<std::vector<std::string>>(value)); break;
    case Kind::Regex:
      if (auto problem = regex_problem(as<std::string>(value)); !problem.empty()) reject(problem);
      break;
    case Kind::BenchmarkFilter:
      if (auto problem = benchmark_regex::filter_problem(as<std::string>(value))) reject(*problem);
      break;
    case Kind::VariableList:
      for (const auto& name : as<std::vector<std::string>>(value)) {
        static const std::regex valid("[A-Za-z_][A-Za-z0-9_]*");
        if (!std::regex_match(name, valid))
          reject(fmt::format("'{}' is not an environment variable name (letters, digits and _, not first a digit)",
                             shorten(name, 100)));
      }
      break;
    case Kind::TargetName:
      if (auto problem = target_name_problem(as<std::string>(value)); !problem.empty()) reject(problem);
      break;
    case Kind::GlobList:
      for (const auto& pattern : as<std::vector<std::string>>(value))
        if (auto problem = glob_problem(pattern)) reject(fmt::format("bad glob '{}': {}", pattern, *problem));
      break;
    default:
      break;
  }
  return value;
}

// Parsers that throw InputError with a bare reason become ValueErrors.
template <typename Parse>
auto parsed(Parse parse, const toml::node* node = nullptr) {
  try {
    return parse();
  } catch (const InputError& e) {
    reject(e.what(), node);
  }
}

int count_from(long long value) {
  if (value > std::numeric_limits<int>::max()) reject(fmt::format("{} is too large", value));
  if (value < std::numeric_limits<int>::min()) reject(fmt::format("{} is too small", value));
  return static_cast<int>(value);
}

double fraction_from_text(std::string_view text) {
  auto value = parse_fraction(text);
  if (!value) reject(fmt::format("bad percentage '{}': write e.g. \"5%\" or 0.05 (not negative)", text));
  return *value;
}

// "I/N" with 1 <= I <= N: two plain integers, nothing around them.
Shard shard_from_text(std::string_view text) {
  const auto slash = text.find('/');
  auto part = [](std::string_view digits) -> std::optional<int> {
    if (digits.empty() || digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    return std::stoi(std::string(digits));
  };
  const auto index = slash == std::string_view::npos ? std::nullopt : part(text.substr(0, slash));
  const auto count = slash == std::string_view::npos ? std::nullopt : part(text.substr(slash + 1));
  if (!index || !count) reject(fmt::format("'{}': write the part as I/N, e.g. 2/4", text));
  if (*count < 1 || *index < 1 || *index > *count)
    reject(fmt::format("'{}': the part I of I/N must be between 1 and N", text));
  return {*index, *count};
}

/// Environment variable names: each value may list several, "A,B".
std::vector<std::string> variable_names(const std::vector<std::string>& values) {
  std::vector<std::string> names;
  for (const auto& value : values)
    for (size_t from = 0; from <= value.size();) {
      const size_t comma = std::min(value.find(',', from), value.size());
      names.push_back(value.substr(from, comma - from));
      from = comma + 1;
    }
  return names;
}

Value from_text(const Key& key, const std::vector<std::string>& values) {
  if (key.kind == Kind::TextList || key.kind == Kind::RegexList || key.kind == Kind::GlobList) return values;
  if (key.kind == Kind::VariableList) return variable_names(values);
  if (values.size() != 1) reject(fmt::format("given {} times; give it once", values.size()));
  const std::string& text = values.front();
  switch (key.kind) {
    case Kind::Count:
    case Kind::OptionalCount: {
      auto number = parse_number(text);
      if (!number || *number != std::floor(*number)) reject(fmt::format("expected an integer, got '{}'", text));
      if (std::abs(*number) > 1e15) reject(fmt::format("{} is too large", text));
      return count_from(static_cast<long long>(*number));
    }
    case Kind::Duration:
    case Kind::OptionalDuration: {
      auto seconds = parse_duration_seconds(text);
      if (!seconds) reject(kBadDuration);
      return *seconds;
    }
    case Kind::TimeBudget: return parsed([&] { return config::parse_time_budget(text); });
    case Kind::Probability: return fraction_from_text(text);
    case Kind::Threshold: return parsed([&] { return config::parse_threshold(text); });
    case Kind::MetricList: return split_metric_list(text);
    case Kind::ShardPart: return shard_from_text(text);
    case Kind::Switch:
      if (text == "true" || text == "1" || text == "yes" || text == "on") return true;
      if (text == "false" || text == "0" || text == "no" || text == "off") return false;
      reject(fmt::format("expected true or false, got '{}'", text));
    default: return text;
  }
}

std::vector<std::string> strings_from(const toml::node& node) {
  const toml::array* array = node.as_array();
  if (!array) reject(expected("an array of strings", node), &node);
  std::vector<std::string> out;
  for (const toml::node& item : *array) {
    if (!item.is_string()) reject(expected("strings in the array", item), &item);
    out.push_back(item.value<std::string>().value());
  }
  return out;
}

double non_negative_number(const toml::node& node) {
  const double value = node.value<double>().value();
  return std::isfinite(value) && value >= 0 ? value : -1;
}

Value from_node(const Key& key, const toml::node& node) {
  switch (key.kind) {
    case Kind::Count:
    case Kind::OptionalCount:
      if (!node.is_integer()) reject(expected("an integer", node), &node);
      return count_from(node.as_integer()->get());
    case Kind::Duration:
    case Kind::OptionalDuration:
      if (node.is_number()) return non_negative_number(node);
      if (!node.is_string())
        reject(expected("a duration (a number of seconds or a string like \"300s\", \"20m\")", node), &node);
      return from_text(key, {node.value<std::string>().value()});
    case Kind::TimeBudget:
    case Kind::Probability:
      if (node.is_number()) {
        const double value = node.value<double>().value();
        return parsed([&] { return config::time_budget_from_number(value); }, &node);
      }
      if (!node.is_string()) reject(expected("a percentage like \"5%\" or a fraction like 0.05", node), &node);
      return from_text(key, {node.value<std::string>().value()});
    case Kind::Threshold:
      if (node.is_integer()) return from_text(key, {std::to_string(node.as_integer()->get())});
      if (node.is_floating_point()) return from_text(key, {fmt::format("{}", node.as_floating_point()->get())});
      if (!node.is_string()) reject(expected("an allowed increase like \"0\", \"64\" or \"5%\"", node), &node);
      return from_text(key, {node.value<std::string>().value()});
    case Kind::Switch:
      if (!node.is_boolean()) reject(expected("true or false", node), &node);
      return node.value<bool>().value();
    case Kind::ShardPart:
      if (!node.is_string()) reject(expected("a part like \"2/4\"", node), &node);
      return from_text(key, {node.value<std::string>().value()});
    case Kind::CountOrAuto:
      if (node.is_integer()) return std::to_string(node.as_integer()->get());
      if (!node.is_string()) reject(expected("\"auto\" or a count", node), &node);
      return node.value<std::string>().value();
    case Kind::MetricList:
      if (node.is_string()) return split_metric_list(node.value<std::string>().value());
      if (!node.is_array()) reject(expected("a metric name or a list of them", node), &node);
      return strings_from(node);
    case Kind::TextList:
    case Kind::VariableList: return strings_from(node);
    case Kind::RegexList: {
      auto patterns = strings_from(node);
      for (size_t i = 0; i < patterns.size(); ++i)
        if (auto problem = regex_problem(patterns[i]); !problem.empty()) reject(problem, node.as_array()->get(i));
      return patterns;
    }
    case Kind::GlobList: {
      auto patterns = strings_from(node);
      for (size_t i = 0; i < patterns.size(); ++i)
        if (auto problem = glob_problem(patterns[i]))
          reject(fmt::format("bad glob '{}': {}", patterns[i], *problem), node.as_array()->get(i));
      return patterns;
    }
    default:
      if (!node.is_string()) reject(expected("a string", node), &node);
      return node.value<std::string>().value();
  }
}

void store(Config& config, const Key& key, const Value& value, const Origin& origin) {
  key.store(config, value);
  config.origins[std::string(key.info.key)] = origin;
  // Commands are only timed by the command runner: naming them implies it, unless a runner was named.
  if (key.info.key == "run.commands" && !config.run.commands.empty() &&
      config.origin("run.runner").kind == Origin::Kind::Default) {
    config.run.runner = "command";
    config.origins["run.runner"] = origin;
  }
}

}  // namespace

std::string Origin::describe(std::string_view key) const {
  switch (kind) {
    case Kind::File: return fmt::format("{}: {}", where, key);
    case Kind::Environment:
    case Kind::Flag: return where;
    case Kind::Default: break;
  }
  return std::string(key);
}

const Origin& Config::origin(std::string_view key) const {
  static const Origin kDefault;
  auto it = origins.find(key);
  return it == origins.end() ? kDefault : it->second;
}

std::string RunConfig::time_metric() const {
  for (const auto& metric : metrics)
    if (metric != kInstructions) return metric;
  return "";
}

bool RunConfig::counts_instructions() const {
  return std::find(metrics.begin(), metrics.end(), kInstructions) != metrics.end();
}

std::span<const KeyInfo> keys() {
  static const std::vector<KeyInfo> infos = [] {
    std::vector<KeyInfo> out;
    for (const Key& key : table()) out.push_back(key.info);
    return out;
  }();
  return infos;
}

const KeyInfo* key_for_flag(std::string_view flag) {
  for (const KeyInfo& info : keys())
    if (info.flag == flag) return &info;
  return nullptr;
}

std::vector<std::string_view> section_keys(std::string_view section) {
  std::vector<std::string_view> out;
  for (const Key& key : table()) {
    std::string_view name = key.info.key;
    if (name.substr(0, name.find('.')) == section) out.push_back(name.substr(name.find('.') + 1));
  }
  return out;
}

void set(Config& config, std::string_view name, const std::vector<std::string>& values, const Origin& origin) {
  const Key& key = find(name);
  try {
    Value value = checked(key, from_text(key, values));
    if (key.list && config.origin(name).kind == Origin::Kind::File) {
      // A repeated flag adds to what cobench.toml lists (extra -D arguments, extra benchmark flags).
      std::vector<std::string> merged = key.list(config);
      const auto& added = as<std::vector<std::string>>(value);
      merged.insert(merged.end(), added.begin(), added.end());
      value = merged;
    }
    store(config, key, value, origin);
  } catch (const ValueError& e) {
    throw InputError(fmt::format("{}: {}", origin.describe(name), e.what));
  }
}

void set_from_node(Config& config, std::string_view name, const toml::node& node, const Origin& origin) {
  const Key& key = find(name);
  try {
    store(config, key, checked(key, from_node(key, node)), origin);
  } catch (const ValueError& e) {
    if (e.node) throw;
    throw ValueError{&node, e.what};
  }
}

double time_budget_of(const toml::node& node) { return as<double>(checked(find("budget.time"), from_node(find("budget.time"), node))); }

config::Threshold threshold_of(const toml::node& node) {
  return as<config::Threshold>(checked(find("budget.allocs"), from_node(find("budget.allocs"), node)));
}

std::string regex_of(const toml::node& node) {
  return as<std::string>(checked(find("select.targets"), from_node(find("select.targets"), node)));
}

void apply_environment(Config& config, const std::map<std::string, std::string>& env) {
  for (const Key& key : table()) {
    if (key.info.env.empty()) continue;
    auto it = env.find(std::string(key.info.env));
    // CI systems define variables empty to mean "unset"; an empty one changes nothing.
    if (it == env.end() || it->second.empty()) continue;
    set(config, key.info.key, {it->second}, {Origin::Kind::Environment, std::string(key.info.env)});
  }
}

void check_run_counts(const Config& c) {
  if (c.run.min_runs > c.run.max_runs) {
    // Name whichever of the two was set last in the layering (a flag beats the file).
    const Origin& min = c.origin("run.min_runs");
    const Origin& max = c.origin("run.max_runs");
    const bool blame_min = static_cast<int>(min.kind) > static_cast<int>(max.kind);
    const char* key = blame_min ? "run.min_runs" : "run.max_runs";
    throw InputError(fmt::format("{}: min_runs ({}) is greater than max_runs ({})",
                                 (blame_min ? min : max).describe(key), c.run.min_runs, c.run.max_runs));
  }
}

void validate(const Config& c) {
  check_run_counts(c);
  const Origin& metric = c.origin("run.metric");
  const Origin& metrics = c.origin("run.metrics");
  if (metric.kind == Origin::Kind::File && metrics.kind == Origin::Kind::File)
    throw InputError(fmt::format("{}: the metrics are also given as run.metric ({}); give them once",
                                 metrics.describe("run.metrics"), metric.where));
  const char* metric_key = metrics_key(c);
  if (c.budget.governing != "time" && !c.run.counts_instructions())
    throw InputError(fmt::format("{}: '{}' needs instructions among the metrics ({} measures {})",
                                 c.origin("budget.governing").describe("budget.governing"), c.budget.governing,
                                 c.origin(metric_key).describe(metric_key), fmt::join(c.run.metrics, ", ")));
  if (!c.build.shared_parent.empty() && c.run.layout_probe)
    throw InputError(fmt::format("{}: the layout probe compiles every unit of the head differently, so a shared parent "
                                 "library would share nothing; drop one of them",
                                 c.origin("build.shared_parent").describe("build.shared_parent")));
}

const char* metrics_key(const Config& c) {
  // Whichever was set last in the layering said what is measured.
  return static_cast<int>(c.origin("run.metrics").kind) > static_cast<int>(c.origin("run.metric").kind) ? "run.metrics"
                                                                                                        : "run.metric";
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::array: return "array";
    case toml::node_type::table: return "table";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "nothing";
  }
}

}  // namespace cobench::config
