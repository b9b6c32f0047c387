#include "cmake/file_api.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"

namespace cobench::cmake::file_api {

namespace fs = std::filesystem;

fs::path reply_dir(const fs::path& build_dir) { return build_dir / ".cmake" / "api" / "v1" / "reply"; }

void write_query(const fs::path& build_dir) {
  nlohmann::json query = {{"requests",
                           {{{"kind", "codemodel"}, {"version", 2}}, {{"kind", "cmakeFiles"}, {"version", 1}}}}};
  write_file_atomic(build_dir / ".cmake" / "api" / "v1" / "query" / "client-cobench" / "query.json",
                    query.dump(2) + "\n");
}

nlohmann::json read_json(const fs::path& path) {
  std::string text;
  try {
    text = read_file(path);
  } catch (const InputError& e) {
    throw InfraError(e.what());  // CMake's own output missing is the tool failing, not the user
  }
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InfraError(fmt::format("{}: invalid CMake File API reply: {}", path.string(), e.what()));
  }
}

fs::path reply_object(const fs::path& build_dir, const std::string& kind, int major) {
  fs::path dir = reply_dir(build_dir);
  std::vector<fs::path> indexes;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::string name = it->path().filename().string();
    if (name.starts_with("index-") && name.ends_with(".json")) indexes.push_back(it->path());
  }
  if (indexes.empty())
    throw InfraError(fmt::format("{}: no CMake File API reply (was the build folder configured by cmake >= 3.14?)",
                                 dir.string()));
  // Index names carry a timestamp, so the lexicographically last one is the newest.
  fs::path index = *std::max_element(indexes.begin(), indexes.end());
  nlohmann::json json = read_json(index);
  try {
    for (const auto& object : json.at("objects"))
      if (object.at("kind") == kind && object.at("version").at("major") == major)
        return dir / object.at("jsonFile").get<std::string>();
  } catch (const nlohmann::json::exception& e) {
    throw InfraError(fmt::format("{}: unexpected CMake File API index: {}", index.string(), e.what()));
  }
  throw InfraError(fmt::format("{}: CMake wrote no {} v{} reply (cmake too old for this query?)", index.string(),
                               kind, major));
}

fs::path absolute_from(const fs::path& base, const std::string& path) {
  fs::path p(path);
  p = (p.is_absolute() ? p : base / p).lexically_normal();
  // "dir/sub/.." normalises to "dir/"; callers compare paths, so drop the trailing separator.
  if (!p.has_filename() && p.has_relative_path()) p = p.parent_path();
  return p;
}

}  // namespace cobench::cmake::file_api
