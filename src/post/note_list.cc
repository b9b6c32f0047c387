#include "post/note_list.h"

#include <regex>

#include "core/errors.h"
#include "post/post.h"

namespace cobench::post {

std::string marked_id(const HttpResponse& page, const std::string& what, size_t* items_on_page) {
  auto list = page.json(what);
  if (!list.is_array()) throw InfraError(what + ": expected a JSON array");
  if (items_on_page != nullptr) *items_on_page = list.size();
  for (const auto& item : list) {
    // A deleted or system note may carry a null body: it is not ours.
    if (!item.is_object() || !item.contains("id") || !item.contains("body") || !item["body"].is_string()) continue;
    if (item["body"].get_ref<const std::string&>().find(kMarker) != std::string::npos) return item["id"].dump();
  }
  return "";
}

std::string next_link(const std::string& link_header) {
  static const std::regex next(R"(<([^>]+)>\s*;\s*rel="?next"?)");
  std::smatch match;
  return std::regex_search(link_header, match, next) ? match[1].str() : "";
}

std::string created_id(const HttpResponse& response, const std::string& what) {
  auto created = response.json(what);
  return created.is_object() && created.contains("id") ? created["id"].dump() : "?";
}

}  // namespace cobench::post
