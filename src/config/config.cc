// cobench.toml: the file layer of the settings. Sections and unknown keys are
// checked here; each value goes through the key table (keys.cc).
#include "config/config.h"

#include <system_error>

#include <fmt/format.h>

#include "config/keys.h"
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

/// Calls `read` and turns a rejected value into "FILE:LINE:COL: PATH.KEY: what".
template <typename Read>
auto at_position(const TableReader& r, std::string_view key, const toml::node& node, Read read) {
  try {
    return read();
  } catch (const ValueError& e) {
    r.fail(e.node ? *e.node : node, key, e.what);
  }
}

void read_override(TableReader& r, const toml::table& table, config::BudgetOverride& out) {
  const toml::node* match = r.get("match");
  if (!match) throw InputError(fmt::format("{}: {}: missing required key 'match' (a regex over benchmark names)",
                                           position(r.source(), table.source()), r.path()));
  out.match = at_position(r, "match", *match, [&] { return regex_of(*match); });
  if (const toml::node* time = r.get("time")) out.time = at_position(r, "time", *time, [&] { return time_budget_of(*time); });
  for (auto [name, slot] : {std::pair{"allocs", &out.allocs}, std::pair{"bytes", &out.bytes}})
    if (const toml::node* node = r.get(name)) *slot = at_position(r, name, *node, [&] { return threshold_of(*node); });
}

void read_overrides(TableReader& r, Config& config) {
  const toml::node* overrides = r.get("override");
  if (!overrides) return;
  const toml::array* array = overrides->as_array();
  if (!array) r.fail(*overrides, "override", "expected [[budget.override]] tables, got " + std::string(type_name(*overrides)));
  for (size_t i = 0; i < array->size(); ++i) {
    const toml::node& item = *array->get(i);
    if (!item.is_table()) r.fail(item, "override", "expected a table, got " + std::string(type_name(item)));
    TableReader sub(*item.as_table(), r.source(), fmt::format("budget.override[{}]", i + 1));
    config::BudgetOverride entry;
    read_override(sub, *item.as_table(), entry);
    sub.finish();
    config.budget.overrides.push_back(std::move(entry));
  }
  config.origins["budget.override"] = {Origin::Kind::File, position(r.source(), overrides->source())};
}

// Reads one optional section: every key the table knows for it, then the unknown-key check.
void read_section(TableReader& top, std::string_view name, Config& config) {
  const toml::table* table = section(top, name);
  if (!table) return;
  TableReader r(*table, top.source(), std::string(name));
  for (std::string_view key : section_keys(name)) {
    const toml::node* node = r.get(key);
    if (!node) continue;
    const std::string full = fmt::format("{}.{}", name, key);
    at_position(r, key, *node, [&] {
      set_from_node(config, full, *node, {Origin::Kind::File, position(r.source(), node->source())});
      return 0;
    });
  }
  if (name == "budget") read_overrides(r, config);
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
  for (std::string_view name : {"build", "run", "budget", "select"}) read_section(top, name, config);
  top.finish();
  check_run_counts(config);  // the rest waits for the flags: a runner's commands may come from them
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
