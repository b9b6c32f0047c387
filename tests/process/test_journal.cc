// The process journal on this machine: what a job started is written down,
// and what it left running (a process that outlived its parent in its process
// group) is found from the journal and stopped, and nothing else.
#include "process/journal.h"

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "core/files.h"
#include "process/process.h"
#include "support/testing.h"

namespace cobench::process {
namespace {

bool alive(pid_t pid) {
  const auto stat = std::filesystem::path("/proc") / std::to_string(pid) / "stat";
  std::error_code ec;
  if (!std::filesystem::exists(stat, ec)) return false;
  const std::string text = read_file(stat);
  return text[text.rfind(')') + 2] != 'Z';
}

TEST(Journal, WhatAJobLeftRunningInItsProcessGroupIsStoppedAndNothingElse) {
  cobench::testing::TempDir dir;
  const auto journal = dir / "processes";
  set_spawn_journal(journal);
  // The shell ends at once; the sleep it started stays in its process group, as a benchmark's child does.
  const Result left = run_capture({"sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"});
  set_spawn_journal({});
  const Result unrelated = run_capture({"sh", "-c", "sleep 300 >/dev/null 2>&1 & echo $!"});  // not journaled
  ASSERT_TRUE(left.ok());
  const pid_t orphan = std::stoi(left.out), other = std::stoi(unrelated.out);
  ASSERT_TRUE(alive(orphan));
  EXPECT_FALSE(read_file(journal).empty());

  const Stopped stopped = stop_journaled(journal);
  ASSERT_EQ(stopped.processes.size(), 1u);
  EXPECT_EQ(stopped.processes[0], std::to_string(orphan) + " (sleep)");
  for (int i = 0; i < 500 && alive(orphan); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_FALSE(alive(orphan));
  EXPECT_TRUE(alive(other));
  ::kill(other, SIGKILL);
  EXPECT_TRUE(stop_journaled(journal).processes.empty());  // nothing left: nothing stopped twice
  EXPECT_TRUE(stop_journaled(dir / "missing").processes.empty());
}

TEST(Journal, APidTakenByAnotherProcessSinceIsNotTouched) {
  cobench::testing::TempDir dir;
  // A line as a job would have written for this very process, with another start time: its pid was reused.
  const auto start = start_time(::getpid());
  ASSERT_TRUE(start.has_value());
  write_file_atomic(dir / "processes", std::to_string(::getpid()) + " " + std::to_string(*start + 1) + " \n");
  EXPECT_TRUE(stop_journaled(dir / "processes").processes.empty());
}

}  // namespace
}  // namespace cobench::process
