#include "formats/json_reader.h"

#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/errors.h"

namespace cobench::formats {

using nlohmann::json;

JsonReader::JsonReader(const json& value, std::string what, std::string where)
    : value_(value), what_(std::move(what)), where_(std::move(where)) {}

JsonReader JsonReader::at(const std::string& key) const {
  if (!value_.is_object()) fail("expected an object");
  auto it = value_.find(key);
  if (it == value_.end()) throw InputError(fmt::format("{}: {}.{}: missing", what_, where_, key));
  return JsonReader(*it, what_, where_ + "." + key);
}

JsonReader JsonReader::at(size_t i) const { return JsonReader(value_.at(i), what_, fmt::format("{}[{}]", where_, i)); }

bool JsonReader::has(const std::string& key) const { return value_.is_object() && value_.contains(key); }

size_t JsonReader::size() const {
  if (!value_.is_array()) fail("expected an array");
  return value_.size();
}

double JsonReader::number() const {
  if (!value_.is_number()) fail("expected a number");
  return value_.get<double>();
}

double JsonReader::number_or_nan() const {
  if (value_.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!value_.is_number()) fail("expected a number or null");
  return value_.get<double>();
}

int JsonReader::integer() const {
  if (!value_.is_number_integer()) fail("expected an integer");
  const auto wide = value_.get<long long>();
  if (wide < std::numeric_limits<int>::min() || wide > std::numeric_limits<int>::max()) fail("integer out of range");
  return static_cast<int>(wide);
}

std::string JsonReader::text() const {
  if (!value_.is_string()) fail("expected a string");
  return value_.get<std::string>();
}

bool JsonReader::boolean() const {
  if (!value_.is_boolean()) fail("expected true or false");
  return value_.get<bool>();
}

bool JsonReader::is_null() const { return value_.is_null(); }

const json& JsonReader::object() const {
  if (!value_.is_object()) fail("expected an object");
  return value_;
}

std::vector<double> JsonReader::numbers() const {
  std::vector<double> out;
  for (size_t i = 0; i < size(); ++i) out.push_back(at(i).number_or_nan());
  return out;
}

std::vector<std::string> JsonReader::texts() const {
  std::vector<std::string> out;
  for (size_t i = 0; i < size(); ++i) out.push_back(at(i).text());
  return out;
}

void JsonReader::fail(const std::string& what) const {
  throw InputError(fmt::format("{}: {}: {}", what_, where_, what));
}

}  // namespace cobench::formats
