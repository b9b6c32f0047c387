#pragma once
// Typed reads of parsed JSON that name the offending path on a wrong shape:
// "report JSON: $.benchmarks[3].ratio: expected a number or null". Every
// reader of cobench's own JSON files (report.json, the results.jsonl
// settings line) goes through it.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace cobench::formats {

/// A view of one JSON value and where it sits in its document.
class JsonReader {
 public:
  /// `what` names the document in errors ("report JSON", "results.jsonl:2"); `where` the path ("$").
  JsonReader(const nlohmann::json& value, std::string what, std::string where = "$");

  /// The member `key`; throws when this is not an object or `key` is missing.
  JsonReader at(const std::string& key) const;
  /// The element `i` of an array (check size() first).
  JsonReader at(size_t i) const;
  /// Whether this is an object with member `key`.
  bool has(const std::string& key) const;
  /// The length of an array; throws when this is not one.
  size_t size() const;

  double number() const;          ///< a number
  double number_or_nan() const;   ///< a number, or NaN for null
  int integer() const;            ///< an integer that fits an int
  std::string text() const;       ///< a string
  bool boolean() const;           ///< true or false
  bool is_null() const;
  const nlohmann::json& object() const;   ///< an object, as is
  const nlohmann::json& value() const { return value_; }  ///< the raw value
  std::vector<double> numbers() const;    ///< an array of numbers or nulls (NaN)
  std::vector<std::string> texts() const; ///< an array of strings

  /// Throws InputError("WHAT: WHERE: what").
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const nlohmann::json& value_;
  std::string what_;
  std::string where_;
};

}  // namespace cobench::formats
