#include "cli/commands.h"
#include "core/errors.h"

namespace cobench::cli {

Subcommand add_report(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand("report", "(not implemented yet)");
  sub.run = []() -> int { throw InputError("'report' is not implemented yet"); };
  return sub;
}

}  // namespace cobench::cli
