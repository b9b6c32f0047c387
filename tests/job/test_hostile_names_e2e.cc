// Issue 23, defects 5 and 6 and the bidi case, in a whole job: a benchmark
// target whose names hold ] } [1], bytes that are not UTF-8 and a
// right-to-left override is measured like any other. Per-benchmark stopping
// narrows later runs to the undecided names with a filter the binary accepts;
// the reports carry the bytes (as \xE9); nothing reaches the terminal that
// could reorder what it shows.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/files.h"
#include "formats/json_text.h"
#include "report/report.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using namespace cobench::testing;

const std::vector<std::string> kNames = {"BM_a]b", "BM_a}b", "BM_x[1]", "BM_\xE9t\xE9", "BM_\xE2\x80\xAE" "fed"};

std::string c_literal(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) out += "\\" + std::to_string(c >> 6) + std::to_string((c >> 3) & 7) + std::to_string(c & 7);
  return out + "\"";
}

std::string names_source(int work) {
  std::string source = "#include <benchmark/benchmark.h>\n"
                       "static void BM(benchmark::State& s) {\n"
                       "  unsigned x = 1;\n"
                       "  for (auto _ : s) for (int i = 0; i < " + std::to_string(work) + "; ++i) "
                       "{ x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }\n"
                       "}\n"
                       "static int registered = [] {\n";
  for (const auto& name : kNames) source += "  benchmark::RegisterBenchmark(" + c_literal(name) + ", BM);\n";
  return source + "  return 0;\n}();\nBENCHMARK_MAIN();\n";
}

TEST(HostileNamesE2E, NamesWithBracketsBytesAndBidiControlsAreMeasuredAndShownSafely) {
  TempDir dir;
  GitRepo repo{dir / "repo"};
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_names", "names.cc"}}));
  repo.write("names.cc", names_source(200));
  const std::string base = repo.commit("base");
  repo.write("names.cc", names_source(200) + "// head: a comment\n");
  repo.commit("head");
  const fs::path out = dir / "out";
  auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--out", out.string(), "--all",
                             "--min-runs", "4", "--max-runs", "8", "--alloc-runs", "0", "--no-machine-control",
                             // Run length auto: the first pairs' two repetitions carry the names too.
                             "--metric", "cpu_time", "--min-time", "0.004"},
                            repo.path(), {}, 900);
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const auto report = report::from_json(nlohmann::json::parse(read_file(out / "report.json")));
  std::map<std::string, const report::BenchmarkRow*> rows;
  for (const auto& row : report.benchmarks) rows[row.name] = &row;
  for (const std::string shown : {"BM_a]b", "BM_a}b", "BM_x[1]", "BM_\\xE9t\\xE9", "BM_\xE2\x80\xAE" "fed"}) {
    ASSERT_TRUE(rows.count(shown)) << "no row for " << shown << "\n" << read_file(out / "report.json");
    const report::BenchmarkRow& row = *rows[shown];
    EXPECT_TRUE(row.failed_runs.empty()) << shown << ": " << row.note;
    EXPECT_GE(row.runs_head, 4) << shown;
  }
  EXPECT_EQ(read_file(out / "results.jsonl").find("unparsable"), std::string::npos);
  // The table: the bytes shown as \xE9, and no bidi control on the terminal.
  EXPECT_NE(result.out.find("BM_\\xE9t\\xE9"), std::string::npos) << result.out;
  for (const std::string& said : {result.out, result.err}) {
    EXPECT_EQ(said.find("\xE2\x80\xAE"), std::string::npos) << said;
    EXPECT_EQ(said.find("\xE9t"), std::string::npos) << said;
  }
  // cobench report shows it the same way from results.jsonl alone.
  auto rebuilt = run_cobench({"report", (out / "results.jsonl").string()});
  ASSERT_EQ(rebuilt.exit_code, 0) << explain(rebuilt);
  EXPECT_NE(rebuilt.out.find("BM_\\xE9t\\xE9"), std::string::npos) << rebuilt.out;
  EXPECT_EQ(rebuilt.out.find("\xE2\x80\xAE"), std::string::npos) << rebuilt.out;
}

