#include "job/console.h"
#include "job/shared_parent_step.h"

#include <cstdio>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "cmake/shared_parent.h"
#include "core/errors.h"
#include "host/environment.h"
#include "select/changed_units.h"

namespace cobench::job {

namespace fs = std::filesystem;

namespace {

/// Each side's library and the repo-relative path of each of its units.
struct SideLibrary {
  cmake::LibraryTarget library;
  std::vector<select::UnitReach> units;  ///< aligned with library.units
};

SideLibrary read_side(Side side, const SideBuild& build, const Workspace& workspace, const std::string& name,
                      const std::vector<git::ChangedFile>& changes) {
  SideLibrary out{cmake::read_library(build.settings.build_dir, name), {}};
  std::vector<fs::path> sources;
  for (const auto& unit : out.library.units) sources.push_back(unit.source);
  out.units = select::units_reaching(workspace.worktree(side), sources, out.library.include_dirs,
                                     select::changed_paths(changes, side == Side::Base));
  return out;
}

/// The repo-relative units either side recompiles, each with why.
std::map<std::string, std::string> changed_units(const SideLibrary& base, const SideLibrary& head) {
  std::map<std::string, std::string> changed;
  std::map<std::string, std::string> base_compile;
  for (const SideLibrary* side : {&base, &head})
    for (size_t i = 0; i < side->units.size(); ++i) {
      const auto& unit = side->units[i];
      if (unit.chain.size() == 1) changed.emplace(unit.path, "changed");
      if (unit.chain.size() > 1) changed.emplace(unit.path, fmt::format("{}", fmt::join(unit.chain, " → ")));
      if (side == &base) base_compile[unit.path] = side->library.units[i].compile;
    }
  // The same source compiled with other flags, defines or include folders is another unit.
  for (size_t i = 0; i < head.units.size(); ++i)
    if (auto it = base_compile.find(head.units[i].path);
        it != base_compile.end() && it->second != head.library.units[i].compile)
      changed.emplace(head.units[i].path, "compiled differently on the two sides");
  return changed;
}

/// The absolute sources of `side` among `changed`.
std::vector<fs::path> sources_among(const SideLibrary& side, const std::map<std::string, std::string>& changed) {
  std::vector<fs::path> out;
  for (size_t i = 0; i < side.units.size(); ++i)
    if (changed.count(side.units[i].path)) out.push_back(side.library.units[i].source);
  return out;
}

/// Runs `work`; an InputError it throws is the setting's, and its message says where the setting came from.
template <typename Work>
auto naming_the_setting(const config::Config& settings, Work work) {
  try {
    return work();
  } catch (const InputError& e) {
    throw InputError(
        fmt::format("{}: {}", settings.origin("build.shared_parent").describe("build.shared_parent"), e.what()));
  }
}

}  // namespace

std::vector<std::string> side_cmake_args(const config::BuildConfig& build) {
  std::vector<std::string> args = build.cmake_args;
  if (!build.shared_parent.empty()) args.push_back("-DCMAKE_POSITION_INDEPENDENT_CODE=ON");
  return args;
}

void check_shared_parent(const config::Config& settings, const SideBuild& head) {
  if (settings.build.shared_parent.empty()) return;
  naming_the_setting(settings, [&] { cmake::read_library(head.settings.build_dir, settings.build.shared_parent); });
}

std::optional<results::SharedParent> link_shared_parent(const config::Config& settings, const Revisions& revisions,
                                                        const Workspace& workspace, const SideBuild& base,
                                                        const SideBuild& head,
                                                        const std::vector<std::string>& targets) {
  const std::string& name = settings.build.shared_parent;
  if (name.empty()) return std::nullopt;
  return naming_the_setting(settings, [&]() -> std::optional<results::SharedParent> {
    const auto changes = git::diff_name_status(workspace.worktree(Side::Head), revisions.base_sha, revisions.head_sha);
    const SideLibrary base_library = read_side(Side::Base, base, workspace, name, changes);
    const SideLibrary head_library = read_side(Side::Head, head, workspace, name, changes);
    const auto changed = changed_units(base_library, head_library);
    const auto base_changed = sources_among(base_library, changed);
    if (base_changed.size() == base_library.units.size()) {
      console().line(fmt::format("shared parent: every unit of '{}' changes, nothing to share; the executables stay as "
                                 "built", name));
      return std::nullopt;
    }
    cmake::ParentRequest request;
    request.library = name;
    request.executables = targets;
    request.base = {base.settings.build_dir, base_changed};
    request.head = {head.settings.build_dir, sources_among(head_library, changed)};
    request.parent_dir = workspace.job_dir() / "parent";
    request.log_path = base.settings.log_path.parent_path() / "shared-parent.log";
    request.environment = host::benchmark_environment();
    const cmake::SharedParent parent = cmake::build_shared_parent(request);
    if (parent.relinked.empty()) {
      console().line(fmt::format("shared parent: no measured target links '{}'; the executables stay as built", name));
      return std::nullopt;
    }
    results::SharedParent record{name, parent.library.string(), parent.sha256, {}};
    for (const auto& [path, why] : changed) record.changed_units.push_back(path);
    const std::string relinked = fmt::format("{}", fmt::join(parent.relinked, ", "));
    // How much is shared: the include graph ignores #if, so a header every unit includes (spdlog's)
    // makes most of them changed.
    const size_t units = base_library.units.size(), shared = units - base_changed.size();
    console().line(fmt::format("shared parent: {} (sha256 {}) from base, {} of {} units shared, linked by {} on both "
                               "sides",
                               record.library, record.sha256, shared, units, relinked));
    for (const auto& [path, why] : changed) console().line(fmt::format("  compiled from each side: {} ({})", path, why));
    return record;
  });
}

}  // namespace cobench::job
