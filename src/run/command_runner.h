#pragma once
// Plain commands as benchmarks (`cobench run --command 'ARGV...'`): each
// command is one benchmark, timed as a whole process (wall, user+sys, max
// RSS) in each worktree; `--prepare` commands run once per worktree first.
#include <filesystem>
#include <string>
#include <vector>

#include "run/runner.h"

namespace cobench::run {

/// Splits a command line like a POSIX shell would split words (single and
/// double quotes, backslash escapes) without expanding anything; a text
/// starting with '[' is read as a JSON array of strings. `what` names the
/// flag in errors. Throws InputError on unbalanced quotes or an empty command.
std::vector<std::string> split_command_line(const std::string& text, const std::string& what);

/// One benchmark command: its label (the text as given) and argv.
struct CommandSpec {
  std::string label;
  std::vector<std::string> argv;
};

/// Parses every --command / --prepare value (see split_command_line).
std::vector<CommandSpec> parse_commands(const std::vector<std::string>& texts, const std::string& flag);

/// The Runner for --command: one unit "commands" per side that runs every command once.
class CommandRunner : public Runner {
 public:
  /// `settings.bench_args` is unused; commands and prepare steps as parsed.
  CommandRunner(ProcessSettings settings, std::vector<CommandSpec> commands, std::vector<CommandSpec> prepare);
  /// Runs the prepare commands in the side's worktree (InfraError on failure).
  std::vector<Unit> prepare(const SideContext& side) override;
  /// Runs each command once, pinned; a failing command is that benchmark's error.
  RunRecord run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                    const RunScope& scope) override;
  std::vector<std::string> list(const Unit& unit) override;

 private:
  ProcessSettings settings_;
  std::vector<CommandSpec> commands_;
  std::vector<CommandSpec> prepare_;
};

}  // namespace cobench::run
