#pragma once
// What a changed file means for selection, before any include graph:
// ignorable, a change that invalidates the mapping (select all), or code.
#include <string>
#include <vector>

#include "config/config.h"

namespace cobench::select {

/// The class of one changed path and, for "all", why.
struct ChangeClass {
  enum Kind { Code, Ignored, All };
  Kind kind = Code;
  std::string reason;  ///< for All: "CMake input benchmarks/CMakeLists.txt changed"; for Ignored: the glob
};

/// What the classifier needs to know about the benchmark project.
struct ClassifyContext {
  std::vector<std::string> cmake_inputs;  ///< repo-relative CMake files configure read; empty: guess by name
  std::string source_dir;                 ///< repo-relative CMake project folder ("" = root)
  const config::SelectConfig* select = nullptr;
};

/// Classifies a repo-relative path. Order: CMake inputs of the benchmark
/// project and cobench.toml (always all), then `always_all` globs, then
/// `ignore` globs, else code.
ChangeClass classify_change(const std::string& path, const ClassifyContext& context);

}  // namespace cobench::select
