#include "formats/benchmark_name.h"

#include <algorithm>

namespace cobench::formats {
namespace {

bool starts_with_any(std::string_view component, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view prefix) { return component.starts_with(prefix); });
}

}  // namespace

std::vector<std::string> name_components(const std::string& name) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', start)) {
    out.push_back(name.substr(start, slash - start));
    start = slash + 1;
  }
  out.push_back(name.substr(start));
  return out;
}

bool is_run_option(std::string_view component) {
  return starts_with_any(component, {"threads:", "repeats:", "iterations:", "min_time:", "min_warmup_time:"});
}

bool fixes_its_own_length(const std::string& name) {
  const auto parts = name_components(name);
  // The family is never an option, whatever a name registered at run time holds.
  return std::any_of(parts.begin() + 1, parts.end(), [](const std::string& component) {
    return starts_with_any(component, {"iterations:", "min_time:"});
  });
}

}  // namespace cobench::formats
