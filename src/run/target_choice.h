#pragma once
// The seam between target discovery and building: which discovered benchmark
// targets this job measures, and why. Selection from the diff (issue 4) plugs
// in here; until then every target, narrowed by --target.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "build/build.h"

namespace cobench::run {

/// The targets to build and measure.
struct TargetChoice {
  std::vector<std::string> both;        ///< discovered on both sides: compared
  std::vector<std::string> head_only;   ///< new targets: listed as added
  std::vector<std::string> base_only;   ///< deleted targets: listed as removed
  std::string reason;                   ///< one line for the report ("all 3 targets", "--target 'x'")
  nlohmann::json selection = nlohmann::json::object();  ///< selection detail for report.json
};

/// Throws InputError when `regex` is not a valid ECMAScript regex (checked before any build).
void validate_target_regex(const std::string& regex);

/// Chooses among the targets discovered on each side; `regex` (ECMAScript,
/// searched in the name, empty: all) narrows by hand. Throws InputError for a
/// bad regex or when nothing is left to measure.
TargetChoice choose_targets(const std::vector<build::BenchmarkTarget>& base,
                            const std::vector<build::BenchmarkTarget>& head, const std::string& regex);

}  // namespace cobench::run
