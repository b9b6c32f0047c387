#include "host/environment.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/secrets.h"

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

std::vector<std::string> withhold_credentials(const std::vector<std::string>& pass_env) {
  secrets::process_credentials();  // known before they leave the environment: what is published is scrubbed of them
  std::vector<std::string> withheld;
  for (const auto& [name, value] : environment_map()) {
    if (!secrets::is_credential_name(name)) continue;
    if (std::find(pass_env.begin(), pass_env.end(), name) != pass_env.end()) continue;
    if (::unsetenv(name.c_str()) == 0) withheld.push_back(name);
  }
  return withheld;
}

std::string describe_withheld(const std::vector<std::string>& withheld) {
  if (withheld.empty()) return "";
  return fmt::format("credentials withheld from builds and runs: {} ([run] pass_env lets one through)",
                     fmt::join(withheld, ", "));
}

}  // namespace cobench::host
