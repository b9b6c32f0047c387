#pragma once
// Parsers for the small value syntaxes shared by flags and cobench.toml.
#include <optional>
#include <string>
#include <string_view>

namespace cobench {

/// "5%" -> 0.05, "0.05" -> 0.05. Returns nullopt when malformed or negative.
std::optional<double> parse_fraction(std::string_view text);

/// The longest duration any setting takes: a year. Longer ones
/// ("99999999999999h") overflow the clocks they are added to.
inline constexpr double kMaxDurationSeconds = 366.0 * 24 * 3600;

/// "300", "300s", "20m", "1h30m", "1.5s", "250ms" -> seconds. nullopt when
/// malformed or longer than kMaxDurationSeconds.
std::optional<double> parse_duration_seconds(std::string_view text);

/// Strict full-string number parse (no trailing junk).
std::optional<double> parse_number(std::string_view text);

/// "1.5 s", "20 min": a duration for people.
std::string format_duration(double seconds);

}  // namespace cobench
