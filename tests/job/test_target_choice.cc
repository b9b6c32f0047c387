// The seam between selection and the build: what is compared, added or
// removed, why, and when nothing is measured.
#include "job/target_choice.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

std::vector<cmake::BenchmarkTarget> targets(std::vector<std::string> names) {
  std::vector<cmake::BenchmarkTarget> out;
  for (auto& name : names) out.push_back({name, "/x/" + name, {}, {}, {}, true, {}});
  return out;
}

select::SelectedTarget picked(const std::string& name, std::vector<std::string> warnings = {}) {
  select::SelectedTarget t;
  t.target = name;
  t.reason_chain = {name + ".cc", "lib.h"};
  t.change = "modified";
  t.hops = 1;
  t.layout_warnings = std::move(warnings);
  return t;
}

TEST(TargetChoice, SelectedTargetsSplitIntoBothSidesAndAdded) {
  select::Selection s;
  s.selected = {picked("bench_b"), picked("bench_new")};
  s.unreached = {"bench_a"};
  auto choice = choose_targets(targets({"bench_a", "bench_b", "bench_old"}), s);
  EXPECT_EQ(choice.both, std::vector<std::string>{"bench_b"});
  EXPECT_EQ(choice.head_only, std::vector<std::string>{"bench_new"});
  EXPECT_EQ(choice.base_only, std::vector<std::string>{"bench_old"}) << "gone on head: listed as removed";
  EXPECT_EQ(choice.reason, "2 of 3 benchmark targets reach the change");
  EXPECT_EQ(choice.selection["mode"], "diff");
  EXPECT_EQ(choice.selection["reason"], choice.reason);
  EXPECT_EQ(choice.selection["unreached"], nlohmann::json{"bench_a"});
}

TEST(TargetChoice, KeepsTheSelectionOrderAndNamesTheCapAndNarrowing) {
  select::Selection s;
  s.selected = {picked("bench_z"), picked("bench_a")};  // closest first, not by name
  s.dropped = {picked("bench_m")};
  s.narrowed_out = {"other"};
  s.max_targets = 2;
  s.narrowing.targets = "bench";
  s.narrowing.targets_origin = "COBENCH_TARGETS";
  auto choice = choose_targets(targets({"bench_a", "bench_m", "bench_z", "other", "bench_gone", "other_gone"}), s);
  EXPECT_EQ(choice.both, (std::vector<std::string>{"bench_z", "bench_a"}));
  EXPECT_EQ(choice.base_only, std::vector<std::string>{"bench_gone"}) << "other_gone is narrowed out";
  EXPECT_EQ(choice.reason, "3 of 4 benchmark targets reach the change, narrowed to 3 by COBENCH_TARGETS 'bench'; "
                           "2 measured, 1 dropped by max_targets 2 (ranked by include hops)");
  EXPECT_EQ(choice.selection["dropped"][0]["target"], "bench_m");
}

TEST(TargetChoice, NarrowingByHandStillCountsWhatTheChangeReaches) {
  select::Selection s;
  s.selected = {picked("bench_a")};
  s.narrowed_out = {"bench_b", "bench_c", "bench_d"};
  s.narrowed_out_reached = {"bench_b", "bench_c"};
  s.unreached = {"bench_e"};
  s.narrowing.targets = "^bench_a$";
  s.narrowing.targets_origin = "--target";
  auto choice = choose_targets(targets({"bench_a", "bench_b", "bench_c", "bench_d", "bench_e"}), s);
  EXPECT_EQ(choice.reason, "3 of 5 benchmark targets reach the change, narrowed to 1 by --target '^bench_a$'");
  EXPECT_EQ(choice.selection["narrowed_out_reached"], (nlohmann::json{"bench_b", "bench_c"}));
  EXPECT_EQ(choice.selection["reached"], 3);
}

