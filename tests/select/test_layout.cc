#include "select/layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "support/testing.h"

namespace cobench::select {
namespace {

using Families = std::vector<std::string>;

TEST(Layout, EachInstantiationIsAFamily) {
  auto c = count_families(
      "BENCHMARK(BM_Norm<float>)->Arg(8);\nBENCHMARK(BM_Norm< double >)->Arg(8);\nBENCHMARK(BM_Norm<float>)->Arg(9);\n");
  EXPECT_EQ(c.families, (Families{"BM_Norm<float>", "BM_Norm< double >"}));
  EXPECT_TRUE(c.suspicious());
}

TEST(Layout, MultiWordTypesKeepTheirBlank) {
  auto c = count_families("BENCHMARK(BM_Sum<unsigned int>);\nBENCHMARK(BM_Sum<unsigned  int >);\n"
                          "BENCHMARK_TEMPLATE(BM_Sum, long double);\n");
  EXPECT_EQ(c.families, (Families{"BM_Sum<unsigned int>", "BM_Sum<long double>"}));
}

TEST(Layout, SpacingAsWrittenIsOneFamily) {
  auto c = count_families("BENCHMARK_TEMPLATE(BM_FFT, std::complex<float>, true);\n"
                          "BENCHMARK_TEMPLATE(BM_FFT,std::complex<float>,true);\n"
                          "BENCHMARK_TEMPLATE2(BM_FFT, std::complex<float>,  true);\n");
  EXPECT_EQ(c.families, (Families{"BM_FFT<std::complex<float>, true>"}));
}

// Named as the real binary lists them: #__VA_ARGS__ keeps the blank after a comma
// (BENCHMARK_TEMPLATE), #a "," #b does not (BENCHMARK_TEMPLATE2), fixtures are Fix<T>/Method.
TEST(Layout, NamesMatchGoogleBenchmarkListing) {
  auto listed = cobench::testing::run_checked({FAMILY_NAMES_BENCH, "--benchmark_list_tests"});
  Families names;
  std::istringstream lines(listed.out);
  for (std::string line; std::getline(lines, line);)
    if (!line.empty()) names.push_back(line);
  Families families = count_families(cobench::testing::read_text(FAMILY_NAMES_SOURCE)).families;
  ASSERT_GE(names.size(), 10u) << listed.out;
  std::sort(names.begin(), names.end());
  std::sort(families.begin(), families.end());
  EXPECT_EQ(families, names);
}

TEST(Layout, OneFamilyWithManyArgsIsFine) {
  auto c = count_families("static void BM_Gemm(benchmark::State& s) {}\nBENCHMARK(BM_Gemm)\n  ->Args({8, 8})\n  ->Args({16, 16});\nBENCHMARK_MAIN();\n");
  EXPECT_EQ(c.families, (Families{"BM_Gemm"}));
  EXPECT_FALSE(c.suspicious());
  EXPECT_EQ(layout_warning("a.cc", c), "");
}

TEST(Layout, CaptureGroupsByFunction) {
  auto c = count_families("BENCHMARK_CAPTURE(BM_Copy, small, 8);\nBENCHMARK_CAPTURE(BM_Copy, big, std::vector<int>{1, 2});\n");
  EXPECT_EQ(c.families, (Families{"BM_Copy"}));
}

TEST(Layout, TemplatesFixturesAndTemplateCaptures) {
  auto c = count_families(
      "BENCHMARK_TEMPLATE(BM_T, float);\nBENCHMARK_TEMPLATE2(BM_T, float, 4);\n"
      "BENCHMARK_TEMPLATE1_CAPTURE(BM_C, int, a, 1);\nBENCHMARK_TEMPLATE1_CAPTURE(BM_C, int, b, 2);\n"
      "BENCHMARK_F(Fix, Run)(benchmark::State& st) {}\n"
      "BENCHMARK_DEFINE_F(Fix, Other)(benchmark::State& st) {}\nBENCHMARK_REGISTER_F(Fix, Other)->Arg(1);\n");
  EXPECT_EQ(c.families, (Families{"BM_T<float>", "BM_T<float,4>", "BM_C<int>", "Fix/Run", "Fix/Other"}));
}

TEST(Layout, CommentsAndStringsDoNotRegister) {
  auto c = count_families(
      "// BENCHMARK(BM_Old);\n/* BENCHMARK(BM_Older);\n BENCHMARK(BM_Oldest); */\n"
      "const char* doc = \"BENCHMARK(BM_Doc)\";\nauto r = R\"(BENCHMARK(BM_Raw))\";\nBENCHMARK(BM_Live);\n");
  EXPECT_EQ(c.families, (Families{"BM_Live"}));
}

TEST(Layout, RegisterBenchmarkIsUnknown) {
  auto c = count_families("int main() { benchmark::RegisterBenchmark(\"x\", &f); }\n");
  EXPECT_TRUE(c.families.empty());
  EXPECT_EQ(c.runtime_registrations, 1);
  EXPECT_TRUE(c.suspicious());
  EXPECT_NE(layout_warning("a.cc", c).find("unknown"), std::string::npos);
}

TEST(Layout, RegisteringMacroCountsEachUse) {
  auto c = count_families(
      "#define NORM(Type, Label) BENCHMARK(BM_Norm<Type>)->Name(\"Norm_\" #Label)\n"
      "#define ARGS ->Arg(1)\n"
      "NORM(float, f);\nNORM(double, d);\nBENCHMARK(BM_X) ARGS;\n");
  EXPECT_EQ(c.families, (Families{"NORM(float, f)", "NORM(double, d)", "BM_X"}));
  std::string w = layout_warning("bench/n.cc", c);
  EXPECT_NE(w.find("bench/n.cc registers 3 benchmark families"), std::string::npos) << w;
}

}  // namespace
}  // namespace cobench::select
