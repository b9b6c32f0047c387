// GitHub: pull request comments live in the issues API. Follow the Link
// header's rel="next" pages looking for the marker, then PATCH or POST.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "post/http_client.h"
#include "post/note_list.h"
#include "post/post.h"

namespace cobench::post {
namespace {

constexpr size_t kGitHubCommentLimit = 65'536;

std::string find_marked_comment(ApiClient& api, const std::string& comments) {
  std::string path = comments + "?per_page=100";
  for (int pages = 0; !path.empty() && pages < kMaxPages; ++pages) {
    auto response = api.get(path);
    if (std::string id = marked_id(response, "GitHub comments list"); !id.empty()) return id;
    std::string next = next_link(response.header("link"));
    path = next.empty() ? "" : api.path_of(next);
  }
  return "";
}

}  // namespace

Posted post_github(const GitHubTarget& target, const std::string& markdown, const PostLimits& limits) {
  ApiClient api("GITHUB_API_URL", target.api_url,
                {{"Authorization", "Bearer " + target.token},
                 {"Accept", "application/vnd.github+json"},
                 {"X-GitHub-Api-Version", "2022-11-28"},
                 {"User-Agent", "cobench"}},
                target.token, limits);
  std::string repo = "/repos/" + target.repository;  // "owner/name": both parts are path segments
  std::string comments = fmt::format("{}/issues/{}/comments", repo, target.pull_request);
  nlohmann::json body = {{"body", note_body(markdown, kGitHubCommentLimit)}};
  Posted posted;
  posted.where = fmt::format("pull request #{}", target.pull_request);
  posted.id = find_marked_comment(api, comments);
  if (!posted.id.empty()) {
    api.patch(fmt::format("{}/issues/comments/{}", repo, posted.id), body);
    posted.updated = true;
    return posted;
  }
  posted.id = created_id(api.post(comments, body), "GitHub comment creation");
  return posted;
}

}  // namespace cobench::post
