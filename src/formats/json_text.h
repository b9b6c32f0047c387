#pragma once
// JSON as benchmark tools write it: Google Benchmark prints bare NaN and
// Infinity for undefined counters, which strict JSON parsers reject.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace cobench::formats {

/// Deepest nesting of arrays and objects accepted in JSON from outside cobench.
/// What it reads nests a few levels; nlohmann's dump() recurses once per level
/// and overflowed the stack on a hostile file 100,000 levels deep.
inline constexpr int kMaxJsonDepth = 64;

/// A callback for nlohmann::json::parse that throws InputError("WHAT: arrays
/// and objects nested deeper than 64 levels") rather than build such a value.
nlohmann::json::parser_callback_t depth_limit(const std::string& what);

/// Parses `text`, accepting bare NaN/Infinity; throws
/// InputError("SOURCE: line L, column C: message") on malformed input, and
/// on nesting deeper than kMaxJsonDepth.
nlohmann::json parse_lenient_json(std::string_view text, const std::string& source);

/// A number field read back from parse_lenient_json (NaN and infinities
/// included); nullopt when the value is not a number.
std::optional<double> json_number(const nlohmann::json& value);

}  // namespace cobench::formats
