// The human report of a Selection: one line per target with its include chain.
#include <fmt/format.h>

#include "select/select.h"

namespace cobench::select {
namespace {

std::string chain_line(const SelectedTarget& t) {
  if (t.reason_chain.empty()) return t.target;
  std::string line = t.target + (t.via_library.empty() ? "" : " links " + t.via_library) + ": ";
  for (size_t i = 0; i < t.reason_chain.size(); ++i) line += (i ? " → " : "") + t.reason_chain[i];
  return line + " (" + t.change + ")";
}

void target_lines(std::string& out, const std::vector<SelectedTarget>& targets) {
  // Layout warnings are said once for the job (layout_summary), not under every target.
  for (const auto& t : targets) {
    out += "  " + chain_line(t) + "\n";
    if (t.execution) out += "    " + describe(*t.execution) + "\n";
    if (!t.drop_reason.empty()) out += "    dropped: " + t.drop_reason + "\n";
  }
}

std::string names(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& n : list) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

std::string to_text(const Selection& s) {
  // Narrowed-out targets count too: "1 of 62", as run's reason says, not "1 of 1".
  size_t total = s.selected.size() + s.dropped.size() + s.unreached.size() + s.narrowed_out.size();
  std::string out;
  if (total == 0) return out;  // no benchmark target at all: the error that follows says so, not "all 0 selected"
  if (s.all_reason)
    out += fmt::format("all {} benchmark targets selected: {}\n", s.selected.size(), *s.all_reason);
  else if (s.none_reason)
    out += *s.none_reason + "\n";
  else
    out += fmt::format("selected {} of {} benchmark targets{}:\n", s.selected.size(), total,
                       s.max_targets > 0 ? fmt::format(" (max {})", s.max_targets) : "");
  target_lines(out, s.selected);
  if (!s.none_reason && !s.all_reason && reached_count(s) != s.selected.size())  // else the line above says it
    out += fmt::format("{} of {} benchmark targets reach the change{}\n", reached_count(s), total,
                       s.narrowed_out_reached.empty() ? "" : fmt::format(" ({} of them narrowed away)", s.narrowed_out_reached.size()));
  if (!s.dropped.empty()) {
    out += fmt::format("dropped by the cap of {} (ranked by {}):\n", s.max_targets, s.ranking);
    target_lines(out, s.dropped);
  }
  if (!s.unreached.empty() && !s.none_reason)
    out += fmt::format("not reached ({}): {}\n", s.unreached.size(), names(s.unreached));
  if (!s.narrowed_out.empty())
    out += fmt::format("narrowed out by {} '{}': {}\n", s.narrowing.targets_origin, s.narrowing.targets,
                       names(s.narrowed_out));
  if (!s.narrowed_out_reached.empty())
    out += fmt::format("reached but narrowed away by {} '{}' ({}): {}\n", s.narrowing.targets_origin,
                       s.narrowing.targets, s.narrowed_out_reached.size(), names(s.narrowed_out_reached));
  if (!s.ignored.empty()) out += fmt::format("ignored changes: {}\n", names(s.ignored));
  if (!s.unresolved.empty()) {
    out += fmt::format("unresolved includes ({}):\n", s.unresolved.size());
    for (const auto& u : s.unresolved) out += fmt::format("  {}:{}: {}\n", u.file, u.line, u.include);
  }
  if (!s.narrowing.filter.empty())
    out += fmt::format("benchmark filter ({}): {}\n", s.narrowing.filter_origin, s.narrowing.filter);
  for (const auto& n : s.notes) out += "note: " + n + "\n";
  if (std::string layout = layout_summary(s); !layout.empty()) out += "warning: " + layout + "\n";
  return out;
}

}  // namespace cobench::select
