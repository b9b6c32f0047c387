// Benchmark names as data, the whole way: names (any bytes but NUL) -> the
// per-benchmark stopping filters -> Google Benchmark's own regex grammar ->
// the JSON a binary writes for them -> read back -> results.jsonl and every
// display. Checked, not only survived: each filter is one the binary compiles,
// fits its bound, and runs exactly its names; the names read back are the
// names written; what is stored is valid UTF-8 and what is shown drives no
// terminal.
#include <set>
#include <string>
#include <vector>

#include "core/benchmark_regex.h"
#include "core/text.h"
#include "formats/formats.h"
#include "formats/json_text.h"
#include "fuzz_input.h"
#include "report/escape.h"

namespace {

using namespace cobench;

[[noreturn]] void finding(const char* what) {
  std::fprintf(stderr, "finding: %s\n", what);
  std::abort();
}

/// The input as names: a byte of length, then that many bytes, again and again (at most 16 names: the
/// filters' splitting needs few with the small bounds the first byte gives); the first byte bounds the filters.
std::vector<std::string> names_of(std::string_view text) {
  constexpr size_t kMostNames = 16;
  std::vector<std::string> names;
  for (size_t at = 1; at < text.size() && names.size() < kMostNames;) {
    const size_t length = static_cast<unsigned char>(text[at++]);
    std::string name(text.substr(at, length));
    at += length;
    std::erase(name, '\0');  // Google Benchmark registers C strings: no name holds a NUL
    if (!name.empty()) names.push_back(std::move(name));  // and a benchmark without a name is refused as such
  }
  return names;
}

/// JSON as Google Benchmark's JSONReporter writes a string (benchmark/src/json_reporter.cc StrEscape):
/// backslash, quote and \b \f \n \r \t escaped, every other byte as it is.
std::string gbench_string(const std::string& name) {
  std::string out = "\"";
  for (char c : name) {
    switch (c) {
      case '\\': out += "\\\\"; break;
      case '"': out += "\\\""; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default: out += c;
    }
  }
  return out + "\"";
}

bool reorders_or_controls(std::string_view shown) {
  for (std::string_view bad : {"\x1b", "\xC2\x9B", "\xE2\x80\xAE", "\xE2\x80\xAB", "\xE2\x81\xA6", "\x07", "\r"})
    if (shown.find(bad) != std::string_view::npos) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text = fuzz::text_of(data, size);
  if (text.empty()) return 0;
  const std::vector<std::string> names = names_of(text);
  const std::set<std::string> asked(names.begin(), names.end());
  const size_t max_bytes = 8 + 4 * static_cast<unsigned char>(text[0]);

  // The stopping filters: compiled by the binary's grammar, within their bound, exactly the names.
  if (const auto filters = benchmark_regex::exact_filters(names, max_bytes)) {
    std::vector<benchmark_regex::Filter> compiled;
    for (const auto& filter : *filters) {
      if (filter.size() > max_bytes) finding("a filter longer than its bound");
      try {  // compiled as libbenchmark compiles it: what it cannot compile, it refuses
        compiled.emplace_back(filter);
      } catch (const std::regex_error&) {
        finding("a filter the binary cannot compile");
      }
    }
    auto runs = [&](const std::string& name) {
      for (const auto& filter : compiled)
        if (filter.runs(name)) return true;
      return false;
    };
    for (const auto& name : asked) {
      if (!runs(name)) finding("a name its filters do not run");
      for (const std::string& near : {name + "x", name.substr(0, name.size() - 1)})
        if (!asked.count(near) && runs(near)) finding("a filter runs a name it was not given");
    }
  } else {
    for (const auto& name : asked)
      if (name.size() > benchmark_regex::kMaxNameBytes || benchmark_regex::literal(name)->size() + 2 > max_bytes)
        return 0;  // the documented refusals: a name longer than a filter may be
    finding("no filter for names a filter can carry");
  }

  // The JSON a binary writes for them, read back: the same names, byte for byte.
  std::string json = "{\"context\": {}, \"benchmarks\": [";
  for (size_t i = 0; i < names.size(); ++i)
    json += (i ? "," : "") + std::string("{\"name\": ") + gbench_string(names[i]) + ", \"run_name\": " +
            gbench_string(names[i]) + ", \"run_type\": \"iteration\", \"iterations\": 1, \"real_time\": 1, "
                                      "\"cpu_time\": 1, \"time_unit\": \"ns\"}";
  json += "]}";
  std::set<std::string> read;
  try {
    for (const auto& entry : formats::parse_google_benchmark_json(json, "names.json").entries) read.insert(entry.name);
  } catch (const InputError&) {
    finding("Google Benchmark's JSON of these names is refused");
  }
  if (read != asked) finding("the names read back differ from the names written");

  // Stored as valid UTF-8 (results.jsonl, report.json); shown without anything that drives a terminal.
  for (const auto& name : asked) {
    const std::string stored = formats::dump_json(nlohmann::json{{"name", name}});
    if (!is_valid_utf8(stored)) finding("stored text that is not UTF-8");
    const std::string shown = report::sanitize_text(name, true);
    if (!is_valid_utf8(shown) || reorders_or_controls(shown)) finding("shown text that drives a terminal");
    if (escape_invalid_utf8(name) != nlohmann::json::parse(stored)["name"].get<std::string>())
      finding("the stored name is not the escaped name");
  }
  return 0;
}
