#include "host/environment.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
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

namespace {

/// Unsets every variable `take` names, except those in `pass_env`; returns them, sorted.
std::vector<std::string> withhold(const std::function<bool(const std::string&)>& take,
                                  const std::vector<std::string>& pass_env) {
  std::vector<std::string> withheld;
  for (const auto& [name, value] : environment_map()) {
    if (!take(name)) continue;
    if (std::find(pass_env.begin(), pass_env.end(), name) != pass_env.end()) continue;
    if (::unsetenv(name.c_str()) == 0) withheld.push_back(name);
  }
  return withheld;
}

}  // namespace

std::vector<std::string> withhold_credentials(const std::vector<std::string>& pass_env) {
  secrets::process_credentials();  // known before they leave the environment: what is published is scrubbed of them
  return withhold(secrets::is_credential_name, pass_env);
}

bool is_google_benchmark_flag_variable(const std::string& name) {
  // Google Benchmark's flags (1.5-1.9), each read from the upper-cased name when not given on the command line.
  static const std::set<std::string> flags = {
      "BENCHMARK_LIST_TESTS",      "BENCHMARK_FILTER",          "BENCHMARK_DRY_RUN",
      "BENCHMARK_MIN_TIME",        "BENCHMARK_MIN_WARMUP_TIME", "BENCHMARK_REPETITIONS",
      "BENCHMARK_ENABLE_RANDOM_INTERLEAVING", "BENCHMARK_REPORT_AGGREGATES_ONLY",
      "BENCHMARK_DISPLAY_AGGREGATES_ONLY",    "BENCHMARK_FORMAT",          "BENCHMARK_OUT",
      "BENCHMARK_OUT_FORMAT",      "BENCHMARK_COLOR",           "BENCHMARK_COUNTERS_TABULAR",
      "BENCHMARK_PERF_COUNTERS",   "BENCHMARK_CONTEXT",         "BENCHMARK_TIME_UNIT"};
  return flags.count(name) > 0;
}

std::vector<std::string> withhold_google_benchmark_flags(const std::vector<std::string>& pass_env) {
  return withhold(is_google_benchmark_flag_variable, pass_env);
}

std::string describe_withheld_flags(const std::vector<std::string>& withheld) {
  if (withheld.empty()) return "";
  return fmt::format("Google Benchmark flags from the environment left out of builds and runs (give them with "
                     "--bench-arg; [run] pass_env lets one through): {}",
                     fmt::join(withheld, ", "));
}

std::string describe_withheld(const std::vector<std::string>& withheld) {
  if (withheld.empty()) return "";
  return fmt::format("credentials withheld from builds and runs: {} ([run] pass_env lets one through)",
                     fmt::join(withheld, ", "));
}

}  // namespace cobench::host
