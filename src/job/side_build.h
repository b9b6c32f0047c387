#pragma once
// Configures and builds one side with the settings both sides share; only
// the folders differ. Failures name the side, the target and the command.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "cmake/cmake.h"
#include "cmake/compile_cache.h"
#include "run/runner.h"

namespace cobench::job {

using results::Side;  // the two sides of a job are the two sides of its records

/// What both sides are configured with.
struct SharedBuildSettings {
  std::vector<std::string> cmake_args;
  std::string build_type = "Release";
  std::string source_dir;                  ///< CMake project inside the checkout ("" = root)
  std::string name_pattern;                ///< extra benchmark-target regex ("" = none)
  std::filesystem::path log_dir;           ///< build-<side>.log goes here
  cmake::CompileCache compile_cache;       ///< shared by both sides (off: program empty)
  cmake::Recognises recognises;            ///< the framework's programs (run::RunnerKind::recognises)
};

/// One configured side and the benchmark targets it offers.
struct SideBuild {
  Side side = Side::Base;
  cmake::BuildSettings settings;
  std::vector<cmake::BenchmarkTarget> targets;
};

/// Configures `worktree` into `build_dir` and discovers its benchmark targets.
/// Throws InfraError("head: ...") naming the side.
SideBuild configure_side(Side side, const std::filesystem::path& worktree, const std::filesystem::path& build_dir,
                         const SharedBuildSettings& shared);

/// Builds the named targets; on failure prints the compiler log tail to stderr
/// and throws InfraError("head: target 'T' failed to build: COMMAND (log: PATH)").
void build_side(const SideBuild& side, const std::vector<std::string>& targets);

/// How both sides compiled, for the settings line and the terminal:
/// "ccache (cache /root/.cache/ccache): base 0 of 52 compilations from the
/// cache (0%); head 50 of 52 ... (96%)", or "off (ccache not found on PATH)".
/// Call after both sides were built.
std::string compile_cache_summary(const cmake::CompileCache& cache, const SideBuild& base, const SideBuild& head);

/// The built executables among `targets`, by name.
std::map<std::string, std::filesystem::path> executables(const SideBuild& side, const std::vector<std::string>& targets);

}  // namespace cobench::job
