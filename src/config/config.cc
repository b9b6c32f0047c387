#include "config/config.h"

#include <system_error>

#include <fmt/format.h>

#include "config/toml_reader.h"
#include "core/errors.h"
#include "core/files.h"

namespace cobench::config {
namespace {

// A section must be a table; a missing one keeps the defaults.
const toml::table* section(TableReader& top, std::string_view name) {
  const toml::node* node = top.get(name);
  if (!node) return nullptr;
  if (!node->is_table()) top.fail(*node, name, fmt::format("expected a table [{}], got {}", name, type_name(*node)));
  return node->as_table();
}

void read_build(TableReader& r, BuildConfig& build) {
  r.string_list("cmake_args", build.cmake_args);
  r.regex_list("targets", build.targets);
  r.string("source_dir", build.source_dir);
  r.string("build_type", build.build_type);
  if (build.build_type.empty()) r.fail(*r.get("build_type"), "build_type", "must not be empty");
}

void read_run(TableReader& r, RunConfig& run) {
  r.integer("cpu", run.cpu, 0);
  r.integer("min_runs", run.min_runs, 2);
  r.integer("max_runs", run.max_runs, 2);
  if (run.min_runs > run.max_runs) {
    std::string_view key = r.get("max_runs") ? "max_runs" : "min_runs";
    r.fail(*r.get(key), key, fmt::format("min_runs ({}) is greater than max_runs ({})", run.min_runs, run.max_runs));
  }
  std::optional<double> timeout;
  r.duration("run_timeout", timeout);
  if (timeout) run.run_timeout = *timeout;
  r.duration("time_budget", run.time_budget);
  r.string_list("bench_args", run.bench_args);
  r.choice("metric", run.metric, {"real_time", "cpu_time"});
  r.integer("alloc_runs", run.alloc_runs, 0);
  r.choice("runner", run.runner, {"gbench", "go", "command"});
}

// Shared by [budget] and each [[budget.override]]: the per-metric limits.
void read_limits(TableReader& r, std::optional<double>& time, std::optional<std::string>& allocs,
                 std::optional<std::string>& bytes) {
  r.fraction("time", time);
  r.threshold("allocs", allocs);
  r.threshold("bytes", bytes);
}

void read_override(TableReader& r, const toml::table& table, BudgetOverride& out) {
  const toml::node* match = r.get("match");
  if (!match) throw InputError(fmt::format("{}: {}: missing required key 'match' (a regex over benchmark names)",
                                           position(r.source(), table.source()), r.path()));
  r.regex("match", out.match);
  read_limits(r, out.time, out.allocs, out.bytes);
}

void read_budget(TableReader& r, BudgetConfig& budget) {
  std::optional<double> time;
  read_limits(r, time, budget.allocs, budget.bytes);
  if (time) budget.time = *time;
  r.boolean("fail_on_inconclusive", budget.fail_on_inconclusive);
  r.probability("confidence", budget.confidence);
  const toml::node* overrides = r.get("override");
  if (!overrides) return;
  const toml::array* array = overrides->as_array();
  if (!array) r.fail(*overrides, "override", "expected [[budget.override]] tables, got " + std::string(type_name(*overrides)));
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::node& item = *array->get(i);
    if (!item.is_table()) r.fail(item, "override", "expected a table, got " + std::string(type_name(item)));
    TableReader sub(*item.as_table(), r.source(), fmt::format("budget.override[{}]", i + 1));
    BudgetOverride entry;
    read_override(sub, *item.as_table(), entry);
    sub.finish();
    budget.overrides.push_back(std::move(entry));
  }
}

void read_select(TableReader& r, SelectConfig& select) {
  r.integer("max_targets", select.max_targets, 1);
  r.string_list("always_all", select.always_all);
  r.string_list("ignore", select.ignore);
  r.boolean("strict_layout", select.strict_layout);
}

// Reads one optional section with its own unknown-key check.
template <typename Settings>
void read_section(TableReader& top, std::string_view name, Settings& settings,
                  void (*reader)(TableReader&, Settings&)) {
  const toml::table* table = section(top, name);
  if (!table) return;
  TableReader r(*table, top.source(), std::string(name));
  reader(r, settings);
  r.finish();
}

}  // namespace

Config parse(const std::string& text, const std::string& source) {
  toml::table root;
  try {
    root = toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}: {}", position(source, e.source()), e.description()));
  }
  Config config;
  TableReader top(root, source, "");
  read_section(top, "build", config.build, read_build);
  read_section(top, "run", config.run, read_run);
  read_section(top, "budget", config.budget, read_budget);
  read_section(top, "select", config.select, read_select);
  top.finish();
  return config;
}

Config load_file(const std::filesystem::path& path, bool required) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    if (required) throw InputError(fmt::format("{}: config file not found", path.string()));
    return Config{};
  }
  if (std::filesystem::is_directory(path, ec))
    throw InputError(fmt::format("{}: is a folder, expected a cobench.toml file", path.string()));
  Config config = parse(read_file(path), path.string());
  config.loaded_from = path;
  return config;
}

Config load_file(const std::filesystem::path& path) { return load_file(path, false); }

}  // namespace cobench::config
