#pragma once
// Whole-file reads and writes with errors that name the path.
#include <filesystem>
#include <string>
#include <string_view>

namespace cobench {

/// Reads a whole file; throws InputError("PATH: cannot read: REASON").
std::string read_file(const std::filesystem::path& path);

/// Writes atomically (temp file + rename) so a killed job never leaves half a report.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Creates a new, uniquely named folder `<parent>/<prefix>XXXXXX` (parent
/// created when absent) and returns its path; InfraError when it cannot.
std::filesystem::path make_unique_dir(const std::filesystem::path& parent, const std::string& prefix);

/// Appends one line and flushes it to disk: results.jsonl must survive a kill.
void append_line_durable(const std::filesystem::path& path, std::string_view line);

}  // namespace cobench
