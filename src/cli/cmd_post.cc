#include "cli/commands.h"
#include "core/errors.h"

namespace cobench::cli {

Subcommand add_post(CLI::App& root) {
  Subcommand sub;
  sub.app = root.add_subcommand("post", "(not implemented yet)");
  sub.run = []() -> int { throw InputError("'post' is not implemented yet"); };
  return sub;
}

}  // namespace cobench::cli
