// read_output_file: format detection between Google Benchmark JSON and Go text.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "formats/formats.h"
#include "support/testing.h"

using namespace cobench;
namespace t = cobench::testing;

static std::string error_reading(const std::string& path) {
  try {
    formats::read_output_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(ReadOutputFile, JsonIsReadAsGoogleBenchmark) {
  t::TempDir dir;
  t::write_file(dir / "a.json", "\n  {\"benchmarks\": [{\"name\": \"BM_A\", \"real_time\": 5, \"cpu_time\": 4}]}");
  auto out = formats::read_output_file((dir / "a.json").string());
  ASSERT_EQ(out.entries.size(), 1u);
  EXPECT_EQ(out.entries[0].real_ns, std::vector<double>{5});
}

TEST(ReadOutputFile, GoTextGoesToTheGoReader) {
  t::TempDir dir;
  t::write_file(dir / "go.txt", "goos: linux\npkg: example.com/x\nBenchmarkAdd-8   1000   12.5 ns/op\nPASS\n");
  auto out = formats::read_output_file((dir / "go.txt").string());
  ASSERT_EQ(out.entries.size(), 1u);
  EXPECT_EQ(out.entries[0].real_ns.size(), 1u);
}

TEST(ReadOutputFile, ErrorsNameThePath) {
  t::TempDir dir;
  std::string missing = (dir / "missing.json").string();
  EXPECT_EQ(error_reading(missing).rfind(missing + ": ", 0), 0u) << error_reading(missing);
  t::write_file(dir / "empty.json", "");
  EXPECT_EQ(error_reading((dir / "empty.json").string()), (dir / "empty.json").string() + ": empty file, expected JSON");
  t::write_file(dir / "prose.txt", "this is not a benchmark output\n");
  EXPECT_EQ(error_reading((dir / "prose.txt").string()).rfind((dir / "prose.txt").string() + ": line 1, column ", 0),
            0u);
}

TEST(ReadOutputFile, GoogleBenchmarkConsoleOutputIsNotTakenForGoText) {
  // `./bench > base.txt` in Google Benchmark 1.7.1's console format (Eigen's bench_fft).
  t::TempDir dir;
  t::write_file(dir / "console.txt",
                "2026-12-02T15:03:24+00:00\nRunning ./bench_fft\nRun on (2 X 2596.1 MHz CPU s)\n"
                "------------------------------------------------------------\n"
                "Benchmark                                  Time             CPU   Iterations UserCounters...\n"
                "------------------------------------------------------------\n"
                "BM_FFT<std::complex<float>, true>/1024  93831 ns   9342 ns   7400 MFLOPS=5.48086G/s\n");
  const std::string path = (dir / "console.txt").string();
  EXPECT_EQ(error_reading(path), path + ":5: Google Benchmark console output, not JSON; run the binary with "
                                        "--benchmark_format=json, or --benchmark_out=FILE --benchmark_out_format=json");
}

TEST(ReadOutputFile, GoBenchmarkLinesAreNotAConsoleHeader) {
  t::TempDir dir;
  t::write_file(dir / "go.txt", "BenchmarkTime-8   1000   12.5 ns/op\nBenchmarkCPU-8   1000   3 ns/op\n");
  EXPECT_EQ(formats::read_output_file((dir / "go.txt").string()).entries.size(), 2u);
}
