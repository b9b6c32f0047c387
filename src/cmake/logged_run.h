#pragma once
// Internal to src/build: running cmake with its output kept in the build log
// and in memory, so a failure can quote its own tail.
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "process/process.h"

namespace cobench::cmake::detail {

/// Runs argv (stderr merged into stdout, captured) in `cwd` (empty: cobench's)
/// with `env` ("KEY=VALUE"; nullopt: cobench's) and `env_overrides` set on top,
/// appends "$ command" and the output to log_path (when not empty); throws
/// Interrupted on Ctrl-C.
process::Result run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log_path,
                           const std::filesystem::path& cwd = {},
                           const std::optional<std::vector<std::string>>& env = std::nullopt,
                           const std::vector<std::pair<std::string, std::string>>& env_overrides = {});

/// The last max_lines lines of text, each indented by two spaces, for the
/// lines that follow an error's one-line headline.
std::string indented_tail(const std::string& text, size_t max_lines);

}  // namespace cobench::cmake::detail
