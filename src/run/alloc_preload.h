#pragma once
// Where libcobench_alloc_preload.so is at run time: cobench's build tree and
// install layout both put it beside or below the executable.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cobench::run {

/// The file name of the counting allocator that allocation runs preload.
inline constexpr const char* kAllocPreloadName = "libcobench_alloc_preload.so";

/// Candidate paths in lookup order: $COBENCH_ALLOC_PRELOAD, next to the
/// running executable, <exe>/../lib/cobench, <exe>/../lib, the build tree.
std::vector<std::filesystem::path> alloc_preload_candidates();

/// The first candidate that exists; nullopt when none does.
std::optional<std::filesystem::path> find_alloc_preload();

/// "not found (looked in A, B, C)" for reports.
std::string describe_missing_alloc_preload();

}  // namespace cobench::run
