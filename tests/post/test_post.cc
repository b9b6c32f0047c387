// `cobench post` against a real HTTP server on 127.0.0.1: create vs update by
// marker across pages, headers, job summary, and failures that keep the
// report and never print the token or the URL's credentials; a server that
// never finishes meets the deadline, SIGTERM stops a post at once, and an
// oversized answer is refused.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "post/fake_api.h"
#include "post/http_client.h"
#include "post/note_list.h"
#include "post/post.h"
#include "support/testing.h"

namespace cobench::testing {
namespace {

const std::string kToken = "glpat-SECRET-t0ken-123";
const std::string kReport = "### cobench: 1 regression, 0 inconclusive, 3 pass\n\n| a | b |\n|---|---|\n";

using Env = std::vector<std::pair<std::string, std::string>>;

struct PostTest : ::testing::Test {
  TempDir dir;
  FakeApi api;
  std::filesystem::path report = dir.path() / "report.md";
  void SetUp() override { write_file(report, kReport); }

  Env gitlab_env() const {
    return {{"CI_API_V4_URL", api.url() + "/api/v4"}, {"CI_PROJECT_ID", "7"}, {"CI_MERGE_REQUEST_IID", "3"},
            {"COBENCH_GITLAB_TOKEN", kToken}, {"http_proxy", ""}, {"HTTP_PROXY", ""}};  // a runner's proxy must not interfere
  }
  Env github_env(const std::string& event = R"({"pull_request": {"number": 12}})") const {
    write_file(dir.path() / "event.json", event);
    return {{"GITHUB_API_URL", api.url()}, {"GITHUB_REPOSITORY", "octo/widgets"},
            {"GITHUB_EVENT_PATH", (dir.path() / "event.json").string()}, {"GITHUB_TOKEN", kToken},
            {"http_proxy", ""}, {"HTTP_PROXY", ""}, {"GITHUB_STEP_SUMMARY", ""}};
  }
  process::Result post(const std::string& flag, const Env& env) {
    return run_cobench({"post", flag, report.string()}, dir.path(), env, 60);
  }
  void expect_token_not_printed(const process::Result& result) {
    EXPECT_EQ(result.out.find(kToken), std::string::npos) << result.out;
    EXPECT_EQ(result.err.find(kToken), std::string::npos) << result.err;
  }
};

// The pid of this test's child process running cobench (process::run started
// it from another thread and does not say), or 0.
pid_t cobench_child() {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    // "PID (COMM) STATE PPID ...": COMM may hold blanks and parentheses.
    size_t comm_end = line.rfind(')');
    if (comm_end == std::string::npos || line.find("(cobench)") == std::string::npos) continue;
    std::istringstream rest(line.substr(comm_end + 1));
    char state = 0;
    pid_t parent = 0;
    if (rest >> state >> parent && parent == ::getpid()) return static_cast<pid_t>(std::stol(line));
  }
  return 0;
}

std::vector<std::string> methods(const std::vector<Recorded>& requests) {
  std::vector<std::string> out;
  for (const auto& r : requests) out.push_back(r.method + " " + r.path + (r.params.count("page") ? "?page=" + r.params.find("page")->second : ""));
  return out;
}

TEST_F(PostTest, GitLabCreatesANoteWhenNoPageHasTheMarker) {
  api.notes = make_notes(150, 0);
  auto result = post("--gitlab", gitlab_env());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  auto requests = api.requests();
  const std::string notes = "/api/v4/projects/7/merge_requests/3/notes";
  EXPECT_EQ(methods(requests), (std::vector<std::string>{"GET " + notes + "?page=1", "GET " + notes + "?page=2", "POST " + notes}));
  for (const auto& r : requests) EXPECT_EQ(r.header("PRIVATE-TOKEN"), kToken);
  auto body = nlohmann::json::parse(requests.back().body);
  EXPECT_EQ(body["body"], std::string(post::kMarker) + "\n" + kReport);
  EXPECT_NE(result.out.find("created note 999 on merge request !3"), std::string::npos) << result.out;
  expect_token_not_printed(result);
}

TEST_F(PostTest, GitLabUpdatesTheMarkedNoteFoundOnALaterPage) {
  api.notes = make_notes(180, 140);
  auto result = post("--gitlab", gitlab_env());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 3u) << ::testing::PrintToString(methods(requests));
  EXPECT_EQ(requests[2].method, "PUT");
  EXPECT_EQ(requests[2].path, "/api/v4/projects/7/merge_requests/3/notes/140");
  EXPECT_NE(nlohmann::json::parse(requests[2].body)["body"].get<std::string>().find("1 regression"), std::string::npos);
  EXPECT_NE(result.out.find("updated note 140"), std::string::npos) << result.out;
}

