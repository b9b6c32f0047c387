#include "process/process.h"

#include <csignal>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <thread>

#include <gtest/gtest.h>

#include "process/journal.h"
#include "process/signals.h"
#include "support/testing.h"

namespace cobench::process {
namespace {

Result sh(const std::string& script, double timeout = 0) {
  Command command;
  command.argv = {"sh", "-c", script};
  command.timeout_seconds = timeout;
  return run(command);
}

TEST(Process, CapturesStdoutAndStderrSeparately) {
  auto r = sh("echo out; echo err >&2");
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(Process, ReportsExitStatus) {
  auto r = sh("exit 3");
  EXPECT_EQ(r.outcome, Result::Outcome::Exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(describe(r), "exit status 3");
  EXPECT_EQ(short_cause(r), "exit 3");
}

TEST(Process, ReportsKillingSignalByName) {
  auto r = sh("kill -SEGV $$");
  EXPECT_EQ(r.outcome, Result::Outcome::Signaled);
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_EQ(short_cause(r), "SIGSEGV");
  EXPECT_EQ(describe(r), "killed by SIGSEGV");
}

TEST(Process, TimeoutKillsTheWholeProcessGroup) {
  testing::TempDir dir;
  auto marker = dir / "grandchild-survived";
  // The grandchild would write the marker after 2 s unless its group is killed.
  auto r = sh("(sleep 2; touch '" + marker.string() + "') & sleep 30", 0.3);
  EXPECT_EQ(r.outcome, Result::Outcome::TimedOut);
  EXPECT_LT(r.wall_seconds, 10);
  ::sleep(3);
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(Process, SpawnFailureIsDataNotACrash) {
  Command command;
  command.argv = {"/nonexistent/cobench-no-such-binary"};
  auto r = run(command);
  EXPECT_EQ(r.outcome, Result::Outcome::SpawnFailed);
  EXPECT_NE(r.spawn_error.find("No such file"), std::string::npos) << r.spawn_error;
}

TEST(Process, MissingWorkingDirectoryIsASpawnFailure) {
  Command command;
  command.argv = {"true"};
  command.cwd = "/nonexistent/dir";
  EXPECT_EQ(run(command).outcome, Result::Outcome::SpawnFailed);
}

TEST(Process, PinsChildToTheRequestedCpu) {
  Command command;
  command.argv = {"grep", "Cpus_allowed_list", "/proc/self/status"};
  command.cpu = 0;
  auto r = run(command);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_NE(r.out.find("\t0\n"), std::string::npos) << r.out;
}

TEST(Process, RunsInWorkingDirectoryWithEnvironmentOverrides) {
  testing::TempDir dir;
  Command command;
  command.argv = {"sh", "-c", "pwd; echo \"$COBENCH_TEST_VALUE\""};
  command.cwd = dir.path();
  command.env_overrides = {{"COBENCH_TEST_VALUE", "a b"}};
  auto r = run(command);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.out, dir.path().string() + "\na b\n");
}

TEST(Process, ExplicitEnvironmentReplacesInherited) {
  Command command;
  command.argv = {"/usr/bin/env"};
  command.env = std::vector<std::string>{"ONLY=1"};
  auto r = run(command);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.out, "ONLY=1\n");
}

TEST(Process, RedirectsToFiles) {
  testing::TempDir dir;
  Command command;
  command.argv = {"sh", "-c", "echo hello; echo oops >&2"};
  command.stdout_path = dir / "sub/out.txt";
  command.stderr_path = dir / "sub/err.txt";
  ASSERT_TRUE(run(command).ok());
  EXPECT_EQ(testing::read_text(dir / "sub/out.txt"), "hello\n");
  EXPECT_EQ(testing::read_text(dir / "sub/err.txt"), "oops\n");
}

TEST(Process, MeasuresWallTimeAndRusage) {
  auto r = sh("i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; sleep 0.2");
  ASSERT_TRUE(r.ok());
  EXPECT_GE(r.wall_seconds, 0.2);
  EXPECT_GT(r.user_seconds + r.sys_seconds, 0.0);
  EXPECT_GT(r.max_rss_kib, 0);
}

TEST(Process, CancellationStopsTheChild) {
  signals::install_cancellation_handlers();
  signals::reset_cancellation_for_testing();
  pid_t self = ::getpid();
  Command command;
  command.argv = {"sh", "-c", "sleep 0.2; kill -TERM " + std::to_string(self) + "; sleep 30"};
  auto r = run(command);
  EXPECT_EQ(r.outcome, Result::Outcome::Interrupted);
  EXPECT_TRUE(signals::cancellation_requested());
  EXPECT_EQ(signals::cancellation_signal(), SIGTERM);
  signals::reset_cancellation_for_testing();
}

TEST(Process, NothingStartsOnceACancellationIsPending) {
  testing::TempDir dir;
  signals::install_cancellation_handlers();
  signals::reset_cancellation_for_testing();
  std::raise(SIGTERM);  // CI cancelled the job
  // The spawn journal shows what run() started, whether or not the child got far enough to act.
  const auto journal = dir / "spawned";
  set_spawn_journal(journal);
  Command command;
  command.argv = {"touch", (dir / "started").string()};
  EXPECT_EQ(run(command).outcome, Result::Outcome::Interrupted);
  EXPECT_FALSE(std::filesystem::exists(journal)) << "a process was started after the cancellation";
  EXPECT_FALSE(std::filesystem::exists(dir / "started"));
  // A cleanup command still runs to completion.
  command.stop_on_cancellation = false;
  const auto cleanup = run(command);
  set_spawn_journal({});
  EXPECT_TRUE(cleanup.ok()) << describe(cleanup);
  EXPECT_TRUE(std::filesystem::exists(dir / "started"));
  EXPECT_TRUE(std::filesystem::exists(journal));
  signals::reset_cancellation_for_testing();
}

TEST(Process, KeepsTheHeadAndTailOfAHugeLogAndSaysHowMuchWasCut) {
  testing::TempDir dir;
  Command command;
  // 50 MB on stdout, 1 MB on stderr, and 1 MB into a file of its own like --benchmark_out.
  command.argv = {COBENCH_TEST_CHILD, "spew", "50000000", "1000000", (dir / "own.json").string(), "1000000"};
  command.stdout_path = dir / "logs/run.log";
  command.timeout_seconds = 60;
  auto r = run(command);
  ASSERT_TRUE(r.ok()) << describe(r);  // the child never blocked or died because of the cap
  EXPECT_LT(r.wall_seconds, 30);

  // The default cap: 64 KiB at each end.
  const std::string log = testing::read_text(dir / "logs/run.log");
  EXPECT_LT(log.size(), 2 * 64 * 1024 + 100u);
  EXPECT_EQ(log.substr(0, 5), "HEAD\n");
  EXPECT_EQ(log.substr(log.size() - 5), "TAIL\n");
  EXPECT_NE(log.find("\n[cobench: 49,868,928 bytes cut here]\n"), std::string::npos);

  EXPECT_LT(r.err.size(), 2 * 64 * 1024 + 100u);  // the in-memory capture is bounded alike
  EXPECT_EQ(r.err.substr(0, 5), "HEAD\n");
  EXPECT_EQ(r.err.substr(r.err.size() - 5), "TAIL\n");
  EXPECT_NE(r.err.find("\n[cobench: 868,928 bytes cut here]\n"), std::string::npos);

  EXPECT_EQ(std::filesystem::file_size(dir / "own.json"), 1000000u);  // what the child writes itself is whole
}

TEST(Process, OutputUpToTheCapIsKeptWhole) {
  Command command;
  command.argv = {COBENCH_TEST_CHILD, "spew", std::to_string(2 * 64 * 1024), "10"};
  auto r = run(command);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.out.size(), 2 * 64 * 1024u);
  EXPECT_EQ(r.out.find("cut here"), std::string::npos);
  EXPECT_EQ(r.err, "HEAD\nTAIL\n");
}

TEST(Process, KeepsAllOutputWhenAskedTo) {
  Command command;
  command.argv = {COBENCH_TEST_CHILD, "spew", "1000000", "10"};
  command.keep_output_bytes = 0;  // output that is data, like git's
  auto r = run(command);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.out.size(), 1000000u);
  EXPECT_EQ(r.out.find("cut here"), std::string::npos);
}

TEST(Process, MergedStreamsShareOneCap) {
  Command command;
  command.argv = {COBENCH_TEST_CHILD, "spew", "300000", "300000"};
  command.merge_stderr_into_stdout = true;
  command.keep_output_bytes = 1000;
  auto r = run(command);
  ASSERT_TRUE(r.ok()) << describe(r);
  EXPECT_EQ(r.out.substr(0, 5), "HEAD\n");
  EXPECT_EQ(r.out.substr(r.out.size() - 5), "TAIL\n");
  EXPECT_NE(r.out.find("\n[cobench: 598,000 bytes cut here]\n"), std::string::npos) << r.out;
  EXPECT_TRUE(r.err.empty());
}

TEST(Process, ChildrenGetTheDefaultSigpipeBackWhenCobenchIgnoresIt) {
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);  // as cobench's main() does
  auto r = sh("grep SigIgn /proc/self/status");
  ::sigaction(SIGPIPE, &previous, nullptr);
  ASSERT_TRUE(r.ok()) << describe(r);
  const auto ignored = std::stoull(r.out.substr(r.out.find(':') + 1), nullptr, 16);
  EXPECT_EQ(ignored & (1ull << (SIGPIPE - 1)), 0u) << r.out;
}

