#include "results/job_settings.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/text.h"
#include "formats/json_reader.h"
#include "formats/json_text.h"

namespace cobench::results {
namespace {

using nlohmann::json;

json optional_text(const std::optional<config::Threshold>& threshold) {
  return threshold ? json(threshold->text) : json(nullptr);
}

json budget_json(const verdict::Budgets& budgets) {
  json out = {{"time", budgets.defaults().time}, {"overrides", json::array()}};
  for (const auto& rule : budgets.overrides()) {
    json item = {{"match", rule.match}};
    if (rule.time) item["time"] = *rule.time;
    if (rule.allocs) item["allocs"] = rule.allocs->text;
    if (rule.bytes) item["bytes"] = rule.bytes->text;
    out["overrides"].push_back(item);
  }
  return out;
}

std::optional<config::Threshold> read_threshold(const formats::JsonReader& r) {
  if (r.is_null()) return std::nullopt;
  try {
    return config::parse_threshold(r.text());
  } catch (const InputError& e) {
    r.fail(e.what());
  }
}

verdict::Budgets read_budgets(const formats::JsonReader& line) {
  verdict::Budget defaults;
  const formats::JsonReader budget = line.at("budget");
  defaults.time = budget.at("time").number();
  if (line.has("allocs_budget")) defaults.allocs = read_threshold(line.at("allocs_budget"));
  if (line.has("bytes_budget")) defaults.bytes = read_threshold(line.at("bytes_budget"));
  std::vector<config::BudgetOverride> overrides;
  if (budget.has("overrides")) {
    const formats::JsonReader list = budget.at("overrides");
    for (size_t i = 0; i < list.size(); ++i) {
      const formats::JsonReader item = list.at(i);
      config::BudgetOverride rule;
      rule.match = item.at("match").text();
      if (item.has("time")) rule.time = item.at("time").number();
      if (item.has("allocs")) rule.allocs = read_threshold(item.at("allocs"));
      if (item.has("bytes")) rule.bytes = read_threshold(item.at("bytes"));
      overrides.push_back(std::move(rule));
    }
  }
  try {
    return verdict::Budgets(defaults, std::move(overrides));
  } catch (const InputError& e) {
    budget.at("overrides").fail(e.what());
  }
}

std::vector<std::string> texts_or_empty(const formats::JsonReader& line, const std::string& key) {
  return line.has(key) ? line.at(key).texts() : std::vector<std::string>{};
}

ShardSplit read_shard(const formats::JsonReader& r) {
  ShardSplit split;
  split.index = r.at("index").integer();
  split.count = r.at("count").integer();
  if (split.count < 1 || split.index < 1 || split.index > split.count) r.fail("expected 1 <= index <= count");
  split.basis = r.at("basis").text();
  split.unit = r.at("unit").text();
  const formats::JsonReader targets = r.at("targets");
  for (size_t i = 0; i < targets.size(); ++i) {
    const formats::JsonReader t = targets.at(i);
    split.targets.push_back({t.at("target").text(), t.at("shard").integer(), t.at("cost").number()});
    if (split.targets.back().shard < 1 || split.targets.back().shard > split.count)
      t.at("shard").fail(fmt::format("expected a part from 1 to {}", split.count));
  }
  return split;
}

SharedParent read_shared_parent(const formats::JsonReader& r) {
  SharedParent parent;
  parent.target = r.at("target").text();
  parent.library = r.at("library").text();
  parent.sha256 = r.at("sha256").text();
  if (parent.sha256.size() != 64 || parent.sha256.find_first_not_of("0123456789abcdef") != std::string::npos)
    r.at("sha256").fail("expected 64 lowercase hex digits");
  parent.changed_units = r.at("changed_units").texts();
  return parent;
}

}  // namespace

verdict::TimeRule time_rule(const JobSettings& s) {
  verdict::TimeRule rule;
  rule.metric = s.metric;
  rule.pairing = s.pairing == "paired" ? verdict::Pairing::Paired : verdict::Pairing::Unpaired;
  rule.looks = verdict::LookRule(s.confidence, s.looks == "every-look", s.max_runs);
  rule.controls = s.control_rule == "shift" ? verdict::ControlRule::Shift : verdict::ControlRule::Spread;
  return rule;
}

json to_json(const JobSettings& s) {
  json out = {{"schema", s.schema},
              {"job", s.job},
              {"base", s.base},
              {"head", s.head},
              {"base_ref", s.base_ref},
              {"head_ref", s.head_ref},
              {"metric", s.metric},
              {"pairing", s.pairing},
              {"looks", s.looks},
              {"control_rule", s.control_rule},
              {"stopping", s.stopping},
              {"repetitions", s.repetitions},
              {"run_length", s.run_length},
              {"min_time", s.min_time},
              {"first_pairs_share", s.first_pairs_share},
              {"budget", budget_json(s.budgets)},
              {"allocs_budget", optional_text(s.budgets.defaults().allocs)},
              {"bytes_budget", optional_text(s.budgets.defaults().bytes)},
              {"confidence", s.confidence},
              {"min_runs", s.min_runs},
              {"max_runs", s.max_runs},
              {"run_timeout", s.run_timeout},
              {"time_budget", s.time_budget ? json(*s.time_budget) : json(nullptr)},
              {"measure_budget", s.measure_budget ? json(*s.measure_budget) : json(nullptr)},
              {"cpu", s.cpu},
              {"bench_args", s.bench_args},
              {"cmake_args", s.cmake_args},
              {"build_type", s.build_type},
              {"source_dir", s.source_dir},
              {"runner", s.runner},
              {"targets", s.targets},
              {"selection", s.selection},
              {"alloc_runs", s.alloc_runs},
              {"no_allocation_counts", s.no_allocation_counts},
              {"instructions", s.instructions ? json{{"runs", s.instructions->runs},
                                                     {"tolerance", s.instructions->tolerance},
                                                     {"governing", verdict::to_string(s.instructions->governing)}}
                                              : json(nullptr)},
              {"machine_control", s.machine_control},
              {"layout_controls", s.layout_controls},
              {"layout_stable", s.layout_stable},
              {"layout_probe", s.layout_probe},
              {"layouts", s.layouts},
              {"layouts_aligned", s.layouts_aligned},
              {"reach", s.reach}};
  if (!s.reach_method.empty()) out["reach_method"] = s.reach_method;
  if (!s.compile_cache.empty()) out["compile_cache"] = s.compile_cache;
  if (!s.commands.empty() || !s.prepare.empty()) {
    out["commands"] = s.commands;
    out["prepare"] = s.prepare;
  }
  if (s.shard) {
    json targets = json::array();
    for (const auto& t : s.shard->targets) targets.push_back({{"target", t.target}, {"shard", t.shard}, {"cost", t.cost}});
    out["shard"] = {{"index", s.shard->index}, {"count", s.shard->count}, {"basis", s.shard->basis},
                    {"unit", s.shard->unit},   {"targets", targets}};
  }
  if (!s.budget_dropped.empty()) out["budget_dropped"] = s.budget_dropped;
  if (const auto& parent = s.shared_parent)
    out["shared_parent"] = {{"target", parent->target},
                            {"library", parent->library},
                            {"sha256", parent->sha256},
                            {"changed_units", parent->changed_units}};
  return out;
}

std::optional<std::string> shard_difference(const JobSettings& a, const JobSettings& b) {
  static const char* const kShared[] = {
      "schema",      "base",         "head",           "metric",      "pairing",      "looks",
      "stopping",    "repetitions",  "run_length",     "min_time",    "first_pairs_share",
      "budget",      "allocs_budget", "bytes_budget",  "confidence",
      "min_runs",    "max_runs",     "run_timeout",    "time_budget", "measure_budget", "bench_args",
      "cmake_args",  "build_type",   "source_dir",     "runner",      "alloc_runs",   "instructions",
      "layout_stable", "layout_probe", "layouts", "layouts_aligned", "reach",        "commands",    "prepare"};
  const json left = to_json(a), right = to_json(b);
  auto value = [](const json& settings, const char* key) {
    return settings.contains(key) ? shorten(formats::dump_json(settings[key]), 200) : std::string("(none)");
  };
  for (const char* key : kShared)
    if (left.value(key, json()) != right.value(key, json()))
      return fmt::format("{}: {} and {}", key, value(left, key), value(right, key));
  // The split: the same in every shard of one job (each shard's own part aside).
  json split_left = left.value("shard", json()), split_right = right.value("shard", json());
  if (split_left.is_object()) split_left.erase("index");
  if (split_right.is_object()) split_right.erase("index");
  if (split_left != split_right)
    return fmt::format("shard split: {} and {}", shorten(formats::dump_json(split_left), 200),
                       shorten(formats::dump_json(split_right), 200));
  return std::nullopt;
}

std::vector<std::string> ShardSplit::targets_of(int part) const {
  std::vector<std::string> out;
  for (const auto& t : targets)
    if (t.shard == part) out.push_back(t.target);
  return out;
}

std::string shard_note(const ShardSplit& split) {
  const auto mine = split.targets_of(split.index);
  return fmt::format("shard {}/{}: {} of the {} selected targets ({}; split by {}); `cobench merge` joins the shards' "
                     "report folders into one report",
                     split.index, split.count, mine.size(), split.targets.size(),
                     mine.empty() ? "none" : fmt::format("{}", fmt::join(mine, ", ")), split.basis);
}

JobSettings job_settings_from_json(const json& value, const std::string& source) {
  const formats::JsonReader line(value, source + ": settings line");
  JobSettings s;
  if (line.has("schema")) s.schema = line.at("schema").integer();
  if (s.schema < 1) line.at("schema").fail(fmt::format("unsupported schema {}", s.schema));
  if (line.has("job")) s.job = line.at("job").text();
  s.base = line.at("base").text();
  s.head = line.at("head").text();
  if (line.has("base_ref")) s.base_ref = line.at("base_ref").text();
  if (line.has("head_ref")) s.head_ref = line.at("head_ref").text();
  s.metric = line.at("metric").text();
  if (s.metric != "real_time" && s.metric != "cpu_time" && s.metric != "auto" && s.metric != "instructions")
    line.at("metric").fail("unknown metric '" + s.metric + "' (expected real_time, cpu_time, auto or instructions)");
  auto choice = [&](const char* key, std::string& out, std::initializer_list<const char*> allowed) {
    if (!line.has(key)) return;  // an older file: its defaults are how that cobench judged
    out = line.at(key).text();
    for (const char* option : allowed)
      if (out == option) return;
    line.at(key).fail(fmt::format("unknown value '{}'", out));
  };
  choice("pairing", s.pairing, {"paired", "unpaired"});
  choice("looks", s.looks, {"haybittle-peto", "every-look"});
  choice("control_rule", s.control_rule, {"shift", "spread"});
  choice("stopping", s.stopping, {"benchmark", "target"});
  if (line.has("repetitions")) s.repetitions = line.at("repetitions").text();
  choice("run_length", s.run_length, {"auto", "fixed"});
  if (line.has("min_time")) s.min_time = line.at("min_time").number();
  if (line.has("first_pairs_share")) {
    s.first_pairs_share = line.at("first_pairs_share").number();
    if (!(s.first_pairs_share > 0 && s.first_pairs_share <= 1))
      line.at("first_pairs_share").fail("expected a share above 0 and at most 1");
  }
  s.budgets = read_budgets(line);
  s.confidence = line.at("confidence").number();
  if (!(s.confidence > 0 && s.confidence < 1)) line.at("confidence").fail("expected a level between 0 and 1");
  if (line.has("min_runs")) s.min_runs = line.at("min_runs").integer();
  if (line.has("max_runs")) s.max_runs = line.at("max_runs").integer();
  if (line.has("run_timeout")) s.run_timeout = line.at("run_timeout").number();
  if (line.has("time_budget") && !line.at("time_budget").is_null()) s.time_budget = line.at("time_budget").number();
  if (line.has("measure_budget") && !line.at("measure_budget").is_null())
    s.measure_budget = line.at("measure_budget").number();
  if (line.has("cpu")) s.cpu = line.at("cpu").integer();
  s.bench_args = texts_or_empty(line, "bench_args");
  s.cmake_args = texts_or_empty(line, "cmake_args");
  if (line.has("build_type")) s.build_type = line.at("build_type").text();
  if (line.has("source_dir")) s.source_dir = line.at("source_dir").text();
  if (line.has("runner")) s.runner = line.at("runner").text();
  s.targets = texts_or_empty(line, "targets");
  if (line.has("selection")) s.selection = line.at("selection").object();
  if (line.has("alloc_runs")) s.alloc_runs = line.at("alloc_runs").integer();
  if (line.has("no_allocation_counts")) s.no_allocation_counts = line.at("no_allocation_counts").text();
  if (line.has("instructions") && !line.at("instructions").is_null()) {
    const formats::JsonReader instructions = line.at("instructions");
    InstructionSettings counted;
    counted.runs = instructions.at("runs").integer();
    counted.tolerance = instructions.at("tolerance").number();
    const auto governing = verdict::governing_from_string(instructions.at("governing").text());
    if (!governing) instructions.at("governing").fail("expected time, instructions or worst");
    counted.governing = *governing;
    s.instructions = counted;
  }
  if (s.metric == "instructions" && !s.instructions) line.at("instructions").fail("metric instructions needs these settings");
  if (line.has("machine_control")) s.machine_control = line.at("machine_control").text();
  s.layout_controls = texts_or_empty(line, "layout_controls");
  if (line.has("layout_stable")) s.layout_stable = line.at("layout_stable").boolean();
  if (line.has("layout_probe")) s.layout_probe = line.at("layout_probe").boolean();
  if (line.has("layouts")) s.layouts = line.at("layouts").integer();
  if (s.layouts < 1 || s.layouts > 3) line.at("layouts").fail("expected 1, 2 or 3 layouts");
  if (line.has("layouts_aligned")) s.layouts_aligned = line.at("layouts_aligned").boolean();
  if (line.has("reach")) s.reach = line.at("reach").boolean();
  if (line.has("reach_method")) s.reach_method = line.at("reach_method").text();
  if (line.has("compile_cache")) s.compile_cache = line.at("compile_cache").text();
  s.commands = texts_or_empty(line, "commands");
  s.prepare = texts_or_empty(line, "prepare");
  if (line.has("shard")) s.shard = read_shard(line.at("shard"));
  s.budget_dropped = texts_or_empty(line, "budget_dropped");
  if (line.has("shared_parent")) s.shared_parent = read_shared_parent(line.at("shared_parent"));
  return s;
}

}  // namespace cobench::results
