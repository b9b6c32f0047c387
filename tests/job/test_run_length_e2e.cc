// Run length auto on a real CMake + Google Benchmark project: a target's
// first min_runs pairs run two repetitions of a quarter of --min-time (half of
// one whole run's measuring), its later runs
// one repetition of the length chosen at its first look, which results.jsonl
// records and every report says; a target whose benchmarks set their own
// iterations keeps the whole length from its second pair on; a length the user
// gives keeps every run as given.
#include <gtest/gtest.h>

#include <sstream>

#include "job/run_fixture.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

using namespace cobench::testing;
namespace fs = std::filesystem;

constexpr const char* kSpin =
    "#include <benchmark/benchmark.h>\n"
    "static void BM_Spin(benchmark::State& state) {\n"
    "  for (auto _ : state) {\n    unsigned x = 1;\n"
    "    for (int i = 0; i < 2000; ++i) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }\n"
    "  }\n}\nBENCHMARK(BM_Spin);\nBENCHMARK_MAIN();\n";

/// The same benchmark with its iteration count set in its code: no length to choose.
std::string with_fixed_iterations() {
  std::string code = kSpin;
  code.replace(code.find("BENCHMARK(BM_Spin);"), 19, "BENCHMARK(BM_Spin)->Iterations(300);");
  return code;
}

std::vector<nlohmann::json> lines_of(const fs::path& results) {
  std::vector<nlohmann::json> out;
  std::istringstream text(read_file(results));
  for (std::string line; std::getline(text, line);) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(RunLengthE2E, TheFirstPairsMeasureTheSplitAndTheLaterRunsTakeTheLengthItChose) {
  TempDir dir;
  GitRepo repo{dir / "repo"};
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_spin", "spin.cc"}, {"bench_fixed", "fixed.cc"}}));
  repo.write("spin.cc", kSpin);
  repo.write("fixed.cc", with_fixed_iterations());
  const std::string base = repo.commit("base");
  repo.write("spin.cc", std::string(kSpin) + "// touched, unchanged code\n");
  repo.write("fixed.cc", with_fixed_iterations() + "// touched, unchanged code\n");
  repo.commit("head");
  // Four pairs cannot decide anything (the first look is at 99%, beyond what 4 against 4 can show), so the
  // target is open at its first look and its length is chosen there.
  const std::vector<std::string> common = {"run", "--repo", repo.path().string(), "--base", base, "--min-runs", "4",
                                           "--max-runs", "6", "--alloc-runs", "0", "--no-machine-control"};
  auto with = [&](std::vector<std::string> extra, const std::string& out) {
    std::vector<std::string> args = common;
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back("--out=" + (dir / out).string());
    return run_cobench(args, repo.path());
  };

  const auto automatic = with({"--min-time", "0.04"}, "auto");
  ASSERT_EQ(automatic.exit_code, 0) << explain(automatic);
  int chosen = 0, kept = 0;
  double length = 0;
  for (const auto& line : lines_of(dir / "auto/results.jsonl")) {
    if (line["type"] == "settings") {
      EXPECT_EQ(line["run_length"], "auto");
      EXPECT_DOUBLE_EQ(line["min_time"].get<double>(), 0.04);
      EXPECT_DOUBLE_EQ(line["first_pairs_share"].get<double>(), 0.5);
    } else if (line["type"] == "run_length" && line["target"] == "bench_spin") {
      EXPECT_FALSE(line["set_by_benchmarks"].get<bool>());
      length = line["min_time"].get<double>();
      ++chosen;
    } else if (line["type"] == "run_length") {
      EXPECT_EQ(line["target"], "bench_fixed");
      EXPECT_TRUE(line["set_by_benchmarks"].get<bool>());
      EXPECT_DOUBLE_EQ(line["min_time"].get<double>(), 0.04);
      ++kept;
    } else if (line["type"] == "run" && line["target"] == "bench_spin") {
      const auto& sample = line["samples"]["BM_Spin"];
      if (line["run"].get<int>() < 4) {
        EXPECT_EQ(sample.value("reps", 0.0), 2.0) << line.dump();
        // Each repetition's CPU seconds (Google Benchmark sizes its last trial by CPU time to about 1.4 times the
        // min time it is given): 0.01 s asked, where half of the whole length would be 0.02 s. The margin is wide.
        const double cpu_seconds = sample["rep_seconds"].get<double>() * sample["cpu_ns"].get<double>() /
                                   sample["real_ns"].get<double>();
        EXPECT_GE(cpu_seconds, 0.009) << line.dump();
        EXPECT_LT(cpu_seconds, 0.019) << line.dump();
      } else {
        EXPECT_FALSE(sample.contains("reps")) << line.dump();  // one repetition
      }
    } else if (line["type"] == "run" && line["target"] == "bench_fixed") {
      const auto& sample = line["samples"]["BM_Spin/iterations:300"];
      if (line["run"].get<int>() < 1) EXPECT_EQ(sample.value("reps", 0.0), 2.0) << line.dump();
      else EXPECT_FALSE(sample.contains("reps")) << line.dump();  // one whole run from the second pair on
    }
  }
  EXPECT_EQ(chosen, 1);
  EXPECT_EQ(kept, 1);
  EXPECT_GE(length, 0.01);   // an eighth of 0.04 s is under 0.01 s: 0.01 s is the least
  EXPECT_LE(length, 0.04);
  const auto report = report::from_json(nlohmann::json::parse(read_file(dir / "auto/report.json")));
  EXPECT_EQ(report.run_length_rule.rfind("auto from --min-time 0.04 s: each target's first 4 pairs ran two "
                                         "repetitions of 0.01 s (0.5 of one whole run's measuring",
                                         0),
            0u)
      << report.run_length_rule;
  ASSERT_EQ(report.targets.size(), 2u);
  for (const auto& target : report.targets)
    EXPECT_EQ(target.run_length.rfind("--benchmark_min_time=", 0), 0u) << target.name << ": " << target.run_length;
  const std::string markdown = read_file(dir / "auto/report.md");  // the method section, markdown-escaped
  EXPECT_NE(markdown.find("Run length, bench\\_spin: --benchmark\\_min\\_time="), std::string::npos) << markdown;

  const auto given = with({"--bench-arg=--benchmark_min_time=0.04"}, "given");
  ASSERT_EQ(given.exit_code, 0) << explain(given);
  for (const auto& line : lines_of(dir / "given/results.jsonl")) {
    EXPECT_NE(line["type"], "run_length");
    if (line["type"] == "settings") {
      EXPECT_EQ(line["run_length"], "fixed");
    }
    if (line["type"] == "run") {
      for (const auto& [name, sample] : line["samples"].items()) EXPECT_FALSE(sample.contains("reps")) << line.dump();
    }
  }
  EXPECT_EQ(read_file(dir / "given/report.md").find("Run length"), std::string::npos);
}

}  // namespace
}  // namespace cobench::job
