#include "cli/commands.h"
#include "core/errors.h"

namespace cobench::cli {

Subcommand add_compare(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand("compare", "(not implemented yet)");
  sub.run = []() -> int { throw InputError("'compare' is not implemented yet"); };
  return sub;
}

}  // namespace cobench::cli
