#pragma once
// Path globs for [select] ignore / always_all, with gitignore-like meaning.
// Matched by select, checked when the settings are read.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cobench {

/// Matches a repo-relative path ("a/b/c.h") against a glob: `*` and `?` stay
/// within one path component, `[...]` is a character class, `**` spans
/// folders ("docs/**", "**/*.md"). A pattern without '/' matches the file's
/// name at any depth (".gitlab-ci.yml", "LICENSE*"), as in .gitignore.
bool glob_match(std::string_view pattern, std::string_view path);

/// Why `pattern` is not a usable glob ("unterminated [ character class",
/// "empty pattern", "*** is not a glob: use ** for any depth"); nullopt when it is.
std::optional<std::string> glob_problem(std::string_view pattern);

/// The first pattern matching `path`, or nullptr.
const std::string* first_match(const std::vector<std::string>& patterns, std::string_view path);

}  // namespace cobench
