// report.html parsed as XML: self-contained, one row per benchmark with its
// strip plot, escaped names, verdict classes, failed runs and allocations.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include <pugixml.hpp>

#include "core/errors.h"
#include "report/report.h"
#include "report/report_fixture.h"
#include "support/testing.h"

namespace cobench::report {
namespace {

pugi::xml_document parse(const std::string& html) {
  pugi::xml_document doc;
  auto result = doc.load_string(html.c_str(), pugi::parse_default | pugi::parse_doctype);
  EXPECT_TRUE(result) << result.description() << " at offset " << result.offset;
  return doc;
}

TEST(Html, IsSelfContained) {
  std::string html = render_html(testing::sample_run_report());
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  std::regex remote_ref(R"((href|src)\s*=\s*["']?\s*(https?:|//))", std::regex::icase);
  EXPECT_FALSE(std::regex_search(html, remote_ref));
  EXPECT_EQ(html.find("http"), std::string::npos);  // not even an SVG namespace URL
}

TEST(Html, OneRowPerBenchmarkWithAPlotOfEverySample) {
  auto report = testing::sample_run_report();
  auto doc = parse(render_html(report));
  auto rows = doc.select_nodes("//tr[@data-benchmark]");
  ASSERT_EQ(rows.size(), report.benchmarks.size());
  bool hostile_seen = false;
  for (const auto& node : rows) {
    auto tr = node.node();
    std::string name = tr.attribute("data-benchmark").value();
    hostile_seen |= name == testing::kHostileName;
    const BenchmarkRow* row = nullptr;
    for (const auto& r : report.benchmarks)
      if (r.name == name) row = &r;
    ASSERT_NE(row, nullptr) << name;
    auto svg = tr.select_node(".//svg").node();
    ASSERT_TRUE(svg) << name;
    EXPECT_EQ(svg.select_nodes(".//circle[contains(@class,'base')]").size(), row->base_samples.size()) << name;
    EXPECT_EQ(svg.select_nodes(".//circle[contains(@class,'head')]").size(), row->head_samples.size()) << name;
    EXPECT_TRUE(svg.select_node(".//line[@class='budget']")) << name;
    EXPECT_TRUE(svg.select_node(".//line[@class='one']")) << name;
    bool has_ci = row->time.compared && row->time.estimate.ci_reachable;
    EXPECT_EQ(static_cast<bool>(svg.select_node(".//rect[contains(@class,'ci')]")), has_ci) << name;
  }
  EXPECT_TRUE(hostile_seen);
}

TEST(Html, NamesWrapAfterSlashesAndCommasNeverInsideAnArgument) {
  Report report;
  report.benchmarks.push_back(testing::make_row("bench_cwise_math", "Log_float/1024", verdict::Verdict::Pass, 1, 0.99, 1.01));
  report.benchmarks.push_back(testing::make_row("t", "BM_FFT<std::complex<float>, true>/64", verdict::Verdict::Pass, 1, 0.99, 1.01));
  auto doc = parse(render_html(report));
  auto cell = doc.select_node("//tr[@data-benchmark='Log_float/1024']/td[@class='name']").node();
  ASSERT_TRUE(cell);
  EXPECT_STREQ(cell.child_value(), "Log_float/");         // the first text node ends at the slash
  EXPECT_TRUE(cell.child("wbr"));                         // a break opportunity there
  EXPECT_STREQ(cell.last_child().value(), "1024");        // and the argument whole after it
  auto fft = doc.select_node("//tr[@data-benchmark='BM_FFT<std::complex<float>, true>/64']/td[@class='name']").node();
  EXPECT_EQ(std::distance(fft.children("wbr").begin(), fft.children("wbr").end()), 2);
  const std::string html = render_html(report);
  EXPECT_EQ(html.find("break-all"), std::string::npos);   // no style lets a name break anywhere
}

TEST(Html, VerdictClassesFailedRunsAllocationsAndSummary) {
  auto doc = parse(render_html(testing::sample_run_report()));
  EXPECT_EQ(doc.select_nodes("//tr[@data-verdict='regression']").size(), 2u);
  EXPECT_EQ(doc.select_nodes("//tr[@data-verdict='inconclusive']").size(), 2u);
  EXPECT_EQ(doc.select_nodes("//tr[@data-verdict='faster']").size(), 1u);
  EXPECT_EQ(doc.select_nodes("//tr[@data-verdict='pass']").size(), 1u);
  // Rows in reading order: regressions first.
  EXPECT_STREQ(doc.select_node("//tbody/tr[1]").node().attribute("data-verdict").value(), "regression");

  std::string h1 = doc.select_node("//h1").node().text().get();
  EXPECT_EQ(h1, "cobench: 2 regressions, 2 inconclusive, 1 pass (1 faster)");  // the control is not counted
  auto crash = doc.select_node("//tr[@data-benchmark='BM_Crash']").node();
  EXPECT_STREQ(crash.select_node(".//span[@class='failed']").node().text().get(), "head crashed (SIGSEGV) in 3/3 runs");
  auto alloc = doc.select_node("//tr[@data-benchmark='BM_Alloc']").node();
  EXPECT_EQ(std::string(alloc.select_node(".//td[@class='metric'][1]").node().text().get()), "0 → 1 (+1) ✗");
  auto links = doc.select_nodes("//a[@href]");
  ASSERT_EQ(links.size(), 3u);
  EXPECT_STREQ(links.first().node().attribute("href").value(), "logs/bench_gemm-head-0.txt");
  std::string meta = doc.select_node("//p[@class='meta']").node().text().get();
  EXPECT_NE(meta.find("controls layout 1.000 [0.990, 1.010]"), std::string::npos) << meta;
  EXPECT_NE(meta.find("0123456789…abcdef0123"), std::string::npos) << meta;
  EXPECT_EQ(doc.select_nodes("//ul[@class='warnings']/li").size(), 2u);
}

TEST(Html, PrintStylesAndCompareReport) {
  std::string html = render_html(testing::sample_compare_report());
  EXPECT_NE(html.find("@media print"), std::string::npos);
  auto doc = parse(html);
  EXPECT_EQ(doc.select_nodes("//tr[@data-benchmark]").size(), 3u);
  EXPECT_FALSE(doc.select_node("//th[.='Target']"));
  EXPECT_TRUE(doc.select_node("//summary[.='Method']"));
}

TEST(Html, EachPlotPlacesItsIntervalAgainstOneAndTheBudgetLine) {
  auto doc = parse(render_html(testing::sample_run_report()));
  auto x_of = [&](const char* name, const char* element) {
    std::string xpath = std::string("//tr[@data-benchmark='") + name + "']//" + element;
    return doc.select_node(xpath.c_str()).node().attribute(element[0] == 'c' ? "cx" : "x1").as_double();
  };
  auto ci_left = [&](const char* name) {
    std::string xpath = std::string("//tr[@data-benchmark='") + name + "']//rect";
    return doc.select_node(xpath.c_str()).node().attribute("x").as_double();
  };
  // Regression: the whole bar right of the budget line; faster: the estimate left of 1.0.
  EXPECT_GT(ci_left("BM_Gemm<float>/256"), x_of("BM_Gemm<float>/256", "line[@class='budget']"));
  EXPECT_LT(x_of("BM_Copy/64", "circle[@class='estimate']"), x_of("BM_Copy/64", "line[@class='one']"));
  EXPECT_LT(x_of("BM_Control", "line[@class='one']"), x_of("BM_Control", "line[@class='budget']"));
  // A 50× speed-up elsewhere must not flatten this row: its bar stays wide enough to see.
  auto report = testing::sample_run_report();
  report.benchmarks.push_back(testing::make_row("bench_copy", "BM_Huge", verdict::Verdict::Pass, 0.02, 0.019, 0.021));
  auto wide = parse(render_html(report));
  auto bar = wide.select_node("//tr[@data-benchmark='BM_Control']//rect").node();
  EXPECT_GT(bar.attribute("width").as_double(), 15.0);
}

}  // namespace
}  // namespace cobench::report

namespace cobench::report {
namespace {

TEST(WriteReports, WritesAllFourFilesAndCreatesTheFolder) {
  cobench::testing::TempDir dir;
  auto out = dir.path() / "nested" / "out";
  auto report = cobench::testing::sample_run_report();
  write_reports(report, out);
  EXPECT_EQ(cobench::testing::read_text(out / "report.md"), render_markdown(report));
  EXPECT_EQ(cobench::testing::read_text(out / "report.xml"), render_junit(report));
  EXPECT_EQ(cobench::testing::read_text(out / "report.html"), render_html(report));
  auto json = nlohmann::json::parse(cobench::testing::read_text(out / "report.json"));
  EXPECT_EQ(json, to_json(report));
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(out)) {
    ++files;
    EXPECT_EQ(entry.path().filename().string().find(".tmp"), std::string::npos) << "temp file left: " << entry.path();
  }
  EXPECT_EQ(files, 4);
}

TEST(WriteReports, UnwritableFolderIsAnInfrastructureErrorNamingIt) {
  cobench::testing::TempDir dir;
  cobench::testing::write_file(dir.path() / "file", "x");
  try {
    write_reports(cobench::testing::sample_run_report(), dir.path() / "file" / "out");
    FAIL() << "expected InfraError";
  } catch (const InfraError& e) {
    EXPECT_NE(std::string(e.what()).find("file/out"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace cobench::report
