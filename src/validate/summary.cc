#include "validate/summary.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/escape.h"

namespace cobench::validate {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// The smallest true slowdown at which a pass is a failure of the method.
constexpr int kMustNotPassPercent = 10;

std::string share(int count, int total) {
  return total == 0 ? "-" : fmt::format("{:.1f}% ({})", 100.0 * count / total, count);
}

std::string number(double value, const char* format) {
  return std::isnan(value) ? "-" : fmt::format(fmt::runtime(format), value);
}

nlohmann::json number_or_null(double value) { return std::isnan(value) ? nlohmann::json() : nlohmann::json(value); }

/// "`--pairing unpaired --looks every-look`" or "cobench run's defaults".
std::string method_flags(const Method& method) {
  if (method.args.empty()) return "cobench run's defaults";
  return fmt::format("`{}`", report::sanitize_text(fmt::format("{}", fmt::join(method.args, " ")), true));
}

std::string method_name(const Method& method) { return report::escape_markdown(method.name); }

/// Mean, min and max of a list of numbers (NaN each when empty).
struct Spread {
  double mean = kNaN, min = kNaN, max = kNaN;
};

Spread spread(const std::vector<double>& values) {
  if (values.empty()) return {};
  double sum = 0;
  for (double v : values) sum += v;
  return {sum / values.size(), *std::min_element(values.begin(), values.end()),
          *std::max_element(values.begin(), values.end())};
}

std::string seconds(const Spread& s) {
  return std::isnan(s.mean) ? "-" : fmt::format("{:.1f} s (min {:.1f}, max {:.1f})", s.mean, s.min, s.max);
}

/// "±1.8%", or "-" for NaN (no control).
std::string spread_text(double spread) { return std::isnan(spread) ? "-" : fmt::format("±{:.1f}%", spread * 100); }

std::string load_text(const nlohmann::json& load) {
  if (!load.is_array() || load.size() != 3) return "unknown";
  return fmt::format("{:.2f} / {:.2f} / {:.2f}", load[0].get<double>(), load[1].get<double>(), load[2].get<double>());
}

std::string host_text(const nlohmann::json& host) {
  std::string cpu = host.contains("cpu_model") ? host["cpu_model"].get<std::string>() : "unknown CPU";
  if (host.contains("cpu_count"))
    cpu += fmt::format(", {} online CPU{}", host["cpu_count"].get<int>(), host["cpu_count"].get<int>() == 1 ? "" : "s");
  if (host.contains("kernel")) cpu += ", " + host["kernel"].get<std::string>();
  return report::sanitize_text(cpu, true);
}

std::string per_job_line(const MethodSummary& m) {
  std::vector<double> build, measuring;
  int decided = 0;
  for (const auto& job : m.jobs) {
    build.push_back(job.build_seconds());
    measuring.push_back(job.measuring_seconds);
    decided += job.decided();
  }
  if (m.jobs.empty()) return "- no job finished\n";
  return fmt::format(
      "- per job ({} job{}): build and setup {}; measuring {}; {:.1f} decided verdicts; **{} measuring seconds per "
      "decided verdict**; control spread {} (median over jobs of the widest control; a regression inside it is "
      "inconclusive)\n",
      m.jobs.size(), m.jobs.size() == 1 ? "" : "s", seconds(spread(build)), seconds(spread(measuring)),
      static_cast<double>(decided) / m.jobs.size(), number(m.measuring_seconds_per_decided(), "{:.1f}"),
      spread_text(m.median_control_spread()));
}

/// Every benchmark's own tally, folded: the rows a false alarm came from, first.
std::string benchmark_table(const MethodSummary& m) {
  if (m.benchmarks.empty()) return "";
  std::vector<std::pair<const std::pair<std::string, std::string>*, const Tally*>> rows;
  for (const auto& [key, tally] : m.benchmarks) rows.emplace_back(&key, &tally);
  std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
    const auto alarms = [](const Tally& t) { return t.regression + t.faster; };
    return alarms(*a.second) != alarms(*b.second) ? alarms(*a.second) > alarms(*b.second)
                                                  : a.second->inconclusive > b.second->inconclusive;
  });
  std::string out = fmt::format("<details><summary>Per benchmark, method `{}`</summary>\n\n", method_name(m.method));
  out += "| target | benchmark | verdicts | regression | pass (faster) | inconclusive | median ratio | mean runs per "
         "side |\n|---|---|--:|--:|--:|--:|--:|--:|\n";
  for (const auto& [key, t] : rows)
    out += fmt::format("| {} | {} | {} | {} | {} ({}) | {} | {} | {} |\n", report::escape_markdown(key->first),
                       report::escape_markdown(key->second), t->verdicts, t->regression, t->pass, t->faster,
                       t->inconclusive,
                       number(t->median_ratio(), "{:.3f}"), number(t->mean_runs_per_side(), "{:.1f}"));
  return out + "\n</details>\n\n";
}

