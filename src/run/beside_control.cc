#include "run/beside_control.h"

namespace cobench::run {
namespace {

/// The job's process settings without the user's benchmark arguments: they are the other framework's flags.
ProcessSettings without_bench_args(ProcessSettings settings) {
  settings.bench_args.clear();
  return settings;
}

}  // namespace

BesideMachineControl::BesideMachineControl(Runner& units, ProcessSettings control, std::string control_target)
    : units_(units), control_(without_bench_args(std::move(control))), control_target_(std::move(control_target)) {}

RunRecord BesideMachineControl::run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                                         const RunScope& scope) {
  return unit.name == control_target_ ? control_.run_once(unit, side, sha, run_index, scope)
                                      : units_.run_once(unit, side, sha, run_index, scope);
}

std::vector<std::string> BesideMachineControl::list(const Unit& unit) {
  return unit.name == control_target_ ? control_.list(unit) : units_.list(unit);
}

}  // namespace cobench::run