TEST_F(PostTest, GitHubFollowsLinkPagesAndPatchesTheMarkedComment) {
  api.comments = make_notes(230, 205);
  Env env = github_env();
  auto summary = dir.path() / "summary.md";
  write_file(summary, "earlier step\n");
  env.back().second = summary.string();
  auto result = post("--github", env);
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  auto requests = api.requests();
  const std::string comments = "/repos/octo/widgets/issues/12/comments";
  EXPECT_EQ(methods(requests), (std::vector<std::string>{"GET " + comments, "GET " + comments + "?page=2",
                                                         "GET " + comments + "?page=3",
                                                         "PATCH /repos/octo/widgets/issues/comments/205"}));
  for (const auto& r : requests) {
    EXPECT_EQ(r.header("Authorization"), "Bearer " + kToken);
    EXPECT_EQ(r.header("Accept"), "application/vnd.github+json");
    EXPECT_FALSE(r.header("User-Agent").empty());
  }
  EXPECT_EQ(read_text(summary), "earlier step\n" + kReport + "\n");
  expect_token_not_printed(result);
}

TEST_F(PostTest, GitHubCreatesACommentOnThePullRequestFromTheEventFile) {
  api.comments = make_notes(3, 0);
  auto result = post("--github", github_env());
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[1].method + " " + requests[1].path, "POST /repos/octo/widgets/issues/12/comments");
  EXPECT_EQ(nlohmann::json::parse(requests[1].body)["body"], std::string(post::kMarker) + "\n" + kReport);
  EXPECT_NE(result.out.find("created comment 999 on pull request #12"), std::string::npos) << result.out;
}

TEST_F(PostTest, HttpErrorIsOneLineExit3WithoutTokenAndKeepsTheReport) {
  api.fail_with(401, R"({"message": "401 Unauthorized: token glpat-SECRET-t0ken-123 is revoked"})");
  for (const char* flag : {"--gitlab", "--github"}) {
    auto result = post(flag, std::string(flag) == "--gitlab" ? gitlab_env() : github_env());
    EXPECT_EQ(result.exit_code, 3) << flag << explain(result);
    EXPECT_EQ(std::count(result.err.begin(), result.err.end(), '\n'), 1) << result.err;
    EXPECT_NE(result.err.find("HTTP 401"), std::string::npos) << result.err;
    EXPECT_NE(result.err.find("127.0.0.1"), std::string::npos) << result.err;
    expect_token_not_printed(result);
    EXPECT_EQ(read_text(report), kReport);
  }
}

TEST_F(PostTest, UnreachableServerIsExit3) {
  Env env = gitlab_env();
  env[0].second = "http://127.0.0.1:1/api/v4";  // port 1: nothing listens
  auto result = post("--gitlab", env);
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  EXPECT_NE(result.err.find("GET http://127.0.0.1:1/api/v4/projects/7/merge_requests/3/notes"), std::string::npos)
      << result.err;
  expect_token_not_printed(result);
}

TEST_F(PostTest, HonoursHttpProxyAndNoProxy) {
  api.notes = make_notes(2, 0);
  Env env = gitlab_env();
  env[0].second = "http://gitlab.invalid/api/v4";  // only reachable through the proxy
  env.push_back({"http_proxy", api.url()});
  env.push_back({"HTTP_PROXY", ""});
  env.push_back({"no_proxy", "localhost,.example.org"});
  env.push_back({"NO_PROXY", ""});
  auto proxied = post("--gitlab", env);
  ASSERT_EQ(proxied.exit_code, 0) << explain(proxied);
  auto requests = api.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests[0].path, "http://gitlab.invalid:80/api/v4/projects/7/merge_requests/3/notes");  // absolute form: via the proxy

  // NO_PROXY covering the API host: a direct connection, which cannot resolve.
  env[env.size() - 2].second = "example.org,invalid";
  auto direct = post("--gitlab", env);
  EXPECT_EQ(direct.exit_code, 3) << explain(direct);
  EXPECT_EQ(api.requests().size(), requests.size());
}

