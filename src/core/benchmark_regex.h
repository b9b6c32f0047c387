#pragma once
// Google Benchmark's --benchmark_filter dialect. libbenchmark compiles the
// filter as std::regex(spec, std::regex_constants::extended) (Debian's 1.7.1
// and 1.8-1.9 built with std::regex; builds without it use regcomp with
// REG_EXTENDED, the same POSIX extended grammar) and keeps the benchmarks
// whose full name it finds with regex_search; "" and "all" run every
// benchmark, and a leading '-' runs those the rest does not match. A filter it
// cannot compile ends the process before any benchmark runs, with exit status
// 0 and no JSON.
// cobench checks a user's filter and builds its own exact-name filters here,
// with the same grammar compiled the same way, so what cobench checks is what
// the binary will run.
#include <cstddef>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace cobench::benchmark_regex {

/// Why Google Benchmark would refuse `pattern` as --benchmark_filter; nullopt
/// when it compiles. Overlong patterns (more than 1000 bytes) and
/// repeat counts of more than 9 digits are refused before compiling:
/// libstdc++'s compiler recurses per term and reads counts without overflow checks.
std::optional<std::string> filter_problem(std::string_view pattern);

/// A --benchmark_filter compiled once, as Google Benchmark compiles it, to ask
/// about many names.
class Filter {
 public:
  /// Throws std::regex_error for a pattern Google Benchmark cannot compile.
  explicit Filter(std::string_view pattern);
  /// Whether Google Benchmark runs the benchmark `name` under this filter.
  bool runs(std::string_view name) const;

 private:
  std::regex regex_;
  bool negative_ = false;
};

/// Filter(pattern).runs(name); false for a pattern Google Benchmark cannot compile.
bool filter_runs(std::string_view pattern, std::string_view name);

/// `name` as a POSIX extended regex matching exactly its bytes: the grammar's
/// special characters . [ \ ( ) * + ? { | ^ $ get a backslash; ] and } stay
/// as they are, since a backslash before them is an error in this grammar
/// ("Invalid escape"). nullopt for a name with a NUL byte, which no argument
/// can carry.
std::optional<std::string> literal(std::string_view name);

/// Filters that together run exactly `names` and nothing else, each of at
/// most `max_bytes` bytes, so that no argument passes Linux's 128 KiB limit on
/// one argument (MAX_ARG_STRLEN) and no filter passes libstdc++'s limit of
/// 100,000 NFA states ("Number of NFA states exceeds limit"). Each is the
/// names' prefix tree ("^BM_f/(1|2(0|1)?)$"), not a list of them: 8,000
/// instances of one family take 18 KB instead of 250 KB, and the binary
/// matches each name in time of its length instead of the number of names.
/// Names go into several filters (several processes of one run) when one
/// would be too long. nullopt when a filter cannot carry a name (a NUL byte,
/// or more than kMaxNameBytes): run everything and keep what was asked for.
std::optional<std::vector<std::string>> exact_filters(std::vector<std::string> names,
                                                      size_t max_bytes = 32 * 1024);

/// The longest name exact_filters() puts into a filter: libstdc++ compiles and
/// matches a regex with one recursion per character of a term.
inline constexpr size_t kMaxNameBytes = 4096;

}  // namespace cobench::benchmark_regex
