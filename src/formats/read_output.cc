// read_output_file: one entry point for every benchmark output cobench reads.
#include <string_view>

#include "core/errors.h"
#include "core/files.h"
#include "formats/formats.h"

namespace cobench::formats {

/// Go's text has result lines "BenchmarkX-8  1000  12 ns/op" and header
/// lines "goos: linux"; anything else is handed to the JSON reader, whose
/// line/column error is the most useful answer for a broken file.
static bool looks_like_go_bench(std::string_view text) {
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] == '{' || text[first] == '[') return false;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (line.starts_with("Benchmark") || line.starts_with("goos:") || line.starts_with("pkg:")) return true;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return false;
}

/// The 1-based line of Google Benchmark's console table header
/// ("Benchmark   Time   CPU   Iterations"), 0 when there is none: redirected
/// console output must not be mistaken for Go's text, whose lines are
/// "BenchmarkName-8 ...", never "Benchmark" then a blank.
static size_t console_header_line(std::string_view text) {
  size_t number = 1;
  for (size_t start = 0; start < text.size(); ++number) {
    size_t end = text.find('\n', start);
    std::string_view line = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (line.starts_with("Benchmark ") && line.find(" Time ") != std::string_view::npos &&
        line.find(" CPU ") != std::string_view::npos)
      return number;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return 0;
}

Output read_output(std::string_view text, const std::string& source) {
  if (size_t line = looks_like_go_bench(text) ? console_header_line(text) : 0)
    throw InputError(source + ":" + std::to_string(line) +
                     ": Google Benchmark console output, not JSON; run the binary with --benchmark_format=json, "
                     "or --benchmark_out=FILE --benchmark_out_format=json");
  if (looks_like_go_bench(text)) return parse_go_bench(text, source);
  return parse_google_benchmark_json(text, source);
}

Output read_output_file(const std::string& path) { return read_output(read_file(path), path); }

}  // namespace cobench::formats
