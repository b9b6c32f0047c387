#pragma once
// Internal to src/git: running one git command with the error conventions of
// git.h, so every function reports failures the same way.
#include <filesystem>
#include <string>
#include <vector>

#include "process/process.h"

namespace cobench::git::detail {

/// Runs `git -C repo args...` and returns how it ended; throws Interrupted on
/// Ctrl-C unless `cleanup` (cleanup must finish even while unwinding from one).
process::Result run_git(const std::filesystem::path& repo, const std::vector<std::string>& args,
                        bool cleanup = false);

/// The argv that run_git executes, for messages.
std::vector<std::string> git_argv(const std::filesystem::path& repo, const std::vector<std::string>& args);

/// One-line message: "`git -C R args` failed (exit status 128): <stderr's last line>".
std::string failure_message(const std::filesystem::path& repo, const std::vector<std::string>& args,
                            const process::Result& result);

/// Runs git and returns its stdout; throws InfraError with failure_message when it fails.
std::string git_output(const std::filesystem::path& repo, const std::vector<std::string>& args);

/// The last non-empty line of text, trimmed (git's "fatal: ..." line).
std::string last_line(const std::string& text);

/// Text without trailing newlines and spaces.
std::string trim_right(std::string text);

}  // namespace cobench::git::detail
