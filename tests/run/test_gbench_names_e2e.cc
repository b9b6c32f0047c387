// Benchmark names are data: a real Google Benchmark binary (Debian's
// libbenchmark) whose names hold every character its filter grammar treats
// specially, bytes that are not UTF-8, and a family of 8,000 instances. The
// runner's per-benchmark stopping filter must run exactly the names it is
// given, whatever they hold and however many there are.
#include <algorithm>
#include <set>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/benchmark_regex.h"
#include "core/files.h"
#include "run/gbench_runner.h"
#include "support/testing.h"

namespace cobench::run {
namespace {

namespace t = cobench::testing;

/// Names with each of POSIX extended regex's special characters, the ] } [1]
/// of the issue, bytes that are not UTF-8, a tab, a newline, a quote and a
/// right-to-left override.
const std::vector<std::string> kHostileNames = {
    "BM_a]b",     "BM_a}b",      "BM_x[1]",      "BM_p(q)",    "BM_d.e",        "BM_s*t",
    "BM_bs\\x",   "BM_car^et",   "BM_dol$ar",    "BM_pl+us",   "BM_q?m",        "BM_or|bar",
    "BM_br{2}",   "BM_\xE9t\xE9", "BM_sp ace",   "BM_tab\tx",  "BM_nl\nx",      "BM_quote\"x",
    "BM_-dash",   "BM_\xE2\x80\xAE" "bidi",      "BM_a]b/1",   "BM_a",          "BM_a]",
};

/// A C++ string literal of `text` (every byte as \ooo, so that nothing is read as an escape or trigraph).
std::string c_literal(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) out += fmt::format("\\{:03o}", c);
  return out + "\"";
}

/// Builds a benchmark binary in `dir` registering `names`, each a loop of a few steps.
std::filesystem::path build_binary(const t::TempDir& dir, const std::string& name, const std::string& registration) {
  const std::string source = "#include <benchmark/benchmark.h>\n"
                             "static void BM(benchmark::State& s) {\n"
                             "  unsigned x = 1;\n"
                             "  for (auto _ : s) { x = x * 1664525u + 1013904223u; benchmark::DoNotOptimize(x); }\n"
                             "}\n" +
                             registration +
                             "int main(int argc, char** argv) {\n"
                             "  benchmark::Initialize(&argc, argv);\n"
                             "  benchmark::RunSpecifiedBenchmarks();\n"
                             "}\n";
  t::write_file(dir / (name + ".cc"), source);
  const auto exe = dir / name;
  t::run_checked({"c++", "-O1", "-std=c++17", (dir / (name + ".cc")).string(), "-o", exe.string(), "-lbenchmark",
                  "-lpthread"});
  return exe;
}

std::filesystem::path hostile_binary(const t::TempDir& dir) {
  std::string registration = "static int registered = [] {\n";
  for (const auto& name : kHostileNames) registration += "  benchmark::RegisterBenchmark(" + c_literal(name) + ", BM);\n";
  registration += "  return 0;\n}();\n";
  return build_binary(dir, "hostile", registration);
}

GoogleBenchmarkRunner runner_in(const t::TempDir& dir) {
  return GoogleBenchmarkRunner({{"--benchmark_min_time=0.0001"}, 0, 120, {"PATH=/usr/bin:/bin"}, dir / "out"});
}

std::set<std::string> sample_names(const RunRecord& record) {
  std::set<std::string> names;
  for (const auto& [name, sample] : record.samples) names.insert(name);
  return names;
}

TEST(GbenchNamesE2E, TheStoppingFilterRunsExactlyTheGivenNamesWhateverTheyHold) {
  t::TempDir dir;
  const auto exe = hostile_binary(dir);
  // Every other name: each kept one must run, and none of the others (BM_a]b/1 and BM_a] contain BM_a]b and BM_a).
  std::vector<std::string> asked;
  for (size_t i = 0; i < kHostileNames.size(); i += 2) asked.push_back(kHostileNames[i]);
  asked.push_back("BM_a");
  const Unit unit{"hostile", {exe.string()}, dir.path()};
  const RunRecord record = runner_in(dir).run_once(unit, Side::Head, "sha", 0, {asked, 0});
  ASSERT_TRUE(record.ok()) << record.status << ": " << record.detail << "\n" << record.output_tail;
  EXPECT_EQ(sample_names(record), std::set<std::string>(asked.begin(), asked.end()));
}

TEST(GbenchNamesE2E, EightThousandInstancesStayWithinTheArgumentLimit) {
  t::TempDir dir;
  const auto exe = build_binary(dir, "many", "BENCHMARK(BM)->Name(\"BM_Family_With_A_Long_Name\")->DenseRange(0, 7999);\n");
  const Unit unit{"many", {exe.string()}, dir.path()};
  GoogleBenchmarkRunner runner = runner_in(dir);
  std::vector<std::string> names = runner.list(unit);
  ASSERT_EQ(names.size(), 8000u);
  names.erase(names.begin() + 4000);  // one decided: the rest must still run, in arguments Linux accepts
  const RunRecord record = runner.run_once(unit, Side::Base, "sha", 0, {names, 0});
  ASSERT_TRUE(record.ok()) << record.status << ": " << record.detail;
  EXPECT_EQ(sample_names(record), std::set<std::string>(names.begin(), names.end()));
}

/// Whether the binary refuses `filter`, and which names it would run otherwise.
struct BinaryAnswer {
  bool refused = false;
  std::set<std::string> listed;
};

BinaryAnswer ask_binary(const std::filesystem::path& exe, const std::string& filter) {
  const auto result = process::run_capture({exe.string(), "--benchmark_list_tests=true", "--benchmark_filter=" + filter});
  BinaryAnswer answer;
  answer.refused = (result.out + result.err).find("Could not compile benchmark re") != std::string::npos;
  // Listed one per line: a name with a newline comes out as two lines, and both halves are no names.
  for (size_t from = 0; from < result.out.size();) {
    const size_t end = result.out.find('\n', from);
    answer.listed.insert(result.out.substr(from, end - from));
    from = end == std::string::npos ? result.out.size() : end + 1;
  }
  return answer;
}

TEST(GbenchNamesE2E, CobenchChecksAndMatchesFiltersTheWayTheBinaryDoes) {
  t::TempDir dir;
  const auto exe = hostile_binary(dir);
  const std::vector<std::string> patterns = {
      "BM_a]b",   "BM_a\\]b", "BM_a}b",    "BM_a\\}b",  "BM_x\\[1]", "BM_x\\[1\\]", "\\d",     "BM_(p|q",
      "BM_p\\(q", "a{2,1}",   "[[:alpha:]]", "^BM_.$",  "BM_(a|s)",  "t.\\xE9",     "BM_br{2}", "BM_br\\{2}",
      "",         "BM_-",     "-BM_a",     "\\.",       "[]a]",      "x**",         "(|a)",    "BM_\xE9",
      "all",      "-",        "-BM_a\\]", "-BM_(a|b)"};
  for (const auto& pattern : patterns) {
    const BinaryAnswer binary = ask_binary(exe, pattern);
    EXPECT_EQ(benchmark_regex::filter_problem(pattern).has_value(), binary.refused) << "filter " << pattern;
    if (binary.refused) continue;
    for (const auto& name : kHostileNames) {
      if (name.find('\n') != std::string::npos) continue;  // not listable on one line
      EXPECT_EQ(benchmark_regex::filter_runs(pattern, name), binary.listed.count(name) > 0)
          << "filter " << pattern << ", name " << name;
    }
  }
}

TEST(GbenchNamesE2E, ExactFiltersListExactlyTheirNamesInTheBinary) {
  t::TempDir dir;
  const auto exe = hostile_binary(dir);
  for (size_t skip = 0; skip < 3; ++skip) {
    std::vector<std::string> asked;
    for (size_t i = skip; i < kHostileNames.size(); i += 3)
      if (kHostileNames[i].find('\n') == std::string::npos) asked.push_back(kHostileNames[i]);
    const auto filters = benchmark_regex::exact_filters(asked, 40);  // small: several filters, each its own process
    ASSERT_TRUE(filters.has_value());
    EXPECT_GT(filters->size(), 1u);
    std::set<std::string> listed;
    for (const auto& filter : *filters) {
      const BinaryAnswer binary = ask_binary(exe, filter);
      EXPECT_FALSE(binary.refused) << filter;
      listed.insert(binary.listed.begin(), binary.listed.end());
    }
    listed.erase("");
    EXPECT_EQ(listed, std::set<std::string>(asked.begin(), asked.end()));
  }
}

}  // namespace
}  // namespace cobench::run
