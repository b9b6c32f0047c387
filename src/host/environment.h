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

/// Takes the credentials (secrets::is_credential_name) out of cobench's own
/// environment, except the names in `pass_env`, so that nothing it starts
/// from now on (git, CMake, compilers, benchmarks, commands) inherits them.
/// Their values stay known to secrets::scrub(). Returns the names taken out,
/// sorted. Call it before any thread starts (setenv is not thread-safe).
std::vector<std::string> withhold_credentials(const std::vector<std::string>& pass_env);

/// The line a job prints about it: "credentials withheld from builds and
/// runs: A, B ([run] pass_env lets one through)"; "" when none was.
std::string describe_withheld(const std::vector<std::string>& withheld);

/// Whether `name` is one of the variables Google Benchmark reads a flag's
/// default from (BENCHMARK_FILTER for --benchmark_filter, and so on, 1.5 to 1.9).
bool is_google_benchmark_flag_variable(const std::string& name);

/// Takes those variables out of cobench's own environment, except the names
/// in `pass_env`: a BENCHMARK_FILTER or BENCHMARK_REPETITIONS left in a CI
/// job's environment would otherwise narrow or repeat every run (and the
/// machine control's) behind the job's own flags. Other BENCHMARK_ names (a
/// benchmark's own data folder) stay. Returns the names taken out, sorted.
/// Call it before any thread starts.
std::vector<std::string> withhold_google_benchmark_flags(const std::vector<std::string>& pass_env);

/// The line a job prints about it; "" when none was taken out.
std::string describe_withheld_flags(const std::vector<std::string>& withheld);

}  // namespace cobench::host
