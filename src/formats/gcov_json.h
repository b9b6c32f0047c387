#pragma once
// gcov's JSON intermediate format (`gcov --json-format --stdout`, gcc 9 and
// later): which source lines a run executed. Read defensively: one document
// per data file, fields added across gcc versions ignored, entries without a
// usable line number or count skipped.
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace cobench::formats {

/// One source file's lines, merged over every document that names it.
struct CoveredFile {
  std::filesystem::path path;     ///< lexically normal; relative names resolved against the document's working directory
  std::vector<int> executed;      ///< lines with a count above 0, ascending
  std::vector<int> instrumented;  ///< lines the compiler produced code for, ascending
  /// Lines with no code of their own (not instrumented) inside a function that
  /// ran (its "functions" entry: start_line to end_line, execution_count above
  /// 0), ascending. An optimised coverage build keeps no code for a statement
  /// folded into its neighbours (Eigen's `Index kc = blocking.kc();` at -O3):
  /// the enclosing function's execution is what says whether it ran.
  std::vector<int> in_functions_that_ran;
};

/// Parses gcov's stdout: one JSON document per line. Files named in several
/// documents (a header compiled into several objects) are merged. Throws
/// InputError("SOURCE: line L: ...") when a line is not JSON or not a gcov document.
std::vector<CoveredFile> parse_gcov_json(std::string_view text, const std::string& source);

}  // namespace cobench::formats
