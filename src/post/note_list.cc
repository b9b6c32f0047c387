#include "post/note_list.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/parse.h"
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
  // `<URL>; rel="next", <URL>; rel="last"`, scanned by hand: std::regex recurses
  // once per character and overflows the stack on a long header.
  for (size_t open = link_header.find('<'); open != std::string::npos;) {
    size_t close = link_header.find('>', open + 1);
    if (close == std::string::npos) break;
    size_t next_open = link_header.find('<', close);
    std::string_view params(link_header.data() + close + 1,
                            std::min(next_open, link_header.size()) - close - 1);
    // Each "; name=value" parameter: is one of them rel=next (quoted or not)?
    for (size_t semicolon = params.find(';'); semicolon != std::string_view::npos;) {
      size_t end = std::min(params.find(';', semicolon + 1), params.size());
      std::string_view param = params.substr(semicolon + 1, end - semicolon - 1);
      param.remove_prefix(std::min(param.find_first_not_of(" \t"), param.size()));
      param = param.substr(0, param.find_last_not_of(" \t,") + 1);
      if (close > open + 1 && (param == "rel=next" || param == "rel=\"next\""))
        return link_header.substr(open + 1, close - open - 1);
      semicolon = end < params.size() ? end : std::string_view::npos;
    }
    open = next_open;
  }
  return "";
}

std::optional<int> next_page(const std::string& header, int page) {
  // Only a whole number after `page`: "1e300" or "nan" converted to int would be undefined.
  auto next = parse_number(header);
  if (!next || !(*next > page) || *next > std::numeric_limits<int>::max() || *next != std::floor(*next)) return {};
  return static_cast<int>(*next);
}

std::string created_id(const HttpResponse& response, const std::string& what) {
  auto created = response.json(what);
  return created.is_object() && created.contains("id") ? created["id"].dump() : "?";
}

}  // namespace cobench::post