std::string method_table(const Fixture& fixture, const MethodSummary& m) {
  std::string out = fmt::format("### Method `{}`: {}\n\n", method_name(m.method), method_flags(m.method));
  out += "| true slowdown | verdicts | regression | pass | inconclusive | median ratio | mean runs per side |\n"
         "|---|--:|--:|--:|--:|--:|--:|\n";
  for (size_t r = 0; r < fixture.rows.size(); ++r) {
    const Tally& t = m.rows[r];
    out += fmt::format("| {} | {} | {} | {} | {} | {} | {} |\n", fixture.rows[r].label(), t.verdicts,
                       share(t.regression, t.verdicts), share(t.pass, t.verdicts), share(t.inconclusive, t.verdicts),
                       number(t.median_ratio(), "{:.3f}"), number(t.mean_runs_per_side(), "{:.1f}"));
  }
  out += fmt::format("\n- pass at a true slowdown of {}% or more (a failure of the method; should be 0): **{}** of {} "
                     "verdicts\n",
                     kMustNotPassPercent, m.pass_at_10_or_more, m.verdicts_at_10_or_more);
  out += per_job_line(m);
  return out + "\n" + benchmark_table(m);
}

std::string side_by_side(const Fixture& fixture, const std::vector<MethodSummary>& methods) {
  std::string out = "### Side by side: regression / pass / inconclusive (mean runs per side)\n\n| true slowdown |";
  std::string rule = "|---|";
  for (const auto& m : methods) {
    out += fmt::format(" `{}` |", method_name(m.method));
    rule += "---|";
  }
  out += "\n" + rule + "\n";
  auto percent = [](int count, int total) {
    return total == 0 ? std::string("-") : fmt::format("{:.0f}%", 100.0 * count / total);
  };
  for (size_t r = 0; r < fixture.rows.size(); ++r) {
    out += fmt::format("| {} |", fixture.rows[r].label());
    for (const auto& m : methods) {
      const Tally& t = m.rows[r];
      out += fmt::format(" {} / {} / {} ({}) |", percent(t.regression, t.verdicts), percent(t.pass, t.verdicts),
                         percent(t.inconclusive, t.verdicts), number(t.mean_runs_per_side(), "{:.1f}"));
    }
    out += "\n";
  }
  out += "| measuring s per decided verdict |";
  for (const auto& m : methods) out += fmt::format(" {} |", number(m.measuring_seconds_per_decided(), "{:.1f}"));
  out += "\n| control spread (median) |";
  for (const auto& m : methods) out += fmt::format(" {} |", spread_text(m.median_control_spread()));
  out += "\n| pass at ≥ 10% (should be 0) |";
  for (const auto& m : methods) out += fmt::format(" {} of {} |", m.pass_at_10_or_more, m.verdicts_at_10_or_more);
  return out + "\n\n";
}

std::string jobs_table(const std::vector<MethodSummary>& methods) {
  std::vector<std::pair<const JobResult*, const Method*>> jobs;
  for (const auto& m : methods)
    for (const auto& job : m.jobs) jobs.emplace_back(&job, &m.method);
  std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) { return a.first->index < b.first->index; });
  std::string out =
      "<details><summary>Every job</summary>\n\n"
      "| job | method | exit | build and setup | measuring | verdicts | decided | measuring s per decided verdict "
      "| control spread |\n"
      "|--:|---|--:|--:|--:|--:|--:|--:|--:|\n";
  for (const auto& [job, method] : jobs) {
    const int decided = job->decided();
    out += fmt::format("| {} | `{}` | {} | {:.1f} s | {:.1f} s | {} | {} | {} | {} |\n", job->index,
                       method_name(*method), job->exit_code, job->build_seconds(), job->measuring_seconds,
                       job->verdicts.size(), decided,
                       decided == 0 ? "-" : fmt::format("{:.1f}", job->measuring_seconds / decided),
                       spread_text(job->control_spread()));
  }
  return out + "\n</details>\n";
}

/// A tally's counts, under whatever names the row or benchmark it counts for.
nlohmann::json counts_json(nlohmann::json named, const Tally& t) {
  named.update({{"verdicts", t.verdicts},
                {"regression", t.regression},
                {"pass", t.pass},
                {"faster", t.faster},
                {"inconclusive", t.inconclusive},
                {"median_ratio", number_or_null(t.median_ratio())},
                {"mean_runs_per_side", number_or_null(t.mean_runs_per_side())}});
  return named;
}

