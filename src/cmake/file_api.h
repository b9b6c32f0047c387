#pragma once
// Internal to src/build: the CMake File API's files (query and reply), with
// errors that name the reply file CMake wrote.
#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace cobench::cmake::file_api {

/// Writes BUILD/.cmake/api/v1/query/client-cobench/query.json asking for
/// codemodel v2 and cmakeFiles v1 (the build graph and the CMake inputs).
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

}  // namespace cobench::cmake::file_api
