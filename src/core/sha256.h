#pragma once
// SHA-256 (FIPS 180-4), for recording which exact file a job measured with:
// the shared parent library's digest goes into results.jsonl.
#include <filesystem>
#include <string>
#include <string_view>

namespace cobench {

/// The SHA-256 of `bytes`, as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

/// The SHA-256 of a file's contents; throws InputError("PATH: cannot read: ...").
std::string sha256_file(const std::filesystem::path& path);

}  // namespace cobench
