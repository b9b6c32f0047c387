#pragma once
// Whole-file reads and writes with errors that name the path.
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace cobench {

/// Says that cobench is about to write the file at `path` (or has a child
/// process write it there): the report folder's manifest (job/output_dir.h)
/// records each file of the folder this way, as it is written, so that a later
/// job replaces exactly those. write_file_atomic() and append_line_durable()
/// say it themselves, and so does process::run for the files it captures
/// output into; a path a child is told to write (--benchmark_out=PATH) is said
/// where it is chosen.
void note_written(const std::filesystem::path& path);

/// Who note_written() tells (one at a time); an empty function: nobody.
void set_written_observer(std::function<void(const std::filesystem::path&)> observer);

/// Reads a whole file; throws InputError("PATH: cannot read: REASON").
std::string read_file(const std::filesystem::path& path);

/// Writes atomically (temp file + rename) so a killed job never leaves half a report.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

/// Creates a new, uniquely named folder `<parent>/<prefix>XXXXXX` (parent
/// created when absent) and returns its path; InfraError when it cannot.
std::filesystem::path make_unique_dir(const std::filesystem::path& parent, const std::string& prefix);

/// Creates `path` and its parents now, before any long work that would write
/// there; throws InputError("FLAG PATH: cannot create the report folder: REASON").
void create_report_folder(const std::filesystem::path& path, const std::string& flag);

/// Creates a new, uniquely named folder `$TMPDIR/<prefix>XXXXXX` (/tmp when
/// TMPDIR is unset or empty) and returns its canonical path; InfraError when it cannot.
std::filesystem::path make_temp_dir(const std::string& prefix);

/// Removes its paths (recursively) when it goes out of scope, however the
/// scope is left: a command's throw-away repository, worktrees and builds.
/// Best effort: a path that cannot be removed is left, never an error.
class RemoveOnExit {
 public:
  explicit RemoveOnExit(std::vector<std::filesystem::path> paths) : paths_(std::move(paths)) {}
  ~RemoveOnExit();
  /// Removes nothing after all (the user asked to keep it, or a failure is to be looked into).
  void keep() { paths_.clear(); }
  RemoveOnExit(const RemoveOnExit&) = delete;
  RemoveOnExit& operator=(const RemoveOnExit&) = delete;

 private:
  std::vector<std::filesystem::path> paths_;
};

/// Appends one line and flushes it to disk: results.jsonl must survive a kill.
void append_line_durable(const std::filesystem::path& path, std::string_view line);

}  // namespace cobench
