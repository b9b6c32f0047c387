#include "select/narrowing.h"

#include <cstdlib>

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::select {
namespace {

constexpr const char* kTargetsVar = "COBENCH_TARGETS";
constexpr const char* kFilterVar = "COBENCH_FILTER";

std::regex compile(const std::string& pattern, const std::string& origin) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("{} '{}': invalid regular expression: {}", origin, pattern, e.what()));
  }
}

void pick(const std::string& flag, const char* flag_name, const std::map<std::string, std::string>& env,
          const char* var, std::string& value, std::string& origin) {
  if (!flag.empty()) {
    value = flag;
    origin = flag_name;
    return;
  }
  auto it = env.find(var);
  if (it != env.end() && !it->second.empty()) {
    value = it->second;
    origin = var;
  }
}

}  // namespace

Narrowing resolve_narrowing(const std::string& target_flag, const std::string& filter_flag,
                            const std::map<std::string, std::string>& env) {
  Narrowing n;
  pick(target_flag, "--target", env, kTargetsVar, n.targets, n.targets_origin);
  pick(filter_flag, "--filter", env, kFilterVar, n.filter, n.filter_origin);
  if (!n.targets.empty()) compile(n.targets, n.targets_origin);
  // Google Benchmark uses std::regex-compatible syntax; reject typos here
  // rather than after two builds.
  if (!n.filter.empty()) compile(n.filter, n.filter_origin);
  return n;
}

std::map<std::string, std::string> narrowing_environment() {
  std::map<std::string, std::string> env;
  for (const char* var : {kTargetsVar, kFilterVar})
    if (const char* value = std::getenv(var)) env[var] = value;
  return env;
}

std::optional<std::regex> target_regex(const Narrowing& narrowing) {
  if (narrowing.targets.empty()) return std::nullopt;
  return compile(narrowing.targets, narrowing.targets_origin);
}

}  // namespace cobench::select
