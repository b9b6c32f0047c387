// `cobench report OUT/results.jsonl`: every report rebuilt from the results log alone.
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "host/environment.h"
#include "job/pipeline.h"

namespace cobench::cli {
namespace {

/// What only this command names; the gate settings are in SettingFlags.
struct ReportFlags {
  std::string results, out, config;
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
  app->add_option("--config", flags->config, "settings file (default: cobench.toml of the current repository)");
  auto settings = std::make_shared<SettingFlags>(
      app, std::initializer_list<std::string_view>{"budget.gate", "budget.fail_on_inconclusive"});
  sub.run = [flags, settings]() -> int {
    const config::Config layered =
        settings->layer(find_config_file(flags->config, std::filesystem::current_path()), host::environment_map());
    const std::filesystem::path results = flags->results;
    const auto out = flags->out.empty() ? std::filesystem::absolute(results).parent_path()
                                        : std::filesystem::path(flags->out);
    return job::report_results(results, out, job::gate_policy(layered));
  };
  return sub;
}

}  // namespace cobench::cli
