// All four reports at once, each written atomically: a job killed while
// writing leaves the previous complete file, never half of one.
#include <filesystem>
#include <system_error>

#include "core/errors.h"
#include "core/files.h"
#include "report/report.h"

namespace cobench::report {

void write_reports(const Report& report, const std::filesystem::path& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw InfraError(dir.string() + ": cannot create report folder: " + error.message());
  write_file_atomic(dir / "report.json", to_json(report).dump(2) + "\n");
  write_file_atomic(dir / "report.md", render_markdown(report));
  write_file_atomic(dir / "report.xml", render_junit(report));
  write_file_atomic(dir / "report.html", render_html(report));
}

}  // namespace cobench::report
