#pragma once
// The parts of a SelectionInput that `cobench select` and `cobench run` gather
// alike: the facts read from git and from the configured head's build folder.
#include <filesystem>
#include <string>
#include <vector>

#include "cmake/cmake.h"
#include "select/select.h"

namespace cobench::select {

/// The diff base..head of `repo`, the head's benchmark targets and the CMake
/// files its configure read (also those under the head tree but outside the
/// CMake project folder); settings, narrowing and the base tree are the caller's.
SelectionInput head_input(const std::filesystem::path& repo, const std::string& base_sha, const std::string& head_sha,
                          const std::filesystem::path& head_tree, const std::filesystem::path& build_dir,
                          std::vector<cmake::BenchmarkTarget> targets);

}  // namespace cobench::select
