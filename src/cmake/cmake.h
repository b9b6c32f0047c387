#pragma once
// The build edge: configure a CMake project, discover its Google Benchmark
// targets through the CMake File API (codemodel-v2), build only those.
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/errors.h"

namespace cobench::cmake {

/// A library target of the project that a benchmark executable links: a
/// change to its sources reaches the benchmark as surely as one to the
/// benchmark's own.
struct LinkedLibrary {
  std::string name;
  std::vector<std::filesystem::path> sources;       ///< absolute paths of its compiled sources
  std::vector<std::filesystem::path> include_dirs;  ///< absolute, in command-line order
  std::vector<std::string> defines;
};

/// A benchmark executable as the File API describes it.
struct BenchmarkTarget {
  std::string name;
  std::filesystem::path artifact;                 ///< absolute path of the executable
  std::vector<std::filesystem::path> sources;     ///< absolute paths of its compiled sources
  std::vector<std::filesystem::path> include_dirs;  ///< absolute, in command-line order
  std::vector<std::string> defines;
  bool recognised = false;                        ///< found as the framework's program, not by name
  /// The project's libraries it depends on, directly or through others, that
  /// compile sources (static, shared, module and object libraries), by name;
  /// not Google Benchmark's own when it is built in the tree.
  std::vector<LinkedLibrary> libraries;
};

/// How to configure and build one side.
struct BuildSettings {
  std::filesystem::path source_dir;    ///< the CMake project (worktree, or a subfolder of it)
  std::filesystem::path build_dir;
  std::vector<std::string> cmake_args; ///< extra -D... arguments
  std::string build_type = "Release";
  bool prefer_ninja = true;
  std::filesystem::path log_path;      ///< configure + build output goes here
  int jobs = 0;                        ///< parallel build jobs (-j); 0: the CPUs cobench may use
  /// Set for configure and build on top of cobench's own environment (the compile cache's CCACHE_*).
  std::vector<std::pair<std::string, std::string>> env;
  std::filesystem::path cache_stats_log;  ///< ccache's log of this side's compilations; empty: no compile cache
};

/// Runs `cmake -S -B` with a File API codemodel-v2 query. Throws InfraError
/// naming the command, its status and the log tail.
void configure(const BuildSettings& settings);

/// What the File API says an executable is linked with and built from:
/// enough for a benchmark framework's runner to tell its own programs
/// (run::RunnerKind::recognises).
struct TargetFacts {
  std::vector<std::string> link_fragments;         ///< its link command's fragments, as CMake wrote them
  std::vector<std::string> dependencies;           ///< names of this project's targets it depends on
  std::vector<std::filesystem::path> sources;      ///< absolute paths of its compiled sources
};

/// Whether an executable is a program of the job's benchmark framework.
using Recognises = std::function<bool(const TargetFacts&)>;

/// Reads the File API reply. A target is a benchmark when it is an
/// EXECUTABLE that `recognises` (Google Benchmark's runner: it links
/// benchmark::benchmark / benchmark / libbenchmark), or whose name matches
/// `name_pattern` (ECMAScript regex, empty: none).
std::vector<BenchmarkTarget> discover_targets(const std::filesystem::path& build_dir, const std::string& name_pattern,
                                              const Recognises& recognises);

/// The switches of the configured project's cache that name benchmarks and are
/// off (`SPDLOG_BUILD_BENCH:BOOL=OFF`): where a project keeps its benchmarks
/// behind an option, the reason none was found. Not Google Benchmark's own
/// (`BENCHMARK_*`) nor CMake's; in the cache's order; empty without a cache.
std::vector<std::string> benchmark_options_off(const std::filesystem::path& build_dir);

/// The project's own CMake input files (CMakeLists.txt, included .cmake
/// files; not CMake's modules nor files outside the source tree), absolute,
/// from the cmakeFiles-v1 reply that configure() asked for.
std::vector<std::filesystem::path> cmake_input_files(const std::filesystem::path& build_dir);

/// As above, plus the inputs outside the CMake source folder that lie under
/// `within` (the repository root): a benchmarks/ project that include()s
/// ../cmake/*.cmake depends on those too, though CMake calls them external.
std::vector<std::filesystem::path> cmake_input_files(const std::filesystem::path& build_dir,
                                                     const std::filesystem::path& within);

/// A compiler a build folder was configured with.
struct Compiler {
  std::string id;                 ///< CMAKE_<LANG>_COMPILER_ID: "GNU", "Clang", ...; "" when not known
  std::string version;            ///< "12.2.0"
  std::filesystem::path path;     ///< as CMake found it (not resolved through symlinks); empty when not known
};

/// The compiler of `language` ("CXX", "C") from the toolchains-v1 reply
/// (CMake >= 3.20), else from CMakeFiles/<version>/CMake<LANG>Compiler.cmake;
/// empty fields when neither says.
Compiler compiler(const std::filesystem::path& build_dir, const std::string& language = "CXX");

/// Builds only the named targets, one `cmake --build` per target, in order. Throws BuildFailure.
void build_targets(const BuildSettings& settings, const std::vector<std::string>& targets);

/// A failed build: which target, the command, and the compiler log tail.
struct BuildFailure : cobench::InfraError {
  BuildFailure(std::string target, std::string command, std::string log_tail);
  /// As above, with how the command ended ("exit status 1") in the headline.
  BuildFailure(std::string target, std::string command, std::string log_tail, const std::string& status);
  std::string target;
  std::string command;
  std::string log_tail;
};

}  // namespace cobench::cmake
