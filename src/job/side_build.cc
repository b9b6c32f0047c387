#include "job/console.h"
#include "job/side_build.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::job {

SideBuild configure_side(Side side, const std::filesystem::path& worktree, const std::filesystem::path& build_dir,
                         const SharedBuildSettings& shared) {
  SideBuild out;
  out.side = side;
  out.settings.source_dir = shared.source_dir.empty() ? worktree : worktree / shared.source_dir;
  out.settings.build_dir = build_dir;
  out.settings.cmake_args = shared.cmake_args;
  out.settings.build_type = shared.build_type;
  out.settings.log_path = shared.log_dir / ("build-" + to_string(side) + ".log");
  cmake::use_compile_cache(shared.compile_cache, out.settings);
  std::filesystem::create_directories(shared.log_dir);
  if (!std::filesystem::is_directory(out.settings.source_dir))
    throw InputError(fmt::format("{}: source dir '{}' does not exist in the checkout", to_string(side),
                                 shared.source_dir));
  try {
    cmake::configure(out.settings);
    out.targets = cmake::discover_targets(build_dir, shared.name_pattern, shared.recognises);
  } catch (const InfraError& e) {
    throw InfraError(fmt::format("{}: {}", to_string(side), e.what()));
  }
  return out;
}

void build_side(const SideBuild& side, const std::vector<std::string>& targets) {
  if (targets.empty()) return;
  try {
    cmake::build_targets(side.settings, targets);
  } catch (const cmake::BuildFailure& e) {
    console().note(fmt::format("{}: building target '{}' failed\n  command: {}\n{}", to_string(side.side), e.target,
                               e.command, e.log_tail));
    throw InfraError(fmt::format("{}: target '{}' failed to build: {} (log: {})", to_string(side.side), e.target,
                                 e.command, side.settings.log_path.string()));
  }
}

std::string compile_cache_summary(const cmake::CompileCache& cache, const SideBuild& base, const SideBuild& head) {
  if (cache.program.empty()) return fmt::format("off ({})", cache.why_not);
  return fmt::format("ccache (cache {}{}): base {}; head {}", cache.cache_dir.string(),
                     cache.configured_dir ? ", from the settings" : "",
                     cmake::describe(cmake::read_cache_stats(base.settings.cache_stats_log)),
                     cmake::describe(cmake::read_cache_stats(head.settings.cache_stats_log)));
}

std::map<std::string, std::filesystem::path> executables(const SideBuild& side, const std::vector<std::string>& targets) {
  std::map<std::string, std::filesystem::path> out;
  for (const auto& target : side.targets)
    if (std::find(targets.begin(), targets.end(), target.name) != targets.end()) out[target.name] = target.artifact;
  return out;
}

}  // namespace cobench::job
