// `cobench report OUT/results.jsonl`: every report rebuilt from the results log alone.
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "job/pipeline.h"

namespace cobench::cli {
namespace {

/// What only this command names; the gate settings are in GateFlags.
struct ReportFlags {
  std::string results, out;
};

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
    return job::report_results(results, out, job::gate_policy(gate->layer()));
  };
  return sub;
}

}  // namespace cobench::cli