TEST_F(PostTest, MissingVariablesAndBadEventsAreInputErrorsNamingThem) {
  Env env = gitlab_env();
  env[2].second = "";
  auto missing = post("--gitlab", env);
  EXPECT_EQ(missing.exit_code, 2) << explain(missing);
  EXPECT_NE(missing.err.find("CI_MERGE_REQUEST_IID is not set"), std::string::npos) << missing.err;

  auto push_event = post("--github", github_env(R"({"ref": "refs/heads/main"})"));
  EXPECT_EQ(push_event.exit_code, 2) << explain(push_event);
  EXPECT_NE(push_event.err.find("not a pull_request event"), std::string::npos) << push_event.err;

  auto no_flag = run_cobench({"post", report.string()}, dir.path(), gitlab_env(), 60);
  EXPECT_EQ(no_flag.exit_code, 2) << explain(no_flag);
  auto no_file = run_cobench({"post", "--gitlab", (dir.path() / "missing.md").string()}, dir.path(), gitlab_env(), 60);
  EXPECT_EQ(no_file.exit_code, 2) << explain(no_file);
  EXPECT_NE(no_file.err.find("missing.md"), std::string::npos) << no_file.err;
  EXPECT_TRUE(api.requests().empty());
}

TEST_F(PostTest, TheBodyCarriesNoCredentialOfThePostsEnvironment) {
  // A report that holds tokens (an older cobench's, or one edited by hand): they never reach the note.
  write_file(report, kReport + "output: COBENCH_GITLAB_TOKEN=" + kToken + " CI_JOB_TOKEN=jobtoken-77777777\n");
  Env env = gitlab_env();
  env.emplace_back("CI_JOB_TOKEN", "jobtoken-77777777");
  auto result = post("--gitlab", env);
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const std::string body = nlohmann::json::parse(api.requests().back().body)["body"];
  EXPECT_EQ(body.find(kToken), std::string::npos) << body;
  EXPECT_EQ(body.find("jobtoken-77777777"), std::string::npos) << body;
  EXPECT_NE(body.find("COBENCH_GITLAB_TOKEN=[redacted $COBENCH_GITLAB_TOKEN]"), std::string::npos) << body;

  // GitHub, and its job summary too.
  const auto summary = dir.path() / "summary.md";
  Env github = github_env();
  github.back().second = summary.string();
  write_file(report, kReport + "GITHUB_TOKEN=" + kToken + "\n");
  auto commented = post("--github", github);
  ASSERT_EQ(commented.exit_code, 0) << explain(commented);
  const std::string comment = nlohmann::json::parse(api.requests().back().body)["body"];
  EXPECT_EQ(comment.find(kToken), std::string::npos) << comment;
  EXPECT_EQ(read_text(summary).find(kToken), std::string::npos) << read_text(summary);
}

TEST_F(PostTest, ATimeoutBeyondAnyDeadlineIsRefused) {
  for (const char* timeout : {"99999999999999h", "1e300", "8800000h"}) {
    auto result = run_cobench({"post", "--gitlab", "--timeout", timeout, report.string()}, dir.path(), gitlab_env(), 60);
    EXPECT_EQ(result.exit_code, 2) << timeout << ": " << explain(result);
    EXPECT_NE(result.err.find("--timeout"), std::string::npos) << result.err;
  }
  EXPECT_TRUE(api.requests().empty());
}

TEST_F(PostTest, AServerThatNeverFinishesMeetsTheDeadline) {
  Env env = gitlab_env();
  env[0].second = api.url() + "/trickle/api/v4";  // a byte every 0.5 s: no per-read timeout ever fires
  auto result = run_cobench({"post", "--gitlab", "--timeout", "2s", report.string()}, dir.path(), env, 120);
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  EXPECT_NE(result.err.find("GET " + api.url() + "/trickle/api/v4/projects/7/merge_requests/3/notes"),
            std::string::npos) << result.err;
  EXPECT_NE(result.err.find("the deadline of 2.0 s for the whole post passed (cobench post --timeout)"),
            std::string::npos) << result.err;
  EXPECT_EQ(api.requests().size(), 1u);
  EXPECT_EQ(read_text(report), kReport);
}

