// `cobench post --gitlab|--github OUT/report.md`: put the report where the
// reviewer looks. The report file is only read, so a failed post loses nothing.
#include <cstdio>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/files.h"
#include "core/parse.h"
#include "core/text.h"
#include "post/post.h"
#include "report/escape.h"

namespace cobench::cli {
namespace {

struct PostOptions {
  bool gitlab = false;
  bool github = false;
  bool no_summary = false;
  std::string timeout = "60s";
  std::string report;
};

int run_post(const PostOptions& options) {
  post::PostLimits limits;
  auto timeout = parse_duration_seconds(options.timeout);
  if (!timeout || !(*timeout > 0))
    throw InputError(fmt::format("--timeout: bad duration '{}': write e.g. 60s, 90 or 2m (at most 366 days)",
                                 shorten_saying_size(options.timeout, 200)));
  limits.timeout_seconds = *timeout;
  // The report may hold a credential (written by an older cobench, or edited): none reaches the note.
  const std::string markdown = report::scrub_rendered(read_file(options.report));
  post::Getenv env = post::process_environment();
  post::Posted posted;
  if (options.gitlab) {
    posted = post::post_gitlab(post::gitlab_from_environment(env), markdown, limits);
  } else {
    post::GitHubTarget target = post::github_from_environment(env);
    // The job summary first: it needs no network and no write permission.
    if (auto summary = env("GITHUB_STEP_SUMMARY"); summary && !options.no_summary)
      post::append_step_summary(*summary, markdown);
    posted = post::post_github(target, markdown, limits);
  }
  std::printf("cobench: %s\n", fmt::format("{} {} {} on {}", posted.updated ? "updated" : "created",
                                           options.gitlab ? "note" : "comment", posted.id, posted.where)
                                   .c_str());
  return kExitOk;
}

}  // namespace

Subcommand add_post(CLI::App& root) {
  auto options = std::make_shared<PostOptions>();
  Subcommand sub;
  sub.app = root.add_subcommand(
      "post", "Post report.md as a GitLab merge request note or a GitHub pull request comment, updating the one "
              "posted before. GitLab: CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID, COBENCH_GITLAB_TOKEN. "
              "GitHub: GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_TOKEN; also appends to "
              "GITHUB_STEP_SUMMARY when set. The whole post has a deadline (--timeout) and answers larger than "
              "4 MiB are refused (exit 3); SIGINT/SIGTERM stop it at once (exit 130).");
  auto* gitlab = sub.app->add_flag("--gitlab", options->gitlab, "Post to the GitLab merge request of this pipeline");
  auto* github = sub.app->add_flag("--github", options->github, "Post to the GitHub pull request of this workflow");
  gitlab->excludes(github);
  sub.app->add_flag("--no-summary", options->no_summary, "GitHub: do not append to GITHUB_STEP_SUMMARY");
  sub.app->add_option("--timeout", options->timeout,
                      "Deadline for the whole post, every request together, e.g. 60s or 2m (default 60s); past it "
                      "the post stops with exit 3");
  sub.app->add_option("report", options->report, "The markdown report (OUT/report.md)")->required();
  sub.run = [options]() -> int {
    if (!options->gitlab && !options->github) throw InputError("post: choose --gitlab or --github");
    return run_post(*options);
  };
  return sub;
}

}  // namespace cobench::cli
