#pragma once
// Readers for benchmark outputs: Google Benchmark JSON (1.5 through 1.9
// shapes) and Go's `go test -bench` text. Both produce the same model.
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace cobench::formats {

/// One benchmark's per-repetition measurements from one output. Times are in
/// nanoseconds whatever time_unit the producer used; allocation fields are per
/// iteration and empty when the producer did not report them.
struct Entry {
  std::string name;                 ///< run_name where present, else name
  std::vector<double> real_ns;      ///< one per repetition (run_type iteration)
  std::vector<double> cpu_ns;
  std::vector<double> allocs_per_iter;
  std::vector<double> bytes_per_iter;   ///< total allocated bytes per iteration
  std::vector<double> peak_bytes;       ///< max_bytes_used
  std::vector<double> iterations;   ///< per repetition, beside real_ns (Google Benchmark)
  int threads = 0;                  ///< Google Benchmark's threads per run; 0: not reported (Go)
  std::string error;                ///< error_message / skip message; entry has no times then
};

/// Everything read from one output.
struct Output {
  std::vector<Entry> entries;       ///< in first-seen order, one per name
  nlohmann::json context = nlohmann::json::object();  ///< producer's context block
};

/// Parses Google Benchmark JSON. `source` names the file in errors. Throws
/// cobench::InputError("SOURCE: line L, column C: ...") on malformed input.
Output parse_google_benchmark_json(std::string_view text, const std::string& source);

/// Parses `go test -bench` text output (benchstat's format). Throws InputError.
Output parse_go_bench(std::string_view text, const std::string& source);

/// Picks the parser from the content (JSON vs Go text); `source` names it in errors.
Output read_output(std::string_view text, const std::string& source);

/// Reads a file and picks the parser from its content (JSON vs Go text).
Output read_output_file(const std::string& path);

/// The metric a comparison uses.
enum class Metric { RealTime, CpuTime };
Metric metric_from_string(const std::string& text);  ///< throws InputError
std::string to_string(Metric metric);
const std::vector<double>& samples(const Entry& entry, Metric metric);

}  // namespace cobench::formats
