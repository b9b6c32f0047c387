#include "core/benchmark_regex.h"

#include <algorithm>
#include <cctype>
#include <regex>

#include <fmt/format.h>

#include "core/regex_limits.h"
#include "core/text.h"

// libstdc++ refuses a backslash before an ordinary character ("\]") only under
// __STRICT_ANSI__ (-std=c++20, not gnu++20), as libbenchmark is compiled.
// Checking filters with the other behaviour would accept what the binaries refuse.
#if defined(__GLIBCXX__) && !defined(__STRICT_ANSI__)
#error "benchmark_regex.cc must be compiled with -std=c++NN (CMAKE_CXX_EXTENSIONS OFF), as libbenchmark is"
#endif

namespace cobench::benchmark_regex {
namespace {

constexpr std::string_view kSpecial = ".[\\()*+?{|^$";

std::regex compile(std::string_view pattern) {
  return std::regex(pattern.begin(), pattern.end(), std::regex_constants::extended);
}

/// What libbenchmark compiles of a filter: "" and "all" mean "." (everything);
/// a leading '-' negates the rest (1.7.1 and later: the benchmarks it does not match run).
struct Spec {
  std::string_view regex;
  bool negative = false;
};

Spec spec_of(std::string_view pattern) {
  if (pattern.empty() || pattern == "all") return {".", false};
  if (pattern.front() == '-') return {pattern.substr(1), true};
  return {pattern, false};
}

}  // namespace

std::optional<std::string> filter_problem(std::string_view whole) {
  const std::string_view pattern = spec_of(whole).regex;
  if (pattern.size() > kMaxRegexLength)
    return fmt::format("a filter of {} bytes; at most {} are accepted", pattern.size(), kMaxRegexLength);
  if (has_oversized_number(pattern))
    return fmt::format("a repeat count of more than {} digits in the filter", kMaxRegexNumberDigits);
  if (pattern.find('\0') != std::string_view::npos) return std::string("a NUL byte in the filter");
  try {
    compile(pattern);
    return std::nullopt;
  } catch (const std::regex_error& e) {
    return fmt::format("bad filter '{}': Google Benchmark reads filters as POSIX extended regexes and cannot compile "
                       "it: {}{}",
                       escape_invalid_utf8(shorten(whole, 200)), e.what(),
                       pattern.find("\\]") != std::string_view::npos || pattern.find("\\}") != std::string_view::npos
                           ? " (write ] and } without a backslash)"
                           : "");
  }
}

Filter::Filter(std::string_view pattern) {
  const Spec spec = spec_of(pattern);
  regex_ = compile(spec.regex);
  negative_ = spec.negative;
}

bool Filter::runs(std::string_view name) const { return std::regex_search(name.begin(), name.end(), regex_) != negative_; }

bool filter_runs(std::string_view pattern, std::string_view name) {
  try {
    return Filter(pattern).runs(name);
  } catch (const std::regex_error&) {
    return false;
  }
}

std::optional<std::string> literal(std::string_view name) {
  if (name.find('\0') != std::string_view::npos) return std::nullopt;
  std::string out;
  out.reserve(name.size() + 8);
  for (char c : name) {
    if (kSpecial.find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

namespace {

/// The names' prefix tree as a POSIX extended regex, without anchors.
/// Chains of one child are written as literals; a node with several children
/// is a group of alternatives, made optional when a name ends there. Deeper
/// than kMaxNesting groups, the rest of each name is listed whole, so that the
/// binary's regex compiler (one recursion per nesting level) is never deep.
class PrefixTree {
 public:
  explicit PrefixTree(const std::vector<std::string>& sorted) : names_(sorted) {}
  std::string regex() const { return emit(0, names_.size(), 0, 0); }

 private:
  static constexpr int kMaxNesting = 32;

  /// The regex of names_[from, to), which all share their first `depth` bytes.
  std::string emit(size_t from, size_t to, size_t depth, int nesting) const {
    std::string out;
    // The common run of bytes first: the names agree on it.
    while (true) {
      if (names_[from].size() == depth) break;
      const char c = names_[from][depth];
      bool all_same = true;
      for (size_t i = from; i < to && all_same; ++i) all_same = names_[i].size() > depth && names_[i][depth] == c;
      if (!all_same) break;
      out += *literal(std::string_view(&c, 1));
      ++depth;
    }
    const bool ends_here = names_[from].size() == depth;  // sorted: the shortest is first
    const size_t first_child = ends_here ? from + 1 : from;
    // Duplicates end here too.
    size_t begin = first_child;
    while (begin < to && names_[begin].size() == depth) ++begin;
    if (begin == to) return out;
    std::vector<std::string> alternatives;
    if (nesting >= kMaxNesting) {
      for (size_t i = begin; i < to; ++i) alternatives.push_back(*literal(std::string_view(names_[i]).substr(depth)));
    } else {
      for (size_t i = begin; i < to;) {
        size_t j = i + 1;
        while (j < to && names_[j][depth] == names_[i][depth]) ++j;
        alternatives.push_back(emit(i, j, depth, nesting + 1));
        i = j;
      }
    }
    out += '(';
    for (size_t i = 0; i < alternatives.size(); ++i) out += (i ? "|" : "") + alternatives[i];
    out += ')';
    if (ends_here) out += '?';
    return out;
  }

  const std::vector<std::string>& names_;
};

/// Filters for sorted[from, to), halving the range until each filter fits.
void split_into(const std::vector<std::string>& sorted, size_t from, size_t to, size_t max_bytes,
                std::vector<std::string>& out) {
  const std::vector<std::string> part(sorted.begin() + static_cast<long>(from), sorted.begin() + static_cast<long>(to));
  std::string filter = "^" + PrefixTree(part).regex() + "$";
  if (filter.size() <= max_bytes || to - from == 1) {
    out.push_back(std::move(filter));
    return;
  }
  const size_t middle = from + (to - from) / 2;
  split_into(sorted, from, middle, max_bytes, out);
  split_into(sorted, middle, to, max_bytes, out);
}

}  // namespace

std::optional<std::vector<std::string>> exact_filters(std::vector<std::string> names, size_t max_bytes) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::vector<std::string> filters;
  if (names.empty()) return filters;
  for (const auto& name : names) {
    const auto escaped = literal(name);
    if (!escaped || name.size() > kMaxNameBytes || escaped->size() + 2 > max_bytes) return std::nullopt;
  }
  split_into(names, 0, names.size(), max_bytes, filters);
  return filters;
}

}  // namespace cobench::benchmark_regex
