#pragma once
// Layered settings: defaults < cobench.toml < environment < command line.
// This struct is the one place every stage reads its settings from.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cobench::config {

/// A per-benchmark budget override: `[[budget.override]] match = "REGEX"`.
struct BudgetOverride {
  std::string match;                 ///< ECMAScript regex over "target/name" or name
  std::optional<double> time;        ///< fraction
  std::optional<std::string> allocs; ///< as written: "0", "5%", "64"
  std::optional<std::string> bytes;
};

struct BuildConfig {
  std::vector<std::string> cmake_args;
  std::vector<std::string> targets;        ///< name regexes that also count as benchmarks
  std::string source_dir;                  ///< CMake project inside the repo ("" = root)
  std::string build_type = "Release";
};

struct RunConfig {
  std::optional<int> cpu;                  ///< nullopt: last online CPU
  int min_runs = 6;
  int max_runs = 30;
  double run_timeout = 300;                ///< seconds
  std::optional<double> time_budget;       ///< seconds for the measuring phase
  std::vector<std::string> bench_args;
  std::string metric = "real_time";
  int alloc_runs = 3;                      ///< allocation-counting runs per side
  std::string runner = "gbench";           ///< "gbench" | "go" | "command"
};

struct BudgetConfig {
  double time = 0.05;
  bool fail_on_inconclusive = false;
  std::optional<std::string> allocs;       ///< absolute allowed increase of allocs/op
  std::optional<std::string> bytes;        ///< "5%" relative or "64" absolute bytes/op
  std::vector<BudgetOverride> overrides;
  double confidence = 0.95;
};

struct SelectConfig {
  int max_targets = 20;
  std::vector<std::string> always_all;     ///< globs: a change here selects everything
  std::vector<std::string> ignore = {"docs/**", "doc/**", "**/*.md", ".gitlab-ci.yml", ".github/**",
                                     ".ci/**", "ci/**", "LICENSE*", "COPYING*"};
  bool strict_layout = false;
};

struct Config {
  BuildConfig build;
  RunConfig run;
  BudgetConfig budget;
  SelectConfig select;
  std::filesystem::path loaded_from;       ///< empty when no file was read
};

/// Reads cobench.toml. Unknown keys and wrong types throw InputError with
/// "FILE:LINE:COL: ...". A missing optional file returns defaults.
Config load_file(const std::filesystem::path& path);

/// As above; with `required` a missing file is an InputError (an explicit --config).
Config load_file(const std::filesystem::path& path, bool required);

/// Parses TOML text (for tests); `source` names it in errors.
Config parse(const std::string& text, const std::string& source);

}  // namespace cobench::config
