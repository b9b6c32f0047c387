#include "run/target_choice.h"

#include <regex>
#include <set>

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::run {

namespace {

std::regex compile(const std::string& regex) {
  try {
    return std::regex(regex.empty() ? ".*" : regex, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("--target: invalid regex '{}': {}", regex, e.what()));
  }
}

}  // namespace

void validate_target_regex(const std::string& regex) { compile(regex); }

TargetChoice choose_targets(const std::vector<build::BenchmarkTarget>& base,
                            const std::vector<build::BenchmarkTarget>& head, const std::string& regex) {
  const std::regex pattern = compile(regex);
  auto names = [&](const std::vector<build::BenchmarkTarget>& targets) {
    std::set<std::string> out;
    for (const auto& t : targets)
      if (std::regex_search(t.name, pattern)) out.insert(t.name);
    return out;
  };
  const auto base_names = names(base), head_names = names(head);
  TargetChoice choice;
  for (const auto& name : head_names) (base_names.count(name) ? choice.both : choice.head_only).push_back(name);
  for (const auto& name : base_names)
    if (!head_names.count(name)) choice.base_only.push_back(name);
  if (choice.both.empty() && choice.head_only.empty() && choice.base_only.empty()) {
    if (regex.empty()) throw InputError("no benchmark targets found (no executable links Google Benchmark)");
    throw InputError(fmt::format("--target '{}' matches none of the {} benchmark targets", regex,
                                 std::max(base.size(), head.size())));
  }
  choice.reason = regex.empty() ? fmt::format("all benchmark targets ({})", choice.both.size())
                                : fmt::format("benchmark targets matching --target '{}' ({})", regex, choice.both.size());
  choice.selection = {{"mode", regex.empty() ? "all" : "target-regex"},
                      {"reason", choice.reason},
                      {"targets", choice.both}};
  return choice;
}

}  // namespace cobench::run