/// Two benchmarks whose names differ only in how "\xE9" is spelled: with a
/// backslash, and as the byte. `byte_name_work` is the second one's work.
std::string lookalike_source(int byte_name_work) {
  return "#include <benchmark/benchmark.h>\n"
         "static void BM(benchmark::State& s, int work) {\n"
         "  unsigned x = 1;\n"
         "  for (auto _ : s) for (int i = 0; i < work; ++i) { x = x * 1664525u + 1013904223u; "
         "benchmark::DoNotOptimize(x); }\n"
         "}\n"
         "static int registered = [] {\n"
         "  benchmark::RegisterBenchmark(" + c_literal("BM_caf\\xE9") + ", BM, 200);\n"
         "  benchmark::RegisterBenchmark(" + c_literal("BM_caf\xE9") + ", BM, " + std::to_string(byte_name_work) + ");\n"
         "  return 0;\n}();\nBENCHMARK_MAIN();\n";
}

TEST(HostileNamesE2E, ANameSpellingABackslashEscapeAndOneHoldingTheByteAreTwoRows) {
  // Escaped alike they were one row, pooling a 20x regression with an unchanged benchmark.
  TempDir dir;
  GitRepo repo{dir / "repo"};
  repo.write("CMakeLists.txt", gbench_cmakelists({{"bench_lookalike", "lookalike.cc"}}));
  repo.write("lookalike.cc", lookalike_source(200));
  const std::string base = repo.commit("base");
  repo.write("lookalike.cc", lookalike_source(4000));
  repo.commit("head: the byte-named benchmark does 20 times the work");
  const fs::path out = dir / "out";
  auto result = run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--out", out.string(), "--all",
                             "--min-runs", "4", "--max-runs", "6", "--alloc-runs", "0", "--no-machine-control",
                             "--metric", "cpu_time", "--bench-arg=--benchmark_min_time=0.002"},
                            repo.path(), {}, 900);
  ASSERT_TRUE(fs::exists(out / "report.json")) << explain(result);
  const auto check = [](const report::Report& report, const std::string& where) {
    std::map<std::string, const report::BenchmarkRow*> rows;
    for (const auto& row : report.benchmarks) rows[row.name] = &row;
    ASSERT_EQ(rows.size(), 2u) << where;
    ASSERT_TRUE(rows.count("BM_caf\\xE9") && rows.count("BM_caf\xE9")) << where;
    EXPECT_EQ(rows["BM_caf\xE9"]->verdict, verdict::Verdict::Regression) << where << ": " << rows["BM_caf\xE9"]->note;
    EXPECT_NE(rows["BM_caf\\xE9"]->verdict, verdict::Verdict::Regression) << where << ": " << rows["BM_caf\\xE9"]->note;
  };
  check(report::from_json(formats::restore_dumped_bytes(nlohmann::json::parse(read_file(out / "report.json")))),
        "report.json");
  // The table tells them apart too, and so does a report rebuilt from results.jsonl alone.
  EXPECT_NE(result.out.find("BM_caf\\x5CxE9"), std::string::npos) << result.out;
  EXPECT_NE(result.out.find("BM_caf\\xE9"), std::string::npos) << result.out;
  auto rebuilt = run_cobench({"report", (out / "results.jsonl").string(), "--out", (dir / "rebuilt").string()});
  ASSERT_TRUE(fs::exists(dir / "rebuilt/report.json")) << explain(rebuilt);
  check(report::from_json(formats::restore_dumped_bytes(nlohmann::json::parse(read_file(dir / "rebuilt/report.json")))),
        "rebuilt report.json");
}

}  // namespace
}  // namespace cobench::job
