// Revisions: the repository root, SHAs, merge bases and the default base.
#include <fmt/format.h>

#include "core/errors.h"
#include "git/command.h"
#include "git/git.h"

namespace cobench::git {

using detail::run_git;

namespace {

bool is_not_a_repository(const process::Result& result) {
  return result.err.find("not a git repository") != std::string::npos ||
         result.err.find("cannot change to") != std::string::npos;
}

/// The SHA of rev, or nullopt when git says it does not name a commit.
std::optional<std::string> try_resolve(const std::filesystem::path& repo, const std::string& rev) {
  if (rev.empty()) return std::nullopt;
  std::vector<std::string> args = {"rev-parse", "--verify", "--quiet", "--end-of-options", rev + "^{commit}"};
  auto result = run_git(repo, args);
  if (result.ok()) return detail::trim_right(result.out);
  if (is_not_a_repository(result))
    throw InputError(fmt::format("git: '{}' is not a git repository: {}", repo.string(),
                                 detail::last_line(result.err)));
  // --verify --quiet exits 1 without a word for "no such commit"; 128 for a revision it cannot read at all
  // (a reflog entry past the log's end, "HEAD@{5}"; an upstream that is not configured): both are the
  // user's input. Anything else is git failing.
  if (result.outcome == process::Result::Outcome::Exited && result.exit_code == 1) return std::nullopt;
  if (result.outcome == process::Result::Outcome::Exited && result.exit_code == 128) {
    const std::string why = detail::last_line(result.err);
    throw InputError(fmt::format("git: unknown revision '{}' (in {}){}{}", rev, repo.string(), why.empty() ? "" : ": ",
                                 why));
  }
  throw InfraError(detail::failure_message(repo, args, result));
}

bool is_shallow(const std::filesystem::path& repo) {
  auto result = run_git(repo, {"rev-parse", "--is-shallow-repository"});
  return result.ok() && detail::trim_right(result.out) == "true";
}

}  // namespace

std::filesystem::path toplevel(const std::filesystem::path& dir) {
  std::vector<std::string> args = {"rev-parse", "--show-toplevel"};
  auto result = run_git(dir, args);
  if (result.outcome == process::Result::Outcome::SpawnFailed)
    throw InfraError(detail::failure_message(dir, args, result));
  std::string top = detail::trim_right(result.out);
  if (!result.ok() || top.empty())
    throw InputError(fmt::format("git: '{}' is not inside a git work tree{}{}", dir.string(),
                                 result.err.empty() ? "" : ": ", detail::last_line(result.err)));
  return std::filesystem::path(top);
}

std::string resolve(const std::filesystem::path& repo, const std::string& rev) {
  if (auto sha = try_resolve(repo, rev)) return *sha;
  throw InputError(fmt::format("git: unknown revision '{}' (in {})", rev, repo.string()));
}

std::string merge_base(const std::filesystem::path& repo, const std::string& a, const std::string& b) {
  std::string sha_a = resolve(repo, a), sha_b = resolve(repo, b);
  std::vector<std::string> args = {"merge-base", sha_a, sha_b};
  auto result = run_git(repo, args);
  if (result.ok()) return detail::trim_right(result.out);
  // merge-base exits 1 silently when the histories are unrelated (or a shallow clone cut them).
  if (result.outcome == process::Result::Outcome::Exited && result.exit_code == 1)
    throw InputError(fmt::format("git: no merge base between '{}' and '{}' in {}{}", a, b, repo.string(),
                                 is_shallow(repo) ? ": a shallow clone; fetch more history (GitLab GIT_DEPTH: 0, "
                                                    "GitHub actions/checkout fetch-depth: 0)"
                                                  : ": unrelated histories"));
  throw InfraError(detail::failure_message(repo, args, result));
}

std::string default_base(const std::filesystem::path& repo, const std::map<std::string, std::string>& env) {
  auto var = [&](const char* name) -> std::string {
    auto it = env.find(name);
    return it == env.end() ? std::string() : it->second;
  };
  // A CI system that names the base means that base: when it is missing here (a shallow clone,
  // an unfetched target branch), guessing origin/HEAD would compare against the wrong commit.
  const char* how_to_fetch = "fetch more history: GitLab GIT_DEPTH: 0, GitHub actions/checkout fetch-depth: 0";
  if (auto sha = var("CI_MERGE_REQUEST_DIFF_BASE_SHA"); !sha.empty()) {
    if (try_resolve(repo, sha)) return sha;
    throw InputError(fmt::format("git: CI_MERGE_REQUEST_DIFF_BASE_SHA {} is not in {}{}; {}", sha, repo.string(),
                                 is_shallow(repo) ? " (a shallow clone)" : "", how_to_fetch));
  }
  if (auto ref = var("GITHUB_BASE_REF"); !ref.empty()) {
    if (try_resolve(repo, "origin/" + ref)) return "origin/" + ref;
    throw InputError(fmt::format("git: GITHUB_BASE_REF names origin/{}, which is not in {}{}; {}", ref,
                                 repo.string(), is_shallow(repo) ? " (a shallow clone)" : "", how_to_fetch));
  }
  std::vector<std::string> candidates;
  for (const char* fallback : {"origin/HEAD", "main", "master"}) candidates.emplace_back(fallback);
  for (const auto& candidate : candidates)
    if (try_resolve(repo, candidate)) return candidate;
  throw InputError(fmt::format("git: no base revision found in {} (tried {}); pass --base REV",
                               repo.string(), fmt::join(candidates, ", ")));
}

}  // namespace cobench::git
