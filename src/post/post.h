#pragma once
// Posting report.md where reviewers look: a GitLab merge-request note or a
// GitHub pull-request comment, updated in place on later runs (found by a
// hidden marker), plus the GitHub job summary.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace cobench::post {

/// Hidden in the posted markdown so the next run finds and updates its note.
inline constexpr std::string_view kMarker = "<!-- cobench-report -->";

/// Reads an environment variable; nullopt when unset or empty.
using Getenv = std::function<std::optional<std::string>(const std::string&)>;

/// The process environment as a Getenv.
Getenv process_environment();

/// A merge request to comment on, from GitLab CI's predefined variables.
struct GitLabTarget {
  std::string api_url;     ///< CI_API_V4_URL, e.g. https://gitlab.com/api/v4
  std::string project_id;  ///< CI_PROJECT_ID (numeric or a URL-encoded path)
  std::string merge_request_iid;  ///< CI_MERGE_REQUEST_IID
  std::string token;       ///< COBENCH_GITLAB_TOKEN (api scope); never printed
};

/// A pull request to comment on, from GitHub Actions' variables and event file.
struct GitHubTarget {
  std::string api_url;     ///< GITHUB_API_URL, default https://api.github.com
  std::string repository;  ///< GITHUB_REPOSITORY, "owner/name"
  long pull_request = 0;   ///< pull_request.number from GITHUB_EVENT_PATH
  std::string token;       ///< GITHUB_TOKEN; never printed
};

/// Throws InputError naming the first missing variable.
GitLabTarget gitlab_from_environment(const Getenv& env);

/// Throws InputError naming the missing variable or the unreadable event file.
GitHubTarget github_from_environment(const Getenv& env);

/// The marker plus the markdown, cut at a line boundary below `max_chars`
/// (open <details> blocks closed) with a pointer to the artifacts when too long.
std::string note_body(std::string_view markdown, size_t max_chars);

/// How long a post may take and how much of an answer it reads.
struct PostLimits {
  double timeout_seconds = 60;  ///< every request of the post together (cobench post --timeout)
  size_t max_response_bytes = size_t{4} << 20;  ///< a larger response is an error, not read to its end
};

/// What a post did, for the one line `cobench post` prints.
struct Posted {
  bool updated = false;  ///< false: created
  std::string id;        ///< note or comment id
  std::string where;     ///< "merge request !12", "pull request #34"
};

/// Creates or updates the MR note carrying kMarker. Throws InfraError (one
/// line, token and URL credentials redacted) on HTTP or connection failures,
/// an oversized response, or the deadline passing; Interrupted on SIGINT/SIGTERM.
Posted post_gitlab(const GitLabTarget& target, const std::string& markdown, const PostLimits& limits = {});

/// Creates or updates the PR comment carrying kMarker. Throws likewise.
Posted post_github(const GitHubTarget& target, const std::string& markdown, const PostLimits& limits = {});

/// Appends the markdown to the file GITHUB_STEP_SUMMARY names. Throws InfraError.
void append_step_summary(const std::string& path, const std::string& markdown);

}  // namespace cobench::post
