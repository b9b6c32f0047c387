#pragma once
// Whether a benchmark instance executes the change (the reach pass: a
// coverage build, each instance run once, executed lines against the diff's
// changed lines). The verdict stage uses it in one rule: a benchmark that does
// not execute the change is never a regression (verdict::fold).
#include <optional>
#include <string>

namespace cobench::verdict {

/// One benchmark instance against the change.
struct ChangeReach {
  enum class Status { Reached, NotReached, Unknown };
  Status status = Status::Unknown;
  int changed_lines = 0;            ///< lines the diff added on the head plus lines it removed from the base
  int executed_changed_lines = 0;   ///< of those, the ones this instance executed (head lines on the head, removed lines on the base)
  std::string reason;               ///< Unknown: why ("no gcov", "coverage build failed", "runner go", ...)
};

/// "reached" | "not_reached" | "unknown"
std::string to_string(ChangeReach::Status status);
/// The inverse of to_string; nullopt for any other text.
std::optional<ChangeReach::Status> change_reach_status_from_string(const std::string& text);

/// The mark every report puts on an instance that does not execute the
/// change: "does not execute the change (0 of 12 changed lines ran)".
std::string not_executed_mark(const ChangeReach& reach);

}  // namespace cobench::verdict
