// The JSON shape of a Selection (`cobench select --format json`).
#include <nlohmann/json.hpp>

#include "select/select.h"

namespace cobench::select {
namespace {

nlohmann::json or_null(const std::optional<std::string>& s) { return s ? nlohmann::json(*s) : nlohmann::json(); }

nlohmann::json or_null(const std::string& s) { return s.empty() ? nlohmann::json() : nlohmann::json(s); }

nlohmann::json target_json(const SelectedTarget& t) {
  return {{"target", t.target},
          {"sources", t.sources},
          {"reason_chain", t.reason_chain},
          {"change", or_null(t.change)},
          {"changed_reached", t.changed_reached},
          {"hops", t.hops < 0 ? nlohmann::json() : nlohmann::json(t.hops)},
          {"layout_warnings", t.layout_warnings}};
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
          {"unresolved", unresolved},
          {"all_reason", or_null(s.all_reason)},
          {"none_reason", or_null(s.none_reason)},
          {"ignored", s.ignored},
          {"notes", s.notes},
          {"max_targets", s.max_targets},
          {"target_regex", or_null(s.narrowing.targets)},
          {"filter", or_null(s.narrowing.filter)},
          {"strict_layout", s.strict_layout},
          {"layout_summary", or_null(layout_summary(s))}};
}

}  // namespace cobench::select
