#pragma once
// Whether a benchmark instance executes the change: the diff's changed lines
// against the lines its coverage run executed. Head-side lines (added or
// rewritten) are looked up in the head's coverage, lines the diff removed in
// the base's, so a deletion is judged by whether the base ran the deleted code.
#include <functional>
#include <string>
#include <vector>

#include "git/git.h"
#include "reach/coverage.h"
#include "verdict/change_reach.h"

namespace cobench::reach {

/// The diff's changed lines in the files that are code.
struct ChangedCode {
  LineMap head;      ///< lines added or rewritten, by head path
  LineMap base;      ///< lines removed or rewritten, by base path
  LineMap anchors;   ///< base lines around pure insertions: where the base stands in for lines it lacks

  int head_lines() const;
  int base_lines() const;
  int count() const { return head_lines() + base_lines(); }
};

/// The changed lines of `diff` in files `is_code` accepts (by head path, or
/// base path for a deletion).
ChangedCode changed_code(const std::vector<git::ChangedLines>& diff,
                         const std::function<bool(const std::string&)>& is_code);

/// One side's coverage of one instance, or why there is none.
struct SideCoverage {
  const InstanceCoverage* instance = nullptr;  ///< nullptr: no coverage of that side
  std::string missing;                         ///< why not, when instance is nullptr
};

/// Reached when the instance executed a changed line on either side; not
/// reached when every side with changed lines was covered and none ran;
/// unknown otherwise, with the missing side's reason.
verdict::ChangeReach instance_reach(const ChangedCode& changes, const SideCoverage& head, const SideCoverage& base);

/// For ranking before the head is built: whether the base's execution touches
/// a changed hunk (a removed line, or a line next to an insertion).
bool touches_change(const ChangedCode& changes, const LineMap& base_executed);

/// The number of lines in `lines` also in `executed` (both ascending).
int executed_count(const std::vector<int>& lines, const std::vector<int>& executed);

}  // namespace cobench::reach
