#pragma once
// Internal to src/build: the CMake File API's files (query and reply), with
// errors that name the reply file CMake wrote.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cobench::cmake::file_api {

/// Writes BUILD/.cmake/api/v1/query/client-cobench/query.json asking for
/// codemodel v2, cmakeFiles v1 and toolchains v1 (the build graph, the CMake
/// inputs and the compilers).
void write_query(const std::filesystem::path& build_dir);

/// Parses one reply file; throws InfraError("FILE: ...") when unreadable.
nlohmann::json read_json(const std::filesystem::path& path);

/// The reply file of `kind` (e.g. "codemodel") with that major version, from
/// the newest reply index; throws InfraError when CMake did not write one.
std::filesystem::path reply_object(const std::filesystem::path& build_dir, const std::string& kind, int major);

/// The reply folder, where every jsonFile lives.
std::filesystem::path reply_dir(const std::filesystem::path& build_dir);

/// A File API path made absolute: they are relative to `base` unless outside it.
std::filesystem::path absolute_from(const std::filesystem::path& base, const std::string& path);

/// The configuration of the codemodel-v2 reply that is being built, with the
/// folders its relative paths start from.
struct Codemodel {
  std::filesystem::path source_root;  ///< the top-level source folder
  std::filesystem::path build_root;   ///< the top-level build folder
  std::filesystem::path file;         ///< the codemodel reply file, for messages
  nlohmann::json configuration;       ///< the one matching the cached CMAKE_BUILD_TYPE (Release when unset)
};

/// Reads the codemodel reply; throws InfraError naming the reply file.
Codemodel read_codemodel(const std::filesystem::path& build_dir);

/// The reply of the target named `name` in `model`; nullopt when there is none.
std::optional<nlohmann::json> read_target(const std::filesystem::path& build_dir, const Codemodel& model,
                                          const std::string& name);

/// One CMakeCache.txt entry, `NAME:TYPE=VALUE`.
struct CacheEntry {
  std::string name;
  std::string type;  ///< whatever set() or the command line gave: BOOL, STRING, PATH, INTERNAL, ...
  std::string value;
};

/// Every entry of `build_dir`'s CMakeCache.txt in its order; empty when it is not configured.
std::vector<CacheEntry> cache_entries(const std::filesystem::path& build_dir);

/// The value of a CMakeCache.txt entry of any type ("" when absent or not configured).
std::string cache_value(const std::filesystem::path& build_dir, const std::string& name);

/// The arguments in one command-line fragment of the reply ("-O3 -DNDEBUG",
/// "\"/a b/libx.a\""), split and unquoted the way a POSIX shell would.
std::vector<std::string> command_words(const std::string& fragment);

}  // namespace cobench::cmake::file_api
