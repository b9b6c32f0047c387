#include "results/run_length.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/errors.h"
#include "formats/json_reader.h"

namespace cobench::results {

double shortest_run_length(double min_time) { return std::min(min_time, std::max(0.01, min_time / 8)); }

std::string describe_auto_rule(double min_time, int min_runs, double first_pairs_share) {
  const std::string first_pairs =
      first_pairs_share >= 1
          ? "two repetitions of half of it (the same measuring as one whole run, and a noise split), then one "
            "repetition, shortened where the split said its noise was between processes"
          : fmt::format("two repetitions of {:g} s ({:g} of one whole run's measuring, and a noise split), then one "
                        "repetition, up to the whole length where the split said its noise was inside the process, "
                        "shorter where it was between processes",
                        min_time * first_pairs_share / 2, first_pairs_share);
  return fmt::format("auto from --min-time {:g} s: each target's first {} pairs ran {}, to no less than {:g} s (a "
                     "target whose every benchmark sets its own iterations or min time kept the whole length, one "
                     "repetition, from its second pair on)",
                     min_time, min_runs, first_pairs, shortest_run_length(min_time));
}

std::string describe(const RunLength& length) {
  const std::string flag = fmt::format("--benchmark_min_time={:.3g}", length.min_time);
  if (length.set_by_benchmarks) return flag + " kept: every benchmark sets its own iterations or min time";
  if (!length.split_known()) return flag + " (its noise split is not known)";
  return fmt::format("{}: noise {:.1f}% within a process, {:.1f}% between processes, {:.3f} s per process besides "
                     "measuring",
                     flag, length.within * 100, length.between * 100, length.process_seconds);
}

nlohmann::json to_json(const RunLength& length) {
  auto number_or_null = [](double value) { return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr); };
  return {{"target", length.target},
          {"min_time", length.min_time},
          {"within", number_or_null(length.within)},
          {"between", number_or_null(length.between)},
          {"process_seconds", number_or_null(length.process_seconds)},
          {"set_by_benchmarks", length.set_by_benchmarks}};
}

RunLength run_length_from_json(const nlohmann::json& line, const std::string& where) {
  const formats::JsonReader reader(line, where);
  RunLength out;
  out.target = reader.at("target").text();
  out.min_time = reader.at("min_time").number();
  if (!(std::isfinite(out.min_time) && out.min_time > 0)) reader.at("min_time").fail("expected seconds above 0");
  for (auto [key, value] : {std::pair{"within", &out.within}, {"between", &out.between},
                            {"process_seconds", &out.process_seconds}})
    if (reader.has(key)) *value = reader.at(key).number_or_nan();
  if (reader.has("set_by_benchmarks")) out.set_by_benchmarks = reader.at("set_by_benchmarks").boolean();
  return out;
}

}  // namespace cobench::results
