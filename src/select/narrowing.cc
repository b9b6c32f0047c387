#include "select/narrowing.h"

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::select {
namespace {

std::regex compile(const std::string& pattern, const std::string& origin) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("{} '{}': invalid regular expression: {}", origin, pattern, e.what()));
  }
}

std::string origin_name(const config::Config& settings, std::string_view key) {
  const config::Origin& origin = settings.origin(key);
  return origin.kind == config::Origin::Kind::Default ? std::string(key) : origin.where;
}

}  // namespace

Narrowing narrowing_of(const config::Config& settings) {
  Narrowing n;
  n.targets = settings.select.targets;
  n.targets_origin = origin_name(settings, "select.targets");
  n.filter = settings.run.filter;
  n.filter_origin = origin_name(settings, "run.filter");
  return n;
}

std::optional<std::regex> target_regex(const Narrowing& narrowing) {
  if (narrowing.targets.empty()) return std::nullopt;
  return compile(narrowing.targets, narrowing.targets_origin);
}

}  // namespace cobench::select
