#include "config/toml_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/errors.h"

namespace cobench::config {

std::string position(const std::string& source, const toml::source_region& region) {
  return fmt::format("{}:{}:{}", source, region.begin.line, region.begin.column);
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

}  // namespace cobench::config
