#include "verdict/change_reach.h"

#include <fmt/format.h>

namespace cobench::verdict {

std::string to_string(ChangeReach::Status status) {
  switch (status) {
    case ChangeReach::Status::Reached: return "reached";
    case ChangeReach::Status::NotReached: return "not_reached";
    case ChangeReach::Status::Unknown: break;
  }
  return "unknown";
}

std::optional<ChangeReach::Status> change_reach_status_from_string(const std::string& text) {
  for (auto status : {ChangeReach::Status::Reached, ChangeReach::Status::NotReached, ChangeReach::Status::Unknown})
    if (to_string(status) == text) return status;
  return std::nullopt;
}

std::string not_executed_mark(const ChangeReach& reach) {
  return fmt::format("does not execute the change ({} of {} changed line{} ran)", reach.executed_changed_lines,
                     reach.changed_lines, reach.changed_lines == 1 ? "" : "s");
}

}  // namespace cobench::verdict
