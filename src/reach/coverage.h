#pragma once
// The coverage pass: one side's benchmark targets built a further time with
// gcc's --coverage (the same flags otherwise), every benchmark instance run
// once in its own process with a minimal time, and the lines it executed read
// with `gcov --json-format`. What it finds answers "does this instance
// execute the change?" (reach.h) and fills the reach index (index.h).
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cmake/cmake.h"

namespace cobench::reach {

/// Lines per repository-relative file, ascending.
using LineMap = std::map<std::string, std::vector<int>>;

/// The gcov that reads a compiler's coverage data, or why there is none.
struct CoverageTool {
  std::filesystem::path gcov;   ///< empty when unavailable
  std::string unavailable;      ///< "non-gcc compiler (Clang 14.0.6) ...", "no gcov-12 or gcov on PATH"
};

/// gcov for `compiler`: gcc's coverage only (any other compiler is
/// unavailable, naming it); `gcov-<major>` then `gcov`, next to the compiler
/// first, then on $PATH.
CoverageTool find_gcov(const cmake::Compiler& compiler);

/// The benchmark arguments of one coverage run of `instance`: the job's own
/// (custom flags kept), then a minimal time, one repetition and an exact filter,
/// last so they win.
std::vector<std::string> coverage_run_args(const std::vector<std::string>& bench_args, const std::string& instance);

/// One benchmark instance's run under coverage.
struct InstanceCoverage {
  std::string name;       ///< as --benchmark_list_tests names it
  /// Lines that ran, in files under the checkout (those `keep_file` accepts):
  /// with a count above 0, or with no code of their own inside a function
  /// that ran (formats::CoveredFile::in_functions_that_ran).
  LineMap executed;
  std::string failure;    ///< why it has no coverage ("" when it has)
  double seconds = 0;     ///< wall time of its run
};

/// One target's coverage.
struct TargetCoverage {
  std::string target;
  std::vector<InstanceCoverage> instances;
  std::string failure;    ///< the whole target's: "coverage build failed ...", "listing its benchmarks failed ..."
  double seconds = 0;     ///< its instances' runs together (the cost the cap ranks by)
  /// Cut short by PassSettings::stop (the time budget): what is missing says
  /// nothing about the target, so such coverage is never kept in a reach index.
  bool stopped = false;
};

/// Everything a coverage pass needs about one side.
struct PassSettings {
  std::filesystem::path checkout;           ///< the side's worktree: executed paths are made relative to it
  cmake::BuildSettings build;               ///< the side's build settings; build_dir is the coverage folder
  std::string target_pattern;               ///< [build] targets regexes, joined (discovery)
  cmake::Recognises recognises;             ///< the framework's programs (discovery)
  std::vector<std::string> bench_args;      ///< as every measured run gets them (the job's filter included)
  std::vector<std::string> run_env;         ///< the benchmark environment ("KEY=VALUE")
  double run_timeout = 300;                 ///< seconds per instance run
  std::filesystem::path gcov;
  /// Which repository-relative files to keep executed lines of (all when empty).
  std::function<bool(const std::string&)> keep_file;
  std::string side;                         ///< "head" | "base", for progress lines
  /// One line per step for the progress display ("coverage (head): building bench_a"); may be empty.
  std::function<void(const std::string&)> progress;
  /// Asked before each target's build and each instance's run: "" to go on,
  /// else why the pass stops there (the time budget); may be empty.
  std::function<std::string()> stop;
};

/// Configures the coverage build folder with the side's CMake arguments and
/// --coverage added to the compile and link flags (cmake::with_flags: into
/// the user's own CMAKE_<LANG>_FLAGS, else as _INIT, so $CXXFLAGS stays), builds each
/// of `targets` on its own, and runs each of its instances once with
/// coverage_run_args, reading the executed lines with gcov. A failure of one
/// target (build, listing) or one instance (exit status, gcov) is recorded
/// there and the pass goes on; a configure failure is every target's. When
/// `stop` gives a reason, the target or instances not yet run get it as their
/// failure and their targets are marked stopped. Throws Interrupted on
/// SIGINT/SIGTERM.
std::vector<TargetCoverage> run_coverage_pass(const PassSettings& settings, const std::vector<std::string>& targets);

}  // namespace cobench::reach
