#include "run/command_runner.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/files.h"
#include "core/secrets.h"
#include "core/shell_words.h"
#include "run/process_run.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> split_json(const std::string& text, const std::string& what) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw InputError(fmt::format("{} '{}': not a JSON array of strings (byte {})", what, text, e.byte));
  }
  if (!json.is_array()) throw InputError(fmt::format("{} '{}': not a JSON array of strings", what, text));
  std::vector<std::string> words;
  for (const auto& item : json) {
    if (!item.is_string()) throw InputError(fmt::format("{} '{}': element {} is not a string", what, text, words.size()));
    words.push_back(item.get<std::string>());
  }
  return words;
}

}  // namespace

std::vector<std::string> split_command_line(const std::string& text, const std::string& what) {
  size_t first = text.find_first_not_of(" \t\n");
  std::vector<std::string> words;
  if (first != std::string::npos && text[first] == '[') {
    words = split_json(text, what);
  } else {
    auto split = split_shell_words(text);
    if (!split.problem.empty()) throw InputError(fmt::format("{} '{}': {}", what, text, split.problem));
    words = std::move(split.words);
  }
  if (words.empty() || words[0].empty()) throw InputError(fmt::format("{} '{}': empty command", what, text));
  return words;
}

std::vector<CommandSpec> parse_commands(const std::vector<std::string>& texts, const std::string& flag) {
  std::vector<CommandSpec> out;
  for (const auto& text : texts) {
    CommandSpec spec{text, split_command_line(text, flag)};
    for (const auto& other : out)
      if (other.label == spec.label) throw InputError(fmt::format("{} '{}' is given twice", flag, text));
    out.push_back(std::move(spec));
  }
  return out;
}

CommandRunner::CommandRunner(ProcessSettings settings, std::vector<CommandSpec> commands,
                             std::vector<CommandSpec> prepare)
    : settings_(std::move(settings)), commands_(std::move(commands)), prepare_(std::move(prepare)) {}

std::vector<Unit> CommandRunner::prepare(const SideContext& side) {
  for (const auto& step : prepare_) {
    const auto [log, rel] = run_log_path(settings_.out_dir, "prepare", side.side, 0);
    process::Command command;
    command.argv = step.argv;
    command.cwd = side.worktree;
    command.env = settings_.env;
    command.stdout_path = log;
    command.merge_stderr_into_stdout = true;
    const auto result = process::run(command);
    secrets::scrub_file(log);  // published with the report folder
    if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();
    if (!result.ok()) {
      throw InfraError(fmt::format("{}: --prepare '{}' in {}: {} (log: {}): {}", to_string(side.side), step.label,
                                   side.worktree.string(), process::describe(result), log.string(),
                                   process::tail_lines(read_file(log), 1)));
    }
  }
  return {Unit{"commands", {}, side.worktree}};
}

RunRecord CommandRunner::run_once(const Unit& unit, Side side, const std::string& sha, int run_index,
                                   const RunScope& scope) {
  RunRecord record = new_record(unit.name, side, sha, run_index);
  const auto [log, rel] = run_log_path(settings_.out_dir, unit.name, side, run_index);
  std::string transcript;
  int failures = 0;
  for (const auto& spec : commands_) {
    const auto& only = scope.benchmarks;
    if (!only.empty() && std::find(only.begin(), only.end(), spec.label) == only.end()) continue;  // decided
    const process::Command command = measured_command(settings_, spec.argv, unit.cwd);
    const auto result = process::run(command);
    transcript += fmt::format("$ {}\n{}", process::quote_command_line(spec.argv), result.out);
    RunRecord attempt = new_record(unit.name, side, sha, run_index);
    if (!record_outcome(command, result, attempt)) {
      if (attempt.interrupted) return attempt;
      record.errors[spec.label] = attempt.detail;
      record.status = attempt.status;  // kept only when every command failed
      record.detail = attempt.detail;
      record.command = attempt.command;
      record.output_tail = attempt.output_tail;
      ++failures;
      continue;
    }
    record.wall_seconds += result.wall_seconds;
    record.samples[spec.label] = {{"real_ns", result.wall_seconds * 1e9},
                                  {"cpu_ns", (result.user_seconds + result.sys_seconds) * 1e9},
                                  {"max_rss_bytes", static_cast<double>(result.max_rss_kib) * 1024}};
  }
  if (failures == 0 || !record.samples.empty()) {
    record.status = "ok";
    record.command.clear();
    record.output_tail.clear();
  }
  if (!transcript.empty()) {
    write_file_atomic(log, secrets::scrub(transcript));
    record.log = rel;
  }
  return record;
}

std::vector<std::string> CommandRunner::list(const Unit&) {
  std::vector<std::string> names;
  for (const auto& spec : commands_) names.push_back(spec.label);
  return names;
}

}  // namespace cobench::run
