#include "run/pair_gate.h"

#include "run/schedule.h"

namespace cobench::run {

PairGate pair_time_gate(std::optional<double> budget, const std::vector<RunRecord>& records, std::string cost_kind,
                        std::function<double()> elapsed, std::string name) {
  if (!budget) return {};
  return [budget = *budget, &records, cost_kind = std::move(cost_kind), elapsed = std::move(elapsed),
          name = budget_name(*budget, name)](const std::string& target) -> std::string {
    double seconds = 0;
    int runs = 0;
    for (const auto& r : records) {
      if (r.target != target || r.kind != cost_kind) continue;
      seconds += r.wall_seconds;
      ++runs;
    }
    const double pair_cost = runs ? 2 * seconds / runs : 0;
    if (elapsed() + pair_cost <= budget) return "";
    return name + " exhausted";
  };
}

}  // namespace cobench::run
