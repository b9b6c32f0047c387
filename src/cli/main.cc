// cobench: did this merge request make anything slower?
#include <cstdio>
#include <exception>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/version.h"
#include "core/errors.h"
#include "core/secrets.h"
#include "core/text.h"
#include "process/signals.h"
#include "report/escape.h"

namespace {

/// An error as printed: no credential, at most a few KiB (an argument may be
/// megabytes), and nothing that could drive or reorder a terminal.
std::string printable(const char* what) {
  constexpr size_t kMaxErrorBytes = 4096;
  return cobench::report::sanitize_text(cobench::secrets::scrub_and_shorten(what, kMaxErrorBytes), true);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace cobench;
  // First, so that even `cobench --help | head -1` ends normally.
  signals::ignore_broken_pipes();
  CLI::App app{"cobench: run a merge request's benchmarks interleaved against its merge base "
               "and report head/base ratios with exact confidence intervals.",
               "cobench"};
  app.set_version_flag("--version", std::string("cobench ") + cli::version());
  app.require_subcommand(1);
  std::vector<cli::Subcommand> subcommands = {
      cli::add_run(app),   cli::add_compare(app), cli::add_select(app),   cli::add_report(app),
      cli::add_merge(app), cli::add_demo(app),    cli::add_validate(app), cli::add_post(app),
      cli::add_clean(app),
  };
  // After the subcommands, which would inherit it: their help is one section each of the man page.
  app.footer("Each command has --help. The manual: man cobench (every command and flag), and "
             "/usr/share/doc/cobench/docs/ (docs/ in the source): run.md, config.md (every setting with its "
             "COBENCH_* variable and cobench.toml key), method.md, reports.md, ci.md.");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "cobench: %s\n", printable(e.what()).c_str());
    std::fprintf(stderr, "Run with --help for more information.\n");
    return kExitUsage;
  }
  signals::install_cancellation_handlers();
  try {
    for (auto& sub : subcommands)
      if (sub.app->parsed()) return sub.run();
    return kExitUsage;
  } catch (const InputError& e) {
    std::fprintf(stderr, "cobench: error: %s\n", printable(e.what()).c_str());
    return kExitUsage;
  } catch (const Interrupted&) {
    std::fprintf(stderr, "cobench: interrupted\n");
    return kExitInterrupted;
  } catch (const InfraError& e) {
    std::fprintf(stderr, "cobench: error: %s\n", printable(e.what()).c_str());
    return kExitInfra;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cobench: internal error: %s\n", printable(e.what()).c_str());
    return kExitInfra;
  }
}
