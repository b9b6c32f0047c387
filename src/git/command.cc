#include "git/command.h"

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::git::detail {

std::vector<std::string> git_argv(const std::filesystem::path& repo, const std::vector<std::string>& args) {
  // -C instead of cwd so the message shows where it ran; quotepath off keeps
  // non-ASCII paths readable in messages (parsing uses -z anyway).
  std::vector<std::string> argv = {"git", "-C", repo.string(), "-c", "core.quotepath=false"};
  argv.insert(argv.end(), args.begin(), args.end());
  return argv;
}

process::Result run_git(const std::filesystem::path& repo, const std::vector<std::string>& args, bool cleanup) {
  process::Command command;
  command.argv = git_argv(repo, args);
  // Messages are matched in a few places ("not a git repository"); keep them untranslated.
  command.env_overrides = {{"LC_ALL", "C"}, {"GIT_TERMINAL_PROMPT", "0"}};
  command.stop_on_cancellation = !cleanup;
  command.keep_output_bytes = 0;  // the output is data (diffs, lists of paths): never cut
  auto result = process::run(command);
  if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
  return result;
}

std::string trim_right(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r' || text.back() == ' ')) text.pop_back();
  return text;
}

std::string last_line(const std::string& text) {
  std::string trimmed = trim_right(text);
  auto pos = trimmed.rfind('\n');
  return pos == std::string::npos ? trimmed : trimmed.substr(pos + 1);
}

std::string failure_message(const std::filesystem::path& repo, const std::vector<std::string>& args,
                            const process::Result& result) {
  std::string detail = result.outcome == process::Result::Outcome::SpawnFailed ? result.spawn_error
                                                                                : last_line(result.err);
  return fmt::format("`{}` failed ({}){}{}", process::quote_command_line(git_argv(repo, args)),
                     process::describe(result), detail.empty() ? "" : ": ", detail);
}

std::string git_output(const std::filesystem::path& repo, const std::vector<std::string>& args) {
  auto result = run_git(repo, args);
  if (!result.ok()) throw InfraError(failure_message(repo, args, result));
  return result.out;
}

}  // namespace cobench::git::detail
