#pragma once
// JSON as benchmark tools write it: Google Benchmark prints bare NaN and
// Infinity for undefined counters, which strict JSON parsers reject.
#include <functional>
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
/// on nesting deeper than kMaxJsonDepth. Strings may hold any bytes, as
/// Google Benchmark writes names (it escapes only quotes, backslashes and
/// \b\f\n\r\t): bytes that are not UTF-8 and raw control characters come
/// back as the same bytes in the parsed strings.
nlohmann::json parse_lenient_json(std::string_view text, const std::string& source);

/// `value` with `change` applied to every string in it, object keys included.
nlohmann::json map_strings(const nlohmann::json& value, const std::function<std::string(const std::string&)>& change);

/// JSON text of `value` whose strings may hold any bytes: bytes that are not
/// UTF-8 are written as the text "\xE9" (nlohmann's dump() throws on them),
/// as escape_invalid_utf8() writes them.
std::string dump_json(const nlohmann::json& value, int indent = -1);

/// `value` parsed from what dump_json() wrote, with the bytes of its strings
/// (object keys included) as they were: every reader of a file cobench wrote
/// goes through this, so that a name is the same name when read back.
nlohmann::json restore_dumped_bytes(const nlohmann::json& value);

/// A number field read back from parse_lenient_json (NaN and infinities
/// included); nullopt when the value is not a number.
std::optional<double> json_number(const nlohmann::json& value);

}  // namespace cobench::formats
