#include "run/process_run.h"

#include <cctype>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "core/text.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

// Enough of a failing run's output to see why (GB's "unrecognized command-line flag", a backtrace's head).
constexpr size_t kOutputTailLines = 5;
// What a record keeps of a line of text for people: it goes into every report, once per failed run.
constexpr size_t kRecordTextBytes = 2000;

}  // namespace

std::vector<Unit> executable_units(const SideContext& side) {
  std::vector<Unit> units;
  for (const auto& [name, executable] : side.executables)
    units.push_back(Unit{name, {executable.string()}, side.build_dir.empty() ? executable.parent_path() : side.build_dir});
  return units;
}

std::string safe_stem(const std::string& text) {
  std::string out;
  for (char c : text) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.') ? c : '_';
  return out;
}

RunRecord new_record(const std::string& target, Side side, const std::string& sha, int run_index) {
  RunRecord record;
  record.target = target;
  record.side = side;
  record.sha = sha;
  record.run = run_index;
  return record;
}

std::pair<fs::path, std::string> run_log_path(const fs::path& out_dir, const std::string& target, Side side,
                                              int run_index) {
  const fs::path rel = fs::path("logs") / fmt::format("{}-{}-{}.log", safe_stem(target), to_string(side), run_index);
  fs::create_directories((out_dir / rel).parent_path());
  return {out_dir / rel, rel.string()};
}

process::Command measured_command(const ProcessSettings& settings, std::vector<std::string> argv,
                                  const fs::path& cwd) {
  process::Command command;
  command.argv = std::move(argv);
  command.cwd = cwd;
  command.env = settings.env;
  command.cpu = settings.cpu;
  command.timeout_seconds = settings.run_timeout;
  command.own_cgroup = true;  // nothing a benchmark starts may run on into the next run
  command.merge_stderr_into_stdout = true;
  return command;
}

bool record_outcome(const process::Command& command, const process::Result& result, RunRecord& record) {
  secrets::scrub_file(command.stdout_path);  // the log is published with the report folder
  record.wall_seconds += result.wall_seconds;
  record.exit_code = result.exit_code;
  record.signal = result.outcome == process::Result::Outcome::Signaled ? result.signal : 0;
  if (result.outcome == process::Result::Outcome::Interrupted) {
    record.interrupted = true;
    record.status = "interrupted";
    return false;
  }
  if (result.ok()) return true;
  record.status = process::short_cause(result);
  // Scrubbed before it is cut: a credential cut in half would no longer be found when the record is written.
  record.detail = secrets::scrub_and_shorten(process::describe(result), kRecordTextBytes);
  record.command = process::quote_command_line(command.argv);
  std::string output = result.out + result.err;
  std::error_code ec;
  if (!command.stdout_path.empty() && std::filesystem::exists(command.stdout_path, ec)) {
    try {
      output = read_file(command.stdout_path);
    } catch (const InputError&) {
      // an unreadable log leaves the tail empty; the status still says what happened
    }
  }
  record.output_tail = secrets::scrub_and_shorten(process::tail_lines(output, kOutputTailLines), kRecordTextBytes);
  if (result.outcome == process::Result::Outcome::SpawnFailed)
    record.output_tail = secrets::scrub_and_shorten(result.spawn_error, kRecordTextBytes);
  return false;
}

}  // namespace cobench::run
