// `cobench run`: the settings layered (defaults < cobench.toml < COBENCH_* <
// flags), then the pipeline.
#include <memory>

#include "cli/commands.h"
#include "cli/run_flags.h"
#include "host/environment.h"
#include "job/pipeline.h"

namespace cobench::cli {

Subcommand add_run(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand(
      "run", "Build merge base and head in two worktrees, run their benchmarks interleaved, report head/base ratios");
  auto flags = std::make_shared<RunFlags>(sub.app);
  sub.run = [flags]() -> int { return job::run_pipeline(flags->options(host::environment_map())); };
  return sub;
}

}  // namespace cobench::cli
