// The JSON shape of a Selection (`cobench select --format json`).
#include <nlohmann/json.hpp>

#include "select/select.h"

namespace cobench::select {
namespace {

nlohmann::json or_null(const std::optional<std::string>& s) { return s ? nlohmann::json(*s) : nlohmann::json(); }

nlohmann::json or_null(const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

const char* status_name(Execution::Status status) {
  switch (status) {
    case Execution::Status::Executes: return "executes";
    case Execution::Status::DoesNot: return "does_not_execute";
    case Execution::Status::Unknown: break;
  }
  return "unknown";
}

nlohmann::json target_json(const SelectedTarget& t) {
  nlohmann::json out = {{"target", t.target},
                        {"sources", t.sources},
                        {"reason_chain", t.reason_chain},
                        {"change", or_null(t.change)},
                        {"changed_reached", t.changed_reached},
                        {"hops", t.hops < 0 ? nlohmann::json() : nlohmann::json(t.hops)},
                        {"layout_warnings", t.layout_warnings}};
  if (t.execution)
    out["execution"] = {{"status", status_name(t.execution->status)},
                        {"instances", t.execution->instances},
                        {"executing_instances", t.execution->executing},
                        {"cost_seconds", t.execution->cost_seconds < 0 ? nlohmann::json()
                                                                        : nlohmann::json(t.execution->cost_seconds)},
                        {"summary", describe(*t.execution)}};
  if (!t.drop_reason.empty()) out["drop_reason"] = t.drop_reason;
  if (!t.via_library.empty()) out["via_library"] = t.via_library;
  return out;
}

nlohmann::json targets_json(const std::vector<SelectedTarget>& targets) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& t : targets) list.push_back(target_json(t));
  return list;
}

}  // namespace

nlohmann::json to_json(const Selection& s) {
  nlohmann::json unresolved = nlohmann::json::array();
  for (const auto& u : s.unresolved) unresolved.push_back({{"file", u.file}, {"line", u.line}, {"include", u.include}});
  return {{"selected", targets_json(s.selected)},
          {"dropped", targets_json(s.dropped)},
          {"unreached", s.unreached},
          {"narrowed_out", s.narrowed_out},
          {"narrowed_out_reached", s.narrowed_out_reached},
          {"reached", reached_count(s)},
          {"total", s.selected.size() + s.dropped.size() + s.unreached.size() + s.narrowed_out.size()},
          {"ranking", s.ranking},
          {"unresolved", unresolved},
          {"all_reason", or_null(s.all_reason)},
          {"none_reason", or_null(s.none_reason)},
          {"ignored", s.ignored},
          {"notes", s.notes},
          {"max_targets", s.max_targets},
          {"target_regex", or_null(s.narrowing.targets)},
          {"target_regex_origin", or_null(s.narrowing.targets.empty() ? "" : s.narrowing.targets_origin)},
          {"filter", or_null(s.narrowing.filter)},
          {"filter_origin", or_null(s.narrowing.filter.empty() ? "" : s.narrowing.filter_origin)},
          {"strict_layout", s.strict_layout},
          {"layout_summary", or_null(layout_summary(s))}};
}

}  // namespace cobench::select
