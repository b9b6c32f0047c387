#include "select/include_scanner.h"

#include <gtest/gtest.h>

#include "select/source_text.h"

namespace cobench::select {
namespace {

std::vector<std::string> spellings(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& d : scan_includes(text)) out.push_back((d.macro ? "M:" : d.angled ? "<" : "\"") + d.spelling);
  return out;
}

TEST(IncludeScanner, QuotedAngledAndSpacing) {
  auto found = scan_includes("#include \"a.h\"\n  #  include <Eigen/Core>\n#include_next <x.h>\nint x;\n");
  ASSERT_EQ(found.size(), 3u);
  EXPECT_EQ(found[0].spelling, "a.h");
  EXPECT_FALSE(found[0].angled);
  EXPECT_EQ(found[0].line, 1);
  EXPECT_EQ(found[1].spelling, "Eigen/Core");
  EXPECT_TRUE(found[1].angled);
  EXPECT_EQ(found[1].line, 2);
  EXPECT_EQ(found[2].spelling, "x.h");
  EXPECT_EQ(found[2].line, 3);
}

TEST(IncludeScanner, CommentsDoNotInclude) {
  std::string text =
      "// #include \"line_comment.h\"\n"
      "/* #include \"block.h\"\n"
      "   #include \"block2.h\" */\n"
      "// continued comment \\\n"
      "#include \"continued.h\"\n"
      "/* c */ #include \"after_comment.h\"\n"
      "#include \"real.h\" // #include \"trailing.h\"\n";
  EXPECT_EQ(spellings(text), (std::vector<std::string>{"\"after_comment.h", "\"real.h"}));
  EXPECT_EQ(scan_includes(text)[1].line, 7);
}

TEST(IncludeScanner, StringLiteralsDoNotInclude) {
  std::string text =
      "const char* s = \"\\n#include \\\"str.h\\\"\";\n"
      "const char* r = R\"x(\n#include \"raw.h\"\n)x\";\n"
      "int n = 1'000'000; char c = '\"';\n"
      "#include <after.h>\n";
  EXPECT_EQ(spellings(text), (std::vector<std::string>{"<after.h"}));
  EXPECT_EQ(scan_includes(text)[0].line, 6);
}

TEST(IncludeScanner, MacroIncludeIsReportedAsMacro) {
  auto found = scan_includes("#define HDR \"a.h\"\n#include HDR\n#include BOOST_PP_STRINGIZE(x) \n");
  ASSERT_EQ(found.size(), 2u);
  EXPECT_TRUE(found[0].macro);
  EXPECT_EQ(found[0].spelling, "HDR");
  EXPECT_EQ(found[0].line, 2);
  EXPECT_EQ(found[1].spelling, "BOOST_PP_STRINGIZE(x)");
}

TEST(IncludeScanner, ConditionalIncludesAllCount) {
  // Guards are not evaluated: the closure is a superset of any configuration.
  EXPECT_EQ(spellings("#if 0\n#include \"never.h\"\n#else\n#include \"else.h\"\n#endif\n").size(), 2u);
}

TEST(SourceText, BlankingKeepsLengthAndLines) {
  std::string text = "a /* x\ny */ b \"s\\\"t\" 'c' // z\nR\"(q)\" d";
  std::string blanked = blank_comments_and_literals(text);
  ASSERT_EQ(blanked.size(), text.size());
  EXPECT_EQ(std::count(blanked.begin(), blanked.end(), '\n'), 2);
  EXPECT_EQ(blanked.find('x'), std::string::npos);
  EXPECT_EQ(blanked.find('s'), std::string::npos);
  EXPECT_EQ(blanked.find('q'), std::string::npos);
  EXPECT_NE(blanked.find('d'), std::string::npos);
  EXPECT_NE(blanked.find('b'), std::string::npos);
}

}  // namespace
}  // namespace cobench::select
