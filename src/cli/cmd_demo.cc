#include "cli/commands.h"
#include "core/errors.h"

namespace cobench::cli {

Subcommand add_demo(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand("demo", "(not implemented yet)");
  sub.run = []() -> int { throw InputError("'demo' is not implemented yet"); };
  return sub;
}

}  // namespace cobench::cli
