// Configuring one side: cmake -S -B with the File API query in place.
#include <cstdlib>

#include <fmt/format.h>

#include "cmake/cmake.h"
#include "cmake/file_api.h"
#include "cmake/logged_run.h"
#include "core/errors.h"
#include "process/process.h"

namespace cobench::cmake {

namespace fs = std::filesystem;

namespace {

bool chooses_generator(const std::vector<std::string>& cmake_args) {
  for (const auto& arg : cmake_args)
    if (arg.starts_with("-G")) return true;
  return false;
}

}  // namespace

void configure(const BuildSettings& settings) {
  std::error_code ec;
  if (!fs::is_regular_file(settings.source_dir / "CMakeLists.txt", ec))
    throw InputError(fmt::format("{}: no CMakeLists.txt here (set the CMake project folder with --source-dir)",
                                 settings.source_dir.string()));
  fs::create_directories(settings.build_dir);
  file_api::write_query(settings.build_dir);
  std::vector<std::string> argv = {"cmake", "-S", settings.source_dir.string(), "-B", settings.build_dir.string()};
  // Ninja only where nobody chose otherwise: a folder made with another
  // generator cannot switch, and $CMAKE_GENERATOR or -G is the user's choice.
  std::string existing = file_api::cache_value(settings.build_dir, "CMAKE_GENERATOR");
  bool user_choice = chooses_generator(settings.cmake_args) || std::getenv("CMAKE_GENERATOR");
  if (settings.prefer_ninja && !user_choice && (existing.empty() || existing == "Ninja") &&
      process::find_on_path("ninja")) {
    argv.push_back("-G");
    argv.push_back("Ninja");
  }
  if (!settings.build_type.empty()) argv.push_back("-DCMAKE_BUILD_TYPE=" + settings.build_type);
  argv.insert(argv.end(), settings.cmake_args.begin(), settings.cmake_args.end());
  auto result = detail::run_logged(argv, settings.log_path);
  if (!result.ok())
    throw InfraError(fmt::format("cmake configure failed ({}): {}\n{}", process::describe(result),
                                 process::quote_command_line(argv), detail::indented_tail(result.out, 30)));
}

}  // namespace cobench::cmake
