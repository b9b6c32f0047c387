#pragma once
// The compile cache both sides share. Base and head compile mostly the same
// sources, so with ccache the side built second takes most of its objects
// from the first: identical translation units are compiled once. That works
// only if nothing side-specific enters ccache's hash or the objects: ccache
// rewrites absolute paths under the job folder into paths relative to the
// build folder (base_dir), the build folder's own path is not hashed
// (hash_dir = false), and -ffile-prefix-map keeps it out of the debug info.
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "cmake/cmake.h"

namespace cobench::cmake {

/// The job's compile cache: decided once, applied to each side.
struct CompileCache {
  std::filesystem::path program;   ///< absolute path of ccache; empty: the builds go without
  std::string why_not;             ///< why not, when program is empty ("ccache not found on PATH")
  std::filesystem::path cache_dir; ///< where ccache keeps its objects (the user's unless configured)
  /// CCACHE_* variables every configure and build of the job gets.
  std::vector<std::pair<std::string, std::string>> env;
  /// cache_dir as given by the settings ([build] ccache_dir); empty: ccache's own.
  bool configured_dir = false;
};

/// Finds ccache on PATH when `enabled`. `base_dir` is the common parent of both
/// sides' checkouts and build folders (the job folder); `cache_dir`, when not
/// empty, replaces ccache's own cache folder. `off_reason` says why when not
/// enabled ("off: --no-ccache").
CompileCache find_compile_cache(bool enabled, const std::string& off_reason, const std::filesystem::path& base_dir,
                                const std::filesystem::path& cache_dir);

/// Routes one side's compilations through `cache` (nothing when it is off):
/// ccache as the C and C++ compiler launcher unless the CMake arguments or
/// the environment choose one, the debug-info prefix map for the build
/// folder, the CCACHE_* variables, and a stats log of its own
/// (BuildSettings::cache_stats_log). Call before configure().
void use_compile_cache(const CompileCache& cache, BuildSettings& settings);

/// One side's compilations as ccache logged them.
struct CacheStats {
  int hits = 0;         ///< direct or preprocessed cache hits
  int misses = 0;       ///< compiled and stored
  int uncacheable = 0;  ///< calls ccache passed to the compiler (links, unsupported options, ...)
  int lookups() const { return hits + misses; }
};

/// Counts a ccache stats log (CCACHE_STATSLOG): one "# <source>" line per
/// call followed by the counters it raised. A missing file counts nothing.
CacheStats read_cache_stats(const std::filesystem::path& stats_log);

/// "12 of 40 compilations from the cache (30%)", or "no compilation went through ccache".
std::string describe(const CacheStats& stats);

}  // namespace cobench::cmake
