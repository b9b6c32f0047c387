#pragma once
// Each subcommand lives in its own cmd_<name>.cc: it declares its flags on a
// CLI11 sub-app and returns the function that runs it after parsing.
#include <functional>

#include <CLI/CLI.hpp>

namespace cobench::cli {

/// A registered subcommand: its CLI11 app and what to run when it is chosen.
struct Subcommand {
  CLI::App* app = nullptr;
  std::function<int()> run;  ///< returns the process exit code
};

Subcommand add_compare(CLI::App& root);
Subcommand add_run(CLI::App& root);
Subcommand add_report(CLI::App& root);
Subcommand add_merge(CLI::App& root);
Subcommand add_select(CLI::App& root);
Subcommand add_demo(CLI::App& root);
/// `cobench validate`: real `cobench run` jobs on a bundled fixture whose truth is known.
Subcommand add_validate(CLI::App& root);
Subcommand add_post(CLI::App& root);
/// `cobench clean`: the work dir's job folders no running job holds (kept, or of killed jobs).
Subcommand add_clean(CLI::App& root);

}  // namespace cobench::cli
