#include <gtest/gtest.h>

#include "core/errors.h"
#include "formats/formats.h"

namespace cobench::formats {
namespace {

// Real `go test -bench . -benchmem -count 2` output shape (go1.19, linux).
constexpr std::string_view kTwoRepetitions = R"(goos: linux
goarch: amd64
pkg: example.com/m/codec
cpu: Intel(R) Xeon(R) CPU @ 2.20GHz
BenchmarkEncode/small-8         	 1000000	      1021 ns/op	  15.67 MB/s	      48 B/op	       2 allocs/op
BenchmarkEncode/small-8         	 1000000	      1043 ns/op	  15.34 MB/s	      48 B/op	       2 allocs/op
BenchmarkDecode-8               	  500000	      2500 ns/op
BenchmarkDecode-8               	  500000	      2400 ns/op
PASS
ok  	example.com/m/codec	4.210s
)";

const Entry& find(const Output& output, const std::string& name) {
  for (const auto& entry : output.entries) {
    if (entry.name == name) return entry;
  }
  throw std::runtime_error("no entry " + name);
}

TEST(GoBench, ReadsRepetitionsUnitsAndConfiguration) {
  auto output = parse_go_bench(kTwoRepetitions, "go.txt");
  ASSERT_EQ(output.entries.size(), 2u);
  EXPECT_EQ(output.entries[0].name, "BenchmarkEncode/small");  // GOMAXPROCS suffix stripped
  const auto& encode = output.entries[0];
  EXPECT_EQ(encode.real_ns, (std::vector<double>{1021, 1043}));
  EXPECT_EQ(encode.cpu_ns, encode.real_ns);
  EXPECT_EQ(encode.bytes_per_iter, (std::vector<double>{48, 48}));
  EXPECT_EQ(encode.allocs_per_iter, (std::vector<double>{2, 2}));
  const auto& decode = find(output, "BenchmarkDecode");
  EXPECT_EQ(decode.real_ns, (std::vector<double>{2500, 2400}));
  EXPECT_TRUE(decode.allocs_per_iter.empty());
  EXPECT_EQ(output.context["goos"], "linux");
  EXPECT_EQ(output.context["pkg"], "example.com/m/codec");
  EXPECT_EQ(output.context["cpu"], "Intel(R) Xeon(R) CPU @ 2.20GHz");
  EXPECT_EQ(output.context["gomaxprocs"], 8);
}

TEST(GoBench, NamesWithoutSuffixAndDashesInSubNamesStayIntact) {
  auto output = parse_go_bench("BenchmarkSort/n-10   100  5 ns/op\nBenchmarkSort/n-20   100  9 ns/op\n"
                               "BenchmarkPlain   10   1.5e+03 ns/op\n", "a.txt");
  // Without GOMAXPROCS (-cpu 1) "-10" belongs to the sub-benchmark: two names stay two.
  ASSERT_EQ(output.entries.size(), 3u);
  EXPECT_EQ(find(output, "BenchmarkSort/n-10").real_ns, std::vector<double>{5});
  EXPECT_EQ(find(output, "BenchmarkSort/n-20").real_ns, std::vector<double>{9});
  EXPECT_EQ(find(output, "BenchmarkPlain").real_ns, std::vector<double>{1500});
}

TEST(GoBench, ASuffixTooLargeForACpuCountIsNoGomaxprocs) {
  // std::stoi threw out_of_range past the parser (reproduced on fuzz_go_bench).
  auto output = parse_go_bench("BenchmarkX-99999999999999  100  5 ns/op\n", "big.txt");
  ASSERT_EQ(output.entries.size(), 1u);
  EXPECT_EQ(output.entries[0].name, "BenchmarkX");
  EXPECT_FALSE(output.context.contains("gomaxprocs"));
}

TEST(GoBench, SeveralPackagesQualifyNames) {
  auto output = parse_go_bench("pkg: a\nBenchmarkX-4 10 1 ns/op\npkg: b\nBenchmarkX-4 10 2 ns/op\n", "p.txt");
  ASSERT_EQ(output.entries.size(), 2u);
  EXPECT_EQ(output.entries[0].name, "a.BenchmarkX");
  EXPECT_EQ(output.entries[1].name, "b.BenchmarkX");
}

TEST(GoBench, CustomUnitsAndNormalisedSecondsAreAccepted) {
  auto output = parse_go_bench("BenchmarkHash-2  200  0.000002 sec/op  3.5 widgets/op  120 MB/s\n", "c.txt");
  ASSERT_EQ(output.entries.size(), 1u);
  EXPECT_DOUBLE_EQ(output.entries[0].real_ns[0], 2000);
}

TEST(GoBench, FailedAndSkippedBenchmarksCarryTheirReason) {
  auto output = parse_go_bench(
      "BenchmarkOk-8   100  10 ns/op\n"
      "BenchmarkBoom-8   \t--- FAIL: BenchmarkBoom-8\n"
      "    boom_test.go:9: database unreachable\n"
      "--- SKIP: BenchmarkLater-8\n"
      "    later_test.go:3: needs a GPU\n"
      "FAIL\nexit status 1\nFAIL\texample.com/m\t0.01s\n",
      "f.txt");
  ASSERT_EQ(output.entries.size(), 3u);
  EXPECT_TRUE(find(output, "BenchmarkOk").error.empty());
  const auto& boom = find(output, "BenchmarkBoom");
  EXPECT_TRUE(boom.real_ns.empty());
  EXPECT_EQ(boom.error, "failed: boom_test.go:9: database unreachable");
  EXPECT_EQ(find(output, "BenchmarkLater").error, "skipped: later_test.go:3: needs a GPU");
}

TEST(GoBench, ProseAndLogsAreNotResults) {
  auto output = parse_go_bench("Benchmarking everything\n--- BENCH: BenchmarkX-8\n    BenchmarkX 1 2 ns/op\n"
                               "BenchmarkParent\nPASS\n", "p.txt");
  EXPECT_TRUE(output.entries.empty());
}

void expect_error(std::string_view text, const std::string& where, const std::string& what) {
  try {
    parse_go_bench(text, "bad.txt");
    ADD_FAILURE() << "no error for " << text;
  } catch (const InputError& error) {
    std::string message = error.what();
    EXPECT_EQ(message.rfind(where, 0), 0u) << message;
    EXPECT_NE(message.find(what), std::string::npos) << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(GoBench, MalformedResultLinesNameFileAndLine) {
  expect_error("goos: linux\nBenchmarkX-8  many  10 ns/op\n", "bad.txt:2: ", "iteration count");
  expect_error("BenchmarkX-8  10  10\n", "bad.txt:1: ", "no unit");
  expect_error("\n\nBenchmarkX-8  10  ten ns/op\n", "bad.txt:3: ", "'ten'");
  expect_error("BenchmarkX-8  10  0 ns/op\n", "bad.txt:1: ", "positive");
}

TEST(GoBench, AResultWithoutTimeIsAnEntryError) {
  auto output = parse_go_bench("BenchmarkX  10  5 allocs/op\n", "n.txt");
  ASSERT_EQ(output.entries.size(), 1u);
  EXPECT_EQ(output.entries[0].error, "reports no ns/op");
}

}  // namespace
}  // namespace cobench::formats
