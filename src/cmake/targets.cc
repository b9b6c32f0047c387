// Target discovery: which executables of the codemodel-v2 reply are programs
// of the job's benchmark framework, with the sources and flags selection needs.
#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cmake/cmake.h"
#include "cmake/file_api.h"
#include "core/errors.h"

namespace cobench::cmake {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using file_api::Codemodel;

bool is_under(const fs::path& path, const fs::path& dir) {
  auto rel = path.lexically_relative(dir);
  return !rel.empty() && *rel.begin() != "..";
}

/// Google Benchmark's own source folder when it is built in this tree
/// (add_subdirectory / FetchContent), so its own tests can be told apart
/// from the project's benchmarks. Empty when it comes from the system, or
/// when the project being configured is Google Benchmark itself.
fs::path vendored_benchmark_dir(const Codemodel& model) {
  const json& config = model.configuration;
  for (const auto& target : config.at("targets")) {
    if (target.at("name") != "benchmark") continue;
    const json& project = config.at("projects").at(target.at("projectIndex").get<size_t>());
    size_t root_dir = project.at("directoryIndexes").at(0).get<size_t>();
    fs::path dir =
        file_api::absolute_from(model.source_root, config.at("directories").at(root_dir).at("source").get<std::string>());
    return dir == model.source_root.lexically_normal() ? fs::path() : dir;
  }
  return {};
}

void append_unique(std::vector<fs::path>& list, const fs::path& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

void append_unique(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

/// Fills sources, include folders and defines from a target's reply file.
template <typename Compiled>
void read_compile_info(const Codemodel& model, const json& target, Compiled& out) {
  for (const auto& source : target.value("sources", json::array()))
    if (source.contains("compileGroupIndex"))
      out.sources.push_back(file_api::absolute_from(model.source_root, source.at("path").get<std::string>()));
  for (const auto& group : target.value("compileGroups", json::array())) {
    for (const auto& include : group.value("includes", json::array()))
      append_unique(out.include_dirs, file_api::absolute_from(model.source_root, include.at("path").get<std::string>()));
    for (const auto& define : group.value("defines", json::array()))
      append_unique(out.defines, define.at("define").get<std::string>());
  }
}

/// Whether `target` is defined inside Google Benchmark's own source folder (`vendored`, empty when it
/// comes from the system): its library, and its (and its gtest's) tests.
bool is_vendored_benchmarks(const Codemodel& model, const json& target, const fs::path& vendored) {
  if (vendored.empty()) return false;
  return is_under(file_api::absolute_from(model.source_root, target.at("paths").at("source").get<std::string>()),
                  vendored);
}

bool compiles_library(const json& target) {
  static const std::set<std::string> kinds = {"STATIC_LIBRARY", "SHARED_LIBRARY", "MODULE_LIBRARY", "OBJECT_LIBRARY"};
  return kinds.count(target.at("type").get<std::string>()) > 0;
}

/// Every target's reply file, read once, by id. `current` names the file last
/// read, for the message when its content is not what the File API promises.
class TargetReplies {
 public:
  TargetReplies(const fs::path& build_dir, const json& config, fs::path& current)
      : build_dir_(build_dir), current_(&current) {
    for (const auto& entry : config.at("targets"))
      files_[entry.at("id").get<std::string>()] = entry.at("jsonFile").get<std::string>();
  }

  const json& of(const std::string& id) {
    if (auto it = read_.find(id); it != read_.end()) return it->second;
    *current_ = file_api::reply_dir(build_dir_) / files_.at(id);
    return read_[id] = file_api::read_json(*current_);
  }

  bool known(const std::string& id) const { return files_.count(id) > 0; }

 private:
  fs::path build_dir_;
  std::map<std::string, std::string> files_;
  std::map<std::string, json> read_;
  fs::path* current_;
};

/// The libraries `target` depends on, breadth first through their own dependencies.
std::vector<LinkedLibrary> linked_libraries(const Codemodel& model, const json& target, TargetReplies& replies,
                                            const fs::path& vendored) {
  std::vector<LinkedLibrary> out;
  std::set<std::string> seen;
  std::vector<std::string> queue;
  auto enqueue = [&](const json& from) {
    for (const auto& dependency : from.value("dependencies", json::array()))
      if (const auto id = dependency.at("id").get<std::string>(); replies.known(id) && seen.insert(id).second)
        queue.push_back(id);
  };
  enqueue(target);
  for (size_t i = 0; i < queue.size(); ++i) {
    const json& dependency = replies.of(queue[i]);
    if (!compiles_library(dependency) || is_vendored_benchmarks(model, dependency, vendored)) continue;
    LinkedLibrary library;
    library.name = dependency.at("name").get<std::string>();
    read_compile_info(model, dependency, library);
    if (!library.sources.empty()) out.push_back(std::move(library));
    enqueue(dependency);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

/// The facts a runner recognises its framework's programs by.
cmake::TargetFacts facts_of(const json& target, const std::map<std::string, std::string>& names_by_id,
                            const BenchmarkTarget& compiled) {
  cmake::TargetFacts facts;
  for (const auto& fragment : target.value("link", json::object()).value("commandFragments", json::array()))
    facts.link_fragments.push_back(fragment.at("fragment").get<std::string>());
  for (const auto& dependency : target.value("dependencies", json::array()))
    if (auto it = names_by_id.find(dependency.at("id").get<std::string>()); it != names_by_id.end())
      facts.dependencies.push_back(it->second);
  facts.sources = compiled.sources;
  return facts;
}

std::regex compile_pattern(const std::string& pattern) {
  try {
    return std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw InputError(fmt::format("invalid benchmark target pattern '{}': {}", pattern, e.what()));
  }
}

}  // namespace

std::vector<BenchmarkTarget> discover_targets(const fs::path& build_dir, const std::string& name_pattern,
                                              const Recognises& recognises) {
  std::optional<std::regex> pattern;
  if (!name_pattern.empty()) pattern = compile_pattern(name_pattern);
  fs::path current = file_api::reply_dir(build_dir);
  try {
    Codemodel model = file_api::read_codemodel(build_dir);
    const json& config = model.configuration;
    std::map<std::string, std::string> names_by_id;
    for (const auto& entry : config.at("targets"))
      names_by_id[entry.at("id").get<std::string>()] = entry.at("name").get<std::string>();
    fs::path vendored = vendored_benchmark_dir(model);

    TargetReplies replies(build_dir, config, current);
    std::vector<BenchmarkTarget> found;
    for (const auto& entry : config.at("targets")) {
      const json& target = replies.of(entry.at("id").get<std::string>());
      if (target.at("type") != "EXECUTABLE" || is_vendored_benchmarks(model, target, vendored)) continue;
      BenchmarkTarget result;
      result.name = target.at("name").get<std::string>();
      read_compile_info(model, target, result);
      result.recognised = recognises(facts_of(target, names_by_id, result));
      if (!result.recognised && !(pattern && std::regex_search(result.name, *pattern))) continue;
      const json& artifacts = target.value("artifacts", json::array());
      if (artifacts.empty()) continue;  // nothing to run
      result.artifact = file_api::absolute_from(model.build_root, artifacts.at(0).at("path").get<std::string>());
      result.libraries = linked_libraries(model, target, replies, vendored);
      found.push_back(std::move(result));
    }
    std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return found;
  } catch (const json::exception& e) {
    throw InfraError(fmt::format("{}: unexpected CMake File API content: {}", current.string(), e.what()));
  }
}

}  // namespace cobench::cmake
