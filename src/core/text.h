#pragma once
// Text from outside cobench (benchmark names, process output, arguments) as
// bytes: any byte may come, and every place that shows or stores it needs the
// same two answers: where its valid UTF-8 ends, and how to keep it short.
#include <cstddef>
#include <string>
#include <string_view>

namespace cobench {

/// Length of the valid UTF-8 sequence starting at text[i], 0 when the byte
/// there starts none (a stray continuation byte, an overlong form, a
/// surrogate, a code point past U+10FFFF, a sequence cut short).
size_t utf8_sequence_length(std::string_view text, size_t i);

/// Whether all of `text` is valid UTF-8.
bool is_valid_utf8(std::string_view text);

/// Whether text[i] starts a byte escape as escape_invalid_utf8() writes it:
/// "\x" and two upper-case hex digits naming 0x5C ('\\') or a byte of 0x80 or
/// more (the bytes that are never valid UTF-8 on their own).
bool starts_byte_escape(std::string_view text, size_t i);

/// `text` with every byte that is not part of valid UTF-8 written as "\xE9"
/// (upper-case hex): valid UTF-8 that still shows which bytes were there. A
/// backslash of the text that starts what reads as such an escape (a name
/// "BM_caf\xE9" spelled with a backslash) is written "\x5C", so that two texts
/// never come out the same: unescape_invalid_utf8() gives the bytes back.
/// Other text, valid UTF-8 and other backslashes, comes back unchanged.
std::string escape_invalid_utf8(std::string_view text);

/// The bytes escape_invalid_utf8() was given: every byte escape
/// (starts_byte_escape()) replaced by its byte. Text written before the
/// backslash was escaped reads the same, but for a name that held "\xE9"
/// spelled out, which comes back as the byte (it could not be told apart).
std::string unescape_invalid_utf8(std::string_view text);

/// At most `max_bytes` of `text` (plus the marker), cut at a UTF-8 character
/// boundary, "…" marking the cut; unchanged when it fits.
std::string shorten(std::string_view text, size_t max_bytes);

/// How a log kept to its first and last bytes marks the middle it dropped
/// (process::BoundedOutput): "\n[cobench: 1,024 bytes cut here]\n". What
/// reads logs back (the credential scrubber) finds the cut by these.
inline constexpr std::string_view kLogCutOpen = "\n[cobench: ";
inline constexpr std::string_view kLogCutClose = " cut here]\n";

/// Like shorten(), and the cut says how much went: "abc… (2097152 bytes)".
/// For arguments and output that may be megabytes long in a one-line message.
std::string shorten_saying_size(std::string_view text, size_t max_bytes);

}  // namespace cobench
