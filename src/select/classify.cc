#include "select/classify.h"

#include <algorithm>

#include "core/glob.h"

namespace cobench::select {
namespace {

std::string basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool is_cmake_file(const std::string& path) {
  std::string name = basename(path);
  return name == "CMakeLists.txt" || ends_with(name, ".cmake") || ends_with(name, ".cmake.in");
}

// Without a File API reply (or for a project that lists none), any CMake file
// in the project's folder or below may be add_subdirectory'd or include()d.
bool under_project(const std::string& path, const std::string& source_dir) {
  if (!is_cmake_file(path)) return false;
  return source_dir.empty() || path.compare(0, source_dir.size() + 1, source_dir + "/") == 0;
}

}  // namespace

ChangeClass classify_change(const std::string& path, const ClassifyContext& context) {
  const auto& inputs = context.cmake_inputs;
  if (std::find(inputs.begin(), inputs.end(), path) != inputs.end())
    return {ChangeClass::All, "CMake input " + path + " changed"};
  if (inputs.empty() && under_project(path, context.source_dir))
    return {ChangeClass::All, "CMake file " + path + " changed"};
  if (basename(path) == "cobench.toml") return {ChangeClass::All, path + " changed"};
  if (context.select) {
    if (const std::string* glob = first_match(context.select->always_all, path))
      return {ChangeClass::All, path + " matches [select] always_all \"" + *glob + "\""};
    if (const std::string* glob = first_match(context.select->ignore, path)) return {ChangeClass::Ignored, *glob};
  }
  return {ChangeClass::Code, {}};
}

}  // namespace cobench::select
