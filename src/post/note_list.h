#pragma once
// What GitLab notes and GitHub comments have in common: JSON objects with an
// `id` and a `body`, listed a page at a time.
#include <optional>
#include <string>

#include "post/http_client.h"

namespace cobench::post {

/// The most pages of notes or comments searched for the marked one (100 per
/// page): a bound on a runaway pagination, far beyond any real thread.
inline constexpr int kMaxPages = 200;

/// The id of the first item on this page whose body carries kMarker, or "".
/// Throws InfraError naming `what` when the page is not a JSON array.
std::string marked_id(const HttpResponse& page, const std::string& what, size_t* items_on_page = nullptr);

/// The id of a note or comment the API just created ("?" when it did not say).
std::string created_id(const HttpResponse& response, const std::string& what);

/// The URL of rel="next" in a GitHub Link header, or "" on the last page.
std::string next_link(const std::string& link_header);

/// The page a GitLab X-Next-Page header names after `page`; nullopt on the
/// last page (empty) or when it names no later whole page.
std::optional<int> next_page(const std::string& header, int page);

}  // namespace cobench::post
