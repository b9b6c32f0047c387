// The project's own CMake files, for selection's "a CMake change selects
// everything" rule.
#include <optional>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "cmake/cmake.h"
#include "cmake/file_api.h"
#include "core/errors.h"

namespace cobench::cmake {

namespace fs = std::filesystem;

namespace {

/// Inputs that are neither CMake's own modules nor generated; external ones
/// (outside the source folder) only when under `within`.
std::vector<fs::path> read_inputs(const fs::path& build_dir, const std::optional<fs::path>& within) {
  fs::path file = file_api::reply_object(build_dir, "cmakeFiles", 1);
  nlohmann::json reply = file_api::read_json(file);
  try {
    fs::path source_root = reply.at("paths").at("source").get<std::string>();
    fs::path root = within ? file_api::absolute_from(fs::current_path(), within->string()) : fs::path();
    std::vector<fs::path> inputs;
    for (const auto& input : reply.at("inputs")) {
      // CMake's modules cannot change in a diff; generated files live in the build folder.
      if (input.value("isCMake", false) || input.value("isGenerated", false)) continue;
      fs::path path = file_api::absolute_from(source_root, input.at("path").get<std::string>());
      if (input.value("isExternal", false)) {
        auto rel = path.lexically_relative(root);
        if (!within || rel.empty() || *rel.begin() == "..") continue;
      }
      inputs.push_back(std::move(path));
    }
    return inputs;
  } catch (const nlohmann::json::exception& e) {
    throw InfraError(fmt::format("{}: unexpected CMake File API content: {}", file.string(), e.what()));
  }
}

}  // namespace

std::vector<fs::path> cmake_input_files(const fs::path& build_dir) { return read_inputs(build_dir, std::nullopt); }

std::vector<fs::path> cmake_input_files(const fs::path& build_dir, const fs::path& within) {
  return read_inputs(build_dir, within);
}

}  // namespace cobench::cmake
