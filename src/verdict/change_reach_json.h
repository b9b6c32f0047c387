#pragma once
// A benchmark's reach as JSON, the one shape report.json and results.jsonl share:
// {"status": "reached" | "not_reached" | "unknown", "changed_lines": N,
//  "executed_changed_lines": M, "reason": "..." (when there is one)}.
#include <nlohmann/json.hpp>

#include "formats/json_reader.h"
#include "verdict/change_reach.h"

namespace cobench::verdict {

nlohmann::json change_reach_json(const ChangeReach& reach);

/// Reads change_reach_json's shape; a wrong one fails naming its path.
ChangeReach change_reach_from_json(const formats::JsonReader& reader);

}  // namespace cobench::verdict
