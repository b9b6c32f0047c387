#pragma once
// Narrowing by hand: --target / --filter, or COBENCH_TARGETS / COBENCH_FILTER
// from the environment so a CI job can be narrowed from a merge request.
#include <map>
#include <optional>
#include <regex>
#include <string>

namespace cobench::select {

/// Target and benchmark-name regexes, with where each came from (for messages).
struct Narrowing {
  std::string targets;         ///< ECMAScript regex searched in target names; "" = all
  std::string targets_origin;  ///< "--target" or "COBENCH_TARGETS"
  std::string filter;          ///< passed to the binaries as --benchmark_filter; "" = none
  std::string filter_origin;   ///< "--filter" or "COBENCH_FILTER"
};

/// Flags win over the environment; a set but empty variable narrows nothing.
/// Throws InputError naming the origin when a regex does not compile.
Narrowing resolve_narrowing(const std::string& target_flag, const std::string& filter_flag,
                            const std::map<std::string, std::string>& env);

/// COBENCH_TARGETS and COBENCH_FILTER from this process's environment.
std::map<std::string, std::string> narrowing_environment();

/// The compiled target regex, or nullopt when targets are not narrowed.
std::optional<std::regex> target_regex(const Narrowing& narrowing);

}  // namespace cobench::select
