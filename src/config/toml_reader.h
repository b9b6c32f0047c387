#pragma once
// Typed, position-aware reads of one TOML table. Every value a user can get
// wrong is checked here, and every error names FILE:LINE:COL and the key.
#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

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
  /// A string value.
  void string(std::string_view key, std::string& out);
  /// A string restricted to `allowed`.
  void choice(std::string_view key, std::string& out, std::initializer_list<std::string_view> allowed);
  /// An array of strings.
  void string_list(std::string_view key, std::vector<std::string>& out);
  /// An array of ECMAScript regexes (each one compiled to check it).
  void regex_list(std::string_view key, std::vector<std::string>& out);
  /// A single ECMAScript regex.
  void regex(std::string_view key, std::string& out);
  /// true / false.
  void boolean(std::string_view key, bool& out);
  /// An integer >= `min`.
  void integer(std::string_view key, int& out, int min);
  /// An integer >= `min`, optional.
  void integer(std::string_view key, std::optional<int>& out, int min);
  /// Seconds: a number, or a string like "300s", "20m", "1h30m".
  void duration(std::string_view key, std::optional<double>& out);
  /// A fraction: "5%" or 0.05 (numbers above 1 are refused as likely typos for "N%").
  void fraction(std::string_view key, std::optional<double>& out);
  /// A fraction strictly between 0 and 1, e.g. a confidence level.
  void probability(std::string_view key, double& out);
  /// An allowed increase: "5%" (relative) or "64" / 64 (absolute), kept as written.
  void threshold(std::string_view key, std::optional<std::string>& out);
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

/// The TOML type of a node, for messages: "string", "integer", "table"...
std::string_view type_name(const toml::node& node);

}  // namespace cobench::config
