// Every report at once, from one list (report_file_names), each written
// atomically: a job killed while writing leaves the previous complete file,
// never half of one.
#include <filesystem>
#include <system_error>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "formats/json_text.h"
#include "report/escape.h"
#include "report/report.h"

namespace cobench::report {

namespace {

/// One report file: its name and how it is rendered. Everything published is
/// scrubbed of credentials: the report's text, and each rendering of it.
struct ReportFile {
  std::string name;
  std::string (*render)(const Report& report);
};

const std::vector<ReportFile>& report_files() {
  static const std::vector<ReportFile> files = {
      {"report.json",
       [](const Report& r) {
         const auto scrub = [](const std::string& text) { return secrets::scrub(text); };
         return formats::dump_json(formats::map_strings(to_json(r), scrub), 2) + "\n";
       }},
      {"report.md", [](const Report& r) { return scrub_rendered(render_markdown(r)); }},
      {"report.xml", [](const Report& r) { return scrub_rendered(render_junit(r)); }},
      {"report.html", [](const Report& r) { return scrub_rendered(render_html(r)); }},
  };
  return files;
}

}  // namespace

void write_reports(const Report& report, const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw InfraError(dir.string() + ": cannot create report folder: " + error.message());
  for (const auto& file : report_files()) write_file_atomic(dir / file.name, file.render(report));
}

const std::vector<std::string>& report_file_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& file : report_files()) out.push_back(file.name);
    return out;
  }();
  return names;
}

std::string describe_report_files(const std::filesystem::path& dir) {
  std::vector<std::string> formats;
  for (const auto& name : report_file_names()) formats.push_back(std::filesystem::path(name).extension().string().substr(1));
  return fmt::format("{}/report.{{{}}}", dir.string(), fmt::join(formats, ","));
}

}  // namespace cobench::report
