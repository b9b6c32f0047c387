#include "cmake/logged_run.h"

#include <fstream>
#include <sstream>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"

namespace cobench::cmake::detail {

process::Result run_logged(const std::vector<std::string>& argv, const std::filesystem::path& log_path,
                           const std::filesystem::path& cwd, const std::optional<std::vector<std::string>>& env,
                           const std::vector<std::pair<std::string, std::string>>& env_overrides) {
  process::Command command;
  command.argv = argv;
  command.cwd = cwd;
  command.env = env;
  command.env_overrides = env_overrides;
  command.merge_stderr_into_stdout = true;  // one stream keeps compiler errors next to the step that failed
  auto result = process::run(command);
  if (!log_path.empty()) {
    std::error_code ec;
    if (log_path.has_parent_path()) std::filesystem::create_directories(log_path.parent_path(), ec);
    note_written(log_path);
    std::ofstream log(log_path, std::ios::app | std::ios::binary);
    // The build's output is published with the report folder: no credential in it.
    log << "$ " << (cwd.empty() ? "" : "cd " + process::quote_command_line({cwd.string()}) + " && ")
        << process::quote_command_line(argv) << '\n' << secrets::scrub(result.out);
    if (!result.out.empty() && result.out.back() != '\n') log << '\n';
    if (!result.ok()) log << "# " << process::describe(result) << '\n';
    if (!log) throw InfraError(log_path.string() + ": cannot write the build log");
  }
  if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
  return result;
}

std::string indented_tail(const std::string& text, size_t max_lines) {
  std::istringstream lines(process::tail_lines(text, max_lines));
  std::string out;
  for (std::string line; std::getline(lines, line);) out += "  " + line + "\n";
  if (!out.empty()) out.pop_back();
  return out;
}

}  // namespace cobench::cmake::detail
