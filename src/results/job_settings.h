#pragma once
// The settings line of results.jsonl: what a job measured and how it judged,
// everything `cobench report` needs to rebuild the reports. One writer and
// one reader, here; nothing else parses this line.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "results/judging.h"
#include "verdict/budget.h"

namespace cobench::results {

/// The results.jsonl format this cobench writes.
inline constexpr int kResultsSchema = 1;

/// The shared parent library both sides' executables linked ([build] shared_parent).
struct SharedParent {
  std::string target;                      ///< the library target
  std::string library;                     ///< the file both sides loaded
  std::string sha256;                      ///< its SHA-256, 64 hex digits
  std::vector<std::string> changed_units;  ///< repo-relative sources compiled from each side instead
};

/// One job's settings as recorded.
struct JobSettings {
  int schema = kResultsSchema;          ///< the results.jsonl format; a newer one is read with a warning
  std::string job;                      ///< this job's id, also on every run line: two jobs' lines never mix
  std::string base;                     ///< full SHA of the merge base
  std::string head;                     ///< full SHA of the head
  std::string base_ref;                 ///< as given, or the default base that resolved
  std::string head_ref;
  std::string metric = "real_time";     ///< "real_time" | "cpu_time" | "auto" (per benchmark)
  std::string pairing = "unpaired";     ///< "paired" | "unpaired" (files before pairing: unpaired)
  std::string looks = "every-look";     ///< "haybittle-peto" | "every-look" (files before look rules: every look)
  std::string stopping = "target";      ///< "benchmark" | "target"
  std::string repetitions = "1";        ///< per process: a count or "auto"
  verdict::Budgets budgets;             ///< time, allocs/op and bytes/op budgets with their overrides
  double confidence = 0.95;
  int min_runs = 6;
  int max_runs = 30;
  double run_timeout = 300;             ///< seconds per run
  std::optional<double> time_budget;    ///< seconds for the measuring phase
  int cpu = 0;                          ///< the CPU every run was pinned to
  std::vector<std::string> bench_args;  ///< as every benchmark process received them
  std::vector<std::string> cmake_args;
  std::string build_type = "Release";
  std::string source_dir;
  std::string runner = "gbench";        ///< "gbench" | "go" | "command"
  std::vector<std::string> targets;     ///< measured on both sides
  nlohmann::json selection = nlohmann::json::object();  ///< `cobench select` JSON plus mode and reason
  int alloc_runs = 0;                   ///< allocation runs per side (0: none)
  std::string machine_control;          ///< the unit run as both sides ("machine:bench_x"); "" without one
  std::vector<std::string> layout_controls;  ///< untouched targets rebuilt on both sides as controls
  bool layout_stable = false;           ///< both sides built with aligned, separated functions
  bool layout_probe = false;            ///< one commit against itself, one side perturbed
  std::string compile_cache;            ///< how the sides compiled: ccache and its hits per side, or why not ("" unknown)
  std::vector<std::string> commands;    ///< runner "command": the timed commands
  std::vector<std::string> prepare;     ///< runner "command": run once per worktree first
  std::optional<SharedParent> shared_parent;  ///< when the executables were relinked against one
};

/// How this job judged time: its metric, pairing and look rule.
results::TimeRule time_rule(const JobSettings& settings);

/// The settings line's JSON (without "type").
nlohmann::json to_json(const JobSettings& settings);

/// Reads a settings line; `source` ("results.jsonl:2") names it in errors,
/// with the path of the field that has the wrong shape.
JobSettings job_settings_from_json(const nlohmann::json& line, const std::string& source);

}  // namespace cobench::results
