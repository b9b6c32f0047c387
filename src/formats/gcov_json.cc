#include "formats/gcov_json.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "core/errors.h"
#include "formats/json_text.h"

namespace cobench::formats {
namespace {

using nlohmann::json;

struct Lines {
  std::set<int> executed, instrumented;
  std::vector<std::pair<int, int>> functions_that_ran;  // [start_line, end_line]
};

/// An integer field of at least 1 (and sane), or 0.
int positive_line(const json& object, const char* field) {
  auto it = object.find(field);
  if (it == object.end() || !it->is_number_integer()) return 0;
  const auto value = it->get<long long>();
  return value > 0 && value <= 100'000'000 ? static_cast<int>(value) : 0;
}

/// The line span of a function entry that ran ("execution_count" above 0), or nothing.
std::optional<std::pair<int, int>> span_that_ran(const json& function) {
  if (!function.is_object()) return std::nullopt;
  const auto count = function.find("execution_count");
  if (count == function.end()) return std::nullopt;
  const auto times = json_number(*count);
  const int start = positive_line(function, "start_line"), end = positive_line(function, "end_line");
  // No function spans 100,000 lines; a damaged entry must not make us list them.
  if (!times || *times <= 0 || start == 0 || end < start || end - start > 100'000) return std::nullopt;
  return std::pair{start, end};
}

/// Whether the line ran: "count" above 0 (gcc 9+ writes an integer; a float is taken too).
bool executed(const json& line) {
  auto it = line.find("count");
  if (it == line.end()) return false;
  const auto count = json_number(*it);
  return count && *count > 0;
}

void read_document(const json& document, std::map<std::filesystem::path, Lines>& out, const std::string& where) {
  if (!document.is_object() || !document.contains("files") || !document["files"].is_array())
    throw InputError(fmt::format("{}: not a gcov JSON document (no \"files\" array)", where));
  std::filesystem::path cwd;
  if (auto it = document.find("current_working_directory"); it != document.end() && it->is_string())
    cwd = it->get<std::string>();
  for (const json& file : document["files"]) {
    if (!file.is_object()) continue;
    auto name = file.find("file");
    auto lines = file.find("lines");
    if (name == file.end() || !name->is_string() || lines == file.end() || !lines->is_array()) continue;
    std::filesystem::path path = name->get<std::string>();
    if (path.is_relative() && !cwd.empty()) path = cwd / path;
    Lines& known = out[path.lexically_normal()];
    for (const json& line : *lines) {
      if (!line.is_object()) continue;
      const int number = positive_line(line, "line_number");
      if (number == 0) continue;
      known.instrumented.insert(number);
      if (executed(line)) known.executed.insert(number);
    }
    if (auto functions = file.find("functions"); functions != file.end() && functions->is_array())
      for (const json& function : *functions)
        if (auto span = span_that_ran(function)) known.functions_that_ran.push_back(*span);
  }
}

/// The lines of `lines`' functions that ran which have no code of their own.
std::vector<int> uninstrumented_lines_that_ran(const Lines& lines) {
  std::set<int> out;
  for (const auto& [start, end] : lines.functions_that_ran)
    for (int line = start; line <= end; ++line)
      if (!lines.instrumented.count(line)) out.insert(line);
  return {out.begin(), out.end()};
}

}  // namespace

std::vector<CoveredFile> parse_gcov_json(std::string_view text, const std::string& source) {
  std::map<std::filesystem::path, Lines> files;
  size_t line_number = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = fmt::format("{}: line {}", source, line_number);
    read_document(parse_lenient_json(line, where), files, where);
  }
  std::vector<CoveredFile> out;
  for (auto& [path, lines] : files)
    out.push_back({path, {lines.executed.begin(), lines.executed.end()},
                   {lines.instrumented.begin(), lines.instrumented.end()}, uninstrumented_lines_that_ran(lines)});
  return out;
}

}  // namespace cobench::formats
