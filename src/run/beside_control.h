#pragma once
// cobench's machine control program beside a job's own units, whatever the
// framework of those: the program is a Google Benchmark program, so its runs
// go through a Google Benchmark runner of their own, with none of the user's
// benchmark arguments (another framework's flags, or a Google Benchmark
// project's own: a positional mode its main reads, a flag of its own).
#include <string>

#include "run/gbench_runner.h"

namespace cobench::run {

class BesideMachineControl : public Runner {
 public:
  /// `units` runs everything but the unit named `control_target`.
  BesideMachineControl(Runner& units, ProcessSettings control, std::string control_target);
  std::vector<Unit> prepare(const SideContext& side) override { return units_.prepare(side); }
  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                     const RunScope& scope) override;
  std::vector<std::string> list(const Unit& unit) override;

 private:
  Runner& units_;
  GoogleBenchmarkRunner control_;
  std::string control_target_;
};

}  // namespace cobench::run
