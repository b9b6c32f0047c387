#include "run/alloc_preload.h"

#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace cobench::run {

std::vector<std::filesystem::path> alloc_preload_candidates() {
  namespace fs = std::filesystem;
  std::vector<fs::path> out;
  if (const char* explicit_path = std::getenv("COBENCH_ALLOC_PRELOAD"); explicit_path && *explicit_path)
    out.emplace_back(explicit_path);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path dir = exe.parent_path();
    out.push_back(dir / kAllocPreloadName);
    out.push_back(dir.parent_path() / "lib" / "cobench" / kAllocPreloadName);
    out.push_back(dir.parent_path() / "lib" / kAllocPreloadName);
  }
#ifdef COBENCH_ALLOC_PRELOAD_BUILD_PATH
  out.emplace_back(COBENCH_ALLOC_PRELOAD_BUILD_PATH);  // tests run from their own folders
#endif
  return out;
}

std::optional<std::filesystem::path> find_alloc_preload() {
  for (const auto& path : alloc_preload_candidates()) {
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return std::filesystem::absolute(path);
  }
  return std::nullopt;
}

std::string describe_missing_alloc_preload() {
  std::vector<std::string> folders;
  for (const auto& path : alloc_preload_candidates()) folders.push_back(path.parent_path().string());
  return fmt::format("{} not found (looked in {}; set COBENCH_ALLOC_PRELOAD)", kAllocPreloadName,
                     fmt::join(folders, ", "));
}

}  // namespace cobench::run
