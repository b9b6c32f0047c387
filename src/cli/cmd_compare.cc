// `cobench compare BASE.json... --vs HEAD.json...`: offline comparison of
// benchmark outputs, the statistics of `cobench run` without running anything.
#include <cstdio>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "cli/commands.h"
#include "cli/settings_flags.h"
#include "core/note.h"
#include "formats/json_text.h"
#include "report/escape.h"
#include "core/errors.h"
#include "formats/formats.h"
#include "host/environment.h"
#include "job/pipeline.h"
#include "report/report.h"
#include "results/samples.h"
#include "verdict/gate.h"

namespace cobench::cli {
namespace {

/// What only this command names; every setting is in SettingFlags.
struct CompareFlags {
  std::vector<std::string> base_files, head_files;
  std::string format = "text", color = "never", config;
  bool paired = false;
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
      formats::Entry empty;
      empty.name = entry.name;
      auto [it, added] = side.entries.try_emplace(entry.name, std::move(empty));
      if (added) side.order.push_back(entry.name);
      formats::Entry& pooled = it->second;
      append(pooled.real_ns, entry.real_ns);
      append(pooled.cpu_ns, entry.cpu_ns);
      append(pooled.allocs_per_iter, entry.allocs_per_iter);
      append(pooled.bytes_per_iter, entry.bytes_per_iter);
      append(pooled.peak_bytes, entry.peak_bytes);
      append(pooled.iterations, entry.iterations);
      pooled.threads = std::max(pooled.threads, entry.threads);
      if (pooled.error.empty()) pooled.error = entry.error;
    }
  }
  if (side.order.empty())
    throw InputError(fmt::format("{}: no benchmark results on the {} side", fmt::join(files, ", "), label));
  return side;
}

std::string host_name(const nlohmann::json& context) {
  auto it = context.find("host_name");
  return it != context.end() && it->is_string() ? it->get<std::string>() : "";
}

/// One benchmark of both sides. Paired: the i-th repetition of each side in
/// file order is one pair (files recorded interleaved, e.g. by a script that
/// alternates base and head); the surplus of the longer side is dropped and said.
report::BenchmarkRow compare_one(const formats::Entry& base, const formats::Entry& head, const std::string& setting,
                                 const verdict::Budget& budget, double confidence, bool paired) {
  const auto choice = results::metric_for(setting, base.name, results::share_of(base, head));
  const std::string& metric = choice.metric;
  const auto& base_values = formats::samples(base, formats::metric_from_string(metric));
  const auto& head_values = formats::samples(head, formats::metric_from_string(metric));
  const size_t n = std::min(base_values.size(), head_values.size());  // the i-th repetitions of each side pair up
  const verdict::SidesSamples sides{base_values, head_values, std::span(base_values.data(), n),
                                    std::span(head_values.data(), n), base_values.size() + head_values.size() - 2 * n,
                                    "repetitions"};
  report::BenchmarkRow row = report::judged_row(
      "", base.name, base_values, head_values, budget.time,
      verdict::judge_sides(sides, budget.time, confidence, paired ? verdict::Pairing::Paired : verdict::Pairing::Unpaired));
  row.metric = metric;
  append_note(row.note, choice.note);
  for (const auto& [entry, side] : {std::pair{&base, "base"}, std::pair{&head, "head"}})
    if (!entry->error.empty()) append_note(row.note, fmt::format("{}: {}", side, entry->error));
  row.allocs = verdict::judge_medians(base.allocs_per_iter, head.allocs_per_iter, budget.allocs);
  row.bytes = verdict::judge_medians(base.bytes_per_iter, head.bytes_per_iter, budget.bytes);
  report::settle_verdict(row);
  return row;
}

nlohmann::json threshold_json(const std::optional<config::Threshold>& threshold) {
  return threshold ? nlohmann::json(threshold->text) : nlohmann::json(nullptr);
}

