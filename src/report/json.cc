// report.json: the Report model as the JSON contract other tools read, and
// back. Non-finite numbers are written as null; budgets are fractions.
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "formats/json_reader.h"
#include "verdict/change_reach_json.h"
#include "report/report.h"

namespace cobench::report {
namespace {

using nlohmann::json;

json number(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }

json one_sided(const OneSided& item) {
  json out = {{"name", item.name}};
  if (!item.target.empty()) out["target"] = item.target;
  return out;
}

json median_metric(const verdict::MedianJudgement& metric) {
  return {{"base_median", number(metric.base_median)},
          {"head_median", number(metric.head_median)},
          {"budget", metric.budget ? metric.budget->text : ""},
          {"verdict", metric.judged() ? json(verdict::to_string(metric.verdict)) : json(nullptr)}};
}

json events_json(const verdict::CacheEvents& events) {
  json out = json::object();
  for (const auto& [name, member] : verdict::kCacheEventNames) out[name] = number(events.*member);
  return out;
}

json sides_json(double base, double head) { return {{"base_median", number(base)}, {"head_median", number(head)}}; }

json instructions_json(const verdict::InstructionJudgement& j) {
  json out = {{"compared", j.compared},       {"ratio", j.compared ? number(j.ratio) : json(nullptr)},
              {"low", j.compared ? number(j.low) : json(nullptr)},
              {"high", j.compared ? number(j.high) : json(nullptr)},
              {"tolerance", j.tolerance},     {"budget", j.budget},
              {"verdict", verdict::to_string(j.verdict)}, {"faster", j.faster},
              {"n_base", j.n_base},           {"n_head", j.n_head},
              {"note", j.note},               {"slowdown", number(j.slowdown)}};
  if (!j.compared) return out;
  auto rate = [](double misses, double accesses) { return accesses > 0 ? misses / accesses : report::kUndefined; };
  out["base_median"] = number(j.base.ir);
  out["head_median"] = number(j.head.ir);
  out["base_spread"] = number(j.base_spread);
  out["head_spread"] = number(j.head_spread);
  out["estimated_cycles"] = sides_json(verdict::estimated_cycles(j.base), verdict::estimated_cycles(j.head));
  out["estimated_cycles"]["ratio"] = number(j.cycles_ratio());
  out["l1_misses"] = sides_json(j.base.l1_misses(), j.head.l1_misses());
  out["ll_misses"] = sides_json(j.base.ll_misses(), j.head.ll_misses());
  out["l1_miss_rate"] = sides_json(rate(j.base.l1_misses(), j.base.accesses()), rate(j.head.l1_misses(), j.head.accesses()));
  out["ll_miss_rate"] = sides_json(rate(j.base.ll_misses(), j.base.accesses()), rate(j.head.ll_misses(), j.head.accesses()));
  out["events"] = {{"base", events_json(j.base)}, {"head", events_json(j.head)}};
  return out;
}

json row_json(const BenchmarkRow& row) {
  const auto& e = row.time.estimate;
  json out = {
      {"name", row.name},
      {"n_base", row.base_samples.size()},
      {"n_head", row.head_samples.size()},
      {"base_median", number(row.base_median)},
      {"head_median", number(row.head_median)},
      {"ratio", row.time.compared ? number(e.ratio) : json(nullptr)},
      {"ci_low", row.time.compared ? number(e.ci_low) : json(nullptr)},
      {"ci_high", row.time.compared ? number(e.ci_high) : json(nullptr)},
      {"confidence", e.confidence},
      {"p_value", row.time.compared ? number(e.p_value) : json(nullptr)},
      {"method", row.time.compared ? json(stats::to_string(e.method)) : json(nullptr)},
      {"budget", row.budget},
      {"metric", row.metric.empty() ? json(nullptr) : json(row.metric)},
      {"noise", row.time.compared ? number(row.time.noise) : json(nullptr)},
      {"detectable", row.time.compared ? number(row.time.detectable) : json(nullptr)},
      {"runs_to_decide", row.time.runs_to_decide > 0 ? json(row.time.runs_to_decide) : json(nullptr)},
      {"noise_split", {{"within_process", number(row.within_sd)}, {"between_process", number(row.between_sd)},
                       {"repetitions", row.repetitions}}},
      {"verdict", verdict::to_string(row.verdict)},
      {"time_verdict", verdict::to_string(row.time.verdict)},
      {"decided_by", row.decided_by},
      {"faster", row.time.faster},
  };
  if (!row.target.empty()) out["target"] = row.target;
  if (row.time.compared && !e.ci_reachable) out["runs_needed"] = e.runs_needed;
  out["note"] = row.note;
  out["runs_base"] = row.runs_base;
  out["runs_head"] = row.runs_head;
  json failed = json::array();
  for (const auto& f : row.failed_runs)
    failed.push_back({{"side", f.side}, {"run", f.run}, {"cause", f.cause}, {"log", f.log}});
  out["failed_runs"] = failed;
  json base = json::array(), head = json::array();
  for (double v : row.base_samples) base.push_back(number(v));
  for (double v : row.head_samples) head.push_back(number(v));
  out["samples"] = {{"base", base}, {"head", head}};
  out["time_measured"] = row.time_measured;
  if (row.instructions) out["instructions"] = instructions_json(*row.instructions);
  if (row.allocs) out["allocs"] = median_metric(*row.allocs);
  if (row.bytes) out["bytes"] = median_metric(*row.bytes);
  out["is_control"] = row.is_control;
  if (!row.control_kind.empty()) out["control_kind"] = row.control_kind;
  out["clears_control"] = row.clears_control ? json(*row.clears_control) : json(nullptr);
  out["reach"] = row.reach ? verdict::change_reach_json(*row.reach) : json(nullptr);
  out["likely_optimised_away"] = row.optimised_away.empty() ? json(nullptr) : json(row.optimised_away);
  if (row.shard > 0) out["shard"] = row.shard;
  // A check that did not finish (a stopped job) decided nothing: null, as unchecked, with what it measured.
  const bool decided = row.layout_outcome && *row.layout_outcome != verdict::LayoutOutcome::NeedsLayout;
  out["layout_outcome"] = decided ? json(verdict::to_string(*row.layout_outcome)) : json(nullptr);
  json layouts = json::array();
  for (const auto& reading : row.layouts)
    layouts.push_back({{"layout", reading.layout},
                       {"ratio", number(reading.ratio)},
                       {"ci_low", number(reading.ci_low)},
                       {"ci_high", number(reading.ci_high)},
                       {"verdict", verdict::to_string(reading.verdict)}});
  out["layouts"] = layouts;
  return out;
}

/// A row's layout readings and outcome, as row_json writes them (reports before layout confirmation have none).
void read_layouts(const formats::JsonReader& r, BenchmarkRow& row) {
  if (r.has("layouts")) {
    const formats::JsonReader layouts = r.at("layouts");
    for (size_t i = 0; i < layouts.size(); ++i) {
      const formats::JsonReader item = layouts.at(i);
      verdict::LayoutReading reading;
      reading.layout = item.at("layout").integer();
      reading.ratio = item.at("ratio").number_or_nan();
      reading.ci_low = item.at("ci_low").number_or_nan();
      reading.ci_high = item.at("ci_high").number_or_nan();
      if (!verdict::layout_verdict_from_string(item.at("verdict").text(), reading.verdict))
        item.at("verdict").fail("expected regression, faster, pass or inconclusive");
      row.layouts.push_back(reading);
    }
  }
  if (!r.has("layout_outcome") || r.at("layout_outcome").is_null()) {
    if (row.layouts.size() > 1) row.layout_outcome = verdict::LayoutOutcome::NeedsLayout;  // measured, not finished
    return;
  }
  const std::string outcome = r.at("layout_outcome").text();
  for (auto known : {verdict::LayoutOutcome::Confirmed, verdict::LayoutOutcome::LayoutSensitive})
    if (outcome == verdict::to_string(known)) row.layout_outcome = known;
  if (!row.layout_outcome) r.at("layout_outcome").fail("expected confirmed, layout-sensitive or null");
}


using Reader = formats::JsonReader;

verdict::Verdict verdict_of(const Reader& r) {
  auto v = verdict::verdict_from_string(r.text());
  if (!v) r.fail("expected pass, regression or inconclusive");
  return *v;
}

verdict::MedianJudgement read_median_metric(const Reader& r) {
  verdict::MedianJudgement m;
  m.base_median = r.at("base_median").number_or_nan();
  m.head_median = r.at("head_median").number_or_nan();
  if (!r.at("verdict").is_null()) {
    m.verdict = verdict_of(r.at("verdict"));
    try {
      m.budget = config::parse_threshold(r.at("budget").text());
    } catch (const InputError& e) {
      r.at("budget").fail(e.what());
    }
  }
  return m;
}

verdict::CacheEvents read_events(const Reader& r) {
  verdict::CacheEvents events;
  for (const auto& [name, member] : verdict::kCacheEventNames) events.*member = r.at(name).number_or_nan();
  return events;
}

verdict::InstructionJudgement read_instructions(const Reader& r) {
  verdict::InstructionJudgement j;
  j.compared = r.at("compared").boolean();
  j.tolerance = r.at("tolerance").number();
  j.budget = r.at("budget").number();
  j.verdict = verdict_of(r.at("verdict"));
  j.faster = r.at("faster").boolean();
  j.n_base = r.at("n_base").integer();
  j.n_head = r.at("n_head").integer();
  j.note = r.at("note").text();
  j.slowdown = r.at("slowdown").number_or_nan();
  if (!j.compared) return j;
  j.ratio = r.at("ratio").number_or_nan();
  j.low = r.at("low").number_or_nan();
  j.high = r.at("high").number_or_nan();
  j.base_spread = r.at("base_spread").number_or_nan();
  j.head_spread = r.at("head_spread").number_or_nan();
  j.base = read_events(r.at("events").at("base"));
  j.head = read_events(r.at("events").at("head"));
  return j;
}

BenchmarkRow read_row(const Reader& r) {
  BenchmarkRow row;
  row.name = r.at("name").text();
  if (r.has("target")) row.target = r.at("target").text();
  row.base_samples = r.at("samples").at("base").numbers();
  row.head_samples = r.at("samples").at("head").numbers();
  if (row.base_samples.size() != static_cast<size_t>(r.at("n_base").integer()) ||
      row.head_samples.size() != static_cast<size_t>(r.at("n_head").integer()))
    r.fail("n_base/n_head disagree with the samples");
  row.base_median = r.at("base_median").number_or_nan();
  row.head_median = r.at("head_median").number_or_nan();
  auto& e = row.time.estimate;
  e.ratio = r.at("ratio").number_or_nan();
  e.ci_low = r.at("ci_low").number_or_nan();
  e.ci_high = r.at("ci_high").number_or_nan();
  e.confidence = r.at("confidence").number();
  e.p_value = r.at("p_value").number_or_nan();
  row.time.compared = !r.at("ratio").is_null();
  if (row.time.compared) {
    auto method = stats::method_from_string(r.at("method").text());
    if (!method) r.at("method").fail("expected exact, normal, signed-rank exact or signed-rank normal");
    e.method = *method;
    e.ci_reachable = !r.has("runs_needed");
    if (!e.ci_reachable) e.runs_needed = r.at("runs_needed").integer();
  }
  row.budget = r.at("budget").number();
  // Fields added with paired runs and looks (schema 1 stays readable without them).
  if (r.has("metric") && !r.at("metric").is_null()) row.metric = r.at("metric").text();
  if (r.has("noise")) row.time.noise = r.at("noise").number_or_nan();
  if (r.has("detectable")) row.time.detectable = r.at("detectable").number_or_nan();
  if (r.has("runs_to_decide") && !r.at("runs_to_decide").is_null()) row.time.runs_to_decide = r.at("runs_to_decide").integer();
  if (r.has("noise_split")) {
    const Reader split = r.at("noise_split");
    row.within_sd = split.at("within_process").number_or_nan();
    row.between_sd = split.at("between_process").number_or_nan();
    row.repetitions = split.at("repetitions").number();
  }
  row.verdict = verdict_of(r.at("verdict"));
  // Reports before the verdict stage carried only the overall verdict.
  row.time.verdict = r.has("time_verdict") ? verdict_of(r.at("time_verdict")) : row.verdict;
  if (r.has("decided_by")) row.decided_by = r.at("decided_by").text();
  row.time.faster = r.at("faster").boolean();
  row.note = r.at("note").text();
  row.runs_base = r.at("runs_base").integer();
  row.runs_head = r.at("runs_head").integer();
  Reader failed = r.at("failed_runs");
  for (size_t i = 0; i < failed.size(); ++i) {
    Reader f = failed.at(i);
    row.failed_runs.push_back({f.at("side").text(), f.at("run").integer(), f.at("cause").text(), f.at("log").text()});
  }
  if (r.has("time_measured")) row.time_measured = r.at("time_measured").boolean();
  if (r.has("instructions")) row.instructions = read_instructions(r.at("instructions"));
  if (r.has("allocs")) row.allocs = read_median_metric(r.at("allocs"));
  if (r.has("bytes")) row.bytes = read_median_metric(r.at("bytes"));
  row.is_control = r.at("is_control").boolean();
  if (r.has("control_kind")) row.control_kind = r.at("control_kind").text();
  if (r.has("clears_control") && !r.at("clears_control").is_null()) row.clears_control = r.at("clears_control").boolean();
  if (r.has("reach") && !r.at("reach").is_null()) row.reach = verdict::change_reach_from_json(r.at("reach"));
  if (r.has("likely_optimised_away") && !r.at("likely_optimised_away").is_null())
    row.optimised_away = r.at("likely_optimised_away").text();
  if (r.has("shard")) row.shard = r.at("shard").integer();
  read_layouts(r, row);
  return row;
}

std::vector<OneSided> read_one_sided(const Reader& r) {
  std::vector<OneSided> out;
  for (size_t i = 0; i < r.size(); ++i) {
    Reader item = r.at(i);
    out.push_back({item.has("target") ? item.at("target").text() : "", item.at("name").text()});
  }
  return out;
}

json control_json(const verdict::ControlInterval& c) {
  return {{"name", c.name},         {"kind", c.kind},           {"ratio", number(c.ratio)},
          {"ci_low", number(c.ci_low)}, {"ci_high", number(c.ci_high)}, {"spread", number(c.spread)}};
}

}  // namespace

json to_json(const Report& report) {
  json rows = json::array(), added = json::array(), removed = json::array(), targets = json::array();
  for (const auto& row : report.benchmarks) rows.push_back(row_json(row));
  for (const auto& item : report.added) added.push_back(one_sided(item));
  for (const auto& item : report.removed) removed.push_back(one_sided(item));
  for (const auto& t : report.targets) {
    targets.push_back(
        {{"name", t.name}, {"warnings", t.warnings}, {"alloc_status", t.alloc_status}, {"alloc_runs", t.alloc_runs}});
    if (!t.failure.empty()) targets.back()["failure"] = t.failure;
    if (!t.instructions_status.empty()) {
      targets.back()["instructions_status"] = t.instructions_status;
      targets.back()["instruction_runs"] = t.instruction_runs;
    }
    if (t.shard > 0) targets.back()["shard"] = t.shard;
    if (!t.run_length.empty()) targets.back()["run_length"] = t.run_length;
  }
  json control = nullptr;
  if (report.controls.size() == 1) control = control_json(report.controls.front());
  if (report.controls.size() > 1) {
    control = json::array();
    for (const auto& c : report.controls) control.push_back(control_json(c));
  }
  json out = {{"schema", report.schema},         {"tool", report.tool},
              {"base", report.base},             {"head", report.head},
              {"metric", report.metric},         {"budget", report.budget},
              {"confidence", report.confidence}, {"look_rule", report.look_rule},
              {"reach_method", report.reach_method.empty() ? json(nullptr) : json(report.reach_method)},
              {"control_rule", report.control_rule.empty() ? json(nullptr) : json(report.control_rule)},
              {"layout_rule", report.layout_rule.empty() ? json(nullptr) : json(report.layout_rule)},
              {"run_length_rule", report.run_length_rule.empty() ? json(nullptr) : json(report.run_length_rule)},
              {"host", report.host},             {"settings", report.settings},
              {"selection", report.selection},   {"benchmarks", rows},
              {"added", added},                  {"removed", removed},
              {"targets", targets},              {"notes", report.notes},
              {"control", control}};
  json phases = json::array();
  for (const auto& phase : report.phases) phases.push_back({{"name", phase.name}, {"seconds", phase.seconds}});
  out["phases"] = phases;
  if (!report.shards.empty()) out["shards"] = report.shards;
  return out;
}

Report from_json(const json& value) {
  Reader r(value, "report JSON");
  Report report;
  report.schema = r.at("schema").integer();
  if (report.schema < 1) r.at("schema").fail(fmt::format("unsupported schema {} (this cobench reads 1)", report.schema));
  report.tool = r.at("tool").text();
  report.base = r.at("base").text();
  report.head = r.at("head").text();
  report.metric = r.at("metric").text();
  report.budget = r.at("budget").number();
  report.confidence = r.at("confidence").number();
  if (r.has("look_rule")) report.look_rule = r.at("look_rule").text();
  if (r.has("control_rule") && !r.at("control_rule").is_null()) report.control_rule = r.at("control_rule").text();
  if (r.has("reach_method") && !r.at("reach_method").is_null()) report.reach_method = r.at("reach_method").text();
  if (r.has("layout_rule") && !r.at("layout_rule").is_null()) report.layout_rule = r.at("layout_rule").text();
  if (r.has("run_length_rule") && !r.at("run_length_rule").is_null())
    report.run_length_rule = r.at("run_length_rule").text();
  if (r.has("phases")) {  // since 2026-12: older reports have none
    Reader phases = r.at("phases");
    for (size_t i = 0; i < phases.size(); ++i)
      report.phases.push_back({phases.at(i).at("name").text(), phases.at(i).at("seconds").number()});
  }
  report.host = r.at("host").object();
  report.settings = r.at("settings").object();
  report.selection = r.at("selection").object();
  Reader rows = r.at("benchmarks");
  for (size_t i = 0; i < rows.size(); ++i) report.benchmarks.push_back(read_row(rows.at(i)));
  report.added = read_one_sided(r.at("added"));
  report.removed = read_one_sided(r.at("removed"));
  Reader targets = r.at("targets");
  for (size_t i = 0; i < targets.size(); ++i) {
    Reader t = targets.at(i);
    report.targets.push_back({t.at("name").text(), t.at("warnings").texts(), t.at("alloc_status").text(),
                              t.at("alloc_runs").integer(), t.has("failure") ? t.at("failure").text() : ""});
    if (t.has("instructions_status")) {
      report.targets.back().instructions_status = t.at("instructions_status").text();
      report.targets.back().instruction_runs = t.at("instruction_runs").integer();
    }
    if (t.has("shard")) report.targets.back().shard = t.at("shard").integer();
    if (t.has("run_length")) report.targets.back().run_length = t.at("run_length").text();
  }
  report.notes = r.at("notes").texts();
  if (r.has("shards")) {
    r.at("shards").size();  // an array
    report.shards = r.at("shards").value();
  }
  if (r.has("control") && !r.at("control").is_null()) {
    const Reader control = r.at("control");
    auto read = [](const Reader& c) {
      return verdict::ControlInterval{c.at("name").text(),           c.at("kind").text(),
                                    c.at("ratio").number_or_nan(), c.at("ci_low").number_or_nan(),
                                    c.at("ci_high").number_or_nan(), c.at("spread").number_or_nan()};
    };
    if (control.value().is_array())
      for (size_t i = 0; i < control.size(); ++i) report.controls.push_back(read(control.at(i)));
    else
      report.controls.push_back(read(control));
  }
  if (report.schema > 1)  // newer writers only add fields: read what this version knows, and say so
    report.notes.push_back(fmt::format("report JSON of schema {}, newer than this cobench's 1: fields it added are "
                                       "not shown",
                                       report.schema));
  report.schema = 1;  // what this model holds, and what writing it again would produce
  return report;
}

}  // namespace cobench::report
