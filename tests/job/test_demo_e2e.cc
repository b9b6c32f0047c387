// `cobench demo` end to end: the bundled project is built on both sides, run
// interleaved, and the slowed family is the one flagged.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/testing.h"

namespace cobench::testing {
namespace {

namespace fs = std::filesystem;

TEST(Demo, HeadPatchAppliesToTheExampleProject) {
  TempDir dir;
  fs::copy(fs::path(COBENCH_SOURCE_DIR) / "examples/demo", dir / "repo", fs::copy_options::recursive);
  GitRepo repo(dir / "repo");
  repo.commit("base");
  run_checked({"git", "apply", "--check", (dir / "repo/head.patch").string()}, repo.path());
}

TEST(Demo, AnUnusableOutFolderStopsBeforeAnyBuild) {
  TempDir dir;
  fs::create_directories(dir / "tmp");
  write_file(dir / "file", "not a folder");
  auto result = run_cobench({"demo", "--out", (dir / "file/report").string()}, dir.path(),
                            {{"TMPDIR", (dir / "tmp").string()}}, 60);
  EXPECT_EQ(result.exit_code, 2) << explain(result);
  EXPECT_NE(result.err.find("--out " + (dir / "file/report").string() + ": cannot create the report folder"),
            std::string::npos)
      << explain(result);
  EXPECT_TRUE(fs::is_empty(dir / "tmp")) << "the temporary repository must be removed on failure";
}

TEST(Demo, FlagsTheSlowedFamilyAndNotTheUnchangedOne) {
  TempDir dir;
  fs::create_directories(dir / "tmp");
  const fs::path out = dir / "report";
  auto result = run_cobench({"demo", "--out", out.string()}, dir.path(), {{"TMPDIR", (dir / "tmp").string()}}, 600);
  ASSERT_TRUE(result.ok()) << explain(result);
  for (const char* name : {"report.json", "report.md", "report.xml", "report.html", "results.jsonl"})
    EXPECT_TRUE(fs::exists(out / name)) << name << "\n" << explain(result);
  EXPECT_NE(result.out.find(out.string()), std::string::npos) << "the demo must say where the reports are";
  // With --out, nothing of the temporary repository, worktrees or builds is left.
  EXPECT_TRUE(fs::is_empty(dir / "tmp"));

  auto report = nlohmann::json::parse(read_text(out / "report.json"));
  std::map<std::string, int> rows;
  for (const auto& row : report.at("benchmarks")) {
    const std::string target = row.at("target"), verdict = row.at("verdict");
    SCOPED_TRACE(row.dump() + "\n" + result.out);
    ++rows[target];
    if (target == "bench_checksum") EXPECT_EQ(verdict, "regression");
    else EXPECT_NE(verdict, "regression");
    // The regression and the top-k speed-up are real: a second code layout reads them alike.
    if (target == "bench_checksum" || target == "bench_topk") {
      EXPECT_EQ(row.at("layout_outcome"), "confirmed");
      EXPECT_EQ(row.at("layouts").size(), 2u);
    }
    // The unchanged join is the layout control, cobench's own program the machine control (never BM_Join/64,
    // the demo's noisiest row): real controls.
    const bool control = target == "bench_join" || target == "machine:cobench_machine_control";
    EXPECT_EQ(row.at("is_control").get<bool>(), control);
  }
  EXPECT_EQ(rows, (std::map<std::string, int>{
                      {"bench_checksum", 2}, {"bench_join", 2}, {"bench_topk", 2}, {"machine:cobench_machine_control", 2}}))
      << result.out;
  EXPECT_FALSE(report.at("control").is_null());
  // Where the time went, phase by phase, each phase once and in the job's order.
  std::vector<std::string> phases;
  for (const auto& phase : report.at("phases")) {
    phases.push_back(phase.at("name"));
    EXPECT_GE(phase.at("seconds").get<double>(), 0) << phase.dump();
  }
  EXPECT_EQ(phases, (std::vector<std::string>{"configure", "build", "runs", "machine control", "layouts", "analysis",
                                              "other"}))
      << report.at("phases").dump();
  EXPECT_NE(result.out.find("time: configure "), std::string::npos) << result.out;
}

}  // namespace
}  // namespace cobench::testing
