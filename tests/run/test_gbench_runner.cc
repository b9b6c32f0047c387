// GoogleBenchmarkRunner against small shell scripts standing in for benchmark
// binaries: they get the same --benchmark_out=FILE argument as the real ones.
#include "run/gbench_runner.h"

#include <gtest/gtest.h>

#include "core/files.h"
#include "support/testing.h"

namespace cobench::run {
namespace {

const char* kTwoRepetitions = R"({"context": {"library_build_type": "release"}, "benchmarks": [
 {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "repetitions": 3, "repetition_index": 0,
  "iterations": 10, "real_time": 30, "cpu_time": 29, "time_unit": "ns"},
 {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "repetitions": 3, "repetition_index": 1,
  "iterations": 10, "real_time": 10, "cpu_time": 9, "time_unit": "ns"},
 {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "repetitions": 3, "repetition_index": 2,
  "iterations": 10, "real_time": 20, "cpu_time": 19, "time_unit": "ns"},
 {"name": "BM_a_mean", "run_name": "BM_a", "run_type": "aggregate", "aggregate_name": "mean", "repetitions": 3,
  "iterations": 3, "real_time": 20, "cpu_time": 19, "time_unit": "ns"},
 {"name": "BM_us", "run_name": "BM_us", "run_type": "iteration", "iterations": 10, "real_time": 2,
  "cpu_time": 2, "time_unit": "us"},
 {"name": "BM_err", "run_name": "BM_err", "run_type": "iteration", "error_occurred": true,
  "error_message": "boom", "iterations": 0, "real_time": 0, "cpu_time": 0, "time_unit": "ns"}
]})";

class GbenchRunnerTest : public ::testing::Test {
 protected:
  /// A unit whose "binary" is a shell script; $0 is the --benchmark_out=FILE argument.
  Unit script(const std::string& body) const { return Unit{"t", {"/bin/sh", "-c", body}, dir.path()}; }
  GoogleBenchmarkRunner runner(double timeout = 10) const {
    return GoogleBenchmarkRunner({{"--extra"}, 0, timeout, {"PATH=/usr/bin:/bin"}, dir / "out"});
  }
  cobench::testing::TempDir dir;
};

TEST_F(GbenchRunnerTest, OneSamplePerBenchmarkIsTheMedianOfItsRepetitions) {
  write_file_atomic(dir / "good.json", kTwoRepetitions);
  auto record = runner().run_once(script("cp " + (dir / "good.json").string() + " \"${0#--benchmark_out=}\""),
                                  Side::Head, "sha1", 2, {});
  ASSERT_TRUE(record.ok()) << record.status << " " << record.detail;
  EXPECT_EQ(record.side, Side::Head);
  EXPECT_EQ(record.sha, "sha1");
  EXPECT_EQ(record.run, 2);
  EXPECT_DOUBLE_EQ(record.samples.at("BM_a").at("real_ns"), 20);
  EXPECT_DOUBLE_EQ(record.samples.at("BM_a").at("cpu_ns"), 19);
  EXPECT_DOUBLE_EQ(record.samples.at("BM_us").at("real_ns"), 2000);
  EXPECT_FALSE(record.samples.count("BM_err"));
  EXPECT_EQ(record.errors.at("BM_err"), "boom");
  EXPECT_TRUE(record.log.empty());  // nothing was printed: no log kept
  EXPECT_TRUE(std::filesystem::exists(dir / "out/runs/t-head-2.json"));
}

TEST_F(GbenchRunnerTest, ExitStatusIsTheCauseAndTheLogKeepsStderr) {
  auto record = runner().run_once(script("echo 'bad flag' >&2; exit 3"), Side::Base, "s", 0, {});
  EXPECT_EQ(record.status, "exit 3");
  EXPECT_EQ(record.exit_code, 3);
  EXPECT_TRUE(record.samples.empty());
  ASSERT_EQ(record.log, "logs/t-base-0.log");
  EXPECT_NE(read_file(dir / "out" / record.log).find("bad flag"), std::string::npos);
}

TEST_F(GbenchRunnerTest, ACrashIsRecordedWithItsSignalAndPartialOutputIsNotUsed) {
  write_file_atomic(dir / "good.json", kTwoRepetitions);
  auto record = runner().run_once(
      script("cp " + (dir / "good.json").string() + " \"${0#--benchmark_out=}\"; kill -SEGV $$"), Side::Head, "s", 1, {});
  EXPECT_EQ(record.status, "SIGSEGV");
  EXPECT_EQ(record.signal, 11);
  EXPECT_TRUE(record.samples.empty());
}

TEST_F(GbenchRunnerTest, ATimeoutKillsTheRun) {
  auto record = runner(0.5).run_once(script("sleep 30"), Side::Head, "s", 0, {});
  EXPECT_EQ(record.status, "timeout");
  EXPECT_LT(record.wall_seconds, 10);
}