report::Report build_report(const CompareFlags& flags, const config::Config& settings) {
  const verdict::Budgets budgets = verdict::budgets_of(settings.budget);
  const double confidence = settings.budget.confidence;
  Side base = read_side(flags.base_files, "base"), head = read_side(flags.head_files, "head");

  report::Report out;
  out.tool = "compare";
  out.base = fmt::format("{}", fmt::join(flags.base_files, " "));
  out.head = fmt::format("{}", fmt::join(flags.head_files, " "));
  out.metric = settings.run.time_metric();
  out.budget = settings.budget.time;
  out.confidence = confidence;
  out.look_rule = fmt::format("one look, at {:g}%", confidence * 100);  // files give all their runs at once
  out.host = base.context;
  out.settings = {{"budget", settings.budget.time},
                  {"confidence", confidence},
                  {"allocs_budget", threshold_json(settings.budget.allocs)},
                  {"bytes_budget", threshold_json(settings.budget.bytes)},
                  {"pairing", flags.paired ? "paired" : "unpaired"},
                  {"base_files", flags.base_files},
                  {"head_files", flags.head_files}};
  for (const auto& name : base.order) {
    auto it = head.entries.find(name);
    if (it == head.entries.end())
      out.removed.push_back({"", name});
    else
      out.benchmarks.push_back(
          compare_one(base.entries.at(name), it->second, settings.run.time_metric(), budgets.for_benchmark("", name),
                      confidence, flags.paired));
  }
  for (const auto& name : head.order)
    if (!base.entries.count(name)) out.added.push_back({"", name});
  std::string base_host = host_name(base.context), head_host = host_name(head.context);
  if (base_host != head_host)
    out.notes.push_back(fmt::format("base ran on host \"{}\", head on \"{}\": ratios across machines measure the "
                                    "machines as much as the change",
                                    base_host, head_host));
  report::flag_optimised_away(out.benchmarks);
  report::sort_rows(out.benchmarks);
  return out;
}

int run_compare(const CompareFlags& flags, const SettingFlags& setting_flags) {
  const config::Config settings =
      setting_flags.layer(find_config_file(flags.config, std::filesystem::current_path()), host::environment_map());
  // Finished outputs hold times only; a cobench.toml that also counts instructions for `run` is fine here.
  if (settings.run.time_metric().empty()) {
    const char* key = settings.origin("run.metrics").kind != config::Origin::Kind::Default ? "run.metrics" : "run.metric";
    throw InputError(fmt::format("{}: cobench compare compares times from finished outputs; instructions are counted "
                                 "by cobench run (name real_time or cpu_time here)",
                                 settings.origin(key).describe(key)));
  }
  report::Report report = build_report(flags, settings);
  std::string text;
  if (flags.format == "json")
    text = formats::dump_json(report::to_json(report), 2) + "\n";  // names may hold any bytes
  else if (flags.format == "markdown")
    text = report::render_markdown(report);
  else
    text = report::render_table(report, flags.color == "always");
  text = report::scrub_rendered(text);
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::vector<verdict::Verdict> verdicts;
  for (const auto& row : report.benchmarks) verdicts.push_back(row.verdict);
  return verdict::gate_exit_code(verdicts, job::gate_policy(settings));
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
  app->add_option("--format", flags->format, "text | markdown | json")
      ->check(CLI::IsMember({"text", "markdown", "json"}))
      ->capture_default_str();
  app->add_option("--color", flags->color, "colour the verdicts in the text table: always | never")
      ->check(CLI::IsMember({"always", "never"}))
      ->capture_default_str();
  app->add_option("--config", flags->config, "settings file (default: cobench.toml of the current repository)");
  app->add_flag("--paired", flags->paired,
                "pair the i-th repetition of each side in file order (signed-rank test); for files recorded "
                "interleaved, base and head alternating");
  auto settings = std::make_shared<SettingFlags>(
      app, std::initializer_list<std::string_view>{"run.metric", "budget.time", "budget.confidence", "budget.allocs",
                                                   "budget.bytes", "budget.gate", "budget.fail_on_inconclusive"});
  sub.run = [flags, settings]() -> int { return run_compare(*flags, *settings); };
  return sub;
}

}  // namespace cobench::cli
