#pragma once
// Which translation units of a library a diff recompiles, over the include
// graph selection uses: a unit is reached when its source, or any repository
// file it includes transitively, changed. The shared parent library
// (cmake/shared_parent.h) compiles those units from each side.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "git/git.h"

namespace cobench::select {

/// The repo-relative paths a diff changed that exist on one side: on the
/// head the added, modified, copied and renamed-to ones; on the base the
/// modified, deleted and renamed-from ones.
std::set<std::string> changed_paths(const std::vector<git::ChangedFile>& changes, bool base_side);

/// One translation unit and how the diff reaches it.
struct UnitReach {
  std::string path;                ///< repo-relative (absolute when outside the tree)
  std::vector<std::string> chain;  ///< source → ... → changed file; empty when not reached
};

/// For each of `sources` (absolute, in `tree`, compiled with `include_dirs`,
/// in command-line order), in order: its path and one shortest include chain
/// to a file of `changed`.
std::vector<UnitReach> units_reaching(const std::filesystem::path& tree,
                                      const std::vector<std::filesystem::path>& sources,
                                      const std::vector<std::filesystem::path>& include_dirs,
                                      const std::set<std::string>& changed);

}  // namespace cobench::select
