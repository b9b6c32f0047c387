#pragma once
// The job of CMake benchmark targets (Google Benchmark, Catch2): configure the
// head, select over its include graph, configure the base, choose and build
// the targets (in rank order under the time budget, a shard of them, a shared
// parent library), find which instances reach the change, then measure.
#include "job/job_context.h"

namespace cobench::job {

/// Runs the steps above on checked-out sides; returns the job's exit code.
int run_cmake_job(JobContext& context);

}  // namespace cobench::job
