#pragma once
// The gate: whether a job's verdicts fail the pipeline (exit 1). Report, do
// not gate, is the default; `--gate` and `--fail-on-inconclusive` opt in.
#include <span>

#include "stats/stats.h"
#include "verdict/verdict.h"

namespace cobench::verdict {

/// How verdicts turn into an exit code.
struct GatePolicy {
  bool gate = false;                  ///< exit 1 on any regression
  bool fail_on_inconclusive = false;  ///< inconclusive fails too (implies gate)
};

/// kExitGateFailed when the policy gates and a verdict fails it, else kExitOk.
/// An unrelated change (a benchmark that does not execute the change) never fails it;
/// a layout-sensitive row fails it only as an inconclusive one does.
int gate_exit_code(std::span<const verdict::Verdict> verdicts, const GatePolicy& policy);

}  // namespace cobench::verdict
