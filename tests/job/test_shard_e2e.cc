// Scale-out on a real repository: `cobench run --shard I/N` splits a wide
// change's selection into disjoint parts that cover it, each a whole job with
// its own control; `cobench merge` of the parts is one report set with every
// row; and a --time-budget that cannot fit the build says so before building.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "core/files.h"
#include "report/report.h"
#include "results/log.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

using namespace cobench::testing;
namespace fs = std::filesystem;

const std::vector<std::string> kTargets = {"a", "b", "c", "d", "e"};

class ShardE2E : public ::testing::Test {
 protected:
  void SetUp() override { sides = write_wide_change(repo, kTargets); }

  process::Result run(const fs::path& out, std::vector<std::string> args) {
    std::vector<std::string> argv = {"run",        "--repo",     repo.path().string(), "--base", sides.base,
                                     "--out",      out.string(), "--min-runs",         "4",      "--max-runs",
                                     "4",          "--metric",   "cpu_time",           "--alloc-runs", "0",
                                     "--bench-arg=--benchmark_min_time=0.002"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_cobench(argv, repo.path(), {}, 600);
  }

  static report::Report report_of(const fs::path& out) {
    return report::from_json(nlohmann::json::parse(read_file(out / "report.json")));
  }

  TempDir dir;
  GitRepo repo{dir / "repo"};
  WideChange sides;
};

std::set<std::string> selected_of(const results::JobSettings& settings) {
  std::set<std::string> out;
  for (const auto& target : settings.selection.at("selected")) out.insert(target.at("target").get<std::string>());
  return out;
}

/// A row's identity and what it says, for comparing reports.
using RowKey = std::tuple<std::string, std::string, bool>;
std::map<RowKey, nlohmann::json> rows_of(const report::Report& report, int shard) {
  std::map<RowKey, nlohmann::json> out;
  for (const auto& row : report.benchmarks) {
    if (shard != 0 && row.shard != shard) continue;
    report::Report one;
    one.benchmarks = {row};
    one.benchmarks.front().shard = 0;
    one.benchmarks.front().failed_runs.clear();
    out[{row.target, row.name, row.is_control}] = report::to_json(one)["benchmarks"][0];
  }
  return out;
}

TEST_F(ShardE2E, TwoShardsAreDisjointCoverTheSelectionAndMergeIntoOneReportSet) {
  const fs::path whole = dir / "whole", one = dir / "shard-1", two = dir / "shard-2", merged = dir / "merged";
  auto unsharded = run(whole, {});
  ASSERT_EQ(unsharded.exit_code, 0) << explain(unsharded);
  // The unsharded job's results.jsonl records each target's build and run time: the shards split by it.
  const std::string history = (whole / "results.jsonl").string();
  for (const auto& [out, part] : {std::pair{one, "1/2"}, std::pair{two, "2/2"}}) {
    auto result = run(out, {"--shard", part, "--cost-from", history});
    ASSERT_EQ(result.exit_code, 0) << explain(result);
    EXPECT_NE(result.out.find(std::string("shard ") + part + ": "), std::string::npos) << result.out;
  }
  const auto first = results::read_results(one / "results.jsonl");
  const auto second = results::read_results(two / "results.jsonl");
  ASSERT_TRUE(first.settings.shard && second.settings.shard);
  EXPECT_EQ(first.settings.shard->unit, "s");
  EXPECT_NE(first.settings.shard->basis.find(history), std::string::npos) << first.settings.shard->basis;
  EXPECT_EQ(selected_of(first.settings), (std::set<std::string>{"bench_a", "bench_b", "bench_c", "bench_d", "bench_e"}));

  // Disjoint parts that cover the selection; each shard a whole job with its own controls.
  std::set<std::string> covered;
  for (const auto* file : {&first, &second}) {
    const auto& s = file->settings;
    EXPECT_EQ(s.layout_controls, std::vector<std::string>{"bench_ctl"});
    EXPECT_FALSE(s.machine_control.empty());
    EXPECT_FALSE(file->builds.empty());
    const auto mine = s.shard->targets_of(s.shard->index);
    for (const auto& target : s.targets) {
      if (target == "bench_ctl") continue;
      EXPECT_TRUE(covered.insert(target).second) << target << " measured by both shards";
      EXPECT_NE(std::find(mine.begin(), mine.end(), target), mine.end()) << target << " is not this shard's";
    }
    EXPECT_GT(s.targets.size(), 1u) << "a shard with only its control";
  }
  EXPECT_EQ(covered, selected_of(first.settings));
  ASSERT_EQ(first.settings.shard->targets.size(), second.settings.shard->targets.size());
  for (size_t i = 0; i < first.settings.shard->targets.size(); ++i) {
    EXPECT_EQ(first.settings.shard->targets[i].target, second.settings.shard->targets[i].target);
    EXPECT_EQ(first.settings.shard->targets[i].shard, second.settings.shard->targets[i].shard);
  }

  // The merge: one report set holding every shard's rows as that shard judged them.
  auto merge = run_cobench({"merge", one.string(), two.string(), "--out", merged.string()}, dir.path());
  ASSERT_EQ(merge.exit_code, 0) << explain(merge);
  for (const char* name : {"report.json", "report.md", "report.xml", "report.html"})
    EXPECT_TRUE(fs::exists(merged / name)) << name;
  const report::Report all = report_of(merged);
  auto expected = rows_of(report_of(one), 0);
  const auto second_rows = rows_of(report_of(two), 0);
  size_t both = expected.size() + second_rows.size();
  EXPECT_EQ(all.benchmarks.size(), both);
  EXPECT_EQ(rows_of(all, 1), rows_of(report_of(one), 0));
  EXPECT_EQ(rows_of(all, 2), second_rows);
  // Every selected target has its row, as in the unsharded job's report set.
  std::set<std::pair<std::string, std::string>> merged_names, whole_names;
  for (const auto& row : all.benchmarks)
    if (!row.is_control) merged_names.insert({row.target, row.name});
  for (const auto& row : report_of(whole).benchmarks)
    if (!row.is_control) whole_names.insert({row.target, row.name});
  EXPECT_EQ(merged_names, whole_names);
  EXPECT_EQ(all.shards.size(), 2u);
  EXPECT_EQ(all.base, first.settings.base);
  const std::string md = read_file(merged / "report.md");
  EXPECT_NE(md.find("control, shard 1/2"), std::string::npos) << md;
  EXPECT_NE(md.find("merged from 2 of 2 shards"), std::string::npos) << md;
  EXPECT_EQ(md.find("different hosts"), std::string::npos) << md;  // one machine ran both

  // A merge with one shard missing still writes the report, and fails as infrastructure.
  auto partial = run_cobench({"merge", one.string(), "--out", (dir / "partial").string()}, dir.path());
  EXPECT_EQ(partial.exit_code, 3) << explain(partial);
  EXPECT_NE(partial.err.find("not measured: shard 2/2 is not among the merged folders"), std::string::npos)
      << partial.err;
  EXPECT_TRUE(fs::exists(dir / "partial/report.md"));
  // The merged reports never go into a shard's own folder.
  auto onto_shard = run_cobench({"merge", one.string(), two.string(), "--out", one.string()}, dir.path());
  EXPECT_EQ(onto_shard.exit_code, 2) << explain(onto_shard);
  EXPECT_TRUE(fs::exists(one / "results.jsonl"));
}

TEST_F(ShardE2E, AShardWithoutTargetsSaysSoAndMeasuresNothing) {
  auto result = run(dir / "out", {"--shard", "7/7", "--target", "^bench_(a|b)$"});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  EXPECT_NE(result.out.find("shard 7/7: 0 of the 2 selected targets (none;"), std::string::npos) << result.out;
  const auto file = results::read_results(dir / "out/results.jsonl");
  EXPECT_TRUE(file.runs.empty());
  EXPECT_TRUE(file.builds.empty());
}

TEST_F(ShardE2E, MergeRefusesShardsRunWithDifferentSettingsNamingTheFirstDifference) {
  // Two parts of one split that got no target: quick, and each a whole shard's results.
  const fs::path six = dir / "shard-6", seven = dir / "shard-7", lenient = dir / "shard-7-lenient";
  ASSERT_EQ(run(six, {"--shard", "6/7", "--target", "^bench_(a|b)$"}).exit_code, 0);
  ASSERT_EQ(run(seven, {"--shard", "7/7", "--target", "^bench_(a|b)$"}).exit_code, 0);
  auto same = run_cobench({"merge", six.string(), seven.string(), "--out", (dir / "merged").string()}, dir.path());
  EXPECT_NE(same.exit_code, 2) << explain(same);  // one job's shards: merged (shards 1-5 missing: exit 3)

  ASSERT_EQ(run(lenient, {"--shard", "7/7", "--target", "^bench_(a|b)$", "--budget", "300%"}).exit_code, 0);
  auto refused = run_cobench({"merge", six.string(), lenient.string(), "--out", (dir / "refused").string()}, dir.path());
  EXPECT_EQ(refused.exit_code, 2) << explain(refused);
  EXPECT_NE(refused.err.find(lenient.string()), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find("budget"), std::string::npos) << refused.err;
  EXPECT_FALSE(fs::exists(dir / "refused/report.md"));

  // Another head is another job, however its settings agree.
  repo.write("a.cc", read_file(repo.path() / "a.cc") + "// another head\n");
  repo.commit("another head");
  const fs::path other = dir / "shard-7-other";
  ASSERT_EQ(run(other, {"--shard", "7/7", "--target", "^bench_(a|b)$"}).exit_code, 0);
  auto heads = run_cobench({"merge", six.string(), other.string(), "--out", (dir / "heads").string()}, dir.path());
  EXPECT_EQ(heads.exit_code, 2) << explain(heads);
  EXPECT_NE(heads.err.find("head"), std::string::npos) << heads.err;
}

/// A results.jsonl as an earlier job would have left it: bench_d and bench_e take 500 s per side to build.
fs::path slow_history(const fs::path& dir) {
  results::ResultsLog log(dir / "history.jsonl");
  log.host({});
  results::JobSettings settings;
  settings.base = "0";
  settings.head = "1";
  log.settings(settings);
  for (const char* target : {"bench_ctl", "bench_a", "bench_b", "bench_c", "bench_d", "bench_e"}) {
    const bool slow = std::string(target) >= "bench_d";
    for (auto side : {results::Side::Base, results::Side::Head}) {
      log.build({target, side, slow ? 500.0 : 1.0});
      results::RunRecord run;
      run.target = target;
      run.side = side;
      run.wall_seconds = 0.1;
      log.run(run);
    }
  }
  return log.path();
}

TEST_F(ShardE2E, ABuildThatCannotFitTheTimeBudgetIsReportedBeforeBuilding) {
  const fs::path out = dir / "out", work = dir / "work";
  auto result = run(out, {"--time-budget", "5m", "--cost-from", slow_history(dir.path()).string(), "--keep",
                          "--work-dir", work.string()});
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  const std::string said = "time budget 5.0 min: the 2 lowest-ranked of the selected targets not built nor measured "
                           "(bench_d, bench_e): building them needs an estimated ";
  EXPECT_NE(result.out.find(said), std::string::npos) << result.out;
  // Said before building: the plan's line comes before the first build, and the dropped targets never built.
  const auto plan_line = result.err.find("time budget 5.0 min: ");
  const auto first_build = result.err.find("building bench_ctl (1/");
  ASSERT_NE(plan_line, std::string::npos) << result.err;
  ASSERT_NE(first_build, std::string::npos) << result.err;
  EXPECT_LT(plan_line, first_build);
  EXPECT_EQ(result.err.find("building bench_d"), std::string::npos) << result.err;
  const auto file = results::read_results(out / "results.jsonl");
  EXPECT_EQ(file.settings.budget_dropped, (std::vector<std::string>{"bench_d", "bench_e"}));
  ASSERT_TRUE(file.settings.time_budget);
  EXPECT_DOUBLE_EQ(*file.settings.time_budget, 300);
  for (const auto& build : file.builds) EXPECT_TRUE(build.target < "bench_d") << build.target;
  bool found = false;
  for (const auto& entry : fs::recursive_directory_iterator(work))
    found |= entry.path().filename() == "bench_d" || entry.path().filename() == "bench_e";
  EXPECT_FALSE(found) << "a dropped target was built";
  const report::Report report = report_of(out);
  std::set<std::string> measured;
  for (const auto& row : report.benchmarks) measured.insert(row.target);
  EXPECT_EQ(measured, (std::set<std::string>{"bench_a", "bench_b", "bench_c", "bench_ctl", "machine:cobench_machine_control"}));
  EXPECT_TRUE(std::any_of(report.notes.begin(), report.notes.end(),
                          [&](const std::string& note) { return note.rfind(said, 0) == 0; }));
}

TEST_F(ShardE2E, ABudgetConfigureAloneExceedsMeasuresNothingAndSaysWhy) {
  const fs::path out = dir / "out";
  auto result = run(out, {"--time-budget", "0.001s"});
  EXPECT_EQ(result.exit_code, 3) << explain(result);
  EXPECT_NE(result.out.find("time budget 1 ms: the 5 lowest-ranked of the selected targets not built nor measured"),
            std::string::npos)
      << result.out;
  EXPECT_NE(result.err.find("no selected target fits the time budget"), std::string::npos) << result.err;
  EXPECT_EQ(result.err.find("building bench_"), std::string::npos) << result.err;
  const auto file = results::read_results(out / "results.jsonl");
  EXPECT_TRUE(file.builds.empty());
  EXPECT_EQ(file.settings.budget_dropped.size(), 5u);
  EXPECT_TRUE(report_of(out).benchmarks.empty());
}

}  // namespace
}  // namespace cobench::job
