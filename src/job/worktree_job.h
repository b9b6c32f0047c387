#pragma once
// The job of Go packages and plain commands: nothing to configure or build,
// the worktrees are the sides; measure them.
#include "job/job_context.h"

namespace cobench::job {

/// Measures the checked-out sides; returns the job's exit code.
int run_worktree_job(JobContext& context);

}  // namespace cobench::job