TEST_F(PostTest, SigtermStopsAPostInProgressWithExit130) {
  Env env = gitlab_env();
  env[0].second = api.url() + "/trickle/api/v4";
  process::Result result;
  std::thread post_thread([&] {
    result = run_cobench({"post", "--gitlab", "--timeout", "10m", report.string()}, dir.path(), env, 120);
  });
  // Once the server holds the request, the post is in progress: cancel it the way CI does.
  pid_t child = 0;
  for (int i = 0; i < 3000 && (child == 0 || api.requests().empty()); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (child == 0) child = cobench_child();
  }
  ASSERT_NE(child, 0) << "no cobench child found";
  ASSERT_FALSE(api.requests().empty()) << "the post never reached the server";
  auto sent = std::chrono::steady_clock::now();
  ::kill(child, SIGTERM);
  post_thread.join();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  EXPECT_EQ(result.exit_code, 130) << explain(result);
  EXPECT_NE(result.err.find("interrupted"), std::string::npos) << result.err;
  EXPECT_LT(seconds, 5) << "the post took this long to stop after SIGTERM";  // within about a second when idle
  EXPECT_EQ(read_text(report), kReport);
}

TEST_F(PostTest, AnOversizedResponseIsRefusedWithoutReadingTheRest) {
  for (const char* prefix : {"/huge", "/huge-declared"}) {  // without and with a Content-Length
    Env env = gitlab_env();
    env[0].second = api.url() + prefix + "/api/v4";
    auto result = post("--gitlab", env);
    EXPECT_EQ(result.exit_code, 3) << prefix << explain(result);
    EXPECT_NE(result.err.find("the response is larger than 4194304 bytes; not reading the rest"), std::string::npos)
        << prefix << result.err;
  }
}

TEST_F(PostTest, CredentialsInTheApiUrlAreSentButNeverPrinted) {
  const std::string password = "pAss-w0rd-9x7";
  api.notes = make_notes(2, 0);
  Env env = gitlab_env();
  env[0].second = "http://ci-bot:" + password + "@127.0.0.1:" + api.url().substr(api.url().rfind(':') + 1) + "/api/v4";
  auto ok = post("--gitlab", env);
  ASSERT_EQ(ok.exit_code, 0) << explain(ok);
  auto requests = api.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests[0].header("Authorization"), "Basic Y2ktYm90OnBBc3MtdzByZC05eDc=");  // ci-bot:pAss-w0rd-9x7
  EXPECT_EQ(requests[0].header("PRIVATE-TOKEN"), kToken);

  auto expect_hidden = [&](const process::Result& result) {
    for (const std::string& secret : {password, std::string("ci-bot:"), kToken}) {
      EXPECT_EQ(result.out.find(secret), std::string::npos) << result.out;
      EXPECT_EQ(result.err.find(secret), std::string::npos) << result.err;
    }
  };
  expect_hidden(ok);
  // An error echoing the URL, an unreachable host, a URL without its scheme.
  api.fail_with(400, R"({"message": "bad request for http://ci-bot:pAss-w0rd-9x7@127.0.0.1/api/v4"})");
  auto echoed = post("--gitlab", env);
  EXPECT_EQ(echoed.exit_code, 3) << explain(echoed);
  EXPECT_NE(echoed.err.find("HTTP 400: bad request for http://[token]@127.0.0.1"), std::string::npos)
      << echoed.err;
  expect_hidden(echoed);
  env[0].second = "http://ci-bot:" + password + "@127.0.0.1:1/api/v4";
  auto unreachable = post("--gitlab", env);
  EXPECT_EQ(unreachable.exit_code, 3) << explain(unreachable);
  EXPECT_NE(unreachable.err.find("GET http://127.0.0.1:1/api/v4/"), std::string::npos) << unreachable.err;
  expect_hidden(unreachable);
  env[0].second = "ci-bot:" + password + "@127.0.0.1/api/v4";
  auto no_scheme = post("--gitlab", env);
  EXPECT_EQ(no_scheme.exit_code, 2) << explain(no_scheme);
  EXPECT_NE(no_scheme.err.find("'[credentials]@127.0.0.1/api/v4'"), std::string::npos) << no_scheme.err;
  expect_hidden(no_scheme);
}

