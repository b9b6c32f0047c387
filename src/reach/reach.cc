#include "reach/reach.h"

#include <algorithm>

namespace cobench::reach {
namespace {

int line_total(const LineMap& lines) {
  int total = 0;
  for (const auto& [path, numbers] : lines) total += static_cast<int>(numbers.size());
  return total;
}

/// Changed lines of one side executed by that side's coverage.
int executed_in(const LineMap& changed, const LineMap& executed) {
  int count = 0;
  for (const auto& [path, lines] : changed)
    if (auto it = executed.find(path); it != executed.end()) count += executed_count(lines, it->second);
  return count;
}

}  // namespace

int ChangedCode::head_lines() const { return line_total(head); }
int ChangedCode::base_lines() const { return line_total(base); }

ChangedCode changed_code(const std::vector<git::ChangedLines>& diff,
                         const std::function<bool(const std::string&)>& is_code) {
  ChangedCode out;
  for (const auto& file : diff) {
    const std::string& base_path = file.old_path.empty() ? file.path : file.old_path;
    if (!is_code(file.path) && !is_code(base_path)) continue;
    if (!file.deleted && !file.added.empty()) out.head[file.path] = file.added;
    if (!file.old_path.empty() && !file.removed.empty()) out.base[base_path] = file.removed;
    if (!file.old_path.empty() && !file.insertion_anchors.empty()) out.anchors[base_path] = file.insertion_anchors;
  }
  return out;
}

int executed_count(const std::vector<int>& lines, const std::vector<int>& executed) {
  int count = 0;
  auto from = executed.begin();
  for (int line : lines) {
    from = std::lower_bound(from, executed.end(), line);
    if (from == executed.end()) break;
    if (*from == line) ++count;
  }
  return count;
}

verdict::ChangeReach instance_reach(const ChangedCode& changes, const SideCoverage& head, const SideCoverage& base) {
  verdict::ChangeReach out;
  out.changed_lines = changes.count();
  if (head.instance) out.executed_changed_lines += executed_in(changes.head, head.instance->executed);
  if (base.instance) out.executed_changed_lines += executed_in(changes.base, base.instance->executed);
  if (out.executed_changed_lines > 0) {
    out.status = verdict::ChangeReach::Status::Reached;
  } else if (!changes.head.empty() && !head.instance) {
    out.reason = head.missing;
  } else if (!changes.base.empty() && !base.instance) {
    out.reason = base.missing;
  } else {
    out.status = verdict::ChangeReach::Status::NotReached;
  }
  return out;
}

bool touches_change(const ChangedCode& changes, const LineMap& base_executed) {
  return executed_in(changes.base, base_executed) > 0 || executed_in(changes.anchors, base_executed) > 0;
}

}  // namespace cobench::reach
