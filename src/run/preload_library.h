#pragma once
// The libraries cobench preloads into benchmark processes, and where they are
// at run time: cobench's build tree and install layout both put them beside
// or below the executable.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cobench::run {

/// A library cobench preloads (LD_PRELOAD) into benchmark processes.
struct PreloadLibrary {
  const char* file_name;     ///< "libcobench_alloc_preload.so"
  const char* variable;      ///< the environment variable that names it explicitly
  const char* build_path;    ///< where this build put it; "" when it was not built
};

/// The counting allocator that allocation runs preload.
const PreloadLibrary& alloc_preload();

/// The library that fences callgrind to the benchmark loop in instruction runs.
const PreloadLibrary& callgrind_preload();

/// Candidate paths in lookup order: $VARIABLE, next to the running
/// executable, <exe>/../lib/cobench, <exe>/../lib, the build tree.
std::vector<std::filesystem::path> preload_candidates(const PreloadLibrary& library);

/// The first candidate that exists; nullopt when none does.
std::optional<std::filesystem::path> find_preload(const PreloadLibrary& library);

/// "libX.so not found (looked in A, B, C; set VARIABLE)" for reports.
std::string describe_missing_preload(const PreloadLibrary& library);

/// `env` ("KEY=VALUE" lines) with `library` first in LD_PRELOAD; an
/// LD_PRELOAD already there follows it.
std::vector<std::string> with_preload(std::vector<std::string> env, const std::filesystem::path& library);

}  // namespace cobench::run