TEST(HttpClient, UrlsAreShownWithoutCredentials) {
  EXPECT_EQ(post::without_credentials("https://u:t@h.example/api/v4?x=a@b"), "https://[credentials]@h.example/api/v4?x=a@b");
  EXPECT_EQ(post::without_credentials("https://TOKEN@api.github.com"), "https://[credentials]@api.github.com");
  EXPECT_EQ(post::without_credentials("u:t@host/path"), "[credentials]@host/path");
  EXPECT_EQ(post::without_credentials("https://gitlab.example/api/v4/users/@me"), "https://gitlab.example/api/v4/users/@me");
}

TEST(NoteList, NextLinkIsFoundWithoutARegex) {
  EXPECT_EQ(post::next_link(R"(<https://api/x?page=2>; rel="next", <https://api/x?page=9>; rel="last")"), "https://api/x?page=2");
  EXPECT_EQ(post::next_link(R"(<https://api/x?page=1>; rel="first",<https://api/x?page=3> ;rel=next)"), "https://api/x?page=3");
  EXPECT_EQ(post::next_link(R"(<https://api/x?page=9>; rel="last")"), "");
  EXPECT_EQ(post::next_link(R"(<>; rel="next")"), "");
  EXPECT_EQ(post::next_link("<https://api/x"), "");
  // std::regex overflowed the stack on a 60,000-character header (fuzz_api_responses, crafted input).
  EXPECT_EQ(post::next_link("<" + std::string(60'000, 'a') + ">; rel=\"next\""), std::string(60'000, 'a'));
}

TEST(NoteList, XNextPageMustNameALaterWholePage) {
  EXPECT_EQ(post::next_page("2", 1), 2);
  EXPECT_EQ(post::next_page("", 1), std::nullopt);  // the last page
  EXPECT_EQ(post::next_page("1", 1), std::nullopt);
  // Each was converted to int by a plain cast, undefined behaviour (UBSan, crafted input).
  for (const char* bad : {"1e300", "nan", "inf", "2.5", "-3"}) EXPECT_EQ(post::next_page(bad, 1), std::nullopt) << bad;
}

TEST(NoteList, AnswersNestedTooDeepAreRefused) {
  // An id or a message 100,000 arrays deep overflowed the stack when dumped (fuzz_api_responses, crafted input).
  const std::string deep = std::string(100'000, '[') + std::string(100'000, ']');
  post::HttpResponse page;
  page.body = R"([{"body": "<!-- cobench-report -->", "id": )" + deep + "}]";
  try {
    post::marked_id(page, "GitLab notes list");
    FAIL() << "expected InfraError";
  } catch (const InfraError& e) {
    EXPECT_EQ(std::string(e.what()), "GitLab notes list: arrays and objects nested deeper than 64 levels");
  }
  EXPECT_EQ(post::api_message(R"({"message": )" + deep + "}").size(), 12 + deep.size() + 1);  // the body as it came
  EXPECT_EQ(post::api_message(R"({"message": {"note": ["is too long"]}})"), R"({"note":["is too long"]})");
}

TEST(NoteList, AnItemWhoseBodyIsNotTextCarriesNoMarker) {
  post::HttpResponse page;
  page.body = R"([{"id": 1, "body": null}, {"id": 2, "body": 5}, {"id": 3, "body": "<!-- cobench-report -->"}])";
  EXPECT_EQ(post::marked_id(page, "notes list"), "3");
  page.body = R"([{"id": 1, "body": null}])";
  EXPECT_EQ(post::marked_id(page, "notes list"), "");
}

TEST(NoteBody, AddsTheMarkerOnceAndCutsLongReportsKeepingDetailsClosed) {
  EXPECT_EQ(post::note_body("x\n", 1000), std::string(post::kMarker) + "\nx\n");
  std::string marked = std::string(post::kMarker) + "\nx\n";
  EXPECT_EQ(post::note_body(marked, 1000), marked);
  std::string long_report = "<details><summary>rows</summary>\n\n";
  for (int i = 0; i < 5000; ++i) long_report += "| row " + std::to_string(i) + " | 1.00× |\n";
  std::string body = post::note_body(long_report, 65'536);
  EXPECT_LE(body.size(), 65'536u);
  EXPECT_NE(body.find("</details>"), std::string::npos);
  EXPECT_NE(body.find("full report.md is in the job artifacts"), std::string::npos);
  EXPECT_EQ(body.find("| row 4999 |"), std::string::npos);
}

}  // namespace
}  // namespace cobench::testing
