#pragma once
// Narrowing by hand: --target / --filter, or COBENCH_TARGETS / COBENCH_FILTER
// from the environment so a CI job can be narrowed from a merge request
// (settings select.targets and run.filter, layered like every setting).
#include <optional>
#include <regex>
#include <string>

#include "config/config.h"

namespace cobench::select {

/// Target and benchmark-name regexes, with where each came from (for messages).
struct Narrowing {
  std::string targets;         ///< ECMAScript regex searched in target names; "" = all
  std::string targets_origin;  ///< "--target", "COBENCH_TARGETS" or the cobench.toml position
  std::string filter;          ///< passed to the binaries as --benchmark_filter; "" = none
  std::string filter_origin;   ///< "--filter", "COBENCH_FILTER" or the cobench.toml position
};

/// The narrowing the settings ask for (their regexes were checked when set).
Narrowing narrowing_of(const config::Config& settings);

/// The compiled target regex, or nullopt when targets are not narrowed.
std::optional<std::regex> target_regex(const Narrowing& narrowing);

}  // namespace cobench::select
