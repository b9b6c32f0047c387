#pragma once
// Hand-made benchmark targets over generated source trees.
#include <filesystem>
#include <string>
#include <vector>

#include "cmake/cmake.h"

namespace cobench::select::testing {

/// A target as the File API would describe it: absolute sources and include dirs.
inline cmake::BenchmarkTarget make_target(const std::filesystem::path& root, const std::string& name,
                                          const std::vector<std::string>& sources,
                                          const std::vector<std::string>& include_dirs = {}) {
  cmake::BenchmarkTarget t;
  t.name = name;
  t.artifact = root / "build" / name;
  for (const auto& s : sources) t.sources.push_back(root / s);
  for (const auto& d : include_dirs) t.include_dirs.push_back(std::filesystem::path(d).is_absolute() ? std::filesystem::path(d) : root / d);
  t.recognised = true;
  return t;
}

}  // namespace cobench::select::testing
