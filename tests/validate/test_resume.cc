// Going on with a campaign an earlier sitting left in --out: its jobs come
// back from their report folders, and a summary of another campaign (other
// methods, other flags, jobs where this order does not run them) is refused
// naming the file.
#include <gtest/gtest.h>

#include "core/errors.h"
#include "core/files.h"
#include "support/testing.h"
#include "validate/job_folder.h"
#include "validate/resume.h"
#include "validate/summary.h"

namespace cobench::validate {
namespace {

namespace fs = std::filesystem;

const std::vector<Method> kMethods = {{"shift", {"--control", "bench_aa_join_strings"}},
                                      {"spread", {"--control", "bench_aa_join_strings", "--control-rule", "spread"}}};

Context context_of(const std::string& command, std::vector<std::string> job_args) {
  Context context;
  context.command = command;
  context.host = nlohmann::json::object();
  context.job_args = std::move(job_args);
  context.wall_seconds = 120;
  return context;
}

/// An earlier sitting that finished jobs 1 (shift) and 2 (spread) of job_order(2, ...) into `out`.
void write_earlier_sitting(const fs::path& out, const Context& context, const Fixture& fixture) {
  std::vector<JobResult> jobs;
  for (int index : {1, 2}) {
    write_job_folder(out / "jobs" / fmt::format("{:03}", index));
    JobResult job = read_job(out / "jobs" / fmt::format("{:03}", index));
    job.index = index;
    job.method = index - 1;
    job.wall_seconds = 60 + index;
    jobs.push_back(job);
  }
  write_file_atomic(out / "summary.json", to_json(context, fixture, summarize(fixture, kMethods, jobs)).dump(2));
}

nlohmann::json now(const Context& context, const Fixture& fixture, const std::vector<Method>& methods = kMethods) {
  return to_json(context, fixture, summarize(fixture, methods, {}));
}

std::string refusal(const fs::path& out, const nlohmann::json& summary, const std::vector<int>& order) {
  try {
    read_earlier_sittings(out, summary, order);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Resume, TheEarlierJobsComeBackInRunOrderWithTheirMethodsAndTimes) {
  cobench::testing::TempDir out;
  const Fixture fixture = plan_fixture({});
  const Context first = context_of("cobench validate --out v", {"--bench-arg=--benchmark_min_time=0.05"});
  write_earlier_sitting(out.path(), first, fixture);

  const EarlierSittings earlier = read_earlier_sittings(out.path(), now(first, fixture), job_order(2, 50));
  ASSERT_EQ(earlier.jobs.size(), 2u);
  EXPECT_EQ(earlier.jobs[0].index, 1);
  EXPECT_EQ(earlier.jobs[0].method, 0);
  EXPECT_EQ(earlier.jobs[1].method, 1);
  EXPECT_DOUBLE_EQ(earlier.jobs[1].wall_seconds, 62);
  EXPECT_DOUBLE_EQ(earlier.jobs[1].measuring_seconds, 4.5);  // from its run log, as read_job reads it
  EXPECT_EQ(earlier.jobs[0].verdicts.size(), 2u);
  EXPECT_EQ(earlier.commands, std::vector<std::string>{"cobench validate --out v"});
  EXPECT_DOUBLE_EQ(earlier.wall_seconds, 120);

  // A second resume carries the first sitting along: both commands, both wall times.
  Context second = first;
  second.command = "cobench validate --out v --resume";
  second.resumed_commands = earlier.commands;
  second.resumed_wall_seconds = earlier.wall_seconds;
  second.resumed_jobs = 2;
  write_file_atomic(out / "summary.json",
                    to_json(second, fixture, summarize(fixture, kMethods, earlier.jobs)).dump(2));
  const EarlierSittings again = read_earlier_sittings(out.path(), now(first, fixture), job_order(2, 50));
  EXPECT_EQ(again.commands, (std::vector<std::string>{"cobench validate --out v", "cobench validate --out v --resume"}));
  EXPECT_DOUBLE_EQ(again.wall_seconds, 240);
  EXPECT_EQ(again.jobs.size(), 2u);
  EXPECT_NE(render_markdown(second, fixture, summarize(fixture, kMethods, earlier.jobs))
                .find("- resumed (--resume): 2 jobs from 1 earlier sitting of 2.0 min in all"),
            std::string::npos);
}

TEST(Resume, ATemporaryWorkDirIsNotADifferentCampaignAnotherCommitIs) {
  cobench::testing::TempDir out;
  const Fixture fixture = repository_fixture("/src/suite", "abc");
  write_earlier_sitting(out.path(), context_of("first", {"--work-dir", "/tmp/cobench-validate-AAAAAA/work"}), fixture);
  const Context second = context_of("second", {"--work-dir", "/tmp/cobench-validate-BBBBBB/work"});
  EXPECT_EQ(read_earlier_sittings(out.path(), now(second, fixture), job_order(2, 50)).jobs.size(), 2u);
  const std::string moved = refusal(out.path(), now(second, repository_fixture("/src/suite", "def")), job_order(2, 50));
  EXPECT_NE(moved.find("the repository's commits differ"), std::string::npos) << moved;
  EXPECT_NE(moved.find("\"def\""), std::string::npos) << moved;
}

TEST(Resume, AnotherCampaignsSummaryIsRefusedNamingTheFileAndWhatDiffers) {
  cobench::testing::TempDir out;
  const Fixture fixture = plan_fixture({});
  const Context context = context_of("first", {"--bench-arg=--benchmark_min_time=0.05"});
  const std::string summary = (out / "summary.json").string();
  EXPECT_NE(refusal(out.path(), now(context, fixture), job_order(2, 50)).find(summary + ": not found"),
            std::string::npos);

  write_earlier_sitting(out.path(), context, fixture);
  const std::string methods = refusal(out.path(), now(context, fixture, {kMethods[1], kMethods[0]}), job_order(2, 50));
  EXPECT_NE(methods.find(summary + ": --resume: the methods differ"), std::string::npos) << methods;
  const std::string flags =
      refusal(out.path(), now(context_of("second", {"--bench-arg=--benchmark_min_time=0.5"}), fixture), job_order(2, 50));
  EXPECT_NE(flags.find("every job's flags differ"), std::string::npos) << flags;
  EXPECT_NE(flags.find("--benchmark_min_time=0.5"), std::string::npos) << flags;
  const std::string repository =
      refusal(out.path(), now(context, repository_fixture("/src/suite", "abc")), job_order(2, 50));
  EXPECT_NE(repository.find("differ"), std::string::npos) << repository;
  // A campaign of no jobs has no place for job 1.
  EXPECT_NE(refusal(out.path(), now(context, fixture), job_order(2, 0)).find("job 1 of method 'shift' is not where"),
            std::string::npos);

  fs::remove(out / "jobs" / "002" / "report.json");
  EXPECT_NE(refusal(out.path(), now(context, fixture), job_order(2, 50)).find((out / "jobs" / "002" / "report.json").string()),
            std::string::npos);
  write_file_atomic(out / "summary.json", "{\"tool\": \"validate\"");
  EXPECT_NE(refusal(out.path(), now(context, fixture), job_order(2, 50)).find(summary + ":"), std::string::npos);
}

}  // namespace
}  // namespace cobench::validate
