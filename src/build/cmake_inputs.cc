// The project's own CMake files, for selection's "a CMake change selects
// everything" rule.
#include <fmt/format.h>

#include "build/build.h"
#include "build/file_api.h"
#include "core/errors.h"

namespace cobench::build {

std::vector<std::filesystem::path> cmake_input_files(const std::filesystem::path& build_dir) {
  std::filesystem::path file = file_api::reply_object(build_dir, "cmakeFiles", 1);
  nlohmann::json reply = file_api::read_json(file);
  try {
    std::filesystem::path source_root = reply.at("paths").at("source").get<std::string>();
    std::vector<std::filesystem::path> inputs;
    for (const auto& input : reply.at("inputs")) {
      // CMake's own modules and files outside the tree cannot change in a diff;
      // generated ones live in the build folder.
      if (input.value("isCMake", false) || input.value("isExternal", false) || input.value("isGenerated", false))
        continue;
      inputs.push_back(file_api::absolute_from(source_root, input.at("path").get<std::string>()));
    }
    return inputs;
  } catch (const nlohmann::json::exception& e) {
    throw InfraError(fmt::format("{}: unexpected CMake File API content: {}", file.string(), e.what()));
  }
}

}  // namespace cobench::build
