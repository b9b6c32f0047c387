// Issue 10, cases 2-4: cobench never deletes what it did not create. Its
// worktrees and builds live in a job folder of its own inside --work-dir, the
// report folder keeps a manifest of what cobench wrote, and two jobs on one
// repository neither share folders nor write one report folder at once.
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "job/run_fixture.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using cobench::testing::explain;
using cobench::testing::read_text;
using cobench::testing::write_file;
using testing::CommandFixture;
using testing::RunFixture;

/// Quick runs of the unchanged target only.
std::vector<std::string> quick(std::vector<std::string> extra) {
  std::vector<std::string> args = {"--target", "^bench_same$", "--min-runs", "2", "--max-runs", "2", "--alloc-runs", "0"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST(OwnFilesE2E, AnExistingWorkDirKeepsEverythingCobenchDidNotCreate) {
  RunFixture fx;
  const fs::path work = fx.dir / "work";
  for (const char* name : {"base/mine.txt", "head/mine.txt", "base/build/mine.txt", "report/notes.txt"})
    write_file(work / name, "keep me\n");
  auto result = fx.run(quick({"--work-dir", work.string(), "--out", (fx.dir / "out").string()}));
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  for (const char* name : {"base/mine.txt", "head/mine.txt", "base/build/mine.txt", "report/notes.txt"})
    EXPECT_EQ(read_text(work / name), "keep me\n") << name;
  for (const auto& entry : fs::directory_iterator(work))  // the job's own folder is gone
    EXPECT_NE(entry.path().filename().string().rfind("job-", 0), 0u) << entry.path();
}

TEST(OwnFilesE2E, TheRepositoryAsWorkDirLosesNoTrackedFile) {
  RunFixture fx;
  auto result = fx.run(quick({"--work-dir", fx.repo.path().string(), "--out", (fx.dir / "out").string()}));
  ASSERT_EQ(result.exit_code, 0) << explain(result);
  for (const char* name : {"CMakeLists.txt", "slow.cc", "same.cc", "crash.cc", "hang.cc"})
    EXPECT_TRUE(fs::exists(fx.repo.path() / name)) << name;
  EXPECT_EQ(fx.repo.git({"status", "--porcelain"}), "");  // nothing changed, nothing left untracked
}

TEST(OwnFilesE2E, TheReportFolderKeepsTheUsersFilesAndReplacesOnlyCobenchs) {
  RunFixture fx;
  const fs::path out = fx.dir / "out";
  write_file(out / "logs/mine.log", "my log\n");
  write_file(out / "runs/mine.json", "{}\n");
  write_file(out / "README.txt", "my notes\n");
  auto first = fx.run(quick({"--out", out.string()}));
  ASSERT_EQ(first.exit_code, 0) << explain(first);
  ASSERT_TRUE(fs::exists(out / "runs/bench_same-base-1.json"));
  // A second job with fewer runs: the first job's run files go, the user's stay.
  auto second = fx.run({"--target", "^bench_same$", "--min-runs", "2", "--max-runs", "2", "--alloc-runs", "0",
                        "--out", out.string(), "--bench-arg=--benchmark_filter=BM_Same"});
  ASSERT_EQ(second.exit_code, 0) << explain(second);
  EXPECT_EQ(read_text(out / "logs/mine.log"), "my log\n");
  EXPECT_EQ(read_text(out / "runs/mine.json"), "{}\n");
  EXPECT_EQ(read_text(out / "README.txt"), "my notes\n");
  EXPECT_TRUE(fs::exists(out / "report.json"));

  // A report file cobench did not write is never overwritten: the job stops before building.
  const fs::path theirs = fx.dir / "theirs";
  write_file(theirs / "report.md", "# my report\n");
  auto refused = fx.run(quick({"--out", theirs.string()}));
  EXPECT_EQ(refused.exit_code, 2) << explain(refused);
  EXPECT_NE(refused.err.find("holds report.md, which cobench did not write"), std::string::npos) << refused.err;
  EXPECT_EQ(read_text(theirs / "report.md"), "# my report\n");

  // A report folder inside a job folder would be removed with it: refused.
  auto inside = fx.run(quick({"--out", (fx.repo.path() / ".cobench/job-x/report").string()}));
  EXPECT_EQ(inside.exit_code, 2) << explain(inside);
  EXPECT_NE(inside.err.find("inside a job folder"), std::string::npos) << inside.err;
}

TEST(OwnFilesE2E, TwoJobsOnOneRepositoryKeepApartAndNeverShareAReportFolder) {
  RunFixture fx;
  // Two jobs at once, each with its own --out: both finish, each with its own worktrees.
  process::Result a, b;
  std::thread first([&] { a = fx.run(quick({"--out", (fx.dir / "a").string()})); });
  std::thread second([&] { b = fx.run(quick({"--out", (fx.dir / "b").string()})); });
  first.join();
  second.join();
  EXPECT_EQ(a.exit_code, 0) << explain(a);
  EXPECT_EQ(b.exit_code, 0) << explain(b);
  EXPECT_TRUE(fs::exists(fx.dir / "a/report.json"));
  EXPECT_TRUE(fs::exists(fx.dir / "b/report.json"));

  // A second job on the same report folder while the first holds it stops at once, naming the holder.
  const fs::path out = fx.dir / "shared";
  process::Result holder;
  std::thread running([&] { holder = fx.run({"--target", "^bench_same$", "--out", out.string(), "--alloc-runs", "0"}); });
  for (int i = 0; i < 600 && !(fs::exists(out / ".cobench-lock") && !read_text(out / ".cobench-lock").empty()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  auto turned_away = fx.run(quick({"--out", out.string()}));
  running.join();
  EXPECT_EQ(holder.exit_code, 0) << explain(holder);
  EXPECT_EQ(turned_away.exit_code, 2) << explain(turned_away);
  EXPECT_NE(turned_away.err.find("in use by another cobench job (pid "), std::string::npos) << turned_away.err;
}

TEST(OwnFilesE2E, AFileSomeoneWritesWhereABenchmarkWritesItsOutputIsKept) {
  // Found by the confirming retest: runs/*.json, which the benchmark itself writes, was removed
  // before cobench noted the path, so a file of that name put there during the job was replaced
  // (exit 0). Now noted first: the job stops (exit 2) naming it and the file stays.
  RunFixture fx;
  const fs::path out = fx.dir / "out";
  process::Result job;
  std::thread running([&] {
    job = fx.run({"--target", "^bench_same$", "--min-runs", "3", "--max-runs", "3", "--alloc-runs", "0", "--layouts",
                  "1", "--no-machine-control", "--out", out.string()});
  });
  for (int i = 0; i < 12000 && !fs::exists(out / "runs" / "bench_same-base-0.json"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  write_file(out / "runs" / "bench_same-head-2.json", "MINE\n");  // the last run's: runs 0..2 of both sides come first
  running.join();
  EXPECT_EQ(job.exit_code, 2) << explain(job);
  EXPECT_NE(job.err.find("bench_same-head-2.json: appeared while this job ran"), std::string::npos) << job.err;
  EXPECT_EQ(read_text(out / "runs" / "bench_same-head-2.json"), "MINE\n");
}

/// A quick job of the command runner (no build) on `fx`'s repository, writing into `out`.
process::Result command_job(const CommandFixture& fx, const fs::path& out) {
  return cobench::testing::run_cobench({"run", "--repo", fx.repo.path().string(), "--base", fx.base, "--out",
                                        out.string(), "--min-runs", "2", "--max-runs", "2", "--runner", "command",
                                        "--command", "true", "--no-machine-control"});
}

struct OwnFilesCommandE2E : CommandFixture {};

TEST_F(OwnFilesCommandE2E, APreviousJobsFilesAreNotDeletedThroughASymlinkedFolder) {
  const fs::path out = dir / "out";
  auto first = command_job(*this, out);
  ASSERT_EQ(first.exit_code, 0) << explain(first);
  ASSERT_TRUE(fs::exists(out / "logs/commands-base-1.log")) << explain(first);
  // logs/ replaced by a link to a folder of the user's holding a file of the name the manifest lists.
  const fs::path users = dir / "users-folder";
  write_file(users / "commands-base-1.log", "my log, outside --out\n");
  fs::remove_all(out / "logs");
  fs::create_directory_symlink(users, out / "logs");
  auto second = command_job(*this, out);
  EXPECT_EQ(second.exit_code, 2) << explain(second);
  EXPECT_NE(second.err.find("logs is a symbolic link"), std::string::npos) << second.err;
  EXPECT_EQ(read_text(users / "commands-base-1.log"), "my log, outside --out\n");
  EXPECT_EQ(std::distance(fs::directory_iterator(users), fs::directory_iterator()), 1);  // nothing written there
}

TEST_F(OwnFilesCommandE2E, AFileSomeoneWritesWhereTheJobWritesWhileItRunsIsKept) {
  // Found by the hostile retest: files of names cobench writes (a run's log, report.md), put into
  // --out by someone else once the job held it, were overwritten (exit 0). Now the job stops at
  // the first one (exit 2) naming it, and what it measured so far stays in results.jsonl.
  const fs::path out = dir / "out";
  process::Result job;
  std::thread running([&] {
    job = cobench::testing::run_cobench({"run", "--repo", repo.path().string(), "--base", base, "--out", out.string(),
                                         "--min-runs", "3", "--max-runs", "3", "--runner", "command", "--command",
                                         "sleep 0.2", "--no-machine-control"});
  });
  // Once the first run's log is there the job is measuring, past its check of what --out held at the
  // start (beside a CPU hog, a file written as soon as the lock appeared reached that check instead).
  for (int i = 0; i < 600 && !fs::exists(out / "logs" / "commands-base-0.log"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  write_file(out / "logs" / "commands-head-2.log", "MINE\n");  // the last run's: ~1 s of runs before it
  write_file(out / "report.md", "MY REPORT\n");
  running.join();
  EXPECT_EQ(job.exit_code, 2) << explain(job);
  EXPECT_NE(job.err.find("commands-head-2.log: appeared while this job ran and cobench did not write it"),
            std::string::npos) << job.err;
  EXPECT_EQ(read_text(out / "logs" / "commands-head-2.log"), "MINE\n");
  EXPECT_EQ(read_text(out / "report.md"), "MY REPORT\n");
  EXPECT_NE(read_text(out / "results.jsonl").find("\"type\":\"run\""), std::string::npos);
}

TEST_F(OwnFilesCommandE2E, ReportRebuildsItsOwnReportsAndRefusesAUsersReport) {
  const fs::path out = dir / "out";
  auto job = command_job(*this, out);
  ASSERT_EQ(job.exit_code, 0) << explain(job);
  const std::string results = (out / "results.jsonl").string();
  // The job's own folder and a new one: rebuilt, and rebuilt again (cobench wrote them).
  for (const fs::path& folder : {out, dir / "new", dir / "new"}) {
    auto rebuilt = cobench::testing::run_cobench({"report", results, "--out", folder.string()});
    EXPECT_EQ(rebuilt.exit_code, 0) << folder << "\n" << explain(rebuilt);
    EXPECT_TRUE(fs::exists(folder / "report.html")) << folder;
  }
  EXPECT_TRUE(fs::exists(out / "logs/commands-base-1.log"));  // the job's other files stay
  auto defaulted = cobench::testing::run_cobench({"report", results});
  EXPECT_EQ(defaulted.exit_code, 0) << explain(defaulted);
  // As run and merge do: a report cobench did not write is not overwritten.
  const fs::path theirs = dir / "theirs";
  write_file(theirs / "report.md", "# my report\n");
  write_file(theirs / "report.json", "{\"mine\": true}\n");
  auto refused = cobench::testing::run_cobench({"report", results, "--out", theirs.string()});
  EXPECT_EQ(refused.exit_code, 2) << explain(refused);
  EXPECT_NE(refused.err.find("which cobench did not write"), std::string::npos) << refused.err;
  EXPECT_EQ(read_text(theirs / "report.md"), "# my report\n");
  EXPECT_EQ(read_text(theirs / "report.json"), "{\"mine\": true}\n");
  EXPECT_FALSE(fs::exists(theirs / "report.html"));
}

}  // namespace
}  // namespace cobench::job
