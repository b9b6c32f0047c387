// The CI systems' own variables, so the templates need no extra settings.
#include <cstdlib>
#include <regex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "post/post.h"

namespace cobench::post {
namespace {

std::string required(const Getenv& env, const std::string& name, const char* why) {
  auto value = env(name);
  if (!value) throw InputError(fmt::format("{} is not set: {}", name, why));
  return *value;
}

}  // namespace

Getenv process_environment() {
  return [](const std::string& name) -> std::optional<std::string> {
    const char* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

GitLabTarget gitlab_from_environment(const Getenv& env) {
  const char* pipeline = "`cobench post --gitlab` runs in a GitLab merge request pipeline";
  GitLabTarget target;
  target.api_url = required(env, "CI_API_V4_URL", pipeline);
  target.project_id = required(env, "CI_PROJECT_ID", pipeline);
  target.merge_request_iid = required(env, "CI_MERGE_REQUEST_IID", pipeline);
  target.token = required(env, "COBENCH_GITLAB_TOKEN", "set it to a project access token with the api scope "
                                                       "(a masked CI/CD variable)");
  return target;
}

GitHubTarget github_from_environment(const Getenv& env) {
  const char* workflow = "`cobench post --github` runs in a GitHub Actions pull_request workflow";
  GitHubTarget target;
  target.api_url = env("GITHUB_API_URL").value_or("https://api.github.com");
  target.repository = required(env, "GITHUB_REPOSITORY", workflow);
  static const std::regex owner_name(R"([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)");
  if (!std::regex_match(target.repository, owner_name))
    throw InputError(fmt::format("GITHUB_REPOSITORY: expected owner/name, got '{}'", target.repository));
  std::string event_path = required(env, "GITHUB_EVENT_PATH", workflow);
  target.token = required(env, "GITHUB_TOKEN", "pass `env: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}` to the step");
  auto event = nlohmann::json::parse(read_file(event_path), nullptr, false);
  if (event.is_discarded()) throw InputError(fmt::format("{}: GITHUB_EVENT_PATH is not valid JSON", event_path));
  auto number = event.is_object() && event.contains("pull_request") && event["pull_request"].is_object()
                    ? event["pull_request"].value("number", nlohmann::json())
                    : nlohmann::json();
  if (!number.is_number_integer() || number.get<long>() <= 0)
    throw InputError(fmt::format("{}: no pull_request.number: not a pull_request event", event_path));
  target.pull_request = number.get<long>();
  return target;
}

}  // namespace cobench::post
