#pragma once
// The one environment every build and benchmark process of a job gets, so
// that neither side's stack layout shifts from a different environment size.
#include <map>
#include <string>
#include <vector>

namespace cobench::host {

/// cobench's own environment as "KEY=VALUE", sorted, without the variables
/// that differ between otherwise identical invocations (PWD, OLDPWD, SHLVL, _).
std::vector<std::string> benchmark_environment();

/// cobench's environment as a map (for git::default_base and CI variables).
std::map<std::string, std::string> environment_map();

}  // namespace cobench::host
