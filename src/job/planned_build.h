#pragma once
// Building the chosen targets a target at a time, in rank order, under the
// whole-job time budget: what will not fit is dropped, lowest-ranked first,
// and said before any of it is built.
#include <functional>
#include <string>
#include <vector>

#include "job/side_build.h"
#include "job/target_choice.h"
#include "plan/plan.h"
#include "results/log.h"
#include "run/progress.h"

namespace cobench::job {

/// What building the chosen targets did.
struct BuildOutcome {
  std::vector<results::BuildTime> times;  ///< per target and side, in build order
  std::vector<std::string> notes;         ///< why targets were dropped, for the report
};

/// Builds `choice`'s targets, each on its sides (base, then head): the layout
/// controls first, then the compared targets in rank order, then the head-only
/// and base-only ones. With a `plan` (--time-budget) the plan decides before
/// each target what still fits, `elapsed` being the job's seconds so far; the
/// targets that do not are removed from `choice` (into budget_dropped), and
/// the reason is printed and returned before any of them is built. Throws
/// InfraError when a build fails (build_side).
BuildOutcome build_chosen(TargetChoice& choice, const SideBuild& base, const SideBuild& head, plan::BuildPlan* plan,
                          const std::function<double()>& elapsed, run::Progress& progress);

/// The targets `choice` builds on `side`: those on both sides and those on that side only.
std::vector<std::string> targets_on(const TargetChoice& choice, Side side);

}  // namespace cobench::job
