#include "cli/commands.h"
#include "core/errors.h"

namespace cobench::cli {

Subcommand add_select(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand("select", "(not implemented yet)");
  sub.run = []() -> int { throw InputError("'select' is not implemented yet"); };
  return sub;
}

}  // namespace cobench::cli
