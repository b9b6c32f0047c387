#pragma once
// The measuring phase's --time-budget for the runs beside the timing rounds
// (allocation runs, instruction runs): before each pair (one run per side) of
// a target, whether it still fits.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "run/runner.h"

namespace cobench::run {

/// Whether the next pair of runs of `target` may start: the empty reason
/// means yes, anything else is why not ("time budget 5.0 min exhausted").
using PairGate = std::function<std::string(const std::string& target)>;

/// A pair fits when elapsed() plus twice the mean wall time of the target's
/// records of `cost_kind` so far ("time": after the timing rounds, a timing
/// run costs at least what an allocation run does; "alloc", "instructions":
/// the earlier runs of that kind) stays
/// within `budget` seconds; with none yet only the clock counts. `records` is
/// read at each call, so it may grow meanwhile. Without a budget there is no gate.
/// `name` names the bound in the reason (budget_name(): "" gives "time budget X").
PairGate pair_time_gate(std::optional<double> budget, const std::vector<RunRecord>& records, std::string cost_kind,
                        std::function<double()> elapsed, std::string name = {});

}  // namespace cobench::run
