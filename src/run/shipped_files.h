#pragma once
// What cobench ships beside itself and uses at run time (the libraries it
// preloads into benchmark processes, the machine control program), and where
// they are: cobench's build tree and install layout both put them beside or
// below the executable.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cobench::run {

/// A file cobench ships and looks for at run time.
struct ShippedFile {
  const char* file_name;     ///< "libcobench_alloc_preload.so", "cobench_machine_control"
  const char* variable;      ///< the environment variable that names it explicitly
  const char* build_path;    ///< where this build put it; "" when it was not built
};

/// The counting allocator that allocation runs preload.
const ShippedFile& alloc_preload();

/// The library that fences callgrind to the benchmark loop in instruction runs.
const ShippedFile& callgrind_preload();

/// The machine control program run as both sides of every Google Benchmark job (src/control/).
const ShippedFile& machine_control_program();

/// Candidate paths in lookup order: $VARIABLE, next to the running
/// executable, <exe>/../lib/cobench, <exe>/../lib, the build tree.
std::vector<std::filesystem::path> shipped_candidates(const ShippedFile& library);

/// The first candidate that exists; nullopt when none does.
std::optional<std::filesystem::path> find_shipped(const ShippedFile& library);

/// "libX.so not found (looked in A, B, C; set VARIABLE)" for reports.
std::string describe_missing(const ShippedFile& library);

/// `env` ("KEY=VALUE" lines) with `library` first in LD_PRELOAD; an
/// LD_PRELOAD already there follows it.
std::vector<std::string> with_preload(std::vector<std::string> env, const std::filesystem::path& library);

}  // namespace cobench::run
