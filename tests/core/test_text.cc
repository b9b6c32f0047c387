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

TEST(Text, ShortenCutsAtACharacterBoundaryAndSaysHowLongItWas) {
  EXPECT_EQ(shorten("abcdef", 10), "abcdef");
  EXPECT_EQ(shorten("abcdef", 3), "abc…");
  EXPECT_EQ(shorten("a\xC3\xA9z", 2), "a…");
  const std::string huge(2 << 20, 'x');
  EXPECT_EQ(shorten_saying_size(huge, 4), "xxxx… (2097152 bytes)");
}

}  // namespace
}  // namespace cobench
