#pragma once
// One benchmark family per translation unit: several families in one source
// make deltas that are pure code layout, so cobench counts them per source.
#include <string>
#include <string_view>
#include <vector>

namespace cobench::select {

/// The benchmark families one source registers.
struct FamilyCount {
  /// Distinct families (however spaced) in order of first registration, named
  /// as Google Benchmark lists them: "BM_FFT<std::complex<float>, true>"
  /// (BENCHMARK_TEMPLATE: blanks as written), "BM_FFT<float,true>"
  /// (BENCHMARK_TEMPLATE2: a bare comma), "Fixture/Method", "Fixture<T>/Method",
  /// "BM_Copy" (BENCHMARK_CAPTURE grouped by function), or "MACRO(args)" for a
  /// use of a macro whose body registers benchmarks.
  std::vector<std::string> families;
  int runtime_registrations = 0;  ///< benchmark::RegisterBenchmark calls: count unknown

  /// Whether the source breaks the one-family rule (or might: run-time registrations).
  bool suspicious() const { return families.size() > 1 || runtime_registrations > 0; }
};

/// Counts registrations in source text, ignoring comments and string literals.
FamilyCount count_families(std::string_view text);

/// One-line warning for a source (repo-relative), or "" when it has at most one family.
std::string layout_warning(const std::string& source, const FamilyCount& count);

}  // namespace cobench::select
