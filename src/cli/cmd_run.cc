#include "cli/commands.h"
#include "core/errors.h"

namespace cobench::cli {

Subcommand add_run(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand("run", "(not implemented yet)");
  sub.run = []() -> int { throw InputError("'run' is not implemented yet"); };
  return sub;
}

}  // namespace cobench::cli
