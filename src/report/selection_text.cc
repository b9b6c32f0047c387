#include "report/selection_text.h"

#include <fmt/format.h>

namespace cobench::report {
namespace {

std::string string_at(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_string()) return "";
  return object[key].get<std::string>();
}

const nlohmann::json& array_at(const nlohmann::json& object, const char* key) {
  static const nlohmann::json empty = nlohmann::json::array();
  return object.is_object() && object.contains(key) && object[key].is_array() ? object[key] : empty;
}

std::string joined(const nlohmann::json& strings, const char* separator) {
  std::string out;
  for (const auto& item : strings)
    if (item.is_string()) out += (out.empty() ? "" : separator) + item.get<std::string>();
  return out;
}

}  // namespace

std::vector<std::string> selection_lines(const Report& report) {
  const auto& s = report.selection;
  std::vector<std::string> lines;
  for (const char* key : {"reason", "all_reason", "none_reason"})
    if (std::string reason = string_at(s, key); !reason.empty()) lines.push_back("Selection: " + reason);
  auto chain_of = [](const nlohmann::json& target) {
    std::string chain = joined(array_at(target, "reason_chain"), " → ");
    std::string change = string_at(target, "change");
    std::string execution = target.contains("execution") ? string_at(target["execution"], "summary") : "";
    return fmt::format("{}{}{}", chain.empty() ? "selected" : chain, change.empty() ? "" : " (" + change + ")",
                       execution.empty() ? "" : "; " + execution);
  };
  auto name_of = [](const nlohmann::json& target) {
    std::string library = string_at(target, "via_library");
    return string_at(target, "target") + (library.empty() ? "" : " links " + library);
  };
  for (const auto& target : array_at(s, "selected")) lines.push_back(fmt::format("{}: {}", name_of(target), chain_of(target)));
  for (const auto& target : array_at(s, "dropped")) {
    std::string why = string_at(target, "drop_reason");
    lines.push_back(fmt::format("Dropped {}: {}", string_at(target, "target"), why.empty() ? chain_of(target) : why));
  }
  if (auto reached = joined(array_at(s, "narrowed_out_reached"), ", "); !reached.empty())
    lines.push_back(fmt::format("Reached but narrowed away by {} '{}' ({}): {}", string_at(s, "target_regex_origin"),
                                string_at(s, "target_regex"), array_at(s, "narrowed_out_reached").size(), reached));
  if (auto filtered = joined(array_at(s, "filtered_out"), ", "); !filtered.empty())
    lines.push_back(fmt::format("Narrowed away by {} '{}' (it matches none of their benchmarks): {}",
                                string_at(s, "filter_origin"), string_at(s, "filter"), filtered));
  if (auto targets = joined(array_at(s, "targets"), ", "); !targets.empty() && array_at(s, "selected").empty())
    lines.push_back("Targets: " + targets);
  const auto& unresolved = array_at(s, "unresolved");
  if (!unresolved.empty()) {
    std::string list;
    for (size_t i = 0; i < unresolved.size() && i < 10; ++i)
      list += fmt::format("{}{}:{} {}", i ? ", " : "", string_at(unresolved[i], "file"),
                          unresolved[i].value("line", 0), string_at(unresolved[i], "include"));
    lines.push_back(fmt::format("{} unresolved include{}: {}{}", unresolved.size(), unresolved.size() == 1 ? "" : "s",
                                list, unresolved.size() > 10 ? ", …" : ""));
  }
  return lines;
}

std::string dropped_phrase(const Report& report) {
  const auto& dropped = array_at(report.selection, "dropped");
  if (dropped.empty()) return "";
  std::string names;
  for (const auto& target : dropped) names += (names.empty() ? "" : ", ") + string_at(target, "target");
  std::string cap = report.selection.contains("max_targets") && report.selection["max_targets"].is_number()
                        ? fmt::format(" (max_targets {}", report.selection["max_targets"].get<int>())
                        : " (";
  const std::string ranking = string_at(report.selection, "ranking");
  cap += ranking.empty() ? ")" : (cap == " (" ? "" : ", ") + ("ranked by " + ranking) + ")";
  if (cap == " ()") cap.clear();
  return fmt::format("{} target{} dropped by the cap{}: {}", dropped.size(), dropped.size() == 1 ? "" : "s", cap, names);
}

}  // namespace cobench::report
