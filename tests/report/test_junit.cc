// report.xml parsed back with pugixml: suites per target, cases per
// benchmark, failure/skipped/error, properties and consistent counts.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include <pugixml.hpp>

#include "report/report.h"
#include "report/report_fixture.h"

namespace cobench::report {
namespace {

pugi::xml_document parse(const std::string& xml) {
  pugi::xml_document doc;
  pugi::xml_parse_result result = doc.load_string(xml.c_str());
  EXPECT_TRUE(result) << result.description() << " at offset " << result.offset << "\n" << xml;
  return doc;
}

std::string property(const pugi::xml_node& testcase, const char* name) {
  return testcase.child("properties").find_child_by_attribute("property", "name", name).attribute("value").value();
}

pugi::xml_node testcase_named(const pugi::xml_node& suite, const std::string& name) {
  for (auto testcase : suite.children("testcase"))
    if (name == testcase.attribute("name").value()) return testcase;
  return {};
}

TEST(JUnit, OneSuitePerTargetWithConsistentCounts) {
  auto doc = parse(render_junit(testing::sample_run_report()));
  auto root = doc.child("testsuites");
  ASSERT_TRUE(root);
  std::map<std::string, pugi::xml_node> suites;
  for (auto suite : root.children("testsuite")) suites[suite.attribute("name").value()] = suite;
  ASSERT_EQ(suites.size(), 2u);
  ASSERT_TRUE(suites.count("bench_gemm") && suites.count("bench_copy"));

  int total = 0, failures = 0, errors = 0, skipped = 0;
  for (auto& [name, suite] : suites) {
    int cases = 0, f = 0, e = 0, s = 0;
    for (auto testcase : suite.children("testcase")) {
      ++cases;
      f += !testcase.child("failure").empty();
      e += !testcase.child("error").empty();
      s += !testcase.child("skipped").empty();
      EXPECT_STREQ(testcase.attribute("classname").value(), ("cobench." + name).c_str());
      EXPECT_FALSE(testcase.attribute("time").empty());
      // The shape the common JUnit schema allows inside a testcase.
      for (auto child : testcase.children()) {
        static const std::set<std::string> allowed = {"properties", "failure", "error", "skipped", "system-out", "system-err"};
        EXPECT_TRUE(allowed.count(child.name())) << child.name();
      }
    }
    EXPECT_EQ(suite.attribute("tests").as_int(), cases) << name;
    EXPECT_EQ(suite.attribute("failures").as_int(), f) << name;
    EXPECT_EQ(suite.attribute("errors").as_int(), e) << name;
    EXPECT_EQ(suite.attribute("skipped").as_int(), s) << name;
    EXPECT_FALSE(suite.attribute("time").empty());
    total += cases, failures += f, errors += e, skipped += s;
  }
  EXPECT_EQ(suites["bench_gemm"].attribute("tests").as_int(), 6);  // 4 rows, 1 added, 1 removed
  EXPECT_EQ(suites["bench_gemm"].attribute("failures").as_int(), 2);
  EXPECT_EQ(suites["bench_gemm"].attribute("errors").as_int(), 1);
  EXPECT_EQ(suites["bench_gemm"].attribute("skipped").as_int(), 3);
  EXPECT_EQ(root.attribute("tests").as_int(), total);
  EXPECT_EQ(root.attribute("failures").as_int(), failures);
  EXPECT_EQ(root.attribute("errors").as_int(), errors);
  EXPECT_EQ(root.attribute("skipped").as_int(), skipped);
}

TEST(JUnit, RegressionFailsWithRatioAgainstBudgetAndCarriesProperties) {
  auto doc = parse(render_junit(testing::sample_run_report()));
  auto gemm = doc.child("testsuites").find_child_by_attribute("testsuite", "name", "bench_gemm");
  auto testcase = testcase_named(gemm, "BM_Gemm<float>/256");
  ASSERT_TRUE(testcase);
  EXPECT_STREQ(testcase.child("failure").attribute("message").value(), "ratio 1.23× [1.19, 1.27] > budget 1.05");
  EXPECT_EQ(property(testcase, "ratio"), "1.2300");
  EXPECT_EQ(property(testcase, "ci_low"), "1.1900");
  EXPECT_EQ(property(testcase, "ci_high"), "1.2700");
  EXPECT_EQ(property(testcase, "n_base"), "6");
  EXPECT_EQ(property(testcase, "n_head"), "6");
  EXPECT_EQ(property(testcase, "budget"), "1.0500");
  EXPECT_EQ(property(testcase, "method"), "exact");
  // No interval, no method that computed it (the hostile row needs 8 runs per side).
  auto unreachable = testcase_named(gemm, testing::kHostileName);
  ASSERT_TRUE(unreachable);
  EXPECT_EQ(property(unreachable, "ratio"), "1.0200");
  EXPECT_TRUE(unreachable.child("properties").find_child_by_attribute("property", "name", "method").empty());

  auto alloc = testcase_named(gemm, "BM_Alloc");
  EXPECT_STREQ(alloc.child("failure").attribute("message").value(), "allocs/op 0 → 1");
  EXPECT_EQ(property(alloc, "allocs_per_op"), "0 → 1 (+1) ✗");

  auto crash = testcase_named(gemm, "BM_Crash");
  EXPECT_STREQ(crash.child("error").attribute("message").value(), "head crashed (SIGSEGV) in 3/3 runs");
  auto added = testcase_named(gemm, "BM_New");
  EXPECT_NE(std::string(added.child("skipped").attribute("message").value()).find("only on head"), std::string::npos);
  auto removed = testcase_named(gemm, "BM_Old");
  EXPECT_NE(std::string(removed.child("skipped").attribute("message").value()).find("only on base"), std::string::npos);
  auto copy = doc.child("testsuites").find_child_by_attribute("testsuite", "name", "bench_copy");
  auto passed = testcase_named(copy, "BM_Copy/64");
  EXPECT_TRUE(passed.child("failure").empty() && passed.child("skipped").empty() && passed.child("error").empty());
  EXPECT_EQ(property(passed, "verdict"), "pass, faster");
}

TEST(JUnit, HostileNameRoundTripsExactlyAndInconclusiveIsSkippedWithReason) {
  auto doc = parse(render_junit(testing::sample_run_report()));
  auto gemm = doc.child("testsuites").find_child_by_attribute("testsuite", "name", "bench_gemm");
  auto hostile = testcase_named(gemm, testing::kHostileName);
  ASSERT_TRUE(hostile) << "hostile name did not survive escaping";
  std::string reason = hostile.child("skipped").attribute("message").value();
  EXPECT_NE(reason.find("inconclusive: needs >= 8 runs per side"), std::string::npos) << reason;
}

TEST(JUnit, FailedRunsWithoutANoteAreSummarisedPerSideAndCause) {
  auto report = testing::sample_run_report();
  for (auto& row : report.benchmarks)
    if (row.name == "BM_Crash") {
      row.note.clear();
      row.failed_runs.push_back({"base", 1, "timeout", ""});
    }
  auto doc = parse(render_junit(report));
  auto gemm = doc.child("testsuites").find_child_by_attribute("testsuite", "name", "bench_gemm");
  EXPECT_STREQ(testcase_named(gemm, "BM_Crash").child("error").attribute("message").value(),
               "base failed: timeout ×1 of 3 runs; head failed: SIGSEGV ×3 of 3 runs");
}

TEST(JUnit, CompareReportIsOneSuiteNamedCompare) {
  auto doc = parse(render_junit(testing::sample_compare_report()));
  auto root = doc.child("testsuites");
  ASSERT_EQ(std::distance(root.children("testsuite").begin(), root.children("testsuite").end()), 1);
  auto suite = root.child("testsuite");
  EXPECT_STREQ(suite.attribute("name").value(), "compare");
  EXPECT_EQ(suite.attribute("tests").as_int(), 3);
  EXPECT_EQ(suite.attribute("failures").as_int(), 1);
  EXPECT_EQ(suite.attribute("skipped").as_int(), 1);
  auto find = testcase_named(suite, "BM_Find");
  EXPECT_NE(std::string(find.child("skipped").attribute("message").value()).find("straddles budget 1.05"),
            std::string::npos);
}

TEST(JUnit, InvalidUtf8AndControlBytesStillParse) {
  auto r = testing::sample_compare_report();
  r.benchmarks[0].name = std::string("BM_\xff\x01\x1b[31m");
  auto doc = parse(render_junit(r));
  EXPECT_TRUE(testcase_named(doc.child("testsuites").child("testsuite"), "BM_\\xFF\xEF\xBF\xBD\xEF\xBF\xBD[31m"));
}

}  // namespace
}  // namespace cobench::report