TEST(TargetChoice, AllModeLeavesTheReasonToAllReason) {
  select::Selection s;
  s.selected = {picked("a"), picked("b")};
  s.all_reason = "CMake input CMakeLists.txt changed";
  auto choice = choose_targets(targets({"a", "b"}), s);
  EXPECT_EQ(choice.reason, "all 2 benchmark targets (CMake input CMakeLists.txt changed)");
  EXPECT_EQ(choice.selection["mode"], "all");
  EXPECT_FALSE(choice.selection.contains("reason")) << "the report prints all_reason already";
}

TEST(TargetChoice, NothingToMeasureSaysWhyOrIsAnInputError) {
  select::Selection docs;
  docs.unreached = {"a", "b"};
  docs.none_reason = "no benchmark reaches this change: only ignored paths changed";
  docs.ignored = {"docs/a.md", "README.md"};
  EXPECT_EQ(nothing_to_measure(docs, "/nonexistent"),
            "no benchmark reaches this change: only ignored paths changed (docs/a.md, README.md)");
  docs.none_reason = "base and head are identical";
  EXPECT_EQ(nothing_to_measure(docs, "/nonexistent"),
            "no benchmark reaches this change: base and head are identical (docs/a.md, README.md)")
      << "a reason without the headline gets it";

  select::Selection unreached;
  unreached.unreached = {"a"};
  unreached.none_reason = "no benchmark reaches this change";
  EXPECT_EQ(nothing_to_measure(unreached, "/nonexistent"), "no benchmark reaches this change");

  select::Selection some;
  some.selected = {picked("a")};
  EXPECT_EQ(nothing_to_measure(some, "/nonexistent"), std::nullopt);

  EXPECT_THROW(nothing_to_measure(select::Selection{}, "/nonexistent"), InputError) << "no targets at all";
  // No targets, and the project's cache has its benchmarks switched off: the error says which switch.
  testing::TempDir build;
  testing::write_file(build / "CMakeCache.txt",
                      "# This is the CMakeCache file.\n//Build benchmarks\nSPDLOG_BUILD_BENCH:BOOL=OFF\n"
                      "SPDLOG_BUILD_TESTS:BOOL=OFF\nBENCHMARK_ENABLE_TESTING:BOOL=OFF\nCMAKE_SKIP_BENCH:BOOL=OFF\n"
                      "MYLIB_BENCHMARKS:BOOL=ON\nWITH_BENCH_EXTRAS:STRING=OFF\nother_bench_suite:BOOL=0\n");
  try {
    nothing_to_measure(select::Selection{}, build.path());
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "no benchmark targets found (no executable links Google Benchmark); the project's cache "
                           "has SPDLOG_BUILD_BENCH, other_bench_suite off: --cmake-arg=-DSPDLOG_BUILD_BENCH=ON builds "
                           "them");
  }
  select::Selection away;
  away.narrowed_out = {"bench_a", "bench_b"};
  away.narrowed_out_reached = {"bench_a"};
  away.unreached = {"bench_c"};
  away.narrowing.targets = "_c$";
  away.narrowing.targets_origin = "--target";
  EXPECT_EQ(nothing_to_measure(away, "/nonexistent"),
            "no benchmark left to measure: the change reaches 1 of 3 benchmark targets, all narrowed away by --target "
            "'_c$': bench_a");
  select::Selection narrowed;
  narrowed.narrowed_out = {"a", "b"};
  narrowed.narrowing.targets = "zzz";
  narrowed.narrowing.targets_origin = "--target";
  try {
    nothing_to_measure(narrowed, "/nonexistent");
    ADD_FAILURE() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "--target 'zzz' matches none of the 2 benchmark targets");
  }
}

TEST(TargetChoice, FilterIsAppendedAsTheLastBenchmarkFilter) {
  select::Narrowing n;
  EXPECT_EQ(with_filter({"--benchmark_min_time=0.01"}, n), std::vector<std::string>{"--benchmark_min_time=0.01"});
  n.filter = "BM_A/8$";
  EXPECT_EQ(with_filter({"--benchmark_filter=x"}, n),
            (std::vector<std::string>{"--benchmark_filter=x", "--benchmark_filter=BM_A/8$"}));
}

}  // namespace
}  // namespace cobench::job
