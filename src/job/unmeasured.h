#pragma once
// Jobs that measure nothing still leave a report that says why.
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.h"
#include "job/settings_step.h"
#include "job/target_choice.h"
#include "job/workspace.h"
#include "select/select.h"

namespace cobench::job {

/// A job that measures nothing: its diff reaches no benchmark, its shard got
/// no target, or no target's build fits the time budget. Leaves a report that
/// says why (`notes`) and returns `exit_code`.
int report_unmeasured(const std::vector<std::string>& notes, const JobBasis& job, const TargetChoice& choice,
                      const std::filesystem::path& out_dir, int exit_code);

/// A job whose diff reaches no benchmark: say so, and leave a report that says so.
int report_unreached(const std::string& why, const JobBasis& job, const select::Selection& selection,
                     const std::filesystem::path& out_dir);

}  // namespace cobench::job
