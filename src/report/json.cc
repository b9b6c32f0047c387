// report.json: the Report model as the JSON contract other tools read, and
// back. Non-finite numbers are written as null; budgets are fractions.
#include <cmath>

#include <fmt/format.h>

#include "core/errors.h"
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

json median_metric(const MedianMetric& metric) {
  return {{"base_median", number(metric.base_median)},
          {"head_median", number(metric.head_median)},
          {"budget", metric.budget},
          {"verdict", metric.judged ? json(stats::to_string(metric.verdict)) : json(nullptr)}};
}

json row_json(const BenchmarkRow& row) {
  const auto& e = row.estimate;
  json out = {
      {"name", row.name},
      {"n_base", row.base_samples.size()},
      {"n_head", row.head_samples.size()},
      {"base_median", number(row.base_median)},
      {"head_median", number(row.head_median)},
      {"ratio", row.compared ? number(e.ratio) : json(nullptr)},
      {"ci_low", row.compared ? number(e.ci_low) : json(nullptr)},
      {"ci_high", row.compared ? number(e.ci_high) : json(nullptr)},
      {"confidence", e.confidence},
      {"p_value", row.compared ? number(e.p_value) : json(nullptr)},
      {"method", row.compared ? json(stats::to_string(e.method)) : json(nullptr)},
      {"budget", row.budget},
      {"verdict", stats::to_string(row.verdict)},
      {"faster", row.faster},
  };
  if (!row.target.empty()) out["target"] = row.target;
  if (row.compared && !e.ci_reachable) out["runs_needed"] = e.runs_needed;
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
  if (row.allocs) out["allocs"] = median_metric(*row.allocs);
  if (row.bytes) out["bytes"] = median_metric(*row.bytes);
  out["is_control"] = row.is_control;
  return out;
}

/// Typed access to a parsed report that names the offending path on a wrong shape.
class Reader {
 public:
  Reader(const json& value, std::string where) : value_(value), where_(std::move(where)) {}

  Reader at(const std::string& key) const {
    if (!value_.is_object()) fail("expected an object");
    auto it = value_.find(key);
    if (it == value_.end()) throw InputError(fmt::format("report JSON: {}.{}: missing", where_, key));
    return Reader(*it, where_ + "." + key);
  }
  bool has(const std::string& key) const { return value_.is_object() && value_.contains(key); }
  Reader at(size_t i) const { return Reader(value_[i], fmt::format("{}[{}]", where_, i)); }
  size_t size() const {
    if (!value_.is_array()) fail("expected an array");
    return value_.size();
  }
  double number_or_nan() const {
    if (value_.is_null()) return std::nan("");
    if (!value_.is_number()) fail("expected a number or null");
    return value_.get<double>();
  }
  double number() const {
    if (!value_.is_number()) fail("expected a number");
    return value_.get<double>();
  }
  int integer() const {
    if (!value_.is_number_integer()) fail("expected an integer");
    return value_.get<int>();
  }
  std::string text() const {
    if (!value_.is_string()) fail("expected a string");
    return value_.get<std::string>();
  }
  bool boolean() const {
    if (!value_.is_boolean()) fail("expected true or false");
    return value_.get<bool>();
  }
  bool is_null() const { return value_.is_null(); }
  const json& object() const {
    if (!value_.is_object()) fail("expected an object");
    return value_;
  }
  std::vector<double> numbers() const {
    std::vector<double> out;
    for (size_t i = 0; i < size(); ++i) out.push_back(at(i).number_or_nan());
    return out;
  }
  std::vector<std::string> texts() const {
    std::vector<std::string> out;
    for (size_t i = 0; i < size(); ++i) out.push_back(at(i).text());
    return out;
  }
  stats::Verdict verdict() const {
    auto v = stats::verdict_from_string(text());
    if (!v) fail("expected pass, regression or inconclusive");
    return *v;
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format("report JSON: {}: {}", where_, what));
  }

 private:
  const json& value_;
  std::string where_;
};

MedianMetric read_median_metric(const Reader& r) {
  MedianMetric m;
  m.base_median = r.at("base_median").number_or_nan();
  m.head_median = r.at("head_median").number_or_nan();
  m.budget = r.at("budget").text();
  m.judged = !r.at("verdict").is_null();
  if (m.judged) m.verdict = r.at("verdict").verdict();
  return m;
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
  auto& e = row.estimate;
  e.ratio = r.at("ratio").number_or_nan();
  e.ci_low = r.at("ci_low").number_or_nan();
  e.ci_high = r.at("ci_high").number_or_nan();
  e.confidence = r.at("confidence").number();
  e.p_value = r.at("p_value").number_or_nan();
  row.compared = !r.at("ratio").is_null();
  if (row.compared) {
    std::string method = r.at("method").text();
    if (method != "exact" && method != "normal") r.at("method").fail("expected exact or normal");
    e.method = method == "exact" ? stats::Method::Exact : stats::Method::Normal;
    e.ci_reachable = !r.has("runs_needed");
    if (!e.ci_reachable) e.runs_needed = r.at("runs_needed").integer();
  }
  row.budget = r.at("budget").number();
  row.verdict = r.at("verdict").verdict();
  row.faster = r.at("faster").boolean();
  row.note = r.at("note").text();
  row.runs_base = r.at("runs_base").integer();
  row.runs_head = r.at("runs_head").integer();
  Reader failed = r.at("failed_runs");
  for (size_t i = 0; i < failed.size(); ++i) {
    Reader f = failed.at(i);
    row.failed_runs.push_back({f.at("side").text(), f.at("run").integer(), f.at("cause").text(), f.at("log").text()});
  }
  if (r.has("allocs")) row.allocs = read_median_metric(r.at("allocs"));
  if (r.has("bytes")) row.bytes = read_median_metric(r.at("bytes"));
  row.is_control = r.at("is_control").boolean();
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

}  // namespace

json to_json(const Report& report) {
  json rows = json::array(), added = json::array(), removed = json::array(), targets = json::array();
  for (const auto& row : report.benchmarks) rows.push_back(row_json(row));
  for (const auto& item : report.added) added.push_back(one_sided(item));
  for (const auto& item : report.removed) removed.push_back(one_sided(item));
  for (const auto& t : report.targets)
    targets.push_back(
        {{"name", t.name}, {"warnings", t.warnings}, {"alloc_status", t.alloc_status}, {"alloc_runs", t.alloc_runs}});
  return {{"schema", report.schema},       {"tool", report.tool},
          {"base", report.base},           {"head", report.head},
          {"metric", report.metric},       {"budget", report.budget},
          {"confidence", report.confidence}, {"host", report.host},
          {"settings", report.settings},   {"selection", report.selection},
          {"benchmarks", rows},            {"added", added},
          {"removed", removed},            {"targets", targets},
          {"notes", report.notes}};
}

Report from_json(const json& value) {
  Reader r(value, "$");
  Report report;
  report.schema = r.at("schema").integer();
  if (report.schema != 1) r.at("schema").fail(fmt::format("unsupported schema {} (this cobench reads 1)", report.schema));
  report.tool = r.at("tool").text();
  report.base = r.at("base").text();
  report.head = r.at("head").text();
  report.metric = r.at("metric").text();
  report.budget = r.at("budget").number();
  report.confidence = r.at("confidence").number();
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
    report.targets.push_back(
        {t.at("name").text(), t.at("warnings").texts(), t.at("alloc_status").text(), t.at("alloc_runs").integer()});
  }
  report.notes = r.at("notes").texts();
  return report;
}

}  // namespace cobench::report
