#include "validate/campaign.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/files.h"
#include "formats/json_text.h"
#include "process/process.h"
#include "report/report.h"
#include "results/log.h"

namespace cobench::validate {

namespace fs = std::filesystem;

Method parse_method(const std::string& text) {
  const size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw InputError(fmt::format("--method {}: write NAME=ARGS, e.g. --method \"unpaired=--pairing unpaired\" "
                                 "(ARGS may be empty: --method now=)",
                                 text));
  Method method{text.substr(0, eq), {}};
  std::istringstream words(text.substr(eq + 1));
  for (std::string word; words >> word;) method.args.push_back(word);
  return method;
}

std::vector<int> job_order(int methods, int jobs) {
  std::vector<int> order;
  for (int round = 0; round < jobs; ++round)
    for (int i = 0; i < methods; ++i) order.push_back(round % 2 == 0 ? i : methods - 1 - i);
  return order;
}

int JobResult::decided() const {
  int n = 0;
  for (const auto& v : verdicts)  // a claim another layout did not confirm decided nothing
    n += v.verdict != verdict::Verdict::Inconclusive && v.verdict != verdict::Verdict::LayoutSensitive;
  return n;
}

double JobResult::control_spread() const {
  double widest = std::numeric_limits<double>::quiet_NaN();
  for (const auto& c : controls) widest = std::isnan(widest) ? c.spread : std::max(widest, c.spread);
  return widest;
}

JobResult read_job(const fs::path& report_dir) {
  const fs::path report_path = report_dir / "report.json";
  report::Report report;
  try {
    report = report::from_json(
        formats::restore_dumped_bytes(formats::parse_lenient_json(read_file(report_path), report_path.string())));
  } catch (const InputError& e) {
    const std::string what = e.what();
    throw InputError(what.rfind(report_path.string(), 0) == 0 ? what : report_path.string() + ": " + what);
  }
  JobResult job;
  job.controls = report.controls;
  for (const auto& row : report.benchmarks)
    if (!row.is_control)
      job.verdicts.push_back({row.target, row.name, row.verdict,
                              row.time.compared ? row.time.estimate.ratio : report::kUndefined, row.runs_base,
                              row.runs_head, report::is_faster(row)});
  // The run log holds every run's wall time, the allocation runs' too: their sum is the measuring phase.
  for (const auto& run : results::read_results(report_dir / "results.jsonl").runs)
    job.measuring_seconds += run.wall_seconds;
  return job;
}

std::vector<std::string> job_argv(const JobSpec& spec, const Method& method, const fs::path& out) {
  std::vector<std::string> argv = {spec.cobench.string(), "run",  "--repo", spec.repo.string(), "--base", spec.base,
                                   "--head",              spec.head, "--all", "--out",  out.string()};
  argv.insert(argv.end(), spec.args.begin(), spec.args.end());
  argv.insert(argv.end(), method.args.begin(), method.args.end());
  return argv;
}

JobResult run_job(const JobSpec& spec, const Method& method, int index, const fs::path& out, const fs::path& log) {
  process::Command command;
  command.argv = job_argv(spec, method, out);
  command.cwd = spec.cwd;
  command.env_overrides = spec.env;
  command.stdout_path = log;
  command.merge_stderr_into_stdout = true;
  const process::Result result = process::run(command);
  if (result.outcome == process::Result::Outcome::Interrupted) throw Interrupted();

  JobResult job;
  if (result.outcome == process::Result::Outcome::Exited && (result.exit_code == 0 || result.exit_code == 1)) {
    job = read_job(out);
  } else {
    std::string last_line;
    std::error_code ec;
    std::istringstream lines(fs::exists(log, ec) ? read_file(log) : "");  // none when it could not start
    for (std::string line; std::getline(lines, line);)
      if (line.find_first_not_of(" \t\r") != std::string::npos) last_line = line;
    job.failure =
        fmt::format("cobench run {}{}{}", process::describe(result), last_line.empty() ? "" : ": ", last_line);
  }
  job.index = index;
  job.exit_code = result.outcome == process::Result::Outcome::Exited ? result.exit_code : kExitInfra;
  job.wall_seconds = result.wall_seconds;
  return job;
}

}  // namespace cobench::validate