nlohmann::json tally_json(const Truth& truth, const Tally& t) {
  return counts_json({{"row", truth.key()},
                      {"label", truth.label()},
                      {"true_slowdown", truth.kind == Truth::Kind::Slower ? truth.slowdown_percent / 100.0 : 0.0},
                      {"extra_allocations", truth.extra_allocations}},
                     t);
}

nlohmann::json job_json(const JobResult& job) {
  nlohmann::json verdicts = nlohmann::json::array();
  for (const auto& v : job.verdicts)
    verdicts.push_back({{"target", v.target},
                        {"name", v.name},
                        {"verdict", verdict::to_string(v.verdict)},
                        {"ratio", number_or_null(v.ratio)},
                        {"runs_base", v.runs_base},
                        {"runs_head", v.runs_head}});
  nlohmann::json controls = nlohmann::json::array();  // which control set the spread; the rest is in its report.json
  for (const auto& c : job.controls) controls.push_back({{"name", c.name}, {"kind", c.kind}, {"spread", c.spread}});
  return {{"index", job.index},
          {"exit_code", job.exit_code},
          {"wall_seconds", job.wall_seconds},
          {"build_seconds", job.build_seconds()},
          {"measuring_seconds", job.measuring_seconds},
          {"decided", job.decided()},
          {"controls", controls},
          {"control_spread", number_or_null(job.control_spread())},
          {"report", fmt::format("jobs/{:03}/report.json", job.index)},
          {"verdicts", verdicts}};
}

}  // namespace

void Tally::add(const JobVerdict& verdict) {
  ++verdicts;
  regression += verdict.verdict == verdict::Verdict::Regression;
  pass += verdict.verdict == verdict::Verdict::Pass;
  faster += verdict.verdict == verdict::Verdict::Pass && verdict.faster;
  // A claim another layout did not confirm is undecided, as the gate takes it.
  inconclusive += verdict.verdict == verdict::Verdict::Inconclusive || verdict.verdict == verdict::Verdict::LayoutSensitive;
  runs_per_side += (verdict.runs_base + verdict.runs_head) / 2.0;
  if (!std::isnan(verdict.ratio)) ratios.push_back(verdict.ratio);
}

double Tally::mean_runs_per_side() const { return verdicts == 0 ? kNaN : runs_per_side / verdicts; }

double Tally::median_ratio() const { return ratios.empty() ? kNaN : stats::median(ratios); }

double MethodSummary::measuring_seconds_per_decided() const {
  double measuring = 0;
  int decided = 0;
  for (const auto& job : jobs) {
    measuring += job.measuring_seconds;
    decided += job.decided();
  }
  return decided == 0 ? kNaN : measuring / decided;
}

double MethodSummary::median_control_spread() const {
  std::vector<double> spreads;
  for (const auto& job : jobs)
    if (const double s = job.control_spread(); !std::isnan(s)) spreads.push_back(s);
  return spreads.empty() ? kNaN : stats::median(spreads);
}

std::vector<MethodSummary> summarize(const Fixture& fixture, const std::vector<Method>& methods,
                                     const std::vector<JobResult>& jobs) {
  std::vector<MethodSummary> out;
  for (const auto& method : methods) out.push_back({method, std::vector<Tally>(fixture.rows.size()), {}, {}, 0, 0});
  for (const auto& job : jobs) {
    if (!job.failure.empty()) continue;
    MethodSummary& m = out.at(job.method);
    m.jobs.push_back(job);
    for (const auto& verdict : job.verdicts) {
      const int row = fixture.row_of(verdict.target);
      if (row < 0) continue;
      m.rows[row].add(verdict);
      m.benchmarks[{verdict.target, verdict.name}].add(verdict);
      const Truth& truth = fixture.rows[row];
      if (truth.kind == Truth::Kind::Slower && truth.slowdown_percent >= kMustNotPassPercent) {
        ++m.verdicts_at_10_or_more;
        m.pass_at_10_or_more += verdict.verdict == verdict::Verdict::Pass;
      }
    }
  }
  return out;
}

