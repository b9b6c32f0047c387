#pragma once
// What a Google Benchmark instance's name says beyond its family and
// arguments: the run options its code set ("BM_Format/iterations:2500000",
// "BM_Sum/4096/min_time:0.500/threads:2"), which Google Benchmark appends
// to the name as "option:value" components.
#include <string>
#include <string_view>
#include <vector>

namespace cobench::formats {

/// The name's '/'-separated components, the family first.
std::vector<std::string> name_components(const std::string& name);

/// Whether a component is one of Google Benchmark's run options (threads:,
/// repeats:, iterations:, min_time:, min_warmup_time:), not an argument.
bool is_run_option(std::string_view component);

/// Whether the instance fixes how long it measures in its own code
/// (->Iterations(n) or ->MinTime(s)): --benchmark_min_time does not move it.
bool fixes_its_own_length(const std::string& name);

}  // namespace cobench::formats
