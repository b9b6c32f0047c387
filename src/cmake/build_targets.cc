// Building only the benchmark targets, one at a time so a failure names its target.
#include <sched.h>

#include <thread>

#include <fmt/format.h>

#include "cmake/cmake.h"
#include "cmake/logged_run.h"

namespace cobench::cmake {

namespace {

/// CPUs this process may run on (its affinity mask, which CI containers narrow).
int usable_cpus() {
  cpu_set_t set;
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

}  // namespace

BuildFailure::BuildFailure(std::string target_name, std::string command_line, std::string tail)
    : InfraError(fmt::format("build of target '{}' failed: {}", target_name, command_line)),
      target(std::move(target_name)), command(std::move(command_line)), log_tail(std::move(tail)) {}

BuildFailure::BuildFailure(std::string target_name, std::string command_line, std::string tail,
                           const std::string& status)
    : InfraError(fmt::format("build of target '{}' failed ({}): {}", target_name, status, command_line)),
      target(std::move(target_name)), command(std::move(command_line)), log_tail(std::move(tail)) {}

void build_targets(const BuildSettings& settings, const std::vector<std::string>& targets) {
  int jobs = settings.jobs > 0 ? settings.jobs : usable_cpus();
  for (const auto& target : targets) {
    std::vector<std::string> argv = {"cmake", "--build", settings.build_dir.string()};
    if (!settings.build_type.empty()) {
      // Multi-config generators build Debug unless told; single-config ones ignore it.
      argv.insert(argv.end(), {"--config", settings.build_type});
    }
    argv.insert(argv.end(), {"-j", std::to_string(jobs), "--target", target});
    auto result = detail::run_logged(argv, settings.log_path, {}, std::nullopt, settings.env);
    if (!result.ok())
      throw BuildFailure(target, process::quote_command_line(argv), process::tail_lines(result.out, 40),
                         process::describe(result));
  }
}

}  // namespace cobench::cmake
