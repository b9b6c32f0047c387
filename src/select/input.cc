#include "select/input.h"

#include <fmt/format.h>

#include "core/errors.h"
#include "git/git.h"

namespace cobench::select {

config::SelectConfig with_select_flags(config::SelectConfig config, std::optional<int> max_targets,
                                       bool strict_layout) {
  if (max_targets) {
    if (*max_targets < 0)
      throw InputError(fmt::format("--max-targets: expected 0 (no cap) or more, got {}", *max_targets));
    config.max_targets = *max_targets;
  }
  if (strict_layout) config.strict_layout = true;
  return config;
}

SelectionInput head_input(const std::filesystem::path& repo, const std::string& base_sha, const std::string& head_sha,
                          const std::filesystem::path& head_tree, const std::filesystem::path& build_dir,
                          std::vector<cmake::BenchmarkTarget> targets) {
  SelectionInput in;
  in.head_tree = head_tree;
  in.changes = git::diff_name_status(repo, base_sha, head_sha);
  in.targets = std::move(targets);
  // A benchmarks/ project that include()s ../cmake/*.cmake is invalidated by those files too.
  in.cmake_inputs = cmake::cmake_input_files(build_dir, head_tree);
  return in;
}

}  // namespace cobench::select
