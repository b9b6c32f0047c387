#include "core/text.h"

#include <gtest/gtest.h>

namespace cobench {
namespace {

TEST(Text, InvalidUtf8BytesAreWrittenAsHexEscapesAndValidTextStays) {
  EXPECT_EQ(escape_invalid_utf8("BM_\xE9t\xE9"), "BM_\\xE9t\\xE9");
  EXPECT_EQ(escape_invalid_utf8("caf\xC3\xA9 \xE2\x80\xAE"), "caf\xC3\xA9 \xE2\x80\xAE");
  EXPECT_EQ(escape_invalid_utf8("\xC0\xAF"), "\\xC0\\xAF");  // an overlong '/'
  EXPECT_EQ(escape_invalid_utf8("\xED\xA0\x80"), "\\xED\\xA0\\x80");  // a surrogate
  EXPECT_EQ(escape_invalid_utf8("\xF0\x9F\x98"), "\\xF0\\x9F\\x98");  // cut short
  EXPECT_TRUE(is_valid_utf8(escape_invalid_utf8("\xFF\xFE\x80")));
  EXPECT_FALSE(is_valid_utf8("\xFF"));
}

TEST(Text, ABackslashThatReadsAsAByteEscapeIsEscapedSoNoTwoNamesComeOutTheSame) {
  // "BM_caf\xE9" spelled with a backslash, and with the byte 0xE9: two benchmarks, two texts.
  EXPECT_EQ(escape_invalid_utf8("BM_caf\\xE9"), "BM_caf\\x5CxE9");
  EXPECT_EQ(escape_invalid_utf8("BM_caf\xE9"), "BM_caf\\xE9");
  EXPECT_EQ(escape_invalid_utf8("BM_caf\\x5C"), "BM_caf\\x5Cx5C");
  // Backslashes that read as no escape stay: a regex, a lower-case or ASCII hex escape, a path.
  for (const char* plain : {"BM_a\\.b", "\\xe9", "\\x41", "C:\\x", "a\\", "\\d+"})
    EXPECT_EQ(escape_invalid_utf8(plain), plain) << plain;
}

TEST(Text, UnescapingGivesTheEscapedBytesBack) {
  for (const std::string bytes : {"BM_caf\\xE9", "BM_caf\xE9", "\\\xE9", "\\x\xE9", "\\x8\xE9", "\\x5C\\x5C",
                                  "BM_a\\.b", "\xFF\\xFF\xFE", "caf\xC3\xA9", "x\\", "\\"})
    EXPECT_EQ(unescape_invalid_utf8(escape_invalid_utf8(bytes)), bytes) << escape_invalid_utf8(bytes);
  // What an older cobench wrote for the byte reads as the byte.
  EXPECT_EQ(unescape_invalid_utf8("BM_caf\\xE9"), "BM_caf\xE9");
  EXPECT_EQ(unescape_invalid_utf8("BM_a\\.b \\x41"), "BM_a\\.b \\x41");
}

TEST(Text, ShortenCutsAtACharacterBoundaryAndSaysHowLongItWas) {
  EXPECT_EQ(shorten("abcdef", 10), "abcdef");
  EXPECT_EQ(shorten("abcdef", 3), "abc…");
  EXPECT_EQ(shorten("a\xC3\xA9z", 2), "a…");
  const std::string huge(2 << 20, 'x');
  EXPECT_EQ(shorten_saying_size(huge, 4), "xxxx… (2097152 bytes)");
}

}  // namespace
}  // namespace cobench
