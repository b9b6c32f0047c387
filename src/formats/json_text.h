#pragma once
// JSON as benchmark tools write it: Google Benchmark prints bare NaN and
// Infinity for undefined counters, which strict JSON parsers reject.
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace cobench::formats {

/// Parses `text`, accepting bare NaN/Infinity; throws
/// InputError("SOURCE: line L, column C: message") on malformed input.
nlohmann::json parse_lenient_json(std::string_view text, const std::string& source);

/// A number field read back from parse_lenient_json (NaN and infinities
/// included); nullopt when the value is not a number.
std::optional<double> json_number(const nlohmann::json& value);

}  // namespace cobench::formats
