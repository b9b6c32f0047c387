// report.html rendered by a real headless Chromium: the screenshot is not
// blank and the live DOM has one row (with its plot) per benchmark.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "process/process.h"
#include "report/png_image.h"
#include "report/report.h"
#include "report/report_fixture.h"
#include "support/testing.h"

namespace cobench::report {
namespace {

std::string find_chromium() {
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    auto found = process::run_capture({"sh", "-c", std::string("command -v ") + name});
    if (found.ok() && !found.out.empty()) return found.out.substr(0, found.out.find('\n'));
  }
  return "";
}

process::Result chromium(const std::string& exe, const cobench::testing::TempDir& dir, std::vector<std::string> extra,
                         const std::filesystem::path& page) {
  process::Command command;
  command.argv = {exe,
                  "--headless",
                  "--no-sandbox",
                  "--disable-gpu",
                  "--disable-background-networking",
                  "--disable-component-update",
                  "--disable-sync",
                  "--no-first-run",
                  "--hide-scrollbars",
                  "--user-data-dir=" + (dir.path() / "profile").string(),
                  "--window-size=1280,900"};
  command.argv.insert(command.argv.end(), extra.begin(), extra.end());
  command.argv.push_back("file://" + page.string());
  command.env_overrides = {{"HOME", dir.path().string()}};
  command.timeout_seconds = 120;
  return process::run(command);
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(HtmlBrowser, HeadlessChromiumRendersEveryRowAndANonBlankPage) {
  std::string exe = find_chromium();
  if (exe.empty()) GTEST_SKIP() << "chromium not installed (make deps installs Debian's chromium)";
  cobench::testing::TempDir dir;
  Report report = cobench::testing::sample_run_report();
  write_reports(report, dir.path() / "out");
  auto page = dir.path() / "out" / "report.html";

  auto png = dir.path() / "shot.png";
  auto shot = chromium(exe, dir, {"--screenshot=" + png.string()}, page);
  ASSERT_TRUE(std::filesystem::exists(png)) << cobench::testing::explain(shot);
  auto image = cobench::testing::decode_png(png);
  EXPECT_EQ(image.width, 1280);
  EXPECT_EQ(image.height, 900);
  // A blank or error page has a handful of colours; ours has text, chips and plots.
  EXPECT_GT(cobench::testing::count_colours(image), 50u);
  EXPECT_GT(cobench::testing::non_background_fraction(image), 0.02);
  if (const char* keep = std::getenv("COBENCH_SCREENSHOT_TO")) std::filesystem::copy_file(png, keep,
                                                                    std::filesystem::copy_options::overwrite_existing);

  auto dom = chromium(exe, dir, {"--dump-dom"}, page);
  ASSERT_TRUE(dom.ok()) << cobench::testing::explain(dom);
  EXPECT_EQ(count(dom.out, "data-benchmark=\""), report.benchmarks.size()) << dom.out.substr(0, 2000);
  EXPECT_EQ(count(dom.out, "<svg class=\"plot\""), report.benchmarks.size());
  EXPECT_NE(dom.out.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

}  // namespace
}  // namespace cobench::report
