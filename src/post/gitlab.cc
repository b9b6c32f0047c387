// GitLab: the merge request's notes API. List every page looking for the
// marker, then PUT that note or POST a new one.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "post/http_client.h"
#include "post/note_list.h"
#include "post/post.h"

namespace cobench::post {
namespace {

constexpr size_t kGitLabNoteLimit = 1'000'000;
constexpr size_t kPerPage = 100;

// The id of the first note that carries the marker, or "".
std::string find_marked_note(ApiClient& api, const std::string& notes) {
  for (int page = 1, pages = 0; pages < kMaxPages; ++pages) {
    auto response = api.get(fmt::format("{}?per_page={}&page={}", notes, kPerPage, page));
    size_t items = 0;
    if (std::string id = marked_id(response, "GitLab notes list", &items); !id.empty()) return id;
    // X-Next-Page is empty on the last page; without the header, a short page is the last.
    if (response.headers.count("x-next-page") != 0) {
      auto next = next_page(response.header("x-next-page"), page);
      if (!next) break;
      page = *next;
    } else if (items < kPerPage) {
      break;
    } else {
      ++page;
    }
  }
  return "";
}

}  // namespace

Posted post_gitlab(const GitLabTarget& target, const std::string& markdown, const PostLimits& limits) {
  ApiClient api("CI_API_V4_URL", target.api_url, {{"PRIVATE-TOKEN", target.token}, {"User-Agent", "cobench"}},
                target.token, limits);
  std::string notes = fmt::format("/projects/{}/merge_requests/{}/notes", encode_segment(target.project_id),
                                  encode_segment(target.merge_request_iid));
  nlohmann::json body = {{"body", note_body(markdown, kGitLabNoteLimit)}};
  Posted posted;
  posted.where = "merge request !" + target.merge_request_iid;
  posted.id = find_marked_note(api, notes);
  if (!posted.id.empty()) {
    api.put(notes + "/" + posted.id, body);
    posted.updated = true;
    return posted;
  }
  posted.id = created_id(api.post(notes, body), "GitLab note creation");
  return posted;
}

}  // namespace cobench::post
