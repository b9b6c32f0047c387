// Reading what callgrind counted (its output files, the loop's dump) and
// building the instruction processes' arguments for both ways of fixing
// Google Benchmark's iterations. The real processes are in
// tests/job/test_instructions_e2e.cc.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/files.h"
#include "loop/loop.h"
#include "run/callgrind.h"
#include "run/instruction_runs.h"
#include "run/pair_gate.h"
#include "support/testing.h"

namespace cobench::run {
namespace {

namespace fs = std::filesystem;

std::string dump(const std::string& trigger, const std::string& summary) {
  return "version: 1\ncreator: callgrind-3.19.0\npid: 42\ncmd: ./bench\npart: 1\n\ndesc: I1 cache: 32768 B, 64 B, 8-way "
         "associative\ndesc: Timerange: Basic block 0 - 100\ndesc: Trigger: " +
         trigger + "\n\npositions: line\nevents: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\nsummary: " + summary +
         "\n\nfl=(1) bench.cc\nfn=(1) main\n0 5 1\n\ntotals: 1 1 1\n";
}

TEST(CallgrindDump, ReadsTheTriggerAndTheSummaryWithTrailingZerosLeftOff) {
  const auto d = parse_callgrind_dump(dump("Client Request: cobench loop", "5041 1008 10 1 65"), "cg.1");
  EXPECT_EQ(d.trigger, "Client Request: cobench loop");
  EXPECT_DOUBLE_EQ(d.events.ir, 5041);
  EXPECT_DOUBLE_EQ(d.events.dr, 1008);
  EXPECT_DOUBLE_EQ(d.events.dw, 10);
  EXPECT_DOUBLE_EQ(d.events.i1mr, 1);
  EXPECT_DOUBLE_EQ(d.events.d1mr, 65);
  EXPECT_DOUBLE_EQ(d.events.d1mw, 0);  // callgrind leaves trailing zeros off
  EXPECT_DOUBLE_EQ(d.events.dlmw, 0);
}

TEST(CallgrindDump, FallsBackToTotalsAndRefusesWhatIsNotCallgrinds) {
  const auto d = parse_callgrind_dump("events: Ir Dr\ntotals: 12 3\n", "old");
  EXPECT_DOUBLE_EQ(d.events.ir, 12);
  EXPECT_DOUBLE_EQ(d.events.dr, 3);
  EXPECT_THROW(parse_callgrind_dump("hello\n", "x"), InputError);
  EXPECT_THROW(parse_callgrind_dump("events: Ir\nsummary: 1 2\n", "x"), InputError);
  try {
    parse_callgrind_dump("events: Ir Dr\nsummary: 10 lots\n", "cg.out");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cg.out: event Dr has the count 'lots'");
  }
}

TEST(ProcessCounts, ReadsTheLoopsDumpAndIgnoresOtherDumps) {
  testing::TempDir dir;
  const fs::path out = dir / "b.callgrind";
  const std::string loop = std::string("Client Request: ") + loop::kLoopDumpName;
  write_file_atomic(out.string() + ".1", dump(loop, "5908 1263 131 7 71"));
  write_file_atomic(out.string() + ".2", dump("Client Request: somebody else", "999999"));
  write_file_atomic(out.string() + ".3", dump(loop, "5041 1008 10 1 65"));
  write_file_atomic(out, dump("Program termination", "123456789"));
  const ProcessCounts counts = read_process_counts(out);
  EXPECT_TRUE(counts.loop_only);
  EXPECT_DOUBLE_EQ(counts.events.ir, 5908 + 5041);
  EXPECT_DOUBLE_EQ(counts.events.d1mr, 71 + 65);
}

TEST(ProcessCounts, WithoutWindowsTheWholeProcessCounts) {
  testing::TempDir dir;
  const fs::path out = dir / "b.callgrind";
  write_file_atomic(out, dump("Program termination", "3212671 693191 688388 6566 16973 15549 3803 8127 8266"));
  const ProcessCounts counts = read_process_counts(out);
  EXPECT_FALSE(counts.loop_only);
  EXPECT_DOUBLE_EQ(counts.events.ir, 3212671);
  EXPECT_DOUBLE_EQ(counts.events.dlmw, 8266);
  EXPECT_THROW(read_process_counts(dir / "missing.callgrind"), InputError);
}

TEST(PerIteration, TheDifferenceOfTwoIterationCountsCancelsWhatBothRanOnce) {
  // Setup 1,000,000 and start-up 50,000 once, 300 per iteration: 1 and 5 iterations.
  verdict::CacheEvents fewer, more;
  fewer.ir = 1'050'000 + 1 * 300;
  more.ir = 1'050'000 + 5 * 300;
  fewer.d1mr = 700 + 2;
  more.d1mr = 700 + 10;
  const auto per = per_iteration(fewer, 1, more, 5);
  EXPECT_DOUBLE_EQ(per.ir, 300);
  EXPECT_DOUBLE_EQ(per.d1mr, 2);
}

TEST(CallgrindCommand, FixesTheCachesAndNamesTheOutput) {
  const auto argv = callgrind_command("/tmp/x.callgrind", true);
  EXPECT_NE(std::find(argv.begin(), argv.end(), "--collect-atstart=no"), argv.end());  // the preload says when
  const auto whole = callgrind_command("/tmp/x.callgrind", false);
  EXPECT_NE(std::find(whole.begin(), whole.end(), "--collect-atstart=yes"), whole.end());
  ASSERT_GE(argv.size(), 3u);
  EXPECT_EQ(argv[0], "valgrind");
  EXPECT_EQ(argv[1], "--tool=callgrind");
  for (const char* expected : {"--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64",
                               "--callgrind-out-file=/tmp/x.callgrind"})
    EXPECT_NE(std::find(argv.begin(), argv.end(), expected), argv.end()) << expected;
}

TEST(InstructionBenchArgs, GoogleBenchmark18TakesIterationsAsNx) {
  const std::vector<std::string> user = {"--benchmark_min_time=0.5", "--benchmark_repetitions=9",
                                         "--benchmark_filter=BM_", "-benchmark_min_warmup_time=1",
                                         "--benchmark_report_aggregates_only=true", "--benchmark_counters_tabular=true",
                                         "--benchmark_enable_random_interleaving=false"};
  EXPECT_EQ(instruction_bench_args(user, "BM_Gemm/64", IterationControl::MinTimeIterations, 5),
            (std::vector<std::string>{"--benchmark_counters_tabular=true", "--benchmark_enable_random_interleaving=false",
                                      "--benchmark_filter=^BM_Gemm/64$", "--benchmark_min_time=5x",
                                      "--benchmark_repetitions=1"}));
}

TEST(InstructionBenchArgs, GoogleBenchmark17RunsOneIterationPerRepetition) {
  EXPECT_EQ(instruction_bench_args({"--benchmark_min_time=2"}, "BM_a<int>", IterationControl::Repetitions, 1),
            (std::vector<std::string>{"--benchmark_filter=^BM_a<int>$", "--benchmark_min_time=0",
                                      "--benchmark_repetitions=1"}));
  EXPECT_NE(describe(IterationControl::Repetitions).find("before 1.8"), std::string::npos);
  EXPECT_NE(describe(IterationControl::MinTimeIterations).find("--benchmark_min_time=1x and 5x"), std::string::npos);
}

TEST(PairTimeGate, InstructionRunsAreEstimatedFromTheirOwnEarlierRuns) {
  std::vector<RunRecord> records(3);
  records[0].target = records[1].target = records[2].target = "t";
  records[0].wall_seconds = 1000;  // a timing run: not what an instruction pair costs
  records[1].kind = records[2].kind = "instructions";
  records[1].wall_seconds = 20;
  records[2].wall_seconds = 40;
  double now = 0;
  const auto gate = pair_time_gate(100, records, "instructions", [&] { return now; });
  now = 40;  // 40 + 2 * 30 = 100: fits
  EXPECT_EQ(gate("t"), "");
  now = 41;
  EXPECT_NE(gate("t").find("exhausted"), std::string::npos);
}

}  // namespace
}  // namespace cobench::run
