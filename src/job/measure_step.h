#pragma once
// Measuring one prepared pair of sides, whatever the runner: the settings line
// and what came before it logged, the machine control added, the timing
// rounds, then instruction, allocation and layout runs as configured, and the
// reports from the log.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "job/layout_step.h"
#include "job/pipeline.h"
#include "job/planned_build.h"
#include "job/target_choice.h"
#include "results/job_settings.h"
#include "run/progress.h"
#include "run/beside_control.h"
#include "run/runner.h"
#include "run/runner_kinds.h"

namespace cobench::job {

/// What the job did before measuring, for results.jsonl.
struct Prepared {
  BuildOutcome build;                        ///< build times and the time budget's notes
  std::function<double()> job_elapsed;       ///< seconds since the job started
  std::vector<results::PhaseTime> phases;    ///< configure, reach, build: how long each took
  /// cobench's own machine control program, where it was found (nullopt: it was not).
  std::optional<std::filesystem::path> control_program;
};

/// Runs `step`, adding its seconds to the phase `name` of `phases` (a phase
/// met twice, such as configuring each side, is one entry), and returns what it returns.
template <class Step>
auto timed(std::vector<results::PhaseTime>& phases, const std::string& name, Step&& step) {
  const auto start = std::chrono::steady_clock::now();
  struct AddOnExit {  // also when the step throws: the time was spent
    std::vector<results::PhaseTime>& phases;
    const std::string& name;
    std::chrono::steady_clock::time_point start;
    ~AddOnExit() {
      auto it = std::find_if(phases.begin(), phases.end(), [&](const auto& p) { return p.name == name; });
      if (it == phases.end()) it = phases.insert(phases.end(), {name, 0});
      it->seconds += seconds_since(start);
    }
  } add{phases, name, start};
  return step();
}

/// The machine control's target name for cobench's own program at `program`.
std::string control_target_of(const std::filesystem::path& program);

/// Finds cobench's machine control program (into `prepared`) and returns the
/// runner every pair of the job runs under: `units` with the program beside it
/// (held in `beside`), run with none of the user's benchmark arguments, which
/// are the project's (a positional mode, a flag of its own main) whatever the
/// framework; `units` itself when the program is missing.
run::Runner& with_machine_control(run::Runner& units, const run::ProcessSettings& process, Prepared& prepared,
                                  std::optional<run::BesideMachineControl>& beside);

/// Logs, measures (timing rounds when a time metric is asked for; then, for
/// Google Benchmark targets, whose processes are started as `gbench_process`
/// says, instruction runs and allocation runs as configured; then, with a
/// `layout_step`, the claims in other code layouts) and reports one prepared
/// pair of sides, whatever the runner. Returns the job's exit code.
int measure(const RunOptions& options, run::Runner& runner, const run::SideContext& base, const run::SideContext& head,
            const results::JobSettings& job, const TargetChoice& choice, const run::ProcessSettings* gbench_process,
            const std::vector<results::ReachRecord>& reach, const std::filesystem::path& out_dir,
            const std::filesystem::path& job_dir, run::Progress& progress, const Prepared& prepared,
            LayoutStep* layout_step);

}  // namespace cobench::job
