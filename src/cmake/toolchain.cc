// Which compiler a build folder uses: the reach pass needs gcc's coverage, the
// shared parent links with the compiler of the target's language.
#include <fstream>
#include <optional>
#include <regex>

#include "cmake/cmake.h"
#include "cmake/file_api.h"

namespace cobench::cmake {

namespace fs = std::filesystem;

namespace {

std::optional<Compiler> from_toolchains_reply(const fs::path& build_dir, const std::string& language) {
  try {
    const nlohmann::json reply = file_api::read_json(file_api::reply_object(build_dir, "toolchains", 1));
    for (const auto& toolchain : reply.at("toolchains")) {
      if (toolchain.value("language", "") != language) continue;
      const auto& compiler = toolchain.at("compiler");
      Compiler out;
      out.id = compiler.value("id", "");
      out.version = compiler.value("version", "");
      out.path = compiler.value("path", "");
      return out;
    }
  } catch (const InfraError&) {
    // an older CMake writes no toolchains reply: the compiler file below says the same
  } catch (const nlohmann::json::exception&) {
  }
  return std::nullopt;
}

/// set(CMAKE_CXX_COMPILER_ID "GNU") and friends from CMakeFiles/<version>/CMake<LANG>Compiler.cmake.
Compiler from_compiler_file(const fs::path& build_dir, const std::string& language) {
  Compiler out;
  std::error_code ec;
  const std::string variable = "CMAKE_" + language + "_COMPILER";
  const std::regex setting("^set\\((" + variable + "(_ID|_VERSION)?) \"([^\"]*)\"\\)");
  for (fs::directory_iterator it(build_dir / "CMakeFiles", ec), end; !ec && it != end; it.increment(ec)) {
    std::ifstream in(it->path() / ("CMake" + language + "Compiler.cmake"));
    for (std::string line; std::getline(in, line);) {
      std::smatch match;
      if (!std::regex_search(line, match, setting)) continue;
      if (match[1] == variable + "_ID") out.id = match[3];
      else if (match[1] == variable + "_VERSION") out.version = match[3];
      else out.path = match[3].str();
    }
    if (!out.id.empty()) break;
  }
  return out;
}

}  // namespace

Compiler compiler(const fs::path& build_dir, const std::string& language) {
  if (auto found = from_toolchains_reply(build_dir, language)) return *found;
  return from_compiler_file(build_dir, language);
}

}  // namespace cobench::cmake
