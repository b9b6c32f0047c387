// Issue 23, defects 2-4: nothing of the user's deleted, nothing of a killed
// job left running. The report folder's manifest lists what cobench wrote, as
// it wrote it, so a file someone else put there during a job is not the next
// job's to delete, and a killed job's folder is still recognised as cobench's;
// a --keep job folder is never removed by another job (`cobench clean` does,
// when asked); and a job killed with SIGKILL has its benchmark processes and
// their cgroup stopped and removed by the next job, which says so.
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "job/run_fixture.h"
#include "support/testing.h"

namespace cobench::job {
namespace {

namespace fs = std::filesystem;
using namespace cobench::testing;
using Clock = std::chrono::steady_clock;

struct LeftoversE2E : testing::CommandFixture {
  std::vector<std::string> args(const fs::path& out, const std::string& command, std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {"run",     "--repo",     repo.path().string(), "--base", base, "--out",
                                     out.string(), "--min-runs", "2", "--max-runs", "2", "--runner", "command",
                                     "--no-machine-control", "--command", command};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return argv;
  }
  process::Result run(const fs::path& out, const std::string& command, std::vector<std::string> extra = {}) const {
    return run_cobench(args(out, command, extra), repo.path(), {}, 600);
  }
  std::vector<fs::path> job_folders() const {
    std::vector<fs::path> out;
    for (const auto& entry : fs::directory_iterator(repo.path() / ".cobench"))
      if (entry.path().filename().string().rfind("job-", 0) == 0) out.push_back(entry.path());
    return out;
  }
};

/// Waits until `path` exists and is not empty (up to 5 minutes).
bool wait_for_file(const fs::path& path) {
  const auto until = Clock::now() + std::chrono::minutes(5);
  std::error_code ec;
  while (Clock::now() < until) {
    if (fs::exists(path, ec) && fs::file_size(path, ec) > 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

bool alive(pid_t pid) {
  // A zombie has ended; only its parent (init here) has not reaped it yet.
  std::error_code ec;
  const fs::path stat = fs::path("/proc") / std::to_string(pid) / "stat";
  if (!fs::exists(stat, ec)) return false;
  const std::string text = read_file(stat);
  const size_t close = text.rfind(')');
  return close != std::string::npos && close + 2 < text.size() && text[close + 2] != 'Z';
}

bool gone_within(pid_t pid, std::chrono::seconds limit) {
  const auto until = Clock::now() + limit;
  while (alive(pid) && Clock::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return !alive(pid);
}

/// The cgroup v2 folder a process is in ("" when none is mounted), from /proc/PID/cgroup and mountinfo.
std::string cgroup_of(pid_t pid) {
  const std::string membership = read_file(fs::path("/proc") / std::to_string(pid) / "cgroup");
  const size_t at = membership.find("0::");
  if (at == std::string::npos) return "";
  const std::string group = membership.substr(at + 3, membership.find('\n', at) - at - 3);
  for (const char* mount : {"/sys/fs/cgroup/unified", "/sys/fs/cgroup"}) {
    std::error_code ec;
    if (fs::exists(fs::path(mount) / "cgroup.procs", ec)) return mount + group;
  }
  return "";
}

TEST_F(LeftoversE2E, FilesOthersWriteIntoTheReportFolderDuringAJobSurviveTheNextJob) {
  const fs::path out = dir / "out";
  // The command (not cobench) writes into the report folder while the job runs, with names like cobench's too.
  const std::string writer = "sh -c 'mkdir -p \"$0/runs\"; echo mine > \"$0/mine.txt\"; echo x > \"$0/runs/x-base-1.json\"' " +
                             out.string();
  auto first = run(out, writer);
  ASSERT_EQ(first.exit_code, 0) << explain(first);
  // A file named as cobench names its own that cobench did not write: the next job stops before touching anything.
  auto second = run(out, "true");
  EXPECT_EQ(second.exit_code, 2) << explain(second);
  EXPECT_NE(second.err.find("holds runs/x-base-1.json, which cobench did not write"), std::string::npos) << second.err;
  EXPECT_EQ(read_text(out / "mine.txt"), "mine\n");
  EXPECT_EQ(read_text(out / "runs/x-base-1.json"), "x\n");
  // Moved away by its owner: the next job replaces cobench's own files only.
  fs::rename(out / "runs/x-base-1.json", dir / "x-base-1.json");
  auto third = run(out, "true");
  ASSERT_EQ(third.exit_code, 0) << explain(third);
  EXPECT_EQ(read_text(out / "mine.txt"), "mine\n");
  EXPECT_TRUE(fs::exists(out / "report.md"));

  // --out . (the repository): a source file created during the job is not cobench's either.
  const std::string creator = "sh -c 'echo \"int x;\" > \"$0/new_source.cc\"' " + repo.path().string();
  auto in_repo = run(repo.path(), creator);
  ASSERT_EQ(in_repo.exit_code, 0) << explain(in_repo);
  auto again = run(repo.path(), "true");
  ASSERT_EQ(again.exit_code, 0) << explain(again);
  EXPECT_EQ(read_text(repo.path() / "new_source.cc"), "int x;\n");
  EXPECT_EQ(read_text(repo.path() / "README"), "head\n");
}

TEST_F(LeftoversE2E, AKeptJobFolderOutlivesLaterJobsUntilCobenchCleanRemovesIt) {
  auto kept = run(dir / "out1", "true", {"--keep"});
  ASSERT_EQ(kept.exit_code, 0) << explain(kept);
  ASSERT_EQ(job_folders().size(), 1u);
  const fs::path folder = job_folders().front();
  write_file(folder / "head/checkout/my-edit.txt", "an edit made while looking into the kept folder\n");
  EXPECT_NE((kept.out + kept.err).find("cobench clean"), std::string::npos) << explain(kept);

  auto later = run(dir / "out2", "true");
  ASSERT_EQ(later.exit_code, 0) << explain(later);
  EXPECT_EQ(read_text(folder / "head/checkout/my-edit.txt"), "an edit made while looking into the kept folder\n");
  EXPECT_NE((later.out + later.err).find("cobench clean"), std::string::npos) << explain(later);

  // What clean would remove: listed, nothing removed. A folder of the user's in the work dir is never listed.
  write_file(repo.path() / ".cobench/mine/notes.txt", "mine\n");
  auto listed = run_cobench({"clean", "--repo", repo.path().string(), "--dry-run"});
  ASSERT_EQ(listed.exit_code, 0) << explain(listed);
  EXPECT_NE(listed.out.find(folder.string()), std::string::npos) << listed.out;
  EXPECT_EQ(listed.out.find("mine"), std::string::npos) << listed.out;
  EXPECT_TRUE(fs::exists(folder));

  auto cleaned = run_cobench({"clean", "--repo", repo.path().string()});
  ASSERT_EQ(cleaned.exit_code, 0) << explain(cleaned);
  EXPECT_NE(cleaned.out.find(folder.string()), std::string::npos) << cleaned.out;
  EXPECT_FALSE(fs::exists(folder));
  EXPECT_EQ(read_text(repo.path() / ".cobench/mine/notes.txt"), "mine\n");
  EXPECT_EQ(repo.git({"worktree", "list"}).find(".cobench"), std::string::npos);  // git forgot its worktrees
}

TEST_F(LeftoversE2E, CleanLeavesARunningJobsFolderAlone) {
  const fs::path pid_file = dir / "busy.pid";
  process::Result job;
  std::thread running([&] {
    job = run_cobench(args(dir / "out", "sh -c 'echo $$ > \"$0\"; sleep 600' " + pid_file.string(),
                           {"--run-timeout", "3"}),
                      repo.path(), {}, 600);
  });
  ASSERT_TRUE(wait_for_file(pid_file));
  auto cleaned = run_cobench({"clean", "--repo", repo.path().string()});
  EXPECT_EQ(cleaned.exit_code, 0) << explain(cleaned);
  EXPECT_EQ(job_folders().size(), 1u);  // in use: not cobench clean's to remove
  running.join();
  EXPECT_EQ(job.exit_code, 3) << explain(job);  // every run timed out
}

TEST_F(LeftoversE2E, TheNextJobStopsAKilledJobsBenchmarkAndRemovesItsCgroupAndAcceptsItsReportFolder) {
  const fs::path out = dir / "out";
  const fs::path pid_file = dir / "busy.pid", cobench_pid = dir / "cobench.pid";
  // A busy benchmark: it would hold the CPU the next job pins to.
  const std::string busy = "sh -c 'echo $$ > \"$0\"; while :; do :; done' " + pid_file.string();
  std::vector<std::string> script = {"sh", "-c", "echo $$ > \"$0\"; exec \"$@\"", cobench_pid.string(), cobench_exe()};
  for (const auto& arg : args(out, busy, {"--run-timeout", "600"})) script.push_back(arg);
  process::Result killed;
  std::thread job([&] { killed = process::run_capture(script); });
  ASSERT_TRUE(wait_for_file(pid_file));
  ASSERT_TRUE(wait_for_file(cobench_pid));
  const pid_t orphan = std::stoi(read_text(pid_file));
  struct Reaper {  // never leave it spinning, whatever the test's outcome
    pid_t pid;
    ~Reaper() {
      if (alive(pid)) ::kill(pid, SIGKILL);
    }
  } reaper{orphan};
  const std::string cgroup = cgroup_of(orphan);
  ::kill(std::stoi(read_text(cobench_pid)), SIGKILL);
  job.join();
  ASSERT_EQ(killed.outcome, process::Result::Outcome::Signaled);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_TRUE(alive(orphan)) << "the benchmark died with cobench: nothing left to stop";

  auto next = run(out, "true");  // the killed job's report folder: cobench's own, accepted
  EXPECT_EQ(next.exit_code, 0) << explain(next);
  EXPECT_TRUE(gone_within(orphan, std::chrono::seconds(10))) << "pid " << orphan << " still runs";
  if (!cgroup.empty() && cgroup.find("/cobench-") != std::string::npos) {
    std::error_code ec;
    EXPECT_FALSE(fs::exists(cgroup, ec)) << cgroup;
  }
  const std::string said = next.out + next.err;
  EXPECT_NE(said.find("killed job"), std::string::npos) << said;
  EXPECT_NE(said.find(std::to_string(orphan)), std::string::npos) << said;
}

}  // namespace
}  // namespace cobench::job
