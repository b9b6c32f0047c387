#include "cmake/file_api.h"

#include <algorithm>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/shell_words.h"

namespace cobench::cmake::file_api {

namespace fs = std::filesystem;

fs::path reply_dir(const fs::path& build_dir) { return build_dir / ".cmake" / "api" / "v1" / "reply"; }

void write_query(const fs::path& build_dir) {
  nlohmann::json query = {{"requests",
                           {{{"kind", "codemodel"}, {"version", 2}},
                            {{"kind", "cmakeFiles"}, {"version", 1}},
                            {{"kind", "toolchains"}, {"version", 1}}}}};
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

std::vector<CacheEntry> cache_entries(const fs::path& build_dir) {
  std::vector<CacheEntry> out;
  std::ifstream cache(build_dir / "CMakeCache.txt");
  for (std::string line; std::getline(cache, line);) {
    if (line.empty() || line[0] == '#' || line[0] == '/') continue;  // comments and help texts
    const size_t colon = line.find(':'), equals = line.find('=');
    if (colon == std::string::npos || equals == std::string::npos || colon > equals) continue;
    out.push_back({line.substr(0, colon), line.substr(colon + 1, equals - colon - 1), line.substr(equals + 1)});
  }
  return out;
}

std::string cache_value(const fs::path& build_dir, const std::string& name) {
  for (const auto& entry : cache_entries(build_dir))
    if (entry.name == name) return entry.value;
  return {};
}

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

}  // namespace

Codemodel read_codemodel(const fs::path& build_dir) {
  Codemodel result;
  result.file = reply_object(build_dir, "codemodel", 2);
  nlohmann::json model = read_json(result.file);
  try {
    result.source_root = model.at("paths").at("source").get<std::string>();
    result.build_root = model.at("paths").at("build").get<std::string>();
    const nlohmann::json& configurations = model.at("configurations");
    if (configurations.empty())
      throw InfraError(fmt::format("{}: the codemodel has no configuration", result.file.string()));
    // Multi-config generators list every configuration; use the one being built.
    std::string wanted = lower(cache_value(build_dir, "CMAKE_BUILD_TYPE"));
    if (wanted.empty()) wanted = "release";
    result.configuration = configurations.front();
    for (const auto& c : configurations)
      if (lower(c.at("name").get<std::string>()) == wanted) result.configuration = c;
  } catch (const nlohmann::json::exception& e) {
    throw InfraError(fmt::format("{}: unexpected CMake File API content: {}", result.file.string(), e.what()));
  }
  return result;
}

std::optional<nlohmann::json> read_target(const fs::path& build_dir, const Codemodel& model, const std::string& name) {
  try {
    for (const auto& entry : model.configuration.at("targets"))
      if (entry.at("name") == name) return read_json(reply_dir(build_dir) / entry.at("jsonFile").get<std::string>());
  } catch (const nlohmann::json::exception& e) {
    throw InfraError(fmt::format("{}: unexpected CMake File API content: {}", model.file.string(), e.what()));
  }
  return std::nullopt;
}

std::vector<std::string> command_words(const std::string& fragment) {
  auto split = split_shell_words(fragment);
  if (!split.problem.empty())
    throw InfraError(fmt::format("unexpected CMake File API command fragment '{}': {}", fragment, split.problem));
  return std::move(split.words);
}

}  // namespace cobench::cmake::file_api
