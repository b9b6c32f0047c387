// What a configured project left switched off that names benchmarks: the
// usual reason a project with benchmarks shows cobench none.
#include <algorithm>
#include <cctype>
#include <set>

#include "cmake/cmake.h"
#include "cmake/file_api.h"

namespace cobench::cmake {

namespace fs = std::filesystem;

namespace {

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::toupper(c); });
  return text;
}

/// CMake's false constants (if() documentation): OFF, FALSE, NO, N, 0, IGNORE, NOTFOUND, "".
bool is_false(const std::string& value) {
  static const std::set<std::string> kFalse = {"OFF", "FALSE", "NO", "N", "0", "IGNORE", "NOTFOUND", ""};
  const std::string v = upper(value);
  return kFalse.count(v) > 0 || (v.size() >= 9 && v.compare(v.size() - 9, 9, "-NOTFOUND") == 0);
}

}  // namespace

std::vector<std::string> benchmark_options_off(const fs::path& build_dir) {
  std::vector<std::string> out;
  for (const auto& entry : file_api::cache_entries(build_dir)) {
    const std::string key = upper(entry.name);
    // Google Benchmark's own switches (when it is built in the tree) and CMake's are not the project's.
    if (entry.type != "BOOL" || key.find("BENCH") == std::string::npos || key.rfind("BENCHMARK_", 0) == 0 ||
        key.rfind("CMAKE_", 0) == 0)
      continue;
    if (is_false(entry.value)) out.push_back(entry.name);
  }
  return out;
}

}  // namespace cobench::cmake
