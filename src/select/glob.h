#pragma once
// Path globs for [select] ignore / always_all, with gitignore-like meaning.
#include <string>
#include <string_view>
#include <vector>

namespace cobench::select {

/// Matches a repo-relative path ("a/b/c.h") against a glob: `*` and `?` stay
/// within one path component, `[...]` is a character class, `**` spans
/// folders ("docs/**", "**/*.md"). A pattern without '/' matches the file's
/// name at any depth (".gitlab-ci.yml", "LICENSE*"), as in .gitignore.
bool glob_match(std::string_view pattern, std::string_view path);

/// The first pattern matching `path`, or nullptr.
const std::string* first_match(const std::vector<std::string>& patterns, std::string_view path);

}  // namespace cobench::select
