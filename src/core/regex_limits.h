#pragma once
// What libstdc++'s std::regex compiler cannot take safely, whatever the
// grammar: every regex from outside cobench (target and budget patterns,
// benchmark filters) is checked against these before it is compiled.
#include <cstddef>
#include <string_view>

namespace cobench {

/// Longer patterns are refused before compiling: libstdc++'s regex compiler
/// recurses once per term and per nesting level and overflows the stack on
/// long ones (60,000 characters). No benchmark-name pattern comes near this.
inline constexpr size_t kMaxRegexLength = 1000;

/// libstdc++ reads the number of a back-reference (\12) or a repeat count
/// ({2,5}) into a long without checking for overflow (undefined behaviour past
/// 18 digits); no pattern needs one longer than this.
inline constexpr size_t kMaxRegexNumberDigits = 9;

/// Whether `pattern` has a back-reference or repeat count of more than
/// kMaxRegexNumberDigits digits; digits elsewhere are literals ("/1073741824").
bool has_oversized_number(std::string_view pattern);

}  // namespace cobench
