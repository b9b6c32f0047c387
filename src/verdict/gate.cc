#include "verdict/gate.h"

#include "core/errors.h"

namespace cobench::verdict {

int gate_exit_code(std::span<const verdict::Verdict> verdicts, const GatePolicy& policy) {
  if (!policy.gate && !policy.fail_on_inconclusive) return kExitOk;
  for (verdict::Verdict verdict : verdicts) {
    // Unrelated (a benchmark that does not execute the change) never fails: see verdict::fold.
    if (verdict == verdict::Verdict::Regression) return kExitGateFailed;
    // A layout-sensitive row is no regression of the change: undecided, as an inconclusive one.
    if (policy.fail_on_inconclusive &&
        (verdict == verdict::Verdict::Inconclusive || verdict == verdict::Verdict::LayoutSensitive))
      return kExitGateFailed;
  }
  return kExitOk;
}

}  // namespace cobench::verdict