/// True while `pid` runs; a zombie waiting for its new parent to reap it counts as gone.
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  const std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto name_end = text.rfind(')');  // "pid (name) S …": the state follows the name
  return name_end != std::string::npos && name_end + 2 < text.size() && text[name_end + 2] != 'Z';
}

/// Runs the child that ignores SIGTERM and leaves a grandchild in a session of
/// its own (then: "hang" or "exit"), and checks that the grandchild did not
/// outlive the run. Where only a process group held the run, skips saying so.
void expect_no_survivor(const std::string& then, double timeout) {
  testing::TempDir dir;
  const auto pid_file = dir / "grandchild.pid";
  Command command;
  command.argv = {COBENCH_TEST_CHILD, "orphan", pid_file.string(), then};
  command.timeout_seconds = timeout;
  command.own_cgroup = true;
  const auto r = run(command);
  ASSERT_TRUE(std::filesystem::exists(pid_file)) << describe(r);
  const pid_t grandchild = std::stoi(testing::read_text(pid_file));
  const bool survived = alive(grandchild);
  if (survived) ::kill(grandchild, SIGKILL);  // never left behind, whatever the verdict
  if (r.containment.rfind("cgroup v2 (", 0) != 0)
    GTEST_SKIP() << "containment was a " << r.containment << (survived ? "; the grandchild survived it" : "");
  EXPECT_FALSE(survived) << "grandchild " << grandchild << " outlived the run in " << r.containment;
}

