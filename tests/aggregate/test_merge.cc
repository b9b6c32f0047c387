// `cobench merge`: the shards of one job joined into one report. Every row is
// the row its own shard's report has (judged against that shard's control),
// host facts stay per shard, and folders that are not shards of one job are
// refused, naming the folder.
#include "aggregate/merge.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "aggregate/aggregate.h"
#include "run/fake_runner.h"

namespace cobench::aggregate {
namespace {

using run::testing::FakeRunner;

results::ShardSplit split_of(int index) {
  results::ShardSplit split;
  split.index = index;
  split.count = 2;
  split.basis = "source size";
  split.unit = "bytes";
  split.targets = {{"bench_a", 1, 300}, {"bench_b", 2, 200}};
  return split;
}

/// One shard as its job would have logged it: its target and the layout control, 8 runs per side.
ShardFolder shard(int index, const std::string& target, double head_factor, const std::string& hostname = "runner-1") {
  FakeRunner runner;
  runner.targets[target] = {head_factor, 0.01, {"BM_" + target}};
  runner.targets["bench_ctl"] = {1.0, 0.01, {"BM_ctl"}};
  runner.targets[target].failure = [](results::Side side, int run) { return side == results::Side::Head && run == 7 ? "SIGSEGV" : ""; };
  ShardFolder folder;
  folder.folder = "shards/" + std::to_string(index);
  results::ResultsFile& file = folder.results;
  file.settings.job = "job-" + std::to_string(index);
  file.settings.base = "b";
  file.settings.head = "h";
  file.settings.layout_controls = {"bench_ctl"};
  file.settings.shard = split_of(index);
  file.host = {{"hostname", hostname}, {"cpu_model", "Test CPU"}, {"cpu_count", 2}};
  for (const auto& pair : run::testing::fake_pairs(runner))
    for (int run = 0; run < 8; ++run)
      for (results::Side side : {results::Side::Base, results::Side::Head}) {
        auto record = runner.run_once(pair.base, side, "x", run, {});
        if (!record.ok()) record.log = "logs/" + pair.target + "-head-7.log";
        file.runs.push_back(record);
      }
  return folder;
}

nlohmann::json without_shard(const report::BenchmarkRow& row) {
  report::Report one;
  one.benchmarks = {row};
  one.benchmarks.front().shard = 0;
  one.benchmarks.front().failed_runs.clear();  // their log paths are rewritten for the merged folder
  return report::to_json(one)["benchmarks"][0];
}

TEST(Merge, EveryRowIsItsShardsRowWithTheShardNamed) {
  const std::vector<ShardFolder> shards = {shard(2, "bench_b", 1.0), shard(1, "bench_a", 2.0)};
  const report::Report merged = merge_shards(shards, "merged");
  ASSERT_EQ(merged.benchmarks.size(), 4u);  // a, b, and each shard's control
  for (const auto& folder : shards) {
    const report::Report own = report_of(folder.results, "results.jsonl");
    const int index = folder.results.settings.shard->index;
    for (const auto& row : own.benchmarks) {
      auto it = std::find_if(merged.benchmarks.begin(), merged.benchmarks.end(),
                             [&](const auto& m) { return m.name == row.name && m.shard == index; });
      ASSERT_NE(it, merged.benchmarks.end()) << row.name << " of shard " << index;
      EXPECT_EQ(without_shard(*it), without_shard(row)) << row.name;
    }
  }
  EXPECT_EQ(merged.benchmarks.front().name, "BM_bench_a");  // the regression first, as in any report
  EXPECT_EQ(merged.benchmarks.front().verdict, verdict::Verdict::Regression);
  ASSERT_EQ(merged.controls.size(), 2u);
  EXPECT_EQ(merged.controls[0].name.rfind("shard 1/2: bench_ctl/BM_ctl", 0), 0u) << merged.controls[0].name;
  EXPECT_EQ(merged.controls[1].name.rfind("shard 2/2: ", 0), 0u) << merged.controls[1].name;
  ASSERT_EQ(merged.shards.size(), 2u);
  EXPECT_EQ(merged.shards[0]["index"], 1);
  EXPECT_EQ(merged.shards[0]["folder"], "shards/1");
  EXPECT_EQ(merged.shards[1]["targets"], nlohmann::json::array({"bench_b"}));
  EXPECT_EQ(merged.shards[1]["host"]["hostname"], "runner-1");
  EXPECT_EQ(merged.host["hostname"], "runner-1");  // one host: its facts as in any report
  EXPECT_FALSE(merged.settings["shard"].contains("index"));
  for (const auto& note : merged.notes) {
    EXPECT_EQ(note.find("different hosts"), std::string::npos) << note;
    EXPECT_EQ(note.find("`cobench merge` joins"), std::string::npos) << note;  // each shard's own pointer is gone
  }
  EXPECT_EQ(merged.notes.back(), "merged from 2 of 2 shards (split by source size)");
  // A failed run's log is named from the merged folder.
  const auto& a = *std::find_if(merged.benchmarks.begin(), merged.benchmarks.end(),
                                [](const auto& r) { return r.name == "BM_bench_a"; });
  ASSERT_EQ(a.failed_runs.size(), 1u);
  EXPECT_EQ(a.failed_runs[0].log, "../shards/1/logs/bench_a-head-7.log");
  EXPECT_TRUE(report::infrastructure_failures(merged).empty());
  // The markdown marks each control with its shard.
  const std::string md = report::render_markdown(merged);
  EXPECT_NE(md.find("BM\\_ctl *(control, shard 1/2)*"), std::string::npos) << md;
  EXPECT_NE(md.find("BM\\_ctl *(control, shard 2/2)*"), std::string::npos) << md;
}

TEST(Merge, ShardsOnDifferentHostsKeepTheirFactsAndSaySo) {
  const report::Report merged = merge_shards({shard(1, "bench_a", 1.0, "runner-1"), shard(2, "bench_b", 1.0, "runner-9")},
                                             "merged");
  ASSERT_FALSE(merged.notes.empty());
  EXPECT_NE(merged.notes.front().find("the shards ran on different hosts (shard 1/2 on runner-1 (Test CPU, 2 CPUs); "
                                      "shard 2/2 on runner-9"),
            std::string::npos)
      << merged.notes.front();
  EXPECT_NE(merged.notes.front().find("ratios stay valid"), std::string::npos);
  EXPECT_EQ(merged.host["shard 2/2"], "runner-9 (Test CPU, 2 CPUs)");
  EXPECT_EQ(merged.shards[1]["host"]["hostname"], "runner-9");
}

TEST(Merge, AMissingShardLeavesItsTargetsUnmeasuredWhichIsAFailure) {
  const report::Report merged = merge_shards({shard(1, "bench_a", 1.0)}, "merged");
  const auto failures = report::infrastructure_failures(merged);
  ASSERT_EQ(failures.size(), 1u);
  EXPECT_NE(failures[0].find("bench_b: not measured: shard 2/2 is not among the merged folders"), std::string::npos)
      << failures[0];
  EXPECT_EQ(merged.notes.front(), failures[0]);
  EXPECT_EQ(merged.notes.back(), "merged from 1 of 2 shards (split by source size)");
}

std::string error_of(const std::vector<ShardFolder>& shards) {
  try {
    merge_shards(shards, "merged");
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(Merge, RefusesFoldersThatAreNotShardsOfOneJob) {
  auto unsharded = shard(1, "bench_a", 1.0);
  unsharded.results.settings.shard.reset();
  EXPECT_EQ(error_of({unsharded}), "shards/1: not a shard (its job ran without --shard I/N)");

  auto other_head = shard(2, "bench_b", 1.0);
  other_head.results.settings.head = "h2";
  EXPECT_EQ(error_of({shard(1, "bench_a", 1.0), other_head}),
            "shards/2: another head (h2; shards/1 has h): not shards of one job");

  EXPECT_EQ(error_of({shard(1, "bench_a", 1.0), shard(1, "bench_a", 1.0)}), "shards/1 and shards/1 are both shard 1/2");

  auto other_split = shard(2, "bench_b", 1.0);
  other_split.results.settings.shard->targets[0].shard = 2;
  EXPECT_NE(error_of({shard(1, "bench_a", 1.0), other_split}).find("shards/2: splits the selection differently"),
            std::string::npos);

  auto other_count = shard(2, "bench_b", 1.0);
  other_count.results.settings.shard->count = 3;
  EXPECT_EQ(error_of({shard(1, "bench_a", 1.0), other_count}), "shards/2: shard 2/3, but shards/1 is a part of 2");
  EXPECT_NE(error_of({}).find("give the report folders"), std::string::npos);
}

TEST(Merge, RefusesShardsRunWithOtherSettingsNamingTheFirstDifference) {
  auto lenient = shard(2, "bench_b", 1.0);
  lenient.results.settings.budgets = verdict::Budgets({3.0, std::nullopt, std::nullopt}, {});
  const std::string budget = error_of({shard(1, "bench_a", 1.0), lenient});
  EXPECT_NE(budget.find("shards/2: not a shard of the job of shards/1: they differ in budget: "), std::string::npos)
      << budget;
  EXPECT_NE(budget.find("\"time\":3.0"), std::string::npos) << budget;

  auto other_args = shard(2, "bench_b", 1.0);
  other_args.results.settings.bench_args = {"--benchmark_min_time=5"};
  other_args.results.settings.min_runs = 2;
  EXPECT_NE(error_of({shard(1, "bench_a", 1.0), other_args}).find("they differ in min_runs: "), std::string::npos);

  // What each shard has of its own is no difference: its job id, CPU, targets and compile cache.
  auto own = shard(2, "bench_b", 1.0);
  own.results.settings.job = "another-job-id";
  own.results.settings.cpu = 3;
  own.results.settings.compile_cache = "ccache: 10 hits";
  EXPECT_EQ(error_of({shard(1, "bench_a", 1.0), own}), "no error");
}

}  // namespace
}  // namespace cobench::aggregate
