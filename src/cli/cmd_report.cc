// `cobench report OUT/results.jsonl`: every report rebuilt from the results log alone.
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "job/output_dir.h"
#include "job/pipeline.h"
#include "job/report_step.h"

namespace cobench::cli {
namespace {

/// What only this command names; the gate settings are in GateFlags.
struct ReportFlags {
  std::string results, out;
};

/// Every report rebuilt in `out_dir` from `results`; the gate's exit code.
int report_results(const std::filesystem::path& results, const std::filesystem::path& out_dir,
                   const verdict::GatePolicy& gate) {
  // As `run` and `merge` do: a report.md cobench did not write is not overwritten.
  const job::OutputDir output(out_dir, "--out", false, job::Writes::Reports);
  return job::report_from_log(results, out_dir, gate);
}

}  // namespace

Subcommand add_report(CLI::App& root) {
  auto flags = std::make_shared<ReportFlags>();
  Subcommand sub;
  auto* app = root.add_subcommand("report", "Rebuild report.json/.md/.xml/.html from a results.jsonl (also a "
                                            "partial one from a killed job) and print the table");
  sub.app = app;
  app->add_option("results", flags->results, "results.jsonl written by `cobench run`")->required();
  app->add_option("--out", flags->out, "report folder (default: the results file's folder)");
  auto gate = std::make_shared<GateFlags>(app);
  sub.run = [flags, gate]() -> int {
    const std::filesystem::path results = flags->results;
    const auto out = flags->out.empty() ? std::filesystem::absolute(results).parent_path()
                                        : std::filesystem::path(flags->out);
    return report_results(results, out, job::gate_policy(gate->layer()));
  };
  return sub;
}

}  // namespace cobench::cli
