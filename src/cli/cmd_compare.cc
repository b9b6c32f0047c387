// `cobench compare BASE.json... --vs HEAD.json...`: offline comparison of
// benchmark outputs, the statistics of `cobench run` without running anything.
#include <cstdio>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "core/errors.h"
#include "core/parse.h"
#include "formats/formats.h"
#include "report/report.h"

namespace cobench::cli {
namespace {

struct CompareFlags {
  std::vector<std::string> base_files, head_files;
  std::string metric = "real_time", budget = "5%", confidence = "0.95", format = "text";
  std::string allocs_budget, bytes_budget, color = "never";
  bool gate = false, fail_on_inconclusive = false;
};

/// One side's samples per benchmark, pooled over all of that side's files.
struct Side {
  std::vector<std::string> order;  ///< first-seen names
  std::map<std::string, formats::Entry> entries;
  nlohmann::json context = nlohmann::json::object();  ///< the first file's producer context
};

void append(std::vector<double>& to, const std::vector<double>& from) { to.insert(to.end(), from.begin(), from.end()); }

Side read_side(const std::vector<std::string>& files, const char* label) {
  Side side;
  for (const auto& file : files) {
    formats::Output output = formats::read_output_file(file);
    if (side.order.empty()) side.context = output.context;
    for (auto& entry : output.entries) {
      auto [it, added] = side.entries.try_emplace(entry.name, formats::Entry{entry.name, {}, {}, {}, {}, {}, {}});
      if (added) side.order.push_back(entry.name);
      formats::Entry& pooled = it->second;
      append(pooled.real_ns, entry.real_ns);
      append(pooled.cpu_ns, entry.cpu_ns);
      append(pooled.allocs_per_iter, entry.allocs_per_iter);
      append(pooled.bytes_per_iter, entry.bytes_per_iter);
      append(pooled.peak_bytes, entry.peak_bytes);
      if (pooled.error.empty()) pooled.error = entry.error;
    }
  }
  if (side.order.empty())
    throw InputError(fmt::format("{}: no benchmark results on the {} side", fmt::join(files, ", "), label));
  return side;
}

double fraction_flag(const std::string& text, const char* flag) {
  auto value = parse_fraction(text);
  if (!value) throw InputError(fmt::format("{} {}: expected a fraction such as 5% or 0.05", flag, text));
  return *value;
}

std::string host_name(const nlohmann::json& context) {
  auto it = context.find("host_name");
  return it != context.end() && it->is_string() ? it->get<std::string>() : "";
}

report::BenchmarkRow compare_one(const formats::Entry& base, const formats::Entry& head, const CompareFlags& flags,
                                 formats::Metric metric, double budget, double confidence) {
  auto row = report::compare_samples("", base.name, formats::samples(base, metric), formats::samples(head, metric),
                                     budget, confidence);
  for (const auto& [entry, side] : {std::pair{&base, "base"}, std::pair{&head, "head"}})
    if (!entry->error.empty())
      row.note += (row.note.empty() ? "" : "; ") + fmt::format("{}: {}", side, entry->error);
  row.allocs = report::compare_medians(base.allocs_per_iter, head.allocs_per_iter, flags.allocs_budget);
  row.bytes = report::compare_medians(base.bytes_per_iter, head.bytes_per_iter, flags.bytes_budget);
  report::fold_metric_verdicts(row);
  return row;
}

report::Report build_report(const CompareFlags& flags) {
  formats::Metric metric = formats::metric_from_string(flags.metric);
  double budget = fraction_flag(flags.budget, "--budget");
  double confidence = fraction_flag(flags.confidence, "--confidence");
  if (!(confidence > 0 && confidence < 1))
    throw InputError(fmt::format("--confidence {}: expected a level between 0 and 1, such as 0.95", flags.confidence));
  Side base = read_side(flags.base_files, "base"), head = read_side(flags.head_files, "head");

  report::Report out;
  out.tool = "compare";
  out.base = fmt::format("{}", fmt::join(flags.base_files, " "));
  out.head = fmt::format("{}", fmt::join(flags.head_files, " "));
  out.metric = formats::to_string(metric);
  out.budget = budget;
  out.confidence = confidence;
  out.host = base.context;
  out.settings = {{"budget", flags.budget},           {"confidence", confidence},
                  {"allocs_budget", flags.allocs_budget}, {"bytes_budget", flags.bytes_budget},
                  {"base_files", flags.base_files},   {"head_files", flags.head_files}};
  for (const auto& name : base.order) {
    auto it = head.entries.find(name);
    if (it == head.entries.end())
      out.removed.push_back({"", name});
    else
      out.benchmarks.push_back(compare_one(base.entries.at(name), it->second, flags, metric, budget, confidence));
  }
  for (const auto& name : head.order)
    if (!base.entries.count(name)) out.added.push_back({"", name});
  std::string base_host = host_name(base.context), head_host = host_name(head.context);
  if (base_host != head_host)
    out.notes.push_back(fmt::format("base ran on host \"{}\", head on \"{}\": ratios across machines measure the "
                                    "machines as much as the change",
                                    base_host, head_host));
  report::sort_rows(out.benchmarks);
  return out;
}

int gate_exit_code(const report::Report& report, const CompareFlags& flags) {
  bool gate = flags.gate || flags.fail_on_inconclusive;
  if (!gate) return kExitOk;
  for (const auto& row : report.benchmarks)
    if (row.verdict == stats::Verdict::Regression ||
        (flags.fail_on_inconclusive && row.verdict == stats::Verdict::Inconclusive))
      return kExitGateFailed;
  return kExitOk;
}

int run_compare(const CompareFlags& flags) {
  report::Report report = build_report(flags);
  std::string text;
  if (flags.format == "json")
    text = report::to_json(report).dump(2) + "\n";
  else if (flags.format == "markdown")
    text = report::render_markdown(report);
  else
    text = report::render_table(report, flags.color == "always");
  std::fwrite(text.data(), 1, text.size(), stdout);
  return gate_exit_code(report, flags);
}

}  // namespace

Subcommand add_compare(CLI::App& root) {
  auto flags = std::make_shared<CompareFlags>();
  Subcommand sub;
  auto* app = root.add_subcommand(
      "compare",
      "Compare Google Benchmark JSON outputs (--benchmark_out=FILE --benchmark_repetitions=N) of base and head: "
      "per benchmark the head/base ratio, its exact confidence interval and a verdict against a budget");
  sub.app = app;
  app->add_option("base", flags->base_files, "base side: one or more output files (repetitions pooled)")
      ->required()
      ->expected(1, -1);
  app->add_option("--vs", flags->head_files, "head side: one or more output files")->required()->expected(1, -1);
  app->add_option("--metric", flags->metric, "real_time | cpu_time")
      ->check(CLI::IsMember({"real_time", "cpu_time"}))
      ->capture_default_str();
  app->add_option("--budget", flags->budget, "allowed slowdown: 5% or 0.05 (regression when the CI lies above 1+budget)")
      ->capture_default_str();
  app->add_option("--confidence", flags->confidence, "confidence level of the interval: 0.95 or 95%")
      ->capture_default_str();
  app->add_option("--format", flags->format, "text | markdown | json")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->capture_default_str();
  app->add_option("--allocs-budget", flags->allocs_budget,
                  "allowed allocs/iteration increase: 0, 2 (absolute) or 5% (relative); empty: report only");
  app->add_option("--bytes-budget", flags->bytes_budget, "allowed allocated bytes/iteration increase, as --allocs-budget");
  app->add_option("--color", flags->color, "colour the verdicts in the text table: always | never")
      ->check(CLI::IsMember({"always", "never"}))
      ->capture_default_str();
  app->add_flag("--gate", flags->gate, "exit 1 when any benchmark regressed");
  app->add_flag("--fail-on-inconclusive", flags->fail_on_inconclusive,
                "inconclusive also fails (implies --gate)");
  sub.run = [flags]() -> int { return run_compare(*flags); };
  return sub;
}

}  // namespace cobench::cli
