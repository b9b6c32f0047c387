// Google Benchmark's JSON reporter output, read defensively across 1.5-1.9:
// run_type/run_name appeared in 1.5 (older files have neither), `skipped` and
// `skip_message` in 1.8 beside error_occurred/error_message, and the memory
// manager fields total_allocated_bytes/net_heap_growth in 1.7.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/errors.h"
#include "formats/formats.h"
#include "formats/json_text.h"

namespace cobench::formats {
namespace {

using nlohmann::json;

// Before run_type existed, aggregates were recognisable only by these suffixes.
const char* const kAggregateSuffixes[] = {"_mean", "_median", "_stddev", "_cv", "_BigO", "_RMS"};

// The memory manager measures a separate run of min(16, iterations)
// iterations (benchmark_runner.cc); total_allocated_bytes is that run's total.
constexpr double kMemoryIterations = 16;

std::string string_field(const json& item, const char* key) {
  auto it = item.find(key);
  return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool true_field(const json& item, const char* key) {
  auto it = item.find(key);
  return it != item.end() && it->is_boolean() && it->get<bool>();
}

double nanoseconds_per(const std::string& unit, const std::string& where) {
  if (unit.empty() || unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  throw InputError(fmt::format("{}: unknown time_unit \"{}\" (expected ns, us, ms or s)", where, unit));
}

/// Reads one benchmark entry's time: present, a number, finite and positive.
double required_time(const json& item, const char* key, const std::string& where) {
  auto it = item.find(key);
  if (it == item.end()) throw InputError(fmt::format("{}: no {}", where, key));
  auto value = json_number(*it);
  if (!value) throw InputError(fmt::format("{}: {} is not a number: {}", where, key, it->dump()));
  if (std::isnan(*value)) throw InputError(fmt::format("{}: {} is NaN", where, key));
  if (!std::isfinite(*value) || *value <= 0) {
    const std::string shown = std::isinf(*value) ? (*value > 0 ? "Infinity" : "-Infinity") : it->dump();
    throw InputError(fmt::format("{}: {} is {}, expected a positive time", where, key, shown));
  }
  return *value;
}

// Google Benchmark runs at most 1e9 iterations and its clock ticks in
// nanoseconds: an honest time per iteration is at least 1e-9 ns. A loop the
// compiler removed comes close (6.7e-7 ns measured, which is flagged "likely
// optimised away", not refused); a smaller time is a unit mix-up or a corrupt file.
constexpr double kShortestTimeNs = 1e-9;

/// A time field in nanoseconds, checked: one clock tick over the most iterations or more.
double nanoseconds(const json& item, const char* key, double scale, const std::string& where) {
  const double ns = required_time(item, key, where) * scale;
  if (ns < kShortestTimeNs)
    throw InputError(fmt::format("{}: {} is {} ns, below one clock tick over Google Benchmark's 1e9 iterations: not "
                                 "a measurement",
                                 where, key, ns));
  return ns;
}

std::optional<double> optional_number(const json& item, const char* key) {
  auto it = item.find(key);
  if (it == item.end()) return std::nullopt;
  auto value = json_number(*it);
  return value && std::isfinite(*value) ? value : std::nullopt;
}

bool is_aggregate(const json& item, const std::string& name, const std::set<std::string>& names) {
  if (item.contains("run_type")) return string_field(item, "run_type") == "aggregate";
  if (item.contains("aggregate_name") || item.contains("big_o") || item.contains("rms")) return true;
  for (const char* suffix : kAggregateSuffixes) {
    std::string_view s(suffix);
    if (name.size() > s.size() && name.ends_with(s) && names.count(name.substr(0, name.size() - s.size())))
      return true;
  }
  return false;
}

void add_memory(const json& item, Entry& entry) {
  if (auto allocs = optional_number(item, "allocs_per_iter")) entry.allocs_per_iter.push_back(*allocs);
  if (auto peak = optional_number(item, "max_bytes_used")) entry.peak_bytes.push_back(*peak);
  auto total = optional_number(item, "total_allocated_bytes");
  auto iterations = optional_number(item, "iterations");
  if (total && iterations && *iterations > 0)
    entry.bytes_per_iter.push_back(*total / std::min(kMemoryIterations, *iterations));
}

}  // namespace

Output parse_google_benchmark_json(std::string_view text, const std::string& source) {
  json doc = parse_lenient_json(text, source);
  if (!doc.is_object() || !doc.contains("benchmarks"))
    throw InputError(source + ": no \"benchmarks\" array; not Google Benchmark JSON output "
                              "(--benchmark_format=json or --benchmark_out=FILE)");
  const json& list = doc["benchmarks"];
  if (!list.is_array()) throw InputError(source + ": \"benchmarks\" is not an array");

  Output out;
  if (doc.contains("context") && doc["context"].is_object()) out.context = doc["context"];
  std::set<std::string> plain_names;
  for (const auto& item : list)
    if (item.is_object()) plain_names.insert(string_field(item, "name"));

  std::map<std::string, size_t> index;  // name -> position in out.entries
  std::set<std::string> aggregate_only;
  auto entry_for = [&](const std::string& name) -> Entry& {
    auto [it, added] = index.emplace(name, out.entries.size());
    if (added) {
      Entry entry;
      entry.name = name;
      out.entries.push_back(std::move(entry));
    }
    return out.entries[it->second];
  };
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    if (!item.is_object()) throw InputError(fmt::format("{}: benchmarks[{}] is not an object", source, i));
    std::string name = string_field(item, "run_name");
    if (name.empty()) name = string_field(item, "name");
    if (name.empty()) throw InputError(fmt::format("{}: benchmarks[{}] has no name", source, i));
    std::string where = fmt::format("{}: benchmark \"{}\"", source, name);
    if (is_aggregate(item, string_field(item, "name"), plain_names)) {
      // BigO/RMS fits span a family's instances and never stand in for repetitions.
      // Without run_name (before 1.5) the repetitions' name is not known for sure.
      bool complexity = item.contains("big_o") || item.contains("rms");
      if (!complexity && item.contains("run_name") && !index.count(name)) aggregate_only.insert(name);
      continue;
    }
    Entry& entry = entry_for(name);
    aggregate_only.erase(name);
    if (true_field(item, "error_occurred") || true_field(item, "skipped")) {
      std::string message = string_field(item, "error_message");
      if (message.empty()) message = string_field(item, "skip_message");
      if (true_field(item, "skipped")) message = "skipped" + (message.empty() ? "" : ": " + message);
      if (entry.error.empty()) entry.error = message.empty() ? "error" : message;
      continue;
    }
    double scale = nanoseconds_per(string_field(item, "time_unit"), where);
    entry.real_ns.push_back(nanoseconds(item, "real_time", scale, where));
    entry.cpu_ns.push_back(nanoseconds(item, "cpu_time", scale, where));
    if (auto iterations = optional_number(item, "iterations"); iterations && *iterations > 0)
      entry.iterations.push_back(*iterations);
    if (auto threads = optional_number(item, "threads"); threads && *threads >= 1)
      entry.threads = static_cast<int>(*threads);
    add_memory(item, entry);
  }
  for (const auto& name : aggregate_only)
    entry_for(name).error = "only aggregates in the output; rerun without --benchmark_report_aggregates_only";
  return out;
}

}  // namespace cobench::formats
