#pragma once
// Position-aware walking of one TOML table: which keys were read, which were
// not (with a "did you mean"), and errors that name FILE:LINE:COL and the key.
// The values themselves are read and checked by the key table (keys.h).
#include <set>
#include <string>
#include <string_view>

#include <toml++/toml.h>

namespace cobench::config {

/// "FILE:LINE:COL" for a region of the file being read.
std::string position(const std::string& source, const toml::source_region& region);

/// Reads the keys of one table; finish() rejects the keys nobody asked for.
class TableReader {
 public:
  /// `path` names the table in messages: "run", "budget.override[2]".
  TableReader(const toml::table& table, std::string source, std::string path);

  /// The raw node for `key` (nullptr when absent); marks the key as known.
  const toml::node* get(std::string_view key);
  /// Throws InputError("FILE:LINE:COL: PATH.KEY: what").
  [[noreturn]] void fail(const toml::node& node, std::string_view key, const std::string& what) const;
  /// Throws for the first key of the table that no reader asked for.
  void finish() const;

  const std::string& source() const { return source_; }
  const std::string& path() const { return path_; }

 private:
  const toml::table& table_;
  std::string source_;
  std::string path_;
  std::set<std::string, std::less<>> known_;
};

}  // namespace cobench::config