std::string render_markdown(const Context& context, const Fixture& fixture, const std::vector<MethodSummary>& methods) {
  std::string out = "## cobench validate\n\n";
  out += fmt::format("- command: `{}`\n", report::sanitize_text(context.command, true));
  out += fmt::format("- cobench {}; {}\n", context.version, host_text(context.host));
  out += fmt::format("- load average (1 / 5 / 15 min): {} at the start, {} at the end\n",
                     load_text(context.host.value("load_average", nlohmann::json())), load_text(context.load_end));
  std::vector<std::string> names;
  for (const auto& m : methods) names.push_back(fmt::format("`{}`", method_name(m.method)));
  out += fmt::format("- {} job{} per method, method{} {}{}; every job: `cobench run --all {}` then the method's "
                     "flags\n",
                     context.jobs_per_method, context.jobs_per_method == 1 ? "" : "s", methods.size() == 1 ? "" : "s",
                     fmt::join(names, ", "), methods.size() > 1 ? " taking turns (A B, B A, ...)" : "",
                     report::sanitize_text(fmt::format("{}", fmt::join(context.job_args, " ")), true));
  if (fixture.repository.empty())
    out += fmt::format("- fixture: {} benchmarks, one family per source file and target; its cobench.toml names `{}` "
                       "the layout control; builds: {}\n",
                       fixture.targets.size(), fixture.control, context.builds);
  else
    out += fmt::format("- repository: {} at {}, measured against itself (every benchmark unchanged: any regression "
                       "or faster verdict is a false alarm); builds: {}\n",
                       report::escape_markdown(fixture.repository.string()), fixture.head, context.builds);
  out += fmt::format("- wall time: {:.1f} min{}{}\n", context.wall_seconds / 60,
                     context.resumed_commands.empty() ? "" : " this sitting",
                     context.stopped.empty() ? "" : fmt::format(" (**stopped early**: {})", context.stopped));
  if (!context.resumed_commands.empty()) {
    std::vector<std::string> commands;
    for (const auto& c : context.resumed_commands) commands.push_back(fmt::format("`{}`", report::sanitize_text(c, true)));
    out += fmt::format("- resumed (--resume): {} job{} from {} earlier sitting{} of {:.1f} min in all, counted in the "
                       "tables: {}\n",
                       context.resumed_jobs, context.resumed_jobs == 1 ? "" : "s", commands.size(),
                       commands.size() == 1 ? "" : "s", context.resumed_wall_seconds / 60, fmt::join(commands, "; "));
  }
  out += "\n";
  for (const auto& m : methods) out += method_table(fixture, m);
  if (methods.size() > 1) out += side_by_side(fixture, methods);
  out += jobs_table(methods);
  out += "\nThe figures depend on this machine and its load: rerun `cobench validate` where the benchmarks run.\n";
  return out;
}

nlohmann::json to_json(const Context& context, const Fixture& fixture, const std::vector<MethodSummary>& methods) {
  nlohmann::json targets = nlohmann::json::array();
  for (const auto& t : fixture.targets)
    targets.push_back(
        {{"target", t.target}, {"benchmark", t.benchmark}, {"row", fixture.rows[t.row].key()}, {"what", t.what}});
  nlohmann::json out_methods = nlohmann::json::array();
  for (const auto& m : methods) {
    nlohmann::json rows = nlohmann::json::array(), jobs = nlohmann::json::array();
    for (size_t r = 0; r < fixture.rows.size(); ++r) rows.push_back(tally_json(fixture.rows[r], m.rows[r]));
    for (const auto& job : m.jobs) jobs.push_back(job_json(job));
    nlohmann::json benchmarks = nlohmann::json::array();
    for (const auto& [key, t] : m.benchmarks)
      benchmarks.push_back(counts_json({{"target", key.first}, {"name", key.second}}, t));
    out_methods.push_back({{"name", m.method.name},
                           {"args", m.method.args},
                           {"rows", rows},
                           {"benchmarks", benchmarks},
                           {"pass_at_10_or_more", m.pass_at_10_or_more},
                           {"verdicts_at_10_or_more", m.verdicts_at_10_or_more},
                           {"measuring_seconds_per_decided", number_or_null(m.measuring_seconds_per_decided())},
                           {"median_control_spread", number_or_null(m.median_control_spread())},
                           {"jobs", jobs}});
  }
  return {{"schema", 1},
          {"tool", "validate"},
          {"version", context.version},
          {"command", context.command},
          {"host", context.host},
          {"load_average_end", context.load_end},
          {"jobs_per_method", context.jobs_per_method},
          {"job_args", context.job_args},
          {"builds", context.builds},
          {"wall_seconds", context.wall_seconds},
          {"stopped", context.stopped.empty() ? nlohmann::json() : nlohmann::json(context.stopped)},
          {"resumed", context.resumed_commands.empty()
                          ? nlohmann::json()
                          : nlohmann::json{{"jobs", context.resumed_jobs},
                                           {"commands", context.resumed_commands},
                                           {"wall_seconds", context.resumed_wall_seconds}}},
          {"fixture", targets},
          {"repository", fixture.repository.empty() ? nlohmann::json() : nlohmann::json(fixture.repository.string())},
          {"repository_commit", fixture.repository.empty() ? nlohmann::json() : nlohmann::json(fixture.head)},
          {"layout_control", fixture.control},
          {"methods", out_methods}};
}

}  // namespace cobench::validate
