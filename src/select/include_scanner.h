#pragma once
// The #include directives of one source file, found textually: every
// directive counts regardless of preprocessor conditionals, so an include
// closure built from them is a safe superset of what any configuration compiles.
#include <string>
#include <string_view>
#include <vector>

namespace cobench::select {

/// One #include (or #include_next / #import) directive.
struct IncludeDirective {
  std::string spelling;  ///< between the delimiters; for a macro include, the tokens as written
  bool angled = false;   ///< <...> rather than "..."
  bool macro = false;    ///< `#include SOME_MACRO`: cannot be resolved textually
  int line = 0;          ///< 1-based
};

/// Directives of a file's text, ignoring comments and string literals.
std::vector<IncludeDirective> scan_includes(std::string_view text);

}  // namespace cobench::select
