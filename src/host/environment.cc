#include "host/environment.h"

#include <set>

extern char** environ;

namespace cobench::host {

std::vector<std::string> benchmark_environment() {
  static const std::set<std::string> unstable = {"PWD", "OLDPWD", "SHLVL", "_"};
  std::vector<std::string> out;
  for (auto& [key, value] : environment_map())
    if (!unstable.count(key)) out.push_back(key + "=" + value);
  return out;
}

std::map<std::string, std::string> environment_map() {
  std::map<std::string, std::string> out;
  for (char** entry = environ; entry && *entry; ++entry) {
    std::string item = *entry;
    auto eq = item.find('=');
    if (eq != std::string::npos) out.emplace(item.substr(0, eq), item.substr(eq + 1));
  }
  return out;
}

}  // namespace cobench::host
