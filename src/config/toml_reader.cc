#include "config/toml_reader.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>

#include <fmt/format.h>

#include "core/errors.h"
#include "core/parse.h"

namespace cobench::config {

std::string position(const std::string& source, const toml::source_region& region) {
  return fmt::format("{}:{}:{}", source, region.begin.line, region.begin.column);
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::array: return "array";
    case toml::node_type::table: return "table";
    case toml::node_type::date: return "date";
    case toml::node_type::time: return "time";
    case toml::node_type::date_time: return "date-time";
    default: return "nothing";
  }
}

TableReader::TableReader(const toml::table& table, std::string source, std::string path)
    : table_(table), source_(std::move(source)), path_(std::move(path)) {}

const toml::node* TableReader::get(std::string_view key) {
  known_.emplace(key);
  return table_.get(key);
}

void TableReader::fail(const toml::node& node, std::string_view key, const std::string& what) const {
  std::string name = path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
  throw InputError(fmt::format("{}: {}: {}", position(source_, node.source()), name, what));
}

// Levenshtein distance, to suggest the key a typo meant.
static size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

void TableReader::finish() const {
  for (auto&& [key, node] : table_) {
    if (known_.count(key.str())) continue;
    std::string where = path_.empty() ? "at the top level" : fmt::format("in [{}]", path_);
    std::string hint;
    size_t best = 3;  // further than two edits is a different word, not a typo
    for (const auto& candidate : known_)
      if (size_t d = edit_distance(key.str(), candidate); d < best) {
        best = d;
        hint = fmt::format(" (did you mean '{}'?)", candidate);
      }
    throw InputError(
        fmt::format("{}: unknown key '{}' {}{}", position(source_, key.source()), key.str(), where, hint));
  }
}

static std::string expected(std::string_view what, const toml::node& node) {
  return fmt::format("expected {}, got {}", what, type_name(node));
}

void TableReader::string(std::string_view key, std::string& out) {
  const toml::node* node = get(key);
  if (!node) return;
  if (!node->is_string()) fail(*node, key, expected("a string", *node));
  out = node->value<std::string>().value();
}

void TableReader::choice(std::string_view key, std::string& out, std::initializer_list<std::string_view> allowed) {
  std::string value = out;
  string(key, value);
  for (std::string_view option : allowed)
    if (value == option) {
      out = value;
      return;
    }
  fail(*table_.get(key), key, fmt::format("'{}' is not one of {}", value, fmt::join(allowed, ", ")));
}

void TableReader::string_list(std::string_view key, std::vector<std::string>& out) {
  const toml::node* node = get(key);
  if (!node) return;
  const toml::array* array = node->as_array();
  if (!array) fail(*node, key, expected("an array of strings", *node));
  std::vector<std::string> values;
  for (const toml::node& item : *array) {
    if (!item.is_string()) fail(item, key, expected("strings in the array", item));
    values.push_back(item.value<std::string>().value());
  }
  out = std::move(values);
}

static std::string regex_problem(const std::string& pattern) {
  try {
    std::regex compiled(pattern, std::regex::ECMAScript);
    return {};
  } catch (const std::regex_error& e) {
    return fmt::format("bad regex '{}': {}", pattern, e.what());
  }
}

void TableReader::regex_list(std::string_view key, std::vector<std::string>& out) {
  string_list(key, out);
  if (!table_.get(key)) return;
  const toml::array& array = *table_.get(key)->as_array();
  for (size_t i = 0; i < out.size(); ++i)
    if (auto problem = regex_problem(out[i]); !problem.empty()) fail(*array.get(i), key, problem);
}

void TableReader::regex(std::string_view key, std::string& out) {
  string(key, out);
  if (!table_.get(key)) return;
  if (auto problem = regex_problem(out); !problem.empty()) fail(*table_.get(key), key, problem);
}

void TableReader::boolean(std::string_view key, bool& out) {
  const toml::node* node = get(key);
  if (!node) return;
  if (!node->is_boolean()) fail(*node, key, expected("true or false", *node));
  out = node->value<bool>().value();
}

void TableReader::integer(std::string_view key, std::optional<int>& out, int min) {
  const toml::node* node = get(key);
  if (!node) return;
  if (!node->is_integer()) fail(*node, key, expected("an integer", *node));
  int64_t value = node->as_integer()->get();
  if (value < min) fail(*node, key, fmt::format("must be at least {}, got {}", min, value));
  if (value > std::numeric_limits<int>::max()) fail(*node, key, fmt::format("{} is too large", value));
  out = static_cast<int>(value);
}

void TableReader::integer(std::string_view key, int& out, int min) {
  std::optional<int> value;
  integer(key, value, min);
  if (value) out = *value;
}

// A TOML integer or float as a double; nullopt when negative, inf or nan.
static std::optional<double> non_negative(const toml::node& node) {
  double value = node.value<double>().value();
  if (!std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

void TableReader::duration(std::string_view key, std::optional<double>& out) {
  const toml::node* node = get(key);
  if (!node) return;
  std::optional<double> seconds;
  if (node->is_number()) {
    seconds = non_negative(*node);
  } else if (node->is_string()) {
    seconds = parse_duration_seconds(node->value<std::string>().value());
  } else {
    fail(*node, key, expected("a duration (a number of seconds or a string like \"300s\", \"20m\")", *node));
  }
  if (!seconds || *seconds <= 0)
    fail(*node, key, "bad duration: write a positive number of seconds or e.g. \"90s\", \"20m\", \"1h30m\"");
  out = seconds;
}

void TableReader::fraction(std::string_view key, std::optional<double>& out) {
  const toml::node* node = get(key);
  if (!node) return;
  std::optional<double> value;
  if (node->is_number()) {
    value = non_negative(*node);
    if (value && *value > 1)
      fail(*node, key, fmt::format("{} would mean {}%; write a fraction (0.05) or a percentage (\"5%\")",
                                   *value, *value * 100));
  } else if (node->is_string()) {
    value = parse_fraction(node->value<std::string>().value());
  } else {
    fail(*node, key, expected("a percentage like \"5%\" or a fraction like 0.05", *node));
  }
  if (!value) fail(*node, key, "bad percentage: write e.g. \"5%\" or 0.05 (not negative)");
  out = value;
}

void TableReader::probability(std::string_view key, double& out) {
  std::optional<double> value;
  fraction(key, value);
  if (!value) return;
  if (*value <= 0 || *value >= 1) fail(*table_.get(key), key, "must be strictly between 0 and 1, e.g. 0.95");
  out = *value;
}

void TableReader::threshold(std::string_view key, std::optional<std::string>& out) {
  const toml::node* node = get(key);
  if (!node) return;
  std::string text;
  if (node->is_integer()) text = std::to_string(node->as_integer()->get());
  else if (node->is_floating_point()) text = fmt::format("{}", node->as_floating_point()->get());
  else if (node->is_string()) text = node->value<std::string>().value();
  else fail(*node, key, expected("an allowed increase like \"0\", \"64\" or \"5%\"", *node));
  bool percent = !text.empty() && text.back() == '%';
  auto number = parse_number(percent ? std::string_view(text).substr(0, text.size() - 1) : std::string_view(text));
  if (!number || *number < 0)
    fail(*node, key, fmt::format("bad allowed increase '{}': write an absolute amount (\"0\", \"64\") or a "
                                 "percentage (\"5%\")", text));
  out = text;
}

}  // namespace cobench::config
