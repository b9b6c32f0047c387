// The Catch2 runner's reading of Catch2's XML reports (recorded from Debian's
// Catch2 2.13.10 with --benchmark-no-analysis), its test specs, and how it
// recognises a Catch2 benchmark program among a project's executables.
#include "run/catch2_runner.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "support/testing.h"

namespace cobench::run {
namespace {

using cobench::testing::TempDir;

std::string recorded(const std::string& name) {
  return cobench::testing::read_text(std::filesystem::path(COBENCH_TESTDATA_DIR) / "catch2" / name);
}

TEST(Catch2Xml, EveryBenchmarkIsARowNamedByItsTestCaseHiddenOnesToo) {
  RunRecord record;
  std::map<std::string, std::string> cases;
  read_catch2_samples(recorded("bench_join-2.13.10.xml"), "bench_join.xml", record, &cases);
  ASSERT_EQ(record.samples.size(), 4u);
  EXPECT_TRUE(record.errors.empty());
  EXPECT_TRUE(record.samples.count("string join / join 64 numbers [fast]"));
  EXPECT_TRUE(record.samples.count("string join / join 1024 numbers / advanced"));
  EXPECT_TRUE(record.samples.count("other case / sum"));
  // XML escapes undone; the hidden ([!benchmark]) case ran because the runner asks for every case.
  const std::string hidden = "hidden, with [brackets] \"quoted\" *star / h bench";
  ASSERT_TRUE(record.samples.count(hidden));
  EXPECT_EQ(cases.at(hidden), "hidden, with [brackets] \"quoted\" *star");
  EXPECT_EQ(cases.at("string join / join 1024 numbers / advanced"), "string join");
  for (const auto& [name, sample] : record.samples) {
    EXPECT_GT(sample.at("real_ns"), 0) << name;
    EXPECT_FALSE(sample.count("cpu_ns")) << name;  // Catch2 has one clock
  }
  EXPECT_TRUE(record.detail.empty()) << record.detail;
}

TEST(Catch2Xml, AThrowingBenchmarkIsItsRowsErrorAndAFailedTestCaseIsTheRunsDetail) {
  RunRecord record;
  read_catch2_samples(recorded("failing-2.13.10.xml"), "failing.xml", record);
  EXPECT_NEAR(record.samples.at("throws midway / fine").at("real_ns"), 0.270684, 1e-9);
  EXPECT_EQ(record.errors.at("throws midway / throws"), "failed: boom in the benchmark");
  EXPECT_EQ(record.samples.size(), 1u);
  EXPECT_EQ(record.detail, "test case 'fails an assertion' failed: 1 == 2");
}

TEST(Catch2Xml, TheSameBenchmarkNameInTwoSectionsIsTwoRowsOfOneTestCase) {
  RunRecord record;
  std::map<std::string, std::string> cases;
  read_catch2_samples(recorded("sections-2.13.10.xml"), "sections.xml", record, &cases);
  ASSERT_EQ(record.samples.size(), 2u);
  EXPECT_TRUE(record.samples.count("vector fill / small / fill"));
  EXPECT_TRUE(record.samples.count("vector fill / large / fill"));
  EXPECT_EQ(cases.at("vector fill / large / fill"), "vector fill");  // runs are narrowed by test case
}

TEST(Catch2Xml, WhatIsNotCatch2sXmlIsAnInputErrorNamingTheFileAndByte) {
  RunRecord record;
  EXPECT_THROW(read_catch2_samples("", "empty.xml", record), InputError);
  try {
    read_catch2_samples("<Catch><Group>", "cut.xml", record);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cut.xml: byte ", 0), 0u) << e.what();
  }
  try {
    read_catch2_samples("<testsuites/>", "junit.xml", record);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "junit.xml: not Catch2's XML report (no <Catch> element)");
  }
  read_catch2_samples("<Catch><Group><TestCase name=\"c\"><BenchmarkResults name=\"b\"><mean value=\"nan\"/>"
                      "</BenchmarkResults></TestCase></Group></Catch>", "nan.xml", record);
  EXPECT_EQ(record.errors.at("c / b"), "no measurements");
}

TEST(Catch2Spec, EverySpecialCharacterOfATestSpecIsEscaped) {
  EXPECT_EQ(catch2_test_spec("string join"), "string join");
  EXPECT_EQ(catch2_test_spec("hidden, with [brackets] \"quoted\" *star"),
            "hidden\\, with \\[brackets\\] \\\"quoted\\\" \\*star");
  EXPECT_EQ(catch2_test_spec("~not\\this"), "\\~not\\\\this");
}

TEST(Catch2Recognition, ASourceIncludingCatch2AndUsingBenchmarkIsOneATestProgramIsNot) {
  TempDir dir;
  const auto write = [&](const std::string& name, const std::string& text) {
    cobench::testing::write_file(dir / name, text);
    return dir / name;
  };
  const auto bench = write("bench.cc", "#include <catch2/catch.hpp>\nTEST_CASE(\"x\") {\n  BENCHMARK (\"b\") { return 1; };\n}\n");
  const auto tests = write("tests.cc", "#include <catch2/catch.hpp>\nTEST_CASE(\"x\") { REQUIRE(MY_BENCHMARK(1)); }\n");
  const auto gbench = write("gbench.cc", "#include <benchmark/benchmark.h>\nBENCHMARK(BM_x);\n");
  const auto v3 = write("v3.cc", "#include <catch2/benchmark/catch_benchmark.hpp>\n"
                                 "TEST_CASE(\"x\") { BENCHMARK_ADVANCED(\"b\")(auto meter) {}; }\n");
  const auto wrapped = write("wrapped.cc", "#include \"our_test_main.h\"\nTEST_CASE(\"x\") { BENCHMARK(\"b\") { return 1; }; }\n");
  EXPECT_TRUE(recognises_catch2({{}, {}, {bench}}));
  EXPECT_FALSE(recognises_catch2({{}, {}, {tests}}));
  EXPECT_FALSE(recognises_catch2({{}, {}, {gbench}}));
  EXPECT_TRUE(recognises_catch2({{}, {}, {v3}}));
  // Included through a header of the project's own: linking Catch2's library (v3) says it.
  EXPECT_FALSE(recognises_catch2({{}, {}, {wrapped}}));
  EXPECT_TRUE(recognises_catch2({{"/usr/lib/libCatch2Main.a", "/usr/lib/libCatch2.a"}, {}, {wrapped}}));
  EXPECT_TRUE(recognises_catch2({{}, {"Catch2WithMain"}, {wrapped}}));
  EXPECT_FALSE(recognises_catch2({{"-lbenchmark"}, {}, {wrapped}}));
}

}  // namespace
}  // namespace cobench::run
