// docs/config.md's table is where users look a setting up: one row per key of
// the key table, with the key's environment variable, flag and help text as
// the table has them, so a new or changed setting cannot ship undocumented.
// Only the defaults are written by hand; each must be a value its key accepts.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "config/config.h"
#include "core/errors.h"

namespace cobench::config {
namespace {

constexpr const char* kHeader = "| `cobench.toml` key | environment | flag | default | what it does |";

/// The cells of a markdown table row, split at pipes a backslash does not escape.
std::vector<std::string> cells_of(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {  // past the leading '|'
    if (row[i] == '|' && row[i - 1] != '\\') {
      const size_t first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}

/// The rows of the table that starts with `header` in `file`, by their first cell.
std::map<std::string, std::vector<std::string>> table_rows(const char* file, const std::string& header) {
  std::ifstream in(file);
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, std::vector<std::string>> rows;
  bool inside = false;
  for (std::string line; std::getline(text, line);) {
    if (line == header) inside = true;
    else if (inside && !line.starts_with("|")) break;
    else if (inside && !line.starts_with("|---")) rows[cells_of(line).at(0)] = cells_of(line);
  }
  return rows;
}

std::map<std::string, std::vector<std::string>> table_rows() { return table_rows(COBENCH_CONFIG_DOC, kHeader); }

/// The code spans of a cell: "`--min-runs`, `--max-runs`" -> {"--min-runs", "--max-runs"}.
std::vector<std::string> code_spans(const std::string& cell) {
  std::vector<std::string> out;
  for (size_t open = cell.find('`'); open != std::string::npos; open = cell.find('`', open)) {
    const size_t close = cell.find('`', open + 1);
    if (close == std::string::npos) break;
    out.push_back(cell.substr(open + 1, close - open - 1));
    open = close + 1;
  }
  return out;
}

std::string code(std::string_view text) { return text.empty() ? "" : "`" + std::string(text) + "`"; }

/// The row the key table asks for, but for the default.
std::string expected_row(const KeyInfo& info, const std::string& default_cell) {
  std::string flag = code(info.flag);
  if (info.negatable) flag += ", `--no-" + std::string(info.flag.substr(2)) + "`";
  std::string help;
  for (char c : info.help) help += c == '|' ? std::string("\\|") : std::string(1, c);
  return "| " + code(info.key) + " | " + code(info.env) + " | " + flag + " | " + default_cell + " | " + help + " |";
}

TEST(DocsSettings, EveryKeyIsARowWithItsVariableFlagAndHelpFromTheKeyTable) {
  auto rows = table_rows();
  ASSERT_FALSE(rows.empty()) << "no settings table (" << kHeader << ") in " << COBENCH_CONFIG_DOC;
  for (const KeyInfo& info : keys()) {
    auto row = rows.find(code(info.key));
    if (row == rows.end()) {
      ADD_FAILURE() << info.key << " is missing from docs/config.md; add:\n" << expected_row(info, "DEFAULT");
      continue;
    }
    const auto& cells = row->second;
    ASSERT_EQ(cells.size(), 5u) << row->first;
    const std::string expected = expected_row(info, cells[3]);
    EXPECT_EQ(cells, cells_of(expected)) << info.key << " differs from the key table; the row should be:\n"
                                         << expected;
    rows.erase(row);
  }
  for (const auto& [key, cells] : rows) ADD_FAILURE() << key << " is in docs/config.md but not in the key table";
  EXPECT_GT(keys().size(), 40u);
}

// A default written as one code span (`6`, `"5%"`, `[]`) is a TOML value: the
// key must accept it, as cobench.toml would give it.
TEST(DocsSettings, EveryDefaultWrittenAsAValueIsOneItsKeyAccepts) {
  int values = 0;
  for (const auto& [key_cell, cells] : table_rows()) {
    const std::string& value = cells.at(3);
    const auto close = value.find('`', 1);
    if (!value.starts_with("`") || close == std::string::npos) continue;
    const std::string literal = value.substr(1, close - 1);
    if (literal.starts_with("<")) continue;  // a path pattern such as <work-dir>/reach
    const std::string key = key_cell.substr(1, key_cell.size() - 2);
    const auto dot = key.find('.');
    const std::string toml = "[" + key.substr(0, dot) + "]\n" + key.substr(dot + 1) + " = " + literal + "\n";
    EXPECT_NO_THROW(parse(toml, "docs/config.md")) << key << ": default " << literal;
    ++values;
  }
  EXPECT_GT(values, 30);
}

// The README's short table of the most used settings names real keys, each
// beside its own flag, in the same order.
TEST(ReadmeSettings, TheMostUsedSettingsNameRealKeysBesideTheirOwnFlags) {
  const auto rows = table_rows(COBENCH_README, "| flag | `cobench.toml` | default | what it does |");
  ASSERT_GT(rows.size(), 8u) << "no settings table in " << COBENCH_README;
  int checked = 0;
  for (const auto& [flag_cell, cells] : rows) {
    const auto keys_named = code_spans(cells.at(1));
    if (keys_named.empty()) continue;  // a flag that is not a setting (--base, --all)
    const auto flags = code_spans(flag_cell);
    ASSERT_EQ(flags.size(), keys_named.size()) << flag_cell;
    for (size_t i = 0; i < flags.size(); ++i) {
      const std::string flag = flags[i].substr(0, flags[i].find_first_of(" ="));  // "--budget 5%" -> "--budget"
      const KeyInfo* info = key_for_flag(flag);
      ASSERT_NE(info, nullptr) << flag << " is no setting's flag";
      EXPECT_EQ(info->key, keys_named[i]) << flag;
      ++checked;
    }
  }
  EXPECT_GT(checked, 10);
}

}  // namespace
}  // namespace cobench::config
