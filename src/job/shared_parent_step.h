#pragma once
// The job's side of [build] shared_parent: both sides are configured with
// position-independent code, and once both are built, the library's units the
// diff changes are found over the include graph and cmake::build_shared_parent
// relinks the measured executables against one parent library.
#include <optional>
#include <string>
#include <vector>

#include "config/config.h"
#include "job/side_build.h"
#include "job/workspace.h"
#include "results/job_settings.h"

namespace cobench::job {

/// The CMake arguments both sides are configured with: [build] cmake_args,
/// plus -DCMAKE_POSITION_INDEPENDENT_CODE=ON with a shared parent (its
/// objects go into a shared library).
std::vector<std::string> side_cmake_args(const config::BuildConfig& build);

/// With [build] shared_parent, checks the configured head has that library and
/// that it is compiled so that it can be shared (cmake::read_library), before
/// anything is built: a misspelt name or a refused flag costs no build.
/// InputError names the setting's origin.
void check_shared_parent(const config::Config& settings, const SideBuild& head);

/// Without [build] shared_parent: nullopt, nothing done. With it: relinks the
/// `targets` that link the library on both sides against one parent library
/// and returns its record for results.jsonl; nullopt (with a line saying why)
/// when no target links it or every unit of it changes. A unit is changed
/// when its source, or a file it includes, differs between the revisions, or
/// when the two sides compile it differently. InputError names the setting's origin.
std::optional<results::SharedParent> link_shared_parent(const config::Config& settings, const Revisions& revisions,
                                                        const Workspace& workspace, const SideBuild& base,
                                                        const SideBuild& head, const std::vector<std::string>& targets);

}  // namespace cobench::job
