#include "select/input.h"

#include <fmt/format.h>

#include "core/errors.h"
#include "git/git.h"

namespace cobench::select {

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