TEST(Process, TimeoutKillsAGrandchildInANewSessionThatIgnoresSigterm) {
  const auto start = std::chrono::steady_clock::now();
  expect_no_survivor("hang", 0.3);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));  // 0.3 s + 2 s of grace
}

TEST(Process, RunEndKillsAGrandchildInANewSession) { expect_no_survivor("exit", 0); }

TEST(Process, CancellationKillsAGrandchildInANewSession) {
  signals::install_cancellation_handlers();
  signals::reset_cancellation_for_testing();
  std::thread canceller([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ::kill(::getpid(), SIGINT);
  });
  expect_no_survivor("hang", 0);
  canceller.join();
  signals::reset_cancellation_for_testing();
}

TEST(Process, ContainmentSaysCgroupV2OrProcessGroup) {
  const std::string what = containment();
  EXPECT_TRUE(what.rfind("cgroup v2 (/", 0) == 0 || what.rfind("process group", 0) == 0) << what;
  std::cout << "containment here: " << what << "\n";
  Command command;
  command.argv = {"true"};
  EXPECT_EQ(run(command).containment, "process group");  // only asked for
}

TEST(Process, QuotesCommandLinesForMessages) {
  EXPECT_EQ(quote_command_line({"cmake", "--build", "a b", "it's"}), "cmake --build 'a b' 'it'\\''s'");
}

TEST(Process, TailKeepsLastLines) {
  EXPECT_EQ(tail_lines("a\nb\nc\nd\n", 2), "c\nd");
  EXPECT_EQ(tail_lines("a", 5), "a");
  EXPECT_EQ(tail_lines("", 5), "");
}

}  // namespace
}  // namespace cobench::process
