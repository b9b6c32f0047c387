#pragma once
// What every fuzz target shares: the input as text, and the one kind of
// exception a parser may answer bad input with. Anything else that escapes
// (another exception, a crash, a sanitizer report) is a finding.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/errors.h"

namespace cobench::fuzz {

/// libFuzzer's bytes as text (not NUL-terminated; may hold NULs and invalid UTF-8).
inline std::string_view text_of(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs `parse`, accepting the documented refusal: InputError for what a user
/// hands cobench, or InfraError for what a tool or service it talks to answered
/// (git's output, the CI APIs' responses: exit 3, not 2, as the README promises).
template <class Refusal = InputError, class Parse>
void refusing_with(Parse&& parse) {
  try {
    parse();
  } catch (const Refusal&) {
  }
}

}  // namespace cobench::fuzz
