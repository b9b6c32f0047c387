#include "aggregate/failed_runs.h"

#include <map>

#include <fmt/format.h>

namespace cobench::aggregate {
namespace {

std::string phrase(const std::string& cause) {
  if (cause.rfind("SIG", 0) == 0 || cause.rfind("signal", 0) == 0) return "crashed (" + cause + ")";
  if (cause == "timeout") return "timed out";
  if (cause == "unparsable JSON") return "printed unparsable JSON";
  if (cause.rfind("exit", 0) == 0) return "failed (" + cause + ")";
  return cause;
}

}  // namespace

std::string describe_failed_run(const results::RunRecord& first) {
  std::string text = fmt::format("{} run {}: {}", to_string(first.side), first.run,
                                 first.detail.empty() ? first.status : first.detail);
  if (!first.command.empty()) text += fmt::format("; command: {}", first.command);
  if (!first.output_tail.empty()) {
    std::string tail = first.output_tail;  // one line in every report
    while (!tail.empty() && tail.back() == '\n') tail.pop_back();
    for (size_t at = tail.find('\n'); at != std::string::npos; at = tail.find('\n', at)) tail.replace(at, 1, " | ");
    text += fmt::format("; output: {}", tail);
  }
  return text;
}

std::vector<std::string> failure_notes(const std::vector<report::FailedRun>& failed, const std::string& side,
                                       int attempted) {
  std::map<std::string, int> by_cause;
  for (const auto& run : failed)
    if (run.side == side) ++by_cause[run.cause];
  std::vector<std::string> out;
  for (const auto& [cause, count] : by_cause)
    out.push_back(fmt::format("{} {} in {}/{} runs", side, phrase(cause), count, attempted));
  return out;
}

}  // namespace cobench::aggregate
