#include "verdict/change_reach_json.h"

namespace cobench::verdict {

using nlohmann::json;

json change_reach_json(const ChangeReach& reach) {
  json out = {{"status", to_string(reach.status)},
              {"changed_lines", reach.changed_lines},
              {"executed_changed_lines", reach.executed_changed_lines}};
  if (!reach.reason.empty()) out["reason"] = reach.reason;
  return out;
}

ChangeReach change_reach_from_json(const formats::JsonReader& r) {
  ChangeReach reach;
  auto status = change_reach_status_from_string(r.at("status").text());
  if (!status) r.at("status").fail("expected reached, not_reached or unknown");
  reach.status = *status;
  reach.changed_lines = r.at("changed_lines").integer();
  reach.executed_changed_lines = r.at("executed_changed_lines").integer();
  if (r.has("reason")) reach.reason = r.at("reason").text();
  return reach;
}

}  // namespace cobench::verdict