TEST_F(GbenchRunnerTest, UnparsableJsonIsAFailedRun) {
  auto record = runner().run_once(script("echo '{\"benchmarks\": [' > \"${0#--benchmark_out=}\""), Side::Base, "s", 0, {});
  EXPECT_EQ(record.status, "unparsable JSON");
  EXPECT_NE(record.detail.find("unparsable JSON: "), std::string::npos);
  auto missing = runner().run_once(script("true"), Side::Base, "s", 1, {});
  EXPECT_EQ(missing.status, "unparsable JSON");
}

// What Google Benchmark 1.7.1 does when --benchmark_filter matches nothing: exit 0,
// an empty --benchmark_out file and one line on stderr.
TEST_F(GbenchRunnerTest, AFilterMatchingNothingIsASuccessfulRunWithoutBenchmarks) {
  auto record = runner().run_once(
      script("echo 'Failed to match any benchmarks against regex: BM_nope' >&2; : > \"${0#--benchmark_out=}\""),
      Side::Base, "s", 0, {});
  EXPECT_TRUE(record.ok()) << record.status << ": " << record.detail;
  EXPECT_TRUE(record.samples.empty());
  EXPECT_EQ(record.detail, "--benchmark_filter 'BM_nope' matches no benchmark");
  auto silent = runner().run_once(script(": > \"${0#--benchmark_out=}\""), Side::Base, "s", 1, {});
  EXPECT_EQ(silent.status, "unparsable JSON");  // no output for no stated reason stays a failure
}

TEST_F(GbenchRunnerTest, UserArgumentsComeAfterTheOutputFlagsAndTheEnvironmentIsTheGivenOne) {
  auto record = runner().run_once(script("echo \"$0 $1 $2 HOME=${HOME:-unset}\" >&2; exit 1"), Side::Base, "s", 0, {});
  const auto log = read_file(dir / "out" / record.log);
  EXPECT_NE(log.find("--benchmark_out_format=json --extra HOME=unset"), std::string::npos) << log;
}

TEST_F(GbenchRunnerTest, AScopesRunLengthReplacesTheDefaultLengthAndComesLast) {
  const GoogleBenchmarkRunner with_default({{"--extra", "--benchmark_min_time=0.1"}, 0, 10, {"PATH=/usr/bin:/bin"}, dir / "out"});
  RunScope scope;
  scope.repetitions = 2;
  scope.min_time = 0.0125;
  auto record = GoogleBenchmarkRunner(with_default)
                    .run_once(script("echo \"ARGS $*\" >&2; exit 1"), Side::Base, "s", 0, scope);
  const auto log = read_file(dir / "out" / record.log);
  EXPECT_NE(log.find("--extra --benchmark_repetitions=2 --benchmark_min_time=0.0125\n"), std::string::npos) << log;
  EXPECT_EQ(log.find("--benchmark_min_time=0.1"), std::string::npos) << log;
  auto unscoped = GoogleBenchmarkRunner(with_default).run_once(script("echo \"ARGS $*\" >&2; exit 1"), Side::Base, "s", 1, {});
  EXPECT_NE(read_file(dir / "out" / unscoped.log).find("--extra --benchmark_min_time=0.1\n"), std::string::npos);
}

}  // namespace
}  // namespace cobench::run

namespace cobench::run {
namespace {

TEST(ExactFilter, AnchorsTheNameInGoogleBenchmarksGrammar) {
  EXPECT_EQ(exact_filter("BM_a/64"), "^BM_a/64$");
  // POSIX extended: ] and } stay bare ("\\]" is an invalid escape there); the other specials get a backslash.
  EXPECT_EQ(exact_filter("BM_x.y+z(1)[2]{3}|*?^$\\"), "^BM_x\\.y\\+z\\(1\\)\\[2]\\{3}\\|\\*\\?\\^\\$\\\\$");
  const std::regex re(exact_filter("BM_a/64"), std::regex::extended);
  EXPECT_TRUE(std::regex_search("BM_a/64", re));
  EXPECT_FALSE(std::regex_search("BM_a/640", re));
  EXPECT_FALSE(std::regex_search("xBM_a/64", re));
}

}  // namespace
}  // namespace cobench::run

namespace cobench::run {
namespace {

TEST(WithMinTime, AddsTheSettingAsPlainSecondsWhenTheUserGaveNone) {
  EXPECT_EQ(with_min_time({}, 0.1), (std::vector<std::string>{"--benchmark_min_time=0.1"}));
  EXPECT_EQ(with_min_time({"--benchmark_repetitions=3"}, 0.25),
            (std::vector<std::string>{"--benchmark_repetitions=3", "--benchmark_min_time=0.25"}));
}

TEST(WithMinTime, TheUsersOwnMinTimeWinsInEverySyntax) {
  for (const std::string own : {"--benchmark_min_time=2", "--benchmark_min_time=2s", "--benchmark_min_time=1000x"})
    EXPECT_EQ(with_min_time({own}, 0.1), (std::vector<std::string>{own})) << own;
}

}  // namespace
}  // namespace cobench::run
