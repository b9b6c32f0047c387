#pragma once
// C/C++ source text with comments and literal contents blanked, so scanners
// for includes and benchmark registrations see only code.
#include <string>
#include <string_view>

namespace cobench::select {

/// A copy of `text` of the same length and line structure in which comments,
/// string/char/raw-string literal contents are spaces (quotes kept). The
/// header-name of an `#include "..."` directive is kept verbatim.
std::string blank_comments_and_literals(std::string_view text);

}  // namespace cobench::select
