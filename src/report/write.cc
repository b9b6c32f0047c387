// All four reports at once, each written atomically: a job killed while
// writing leaves the previous complete file, never half of one.
#include <filesystem>
#include <system_error>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "formats/json_text.h"
#include "report/escape.h"
#include "report/report.h"

namespace cobench::report {

void write_reports(const Report& report, const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw InfraError(dir.string() + ": cannot create report folder: " + error.message());
  // Everything published is scrubbed of credentials: the report's text, and each rendering of it.
  const auto scrub = [](const std::string& text) { return secrets::scrub(text); };
  write_file_atomic(dir / "report.json", formats::dump_json(formats::map_strings(to_json(report), scrub), 2) + "\n");
  write_file_atomic(dir / "report.md", scrub_rendered(render_markdown(report)));
  write_file_atomic(dir / "report.xml", scrub_rendered(render_junit(report)));
  write_file_atomic(dir / "report.html", scrub_rendered(render_html(report)));
}

}  // namespace cobench::report
