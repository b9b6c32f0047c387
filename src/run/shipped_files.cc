#include "run/shipped_files.h"

#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "loop/loop.h"

// Where this build put them (tests run from their own folders); CMake defines these.
#ifndef COBENCH_ALLOC_PRELOAD_BUILD_PATH
#define COBENCH_ALLOC_PRELOAD_BUILD_PATH ""
#endif
#ifndef COBENCH_CALLGRIND_PRELOAD_BUILD_PATH
#define COBENCH_CALLGRIND_PRELOAD_BUILD_PATH ""
#endif
#ifndef COBENCH_MACHINE_CONTROL_BUILD_PATH
#define COBENCH_MACHINE_CONTROL_BUILD_PATH ""
#endif

namespace cobench::run {

const ShippedFile& alloc_preload() {
  static const ShippedFile library{"libcobench_alloc_preload.so", "COBENCH_ALLOC_PRELOAD",
                                      COBENCH_ALLOC_PRELOAD_BUILD_PATH};
  return library;
}

const ShippedFile& callgrind_preload() {
  static const ShippedFile library{loop::kCallgrindPreloadName, "COBENCH_CALLGRIND_PRELOAD",
                                      COBENCH_CALLGRIND_PRELOAD_BUILD_PATH};
  return library;
}

const ShippedFile& machine_control_program() {
  // Not COBENCH_MACHINE_CONTROL: that is the run.machine_control switch's variable.
  static const ShippedFile program{"cobench_machine_control", "COBENCH_MACHINE_CONTROL_PROGRAM",
                                   COBENCH_MACHINE_CONTROL_BUILD_PATH};
  return program;
}

std::vector<std::filesystem::path> shipped_candidates(const ShippedFile& library) {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  if (const char* explicit_path = std::getenv(library.variable); explicit_path && *explicit_path)
    out.emplace_back(explicit_path);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    out.push_back(dir / library.file_name);
    out.push_back(dir.parent_path() / "lib" / "cobench" / library.file_name);
    out.push_back(dir.parent_path() / "lib" / library.file_name);
  }
  if (*library.build_path) out.emplace_back(library.build_path);
  return out;
}

std::optional<std::filesystem::path> find_shipped(const ShippedFile& library) {
  for (const auto& path : shipped_candidates(library)) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return std::filesystem::absolute(path);
  }
  return std::nullopt;
}

std::string describe_missing(const ShippedFile& library) {
  std::vector<std::string> folders;
  for (const auto& path : shipped_candidates(library)) folders.push_back(path.parent_path().string());
  return fmt::format("{} not found (looked in {}; set {})", library.file_name, fmt::join(folders, ", "),
                     library.variable);
}

std::vector<std::string> with_preload(std::vector<std::string> env, const std::filesystem::path& library) {
  const std::string key = "LD_PRELOAD=";
  std::string preload = key + library.string();
  for (auto it = env.begin(); it != env.end();) {
    if (it->rfind(key, 0) == 0) {
      if (it->size() > key.size()) preload += ":" + it->substr(key.size());
      it = env.erase(it);
    } else {
      ++it;
    }
  }
  env.push_back(preload);
  return env;
}

}  // namespace cobench::run
